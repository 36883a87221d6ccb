"""The batching writer: several chats' writes in one transaction, each failing alone."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import pytest
from sqlalchemy import event, func, select
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from storage.ledger import Ledger
from storage.sql import tables as t
from storage.sql.unit_of_work import deferring, later
from tests.storage.helpers import SEATED, assert_books_balance, win

CHATS = [-100 - i for i in range(8)]


def _audit(conn: Connection, chat_id: int, action: str) -> str:
    conn.execute(t.audit.insert().values(chat_id=chat_id, action=action,
                                         at=datetime.now(UTC)))
    return action


def _actions(conn: Connection) -> list[str]:
    return sorted(conn.execute(select(t.audit.c.action)).scalars())


async def test_several_chats_reports_share_a_transaction_and_keep_their_results(
        ledger: Ledger) -> None:
    for chat in CHATS:
        await ledger.open_nights.open_night(chat, SEATED, preset="chengdu")
    writer = ledger._writer
    assert len(CHATS) > writer.batch_from
    before = writer.batches, writer.units
    event = win("self_draw", "S")
    outcomes = await asyncio.gather(*(ledger.hands.record(chat, event) for chat in CHATS))
    batches, units = writer.batches - before[0], writer.units - before[1]
    assert units == len(CHATS)
    assert batches < units  # they queued behind the first and went in together
    # Each its own outcome.
    assert [o.night.chat_id if o.night else None for o in outcomes] == CHATS
    assert all(o.hand_number == 1 for o in outcomes)
    async with ledger.read() as conn:
        hands = (await conn.execute(select(func.count()).select_from(t.hands))).scalar_one()
    assert hands == len(CHATS)


async def test_a_short_queue_commits_each_unit_on_its_own(ledger: Ledger) -> None:
    writer = ledger._writer
    before = writer.batches, writer.units
    jobs = [ledger.run(_audit, -1, a, write=True, batch=True)
            for a in "abc"[:writer.batch_from - 1]]
    assert await asyncio.gather(*jobs) == list("abc"[:writer.batch_from - 1])
    assert writer.batches - before[0] == writer.units - before[1] == len(jobs)


async def test_a_unit_that_raises_fails_alone(ledger: Ledger) -> None:
    ledger._writer.batch_from = 2  # these three go in one transaction

    def broken(conn: Connection) -> None:
        _audit(conn, -1, "half")
        raise RuntimeError("bad unit")

    jobs = [ledger.run(_audit, -1, "a", write=True, batch=True),
            ledger.run(broken, write=True, batch=True),
            ledger.run(_audit, -1, "b", write=True, batch=True)]
    results = await asyncio.gather(*jobs, return_exceptions=True)
    assert results[0] == "a" and results[2] == "b"
    assert isinstance(results[1], RuntimeError)
    assert await ledger.run(_actions, write=False) == ["a", "b"]


async def test_a_caller_gone_before_its_turn_writes_nothing(ledger: Ledger) -> None:
    first = asyncio.ensure_future(ledger.run(_audit, -1, "first", write=True, batch=True))
    gone = asyncio.ensure_future(ledger.run(_audit, -1, "gone", write=True, batch=True))
    await asyncio.sleep(0)  # both queued; the first is being written
    gone.cancel()
    assert await first == "first"
    with pytest.raises(asyncio.CancelledError):
        await gone
    await ledger.run(_audit, -1, "last", write=True, batch=True)
    assert await ledger.run(_actions, write=False) == ["first", "last"]


async def test_an_urgent_write_goes_before_the_queue_alone(ledger: Ledger) -> None:
    """The inbox's write (the next getUpdates waits on it) does not queue behind reports."""
    writer = ledger._writer
    queued = [asyncio.ensure_future(ledger.run(_audit, -1, a, write=True, batch=True))
              for a in "abcdef"]
    urgent = [asyncio.ensure_future(ledger.run(_audit, -1, u, write=True, urgent=True))
              for u in "UV"]
    before = writer.batches
    await asyncio.gather(*queued, *urgent)
    order = await ledger.run(lambda conn: list(conn.execute(
        select(t.audit.c.action).order_by(t.audit.c.id)).scalars()), write=False)
    assert sorted(order) == sorted("abcdefUV")
    if ledger.dialect == "sqlite":  # one writer: each urgent one alone, then one batch
        assert order[:2] == ["U", "V"]  # first, and in their own order
        assert writer.batches - before == 3
    # (PostgreSQL: they do not queue at all, each on a connection of its own)


def _later_audit(conn: Connection, action: str | None) -> str | None:
    with deferring(conn):
        later(conn, t.audit.insert(), {"chat_id": -1, "action": action,
                                       "at": datetime.now(UTC)})
    return action


async def test_writes_left_for_later_are_one_statement_for_the_whole_batch(
        ledger: Ledger) -> None:
    for chat in CHATS:
        await ledger.open_nights.open_night(chat, SEATED, preset="chengdu")
    ledger._writer.batch_from = 2
    seen: list[str] = []

    def count(conn: object, cursor: object, statement: str, *args: object) -> None:
        seen.append(statement)

    event.listen(ledger.engine.sync_engine, "before_cursor_execute", count)
    try:
        outcomes = await asyncio.gather(*(ledger.hands.record(chat, win("self_draw", "S"))
                                          for chat in CHATS))
    finally:
        event.remove(ledger.engine.sync_engine, "before_cursor_execute", count)
    # (on PostgreSQL the entries ride in one statement with the transaction's other
    # writes left for later: statements.together)
    transactions = sum("INSERT INTO entries " in s for s in seen)
    assert 1 <= transactions < len(CHATS)  # one executemany a transaction, not one a unit
    hands = sum(s.startswith("INSERT INTO hands ") for s in seen)
    assert hands == len(CHATS)  # read back (its id): at once
    async with ledger.read() as conn:
        entries = (await conn.execute(select(func.count()).select_from(t.entries))
                   ).scalar_one()
        nets = (await conn.execute(select(t.nights.c.net_s).where(
            t.nights.c.chat_id.in_(CHATS)))).scalars().all()
    assert entries == 4 * len(CHATS)
    assert nets == [o.night.totals["S"] if o.night else None for o in outcomes]
    assert all(n > 0 for n in nets)


async def test_a_write_left_for_later_that_fails_fails_only_its_unit(ledger: Ledger) -> None:
    ledger._writer.batch_from = 2
    jobs = [ledger.run(_later_audit, "a", write=True, batch=True),
            ledger.run(_later_audit, None, write=True, batch=True),  # NOT NULL: refused
            ledger.run(_later_audit, "b", write=True, batch=True)]
    results = await asyncio.gather(*jobs, return_exceptions=True)
    assert results[0] == "a" and results[2] == "b"
    assert isinstance(results[1], IntegrityError)
    assert await ledger.run(_actions, write=False) == ["a", "b"]


async def test_a_batch_holds_one_report_of_a_chat(ledger: Ledger) -> None:
    """A report's writes wait for its transaction's end, so the chat's next report, which
    reads them, goes in the next transaction (the bot never sends two at once; a direct
    caller may)."""
    chat, other = -555, -556
    for c in (chat, other):  # blood battle: a hand stays open until three have won
        await ledger.open_nights.open_night(c, SEATED, preset="chengdu")
    first = await ledger.hands.record(chat, win("self_draw", "S"))
    assert not first.closed
    writer = ledger._writer
    writer.batch_from = 2
    before = writer.batches
    outcomes = await asyncio.gather(ledger.hands.record(chat, win("self_draw", "W")),
                                    ledger.hands.record(other, win("self_draw", "S")),
                                    ledger.hands.record(chat, win("self_draw", "N")))
    assert [(o.hand_number, o.event_index) for o in outcomes] == [(1, 1), (1, 0), (1, 2)]
    assert outcomes[2].closed
    if ledger.dialect == "sqlite":  # the first two together, the chat's second after
        assert writer.batches - before == 2
    await assert_books_balance(ledger, [chat, other])
