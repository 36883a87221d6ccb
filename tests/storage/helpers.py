"""Helpers shared by the ledger tests."""

from __future__ import annotations

import asyncio
import tempfile
from datetime import datetime, timedelta
from types import ModuleType
from typing import Any

import pytest
from hypothesis.stateful import RuleBasedStateMachine
from sqlalchemy import func, select

from storage.ledger import Ledger, now
from storage.models import NightInfo, PlayerRef
from storage.queues import inbox, outbox
from storage.queues import leases as pipeline
from storage.queues import messages as delivery
from storage.sql import tables as t
from tests.storage.conftest import drop_schema, make_ledger


class Clock:
    """A clock that stands still until advanced."""

    def __init__(self) -> None:
        self.at = now()

    def __call__(self) -> datetime:
        return self.at

    def advance(self, seconds: float) -> None:
        self.at += timedelta(seconds=seconds)


def pipeline_clock(monkeypatch: pytest.MonkeyPatch, *also: ModuleType) -> Clock:
    """A :class:`Clock` in place of the pipeline's clock, and of ``also``'s ``now``."""
    fake = Clock()
    for module in (delivery, inbox, outbox, pipeline, *also):
        monkeypatch.setattr(module, "now", fake)
    return fake


SEATED = [PlayerRef(name="alice", telegram_id=1), PlayerRef(name="bob", telegram_id=2),
          PlayerRef(name="carol"), PlayerRef(name="dave", telegram_id=4)]


def win(how: str, winner: str, from_seat: str | None = None, **kw: Any) -> dict[str, Any]:
    ev: dict[str, Any] = {"type": "win", "how": how, "winner": winner, **kw}
    if from_seat:
        ev["from_seat"] = from_seat
    return ev


async def going(ledger: Ledger, chat_id: int) -> NightInfo:
    """The chat's open table (the test fails when there is none)."""
    night = await ledger.open_nights.current_night(chat_id)
    assert night is not None, "no table is going"
    return night


async def assert_books_balance(ledger: Ledger, chat_ids: list[int]) -> None:
    """Zero per event, hand, night and chat; totals equal the entries they summarise."""
    e, tc = t.entries.c, t.totals.c
    async with ledger.read() as conn:
        for group in ([e.hand_id, e.event_index], [e.hand_id], [e.night_id], [e.chat_id]):
            bad = (await conn.execute(select(*group, func.sum(e.delta)).group_by(*group)
                                      .having(func.sum(e.delta) != 0))).all()
            assert not bad, (group, bad)
        sums = dict((await conn.execute(select(e.player_id, func.sum(e.delta))
                                         .group_by(e.player_id))).tuples().all())
        for row in (await conn.execute(select(t.totals))).all():
            assert row.net == sums.get(row.player_id, 0), row
        by_night = {(sid, pid): net for sid, pid, net in (await conn.execute(
            select(e.night_id, e.player_id, func.sum(e.delta))
            .group_by(e.night_id, e.player_id))).all()}
        for s in (await conn.execute(select(t.nights))).all():
            for seat in "eswn":  # the night's running nets equal its entries
                expected = by_night.get((s.id, getattr(s, f"seat_{seat}")), 0)
                assert getattr(s, f"net_{seat}") == expected, (s.id, seat)
        hp = t.hand_players.c
        counts = dict((await conn.execute(select(hp.player_id, func.count())
                                           .group_by(hp.player_id))).tuples().all())
        for row in (await conn.execute(select(tc.player_id, tc.hands))).all():
            assert row.hands == counts.get(row.player_id, 0), row
        for chat_id in chat_ids:
            total = (await conn.execute(select(func.coalesce(func.sum(e.delta), 0))
                                        .where(e.chat_id == chat_id))).scalar_one()
            assert total == 0


class LedgerMachine(RuleBasedStateMachine):
    """A hypothesis state machine over a ledger of its own on ``backend``: its synchronous
    rules run the ledger's coroutines on a loop of its own (``run``)."""

    backend = "sqlite"

    def __init__(self) -> None:
        super().__init__()
        self.loop = asyncio.new_event_loop()
        self.tmp = tempfile.TemporaryDirectory()
        self.ledger, self.schema = self.loop.run_until_complete(
            make_ledger(self.backend, self.tmp.name))

    def run(self, coro: Any) -> Any:
        return self.loop.run_until_complete(coro)

    def teardown(self) -> None:
        self.run(self.ledger.close())
        self.run(drop_schema(self.schema))
        self.loop.close()
        self.tmp.cleanup()
