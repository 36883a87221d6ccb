"""MCR fan names: a Chinese chat reads them in Chinese alone, an English chat in English with
the Chinese beside, in answers, /score mcr and /rules."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engine.mcr.fans import FANS
from tests.bot.harness import plain
from tests.handlers.harness import handler_table

ENGLISH = [f.en for f in FANS.values()]


@pytest.mark.parametrize("lang", ["zh-Hans", "zh-Hant", "en"])
async def test_fan_names_in_the_chat_language(tmp_path: Path, lang: str) -> None:
    async with handler_table(tmp_path, lang) as t:
        said: list[Any] = []
        await t.say("alice", "/new 国标 alice bob carol dave")
        said += await t.say("bob", "/hu bob from carol 吃123m 55m 456p 23789s +4s")
        said += await t.say("carol", "/score mcr 碰东东东@W 55m 456p 789s 33s +3s 自摸 花2")
        said += await t.say("alice", "/rules")
        text = "\n".join(plain(m.text) for m in said)
        named = [en for en in ENGLISH if en in text]
        if lang == "en":
            assert "Mixed Straight" in text and "Prevalent Wind" in text, text
        else:
            assert named == [], (named, text)
            assert ("花龙" if lang == "zh-Hans" else "花龍") in text, text
        # /rules lists all 81 (大四喜 is in no hand here); so does the English, beside.
        assert "Big Four Winds" in text if lang == "en" else "四喜" in text, text
