"""Whole nights, one per preset, played through real polling against the fake Bot API."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bot.harness import play_transcript, table
from tests.databases import PG_URL, postgres_database

TRANSCRIPTS = sorted((Path(__file__).parent / "transcripts").glob("*.txt"))
LANGUAGE = {"feibao": "zh-hans", "yibin": "zh-hans", "liangfang": "zh-hans",
            "night_twice_zh": "zh-hans", "night_stake_zh": "zh-hans",
            "night_penalty_zh": "zh-hans", "night_edit_zh": "zh-hans",
            "night_seat_zh": "zh-hans", "players_words_zh": "zh-hans", "hints_zh": "zh-hans"}


@pytest.mark.parametrize("path", TRANSCRIPTS, ids=[p.stem for p in TRANSCRIPTS])
async def test_transcript(path: Path, tmp_path: Path) -> None:
    async with table(tmp_path, lang=LANGUAGE.get(path.stem, "en")) as t:
        checks = await play_transcript(t, path)
        assert checks >= 5
        # The bot never made a call Telegram would refuse.
        assert t.api.errors == [], t.api.errors


@pytest.mark.skipif(not PG_URL, reason="PostgreSQL tests need TALLY_TEST_POSTGRES_URL")
@pytest.mark.parametrize("path", TRANSCRIPTS, ids=[p.stem for p in TRANSCRIPTS])
async def test_transcript_on_postgresql(path: Path, tmp_path: Path) -> None:
    """The same nights with the ledger on PostgreSQL."""
    async with postgres_database("night") as url, \
            table(tmp_path, lang=LANGUAGE.get(path.stem, "en"), url=url) as t:
        assert await play_transcript(t, path) >= 5
        assert t.api.errors == [], t.api.errors


def test_one_transcript_per_preset() -> None:
    from engine.rules import presets

    assert {p.stem for p in TRANSCRIPTS} >= set(presets())
