"""Every transcript on the handler tier: the nights' logic without the delivery around it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bot.harness import play_transcript
from tests.bot.test_transcripts import LANGUAGE, TRANSCRIPTS
from tests.handlers.harness import handler_table


@pytest.mark.parametrize("path", TRANSCRIPTS, ids=[p.stem for p in TRANSCRIPTS])
async def test_transcript(path: Path, tmp_path: Path) -> None:
    async with handler_table(tmp_path, lang=LANGUAGE.get(path.stem, "en")) as t:
        assert await play_transcript(t, path) >= 5
        # Every call the handlers made is one Telegram would take.
        assert t.api.errors == [], t.api.errors
