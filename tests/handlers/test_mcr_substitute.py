"""/seat in an MCR match: a substitute plays for the seat. /end ranks the four seats by the
table points earned in each (the seat's rank points go to the player whose seat it is),
each player keeps their own table points, and /standings over two matches (one with the
change) names everyone who played, with table points adding up to zero."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from tests.bot.harness import plain
from tests.databases import BACKENDS
from tests.handlers.harness import handler_table_on as table_on


def _text(said: Sequence[Any]) -> str:
    return "\n".join(plain(m.text) for m in said)


@pytest.mark.parametrize("backend", BACKENDS)
async def test_a_substitute_plays_for_the_seat(backend: str, tmp_path: Path) -> None:
    async with table_on(backend, tmp_path, "en", "mcr_substitute") as t:
        await t.say("alice", "/new mcr alice bob carol dave")
        await t.say("dave", "/hu dave 自摸 80番")  # dave +264, the others -88
        await t.say("alice", "/seat dave erin")
        await t.say("alice", "/hu erin from alice 8番")  # erin +32, alice -16, bob carol -8
        ended = _text(await t.say("alice", "/end"))
        assert "Rank points (4 2 1 0, ties shared), then table points:" in ended, ended
        for row in ("dave: 4 rank, 264 table", "bob: 1.5 rank, -96 table",
                    "carol: 1.5 rank, -96 table", "alice: 0 rank, -104 table",
                    "erin: 0 rank, 32 table"):
            assert row in ended, (row, ended)
        await t.say("alice", "/new mcr alice bob carol dave")
        await t.say("alice", "/hu alice from bob 8番")  # alice +32, bob -16, carol dave -8
        await t.say("alice", "/end")
        standings = _text(await t.say("alice", "/standings"))
        block = standings[standings.index("Matches (国标麻将, 2)"):].splitlines()[1:]
        assert block == ["  dave: 5.5 rank, 256 table", "  alice: 4 rank, -72 table",
                         "  carol: 3 rank, -104 table", "  bob: 1.5 rank, -112 table",
                         "  erin: 0 rank, 32 table"], standings
        assert 256 - 72 - 104 - 112 + 32 == 0
