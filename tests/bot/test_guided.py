"""The guided report, per preset: whole nights by buttons score as the same nights typed."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bot.guided_play import play
from tests.bot.harness import table

NIGHTS = sorted((Path(__file__).parent / "transcripts" / "buttons").glob("*.txt"))


@pytest.mark.parametrize("path", NIGHTS, ids=[p.stem for p in NIGHTS])
async def test_night_by_buttons_scores_as_typed(path: Path, tmp_path: Path) -> None:
    async with table(tmp_path / "buttons") as t:
        tapped = await play(t, path, typed=False)
        assert t.api.errors == [], t.api.errors
    async with table(tmp_path / "typed") as t:
        typed = await play(t, path, typed=True)
        assert t.api.errors == [], t.api.errors
    assert tapped.totals == typed.totals
    assert tapped.checks >= 2
