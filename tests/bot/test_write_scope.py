"""The update's write scope (bot.delivery.send.write), on every backend: the change, its
answers and "handled" commit together or not at all; the scope is entered once per
update and makes one write."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from sqlalchemy import func, select

from bot.delivery import send
from storage.errors import LedgerError
from storage.ledger import Ledger
from storage.models import RecordOutcome
from storage.queues.messages import Incoming, Outgoing, Pending
from storage.sql import tables as t
from storage.sql.store import SecondWrite
from tests.storage.conftest import BACKENDS, ledger_on
from tests.storage.helpers import SEATED, win

CHAT = -1001


@pytest.fixture(params=BACKENDS)
async def ledger(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Ledger]:
    async with ledger_on(request.param, tmp_path) as led:
        await led.open_nights.open_night(CHAT, SEATED, preset="chengdu")
        yield led


async def _update(ledger: Ledger, n: int = 1) -> Pending:
    [pending] = await ledger.inbox.receive([Incoming(
        key=f"m:{CHAT}:{n}", chat_id=CHAT, update_id=n,
        payload={"update_id": n, "message": {"message_id": n, "text": "/hu bob 自摸"}})])
    return pending


async def _turn(ledger: Ledger) -> tuple[send.Turn, Pending]:
    """A new update, and its turn made the current one, as the dispatcher makes it (each
    test runs in a context of its own)."""
    pending = await _update(ledger)
    turn = send.Turn(pending.id, CHAT)
    send.CURRENT.set(turn)
    return turn, pending


def said(text: str) -> Outgoing:
    return send.to_chat(CHAT, text)


def announce(out: RecordOutcome) -> list[Outgoing]:
    return [said(f"hand {out.hand_number}")]


async def _outbox(ledger: Ledger) -> list[str]:
    async with ledger.read() as conn:
        rows = (await conn.execute(select(t.outbox.c.params).order_by(t.outbox.c.id))).all()
    return [r.params["text"] for r in rows]


async def _hands(ledger: Ledger) -> int:
    async with ledger.read() as conn:
        return int((await conn.execute(select(func.count()).select_from(t.hands)))
                   .scalar_one())


async def test_the_change_its_answers_and_handled_commit_together(
        ledger: Ledger) -> None:
    turn, _pending = await _turn(ledger)
    turn.buffer.append(said("said before"))  # what the handler said before its write
    async with send.write(ledger, announce) as tx:
        out = await tx.hands.record(CHAT, win("self_draw", "S"))
    assert out.hand_number == 1
    assert turn.finished and turn.buffer == []
    assert [q.params["text"] for q in turn.queued] == ["said before", "hand 1"]
    assert await ledger.inbox.pending_updates() == []  # handled, in the same transaction
    assert await _outbox(ledger) == ["said before", "hand 1"]
    assert await _hands(ledger) == 1


async def test_nothing_commits_when_the_answer_cannot_be_written(
        ledger: Ledger) -> None:
    turn, pending = await _turn(ledger)

    def broken(out: RecordOutcome) -> list[Outgoing]:
        raise RuntimeError("the answer could not be rendered")

    with pytest.raises(RuntimeError):
        async with send.write(ledger, broken) as tx:
            await tx.hands.record(CHAT, win("self_draw", "S"))
    assert not turn.finished and turn.queued == []
    assert [p.id for p in await ledger.inbox.pending_updates()] == [pending.id]
    assert await _hands(ledger) == 0 and await _outbox(ledger) == []


async def test_a_refused_write_leaves_the_update_to_the_dispatcher(
        ledger: Ledger) -> None:
    turn, pending = await _turn(ledger)
    with pytest.raises(LedgerError):
        async with send.write(ledger, announce) as tx:
            await tx.corrections.void(CHAT, 7)  # no hand 7: refused, nothing written
    assert not turn.finished and turn.queued == []
    assert [p.id for p in await ledger.inbox.pending_updates()] == [pending.id]
    assert await _outbox(ledger) == []


async def test_the_scope_is_entered_once_per_update(
        ledger: Ledger) -> None:
    await _turn(ledger)
    async with send.write(ledger, announce) as tx:
        await tx.hands.record(CHAT, win("self_draw", "S"))
    ran = False
    with pytest.raises(send.WriteTwice):
        async with send.write(ledger, announce) as tx:
            ran = True
    assert not ran  # refused on entry: the block never ran
    assert await _hands(ledger) == 1 and await _outbox(ledger) == ["hand 1"]


async def test_a_scope_left_without_a_write_still_counts(
        ledger: Ledger) -> None:
    turn, pending = await _turn(ledger)
    async with send.write(ledger, announce):
        pass  # a refusal before the write, say
    assert not turn.finished
    with pytest.raises(send.WriteTwice):
        async with send.write(ledger, announce):
            pass
    assert [p.id for p in await ledger.inbox.pending_updates()] == [pending.id]


async def test_a_second_write_is_refused_before_it_runs(
        ledger: Ledger) -> None:
    turn, _pending = await _turn(ledger)
    with pytest.raises(SecondWrite):
        async with send.write(ledger, announce) as tx:
            await tx.hands.record(CHAT, win("self_draw", "S"))
            await tx.corrections.undo(CHAT)  # would take the hand back: refused, nothing lost
    assert turn.finished  # the first write committed, with its answer
    assert [q.params["text"] for q in turn.queued] == ["hand 1"]
    assert await _hands(ledger) == 1
    night = await ledger.open_nights.current_night(CHAT)
    assert night is not None and night.hands == 1
    assert await _outbox(ledger) == ["hand 1"]


async def test_a_failed_write_does_not_free_a_second(
        ledger: Ledger) -> None:
    await _turn(ledger)
    async with send.write(ledger, announce) as tx:
        with pytest.raises(LedgerError):
            await tx.corrections.void(CHAT, 7)
        with pytest.raises(SecondWrite):
            await tx.hands.record(CHAT, win("self_draw", "S"))
        assert (await tx.open_nights.current_night(CHAT)) is not None  # reads go on
    assert await _hands(ledger) == 0


async def test_outside_a_turn_the_answer_is_still_written_with_the_change(
        ledger: Ledger) -> None:
    assert send.CURRENT.get() is None
    async with send.write(ledger, announce) as tx:
        await tx.hands.record(CHAT, win("self_draw", "S"))
    assert await ledger.open_nights.last_event(CHAT) is not None
    # No update: nothing to enter twice.
    async with send.write(ledger, lambda out: [said("undone")]) as tx:
        await tx.corrections.undo(CHAT)
    assert await _outbox(ledger) == ["hand 1", "undone"]
    assert await ledger.open_nights.last_event(CHAT) is None
