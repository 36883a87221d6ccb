"""Random sequences of record, undo, void and amend never unbalance the books."""

from __future__ import annotations

import contextlib
import random
from typing import Any

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import initialize, invariant, rule

from engine.errors import ReportError
from storage.errors import LedgerError
from tests.storage.conftest import PG_URL
from tests.storage.helpers import SEATED, LedgerMachine, assert_books_balance

CHATS = [-1, -2]
SEATS = ["E", "S", "W", "N"]


def _event(rng: random.Random) -> dict[str, Any]:
    winner = rng.choice(SEATS)
    if rng.random() < 0.5:
        return {"type": "win", "how": "self_draw", "winner": winner,
                "patterns": rng.choice([[], ["清一色"], ["七对"]])}
    payer = rng.choice([s for s in SEATS if s != winner])
    return {"type": "win", "how": "discard", "winner": winner, "from_seat": payer}


class TwoTables(LedgerMachine):
    """Two tables of different rules: records, undos, voids and amends in any order keep
    the books balanced."""

    @initialize()
    def open_tables(self) -> None:
        self.run(self.ledger.open_nights.open_night(CHATS[0], SEATED, preset="chengdu"))
        self.run(self.ledger.open_nights.open_night(CHATS[1], SEATED, preset="changsha"))

    @rule(chat=st.sampled_from(CHATS), seed=st.integers(0, 10**6))
    def record(self, chat: int, seed: int) -> None:
        # A refusal (e.g. the discarder already won) must change nothing.
        with contextlib.suppress(ReportError, LedgerError):
            self.run(self.ledger.hands.record(chat, _event(random.Random(seed))))

    @rule(chat=st.sampled_from(CHATS))
    def undo(self, chat: int) -> None:
        with contextlib.suppress(LedgerError):
            self.run(self.ledger.corrections.undo(chat, allow_others=True))

    @rule(chat=st.sampled_from(CHATS), number=st.integers(1, 6))
    def void(self, chat: int, number: int) -> None:
        with contextlib.suppress(LedgerError):
            self.run(self.ledger.corrections.void(chat, number))

    @rule(chat=st.sampled_from(CHATS), number=st.integers(1, 6), seed=st.integers(0, 10**6))
    def amend(self, chat: int, number: int, seed: int) -> None:
        with contextlib.suppress(ReportError, LedgerError):
            self.run(self.ledger.corrections.amend(chat, number, [_event(random.Random(seed))]))

    @invariant()
    def books_balance(self) -> None:
        self.run(assert_books_balance(self.ledger, CHATS))

    @invariant()
    def night_totals_are_zero_sum(self) -> None:
        for chat in CHATS:
            s = self.run(self.ledger.open_nights.current_night(chat))
            if s is not None:
                assert sum(s.totals.values()) == 0


TestLedgerSQLite = TwoTables.TestCase
TestLedgerSQLite.settings = settings(max_examples=25, stateful_step_count=15, deadline=None)


class PostgresMachine(TwoTables):
    backend = "postgres"


TestLedgerPostgres = pytest.mark.skipif(
    not PG_URL, reason="PostgreSQL tests need TALLY_TEST_POSTGRES_URL (.ci/run sets it)"
)(PostgresMachine.TestCase)
TestLedgerPostgres.settings = settings(max_examples=10, stateful_step_count=12, deadline=None)
