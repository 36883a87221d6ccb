"""Every transcript on the handler tier: the nights' logic without the delivery around it.

A Chinese transcript's replies are also checked for English and ASCII punctuation as they
come (tests/bot/test_language.py's ``check``, as tests/handlers/test_chinese_words.py
checks every other transcript played in Chinese): one night played for both, as the
transcript and the Chinese check would play it alike."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.console.fake_api import FakeBotAPI, FakeUser, SentMessage
from tests.bot.harness import play_transcript
from tests.bot.test_language import check
from tests.bot.test_transcripts import LANGUAGE, TRANSCRIPTS
from tests.handlers.harness import HandlerTable, handler_table

CHINESE = [p for p in TRANSCRIPTS if LANGUAGE.get(p.stem) == "zh-hans"]


class Checked:
    """A table whose every reply, to what is said or pressed, is checked for English and
    ASCII punctuation (what was typed aside), as test_chinese_words plays a night."""

    def __init__(self, t: HandlerTable, name: str) -> None:
        self.t, self.name, self.seen = t, name, 0
        self.api: FakeBotAPI = t.api
        self.chat_id: int = t.chat_id

    def user(self, name: str) -> FakeUser:
        return self.t.user(name)

    async def settle(self, update_id: int) -> None:
        await self.t.settle(update_id)

    def admin(self, name: str) -> None:
        self.t.admin(name)

    @property
    def ledger(self) -> Any:
        return self.t.ledger

    def last_with_buttons(self) -> SentMessage:
        return self.t.last_with_buttons()

    async def say(self, who: str, text: str) -> list[SentMessage]:
        replies = await self.t.say(who, text)
        check(replies, text, f"{self.name}: @{who}: {text}")
        self.seen += len(replies)
        return replies

    async def press(self, who: str, message: SentMessage, data: str) -> list[SentMessage]:
        replies = await self.t.press(who, message, data)
        check(replies, "", f"{self.name}: @{who} pressed {data}")
        self.seen += len(replies)
        return replies


@pytest.mark.parametrize("path", TRANSCRIPTS, ids=[p.stem for p in TRANSCRIPTS])
async def test_transcript(path: Path, tmp_path: Path) -> None:
    async with handler_table(tmp_path, lang=LANGUAGE.get(path.stem, "en")) as t:
        if path in CHINESE:
            checked = Checked(t, path.name)
            assert await play_transcript(checked, path) >= 5
            assert checked.seen >= 5
            # Edited messages (Details, the board) are checked as they stand at the end.
            check(t.api.outbox, "", f"{path.name}: final messages")
        else:
            assert await play_transcript(t, path) >= 5
        # Every call the handlers made is one Telegram would take.
        assert t.api.errors == [], t.api.errors
