"""Whole nights, one per preset, played through real polling against the fake Bot API.

Their logic runs on the handler tier too (tests/handlers/test_transcripts_fast.py, on
SQLite). Here the whole stack plays them where a deployment keeps its ledger: on PostgreSQL
when TALLY_TEST_POSTGRES_URL is set (CI), else on SQLite; and every call the bot made is
one Telegram would take."""

from __future__ import annotations

from contextlib import AsyncExitStack
from pathlib import Path

import pytest

from tests.bot.harness import play_transcript, table
from tests.databases import PG_URL, postgres_database

TRANSCRIPTS = sorted((Path(__file__).parent / "transcripts").glob("*.txt"))
LANGUAGE = {"feibao": "zh-hans", "yibin": "zh-hans", "liangfang": "zh-hans",
            "night_twice_zh": "zh-hans", "night_stake_zh": "zh-hans",
            "night_penalty_zh": "zh-hans", "night_edit_zh": "zh-hans",
            "night_seat_zh": "zh-hans", "players_words_zh": "zh-hans", "hints_zh": "zh-hans",
            "singapore_zh": "zh-hans", "free_zh": "zh-hans",
            "mcr_zh": "zh-hans", "mcr_match_zh": "zh-hans", "hongkong_zh": "zh-hans",
            "words_zh": "zh-hans", "stake_board_zh": "zh-hans",
            "patterns_zh": "zh-hans"}


@pytest.mark.parametrize("path", TRANSCRIPTS, ids=[p.stem for p in TRANSCRIPTS])
async def test_transcript(path: Path, tmp_path: Path) -> None:
    async with AsyncExitStack() as stack:
        url = await stack.enter_async_context(postgres_database("night")) if PG_URL else None
        t = await stack.enter_async_context(
            table(tmp_path, lang=LANGUAGE.get(path.stem, "en"), url=url))
        assert await play_transcript(t, path) >= 5
        # The bot never made a call Telegram would refuse.
        assert t.api.errors == [], t.api.errors


def test_one_transcript_per_preset() -> None:
    from engine.rules import presets

    assert {p.stem for p in TRANSCRIPTS} >= set(presets())
