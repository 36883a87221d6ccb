"""An MCR table is a match of 16 hands, in the ledger, on both backends: once the 16th
hand is played nothing more is recorded into the match (a win, a draw, a penalty, an
adjustment), until /undo takes the 16th hand back."""

from __future__ import annotations

from typing import Any

import pytest

from engine.mcr import match
from storage.errors import LedgerError
from storage.ledger import Ledger
from storage.models import PlayerRef
from tests.storage.helpers import SEATED, assert_books_balance, going

CHAT = -7341
DRAW: dict[str, Any] = {"type": "wall_end"}
LATE: list[dict[str, Any]] = [
    {"type": "win", "how": "discard", "from_seat": "W",
     "winners": [{"seat": "S", "mcr": {"fan": 8}}]},
    DRAW,
    {"type": "penalty", "seat": "E", "kind": "false_win"},
    {"type": "adjust", "deltas": {"E": -5, "S": 5}},
]


async def test_no_hand_after_the_sixteenth(ledger: Ledger) -> None:
    await ledger.open_nights.open_night(CHAT, SEATED, preset="mcr")
    await ledger.hands.record(CHAT, LATE[0], reporter=2)
    for _ in range(15):
        await ledger.hands.record(CHAT, DRAW, reporter=1)
    played = await going(ledger, CHAT)
    assert played.hands == 16 and played.open_hand is None
    for event in LATE:
        with pytest.raises(LedgerError) as err:
            await ledger.hands.record(CHAT, event, reporter=1)
        assert err.value.code == "mcr_match_over"
    after = await going(ledger, CHAT)
    assert after.hands == 16 and after.totals == played.totals
    # /undo takes the 16th hand back: it may be recorded again, and then no 17th.
    await ledger.corrections.undo(CHAT, actor=1)
    assert (await going(ledger, CHAT)).hands == 15
    assert (await ledger.hands.record(CHAT, DRAW, reporter=1)).hand_number == 16
    with pytest.raises(LedgerError):
        await ledger.hands.record(CHAT, DRAW, reporter=1)
    await assert_books_balance(ledger, [CHAT])


async def test_a_substitute_plays_for_the_seat(ledger: Ledger) -> None:
    """/seat dave erin in a match: the seat's table points (dave's and erin's) give its
    place, whose rank points are dave's (his seat); each keeps their own table points."""
    await ledger.open_nights.open_night(CHAT, SEATED, preset="mcr")
    await ledger.hands.record(CHAT, {"type": "win", "how": "self_draw", "winners": [
        {"seat": "N", "mcr": {"fan": 80}}]}, reporter=4)  # dave +264, the others -88
    await ledger.open_nights.change_seat(CHAT, "dave", PlayerRef(name="erin"), actor=1)
    await ledger.hands.record(CHAT, {"type": "win", "how": "discard", "from_seat": "E",
                                     "winners": [{"seat": "N", "mcr": {"fan": 8}}]},
                              reporter=1)  # erin +32: alice -16, bob and carol -8
    summary = await ledger.nights.end_night(CHAT, actor=1)
    ids = {p.name: pid for pid, p in summary.players.items()}
    assert summary.seat_points == {
        "E": {ids["alice"]: -104}, "S": {ids["bob"]: -96}, "W": {ids["carol"]: -96},
        "N": {ids["dave"]: 264, ids["erin"]: 32}}
    assert list(summary.seat_points["N"]) == [ids["dave"], ids["erin"]]  # his seat first
    assert sum(summary.nets.values()) == 0 and summary.nets[ids["dave"]] == 264
    # A second match without a change: alice wins 8 off bob.
    await ledger.open_nights.open_night(CHAT, SEATED, preset="mcr")
    await ledger.hands.record(CHAT, {"type": "win", "how": "discard", "from_seat": "S",
                                     "winners": [{"seat": "E", "mcr": {"fan": 8}}]},
                              reporter=1)
    await ledger.nights.end_night(CHAT, actor=1)
    games = await ledger.lookback.match_games(CHAT, ("mcr",))
    assert games == [
        [("alice", {"alice": -104}), ("bob", {"bob": -96}), ("carol", {"carol": -96}),
         ("dave", {"dave": 264, "erin": 32})],
        [("alice", {"alice": 32}), ("bob", {"bob": -16}), ("carol", {"carol": -8}),
         ("dave", {"dave": -8})]]
    rows = match.standings(games)
    # First: dave's seat first (4), bob and carol tied second (3/2 each), alice 0; second:
    # alice 4, carol and dave tied second (3/2 each), bob 0. erin played for dave's seat:
    # no rank points of her own, her 32 table points hers.
    assert rows == [("dave", 66, 256), ("alice", 48, -72), ("carol", 36, -104),
                    ("bob", 18, -112), ("erin", 0, 32)]
    assert sum(p for _, _, p in rows) == 0 and sum(r for _, r, _ in rows) == 2 * 84
    standings = await ledger.lookback.standings(CHAT)
    assert sum(s.net for s in standings) == 0
    assert {s.player.name: s.net for s in standings} == {n: p for n, _, p in rows}
    await assert_books_balance(ledger, [CHAT])
