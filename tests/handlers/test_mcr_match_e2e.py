"""A whole MCR match (国标麻将, 16 hands) through the real handlers on both backends, in English
and in Chinese: hands typed and by buttons, false wins (错和), a referee's fines typed and
by buttons, the seats changing between rounds, no 17th hand (and /undo of the 16th), then
/end's rank points with ties, a second match and /standings over both. The transcripts are
tests/bot/transcripts/mcr_match*.txt; here each also runs on SQLite and on PostgreSQL, and
the ledger is checked where the transcript cannot see it. (Nothing here is delivery's: the
full stack plays these transcripts in tests/bot/test_transcripts.py.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.text.render_mcr import mcr_presets
from engine.mcr import match
from tests.bot.harness import play_transcript
from tests.databases import BACKENDS
from tests.handlers.harness import handler_table_on as table_on

TRANSCRIPTS = Path(__file__).parent.parent / "bot" / "transcripts"


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(("name", "lang"), [("mcr_match", "en"), ("mcr_match_zh", "zh-hans")])
async def test_a_whole_match_on_each_backend(tmp_path: Path, backend: str, name: str,
                                             lang: str) -> None:
    async with table_on(backend, tmp_path, lang, name) as t:
        assert await play_transcript(t, TRANSCRIPTS / f"{name}.txt") >= 20
        assert t.api.errors == [], t.api.errors
        games = await t.ledger.lookback.match_games(t.chat_id, mcr_presets())
        # The first match: 16 hands, the fines inside its table points, two ties.
        first, second = games
        assert first == [("alice", {"alice": -62}), ("bob", {"bob": 62}),
                         ("carol", {"carol": 62}), ("dave", {"dave": -62})]
        assert match.rank_points([-62, 62, 62, -62]) == [6, 36, 36, 6]  # 0.5 3 3 0.5
        assert second == [("alice", {"alice": -8}), ("bob", {"bob": -8}),
                          ("carol", {"carol": -16}), ("dave", {"dave": 32})]
        assert match.standings(games) == [("bob", 54, 54), ("dave", 54, -30),
                                          ("carol", 36, 46), ("alice", 24, -70)]
        ended = await t.ledger.lookback.standings(t.chat_id)
        assert sum(s.net for s in ended) == 0
