"""An MCR table is a match of 16 hands, in the ledger, on both backends: once the 16th
hand is played nothing more is recorded into the match (a win, a draw, a penalty, an
adjustment), until /undo takes the 16th hand back."""

from __future__ import annotations

from typing import Any

import pytest

from storage.errors import LedgerError
from storage.ledger import Ledger
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
    await ledger.sessions.open_session(CHAT, SEATED, preset="mcr")
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
