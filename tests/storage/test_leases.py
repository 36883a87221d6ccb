"""Leases on the inbox and the outbox, with a fake clock: a claim taken over is fenced (its
"handled" writes nothing), a renewed lease is not taken over, a chat's answers change
hands in order (a dead worker's head whatever live workers hold behind it), and an answer
written behind older ones held elsewhere knows it. On
SQLite and PostgreSQL (each test in a schema of its own)."""

from __future__ import annotations

import pytest

from storage.ledger import Ledger, now
from storage.queues import leases as pipeline
from storage.queues.messages import AlreadyHandled, Incoming, Outgoing
from tests.storage.helpers import Clock, pipeline_clock

CHAT, OTHER = -4242, -4343
LEASE = 30.0


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    return pipeline_clock(monkeypatch)


def say(chat: int, text: str) -> Outgoing:
    return Outgoing(chat_id=chat, method="sendMessage", params={"chat_id": chat, "text": text})


async def receive(ledger: Ledger, *keys: int, chat: int = CHAT) -> None:
    await ledger.inbox.receive([Incoming(key=f"m:{chat}:{k}", chat_id=chat, update_id=k,
                                         payload={"update_id": k}) for k in keys])


async def test_a_claim_taken_over_cannot_mark_its_update_handled(ledger: Ledger,
                                                                 clock: Clock) -> None:
    await receive(ledger, 1)
    mine = await ledger.inbox.claim_chat(CHAT, "a:1", LEASE)
    assert mine is not None
    assert await ledger.inbox.claim_chat(CHAT, "b:1", LEASE) is None  # held
    clock.advance(LEASE + 1)  # worker a was paused past its lease
    theirs = await ledger.inbox.claim_chat(CHAT, "b:1", LEASE)
    assert theirs is not None and theirs.id == mine.id
    with pytest.raises(AlreadyHandled):  # a wakes: its late "handled" writes nothing
        await ledger.inbox.finish(mine.id, [say(CHAT, "late")], "a", claim="a:1")
    [queued] = await ledger.inbox.finish(theirs.id, [say(CHAT, "once")], "b", claim="b:1")
    assert await ledger.queues.backlog() == (0, 1)
    assert [m.params["text"] for m in await ledger.outbox.pending_messages()] == ["once"]
    assert queued.held_until is not None


async def test_a_renewed_claim_is_not_taken_over(ledger: Ledger, clock: Clock) -> None:
    await receive(ledger, 1)
    assert await ledger.inbox.claim_chat(CHAT, "a:1", LEASE) is not None
    for _ in range(3):  # a slow handler whose worker's heartbeat renews it
        clock.advance(LEASE * 0.6)
        renewed, _rows = await ledger.queues.renew("a", LEASE, ["a:1"])
        assert len(renewed) == 1
    assert await ledger.inbox.claim_chat(CHAT, "b:1", LEASE) is None
    clock.advance(LEASE + 1)  # the heartbeat stopped
    assert await ledger.inbox.claim_chat(CHAT, "b:1", LEASE) is not None
    renewed, _rows = await ledger.queues.renew("a", LEASE, ["a:1"])
    assert renewed == set()  # fenced: a finds out it lost the row


async def test_the_scan_leaves_a_chat_to_the_worker_that_holds_it(ledger: Ledger,
                                                                   clock: Clock) -> None:
    """A chat whose oldest pending row a worker holds is not offered to the others'
    scans, though rows wait behind it (that worker takes them next); once its lease runs
    out, it is."""
    await receive(ledger, 1, 2, 3)
    await receive(ledger, 4, chat=OTHER)
    assert await ledger.inbox.chats_waiting() == [CHAT, OTHER]
    assert await ledger.inbox.claim_chat(CHAT, "a:1", LEASE) is not None
    assert await ledger.inbox.chats_waiting() == [OTHER]
    clock.advance(LEASE + 1)  # worker a died
    assert await ledger.inbox.chats_waiting() == [CHAT, OTHER]


async def test_an_update_received_for_a_chat_a_lease_holds_says_so(ledger: Ledger,
                                                                    clock: Clock) -> None:
    """The worker that receives it then leaves it to the holder, which takes it next;
    once the holder's lease has run out, nothing holds the chat."""
    await receive(ledger, 1)
    assert await ledger.inbox.claim_chat(CHAT, "a:1", LEASE) is not None

    async def received(key: int, chat: int) -> bool:
        [row] = await ledger.inbox.receive([Incoming(
            key=f"m:{chat}:{key}", chat_id=chat, update_id=key, payload={"update_id": key})],
            leases=True)
        return row.held

    assert await received(2, CHAT) is True
    assert await received(3, OTHER) is False
    nxt = await ledger.inbox.finish(1, [], "a", claim="a:1")
    assert nxt == []
    claimed = await ledger.inbox.claim_chat(CHAT, "a:1", LEASE)  # the holder's next
    assert claimed is not None and claimed.update_id == 2
    clock.advance(LEASE + 1)  # worker a died
    assert await received(4, CHAT) is False


async def test_a_chats_answers_change_hands_together_and_in_order(ledger: Ledger,
                                                                  clock: Clock) -> None:
    first = await ledger.inbox.finish(None, [say(CHAT, "1"), say(CHAT, "2")], "a", lease=LEASE)
    await ledger.inbox.finish(None, [say(OTHER, "x")], "a", lease=LEASE)
    assert await ledger.outbox.claim_messages("b", LEASE) == []  # a holds them all
    clock.advance(LEASE * 0.8)
    _ids, held = await ledger.queues.renew("a", LEASE)  # a's heartbeat
    assert [r.id for r in held] == [r.id for r in first] + [held[-1].id]
    # a paused while its answers waited on a long retry_after: its leases run out...
    clock.advance(LEASE + 1)
    taken = await ledger.outbox.claim_messages("b", LEASE)
    assert [(r.chat_id, r.params["text"]) for r in taken] == [(CHAT, "1"), (CHAT, "2"),
                                                              (OTHER, "x")]
    _ids, held = await ledger.queues.renew("a", LEASE)
    assert held == []  # ...and a, awake, finds it holds nothing: it sends nothing


async def test_an_answer_written_behind_anothers_waits_for_it(ledger: Ledger,
                                                              clock: Clock) -> None:
    [older] = await ledger.inbox.finish(None, [say(CHAT, "older")], "a", lease=LEASE)
    [newer] = await ledger.inbox.finish(None, [say(CHAT, "newer")], "b", lease=LEASE)
    [alone] = await ledger.inbox.finish(None, [say(OTHER, "alone")], "b", lease=LEASE)
    assert not older.behind and newer.behind and not alone.behind
    assert await ledger.outbox.ahead_of(newer, "b")
    clock.advance(LEASE + 1)  # a died; b's heartbeat keeps its own
    await ledger.queues.renew("b", LEASE)
    taken = await ledger.outbox.claim_messages("b", LEASE)  # b takes a's, older, for itself
    assert [r.id for r in taken] == [older.id]
    assert not await ledger.outbox.ahead_of(newer, "b")  # b sends both, older first
    await ledger.outbox.settle_messages(sent=[older.id])
    assert not await ledger.outbox.ahead_of(newer, "b")


async def test_a_dead_workers_head_is_taken_over_whatever_live_workers_hold_behind_it(
        ledger: Ledger, clock: Clock) -> None:
    """A chat's oldest answer is held by a worker that died; live workers hold answers
    written behind it (each renewing its own). The first sweep after its lease ran out
    takes the head (every sweep left it to the others before); a dead worker's row after
    one a live worker holds waits until that one is gone, so the answers leave in order."""
    [head] = await ledger.inbox.finish(None, [say(CHAT, "1")], "dead", lease=LEASE)
    [second] = await ledger.inbox.finish(None, [say(CHAT, "2")], "b", lease=LEASE)
    [third] = await ledger.inbox.finish(None, [say(CHAT, "3")], "c", lease=LEASE)
    [fourth] = await ledger.inbox.finish(None, [say(CHAT, "4")], "dead", lease=LEASE)
    [other] = await ledger.inbox.finish(None, [say(OTHER, "x")], "dead", lease=LEASE)
    assert second.behind and third.behind and fourth.behind
    clock.advance(LEASE * 0.8)
    for live in ("b", "c"):  # their heartbeats; the dead worker's lease runs out
        await ledger.queues.renew(live, LEASE)
    clock.advance(LEASE * 0.3)
    taken = await ledger.outbox.claim_messages("c", LEASE)
    assert [r.id for r in taken] == [head.id, other.id]
    assert await ledger.outbox.claim_messages("b", LEASE) == []  # "4" waits behind c's
    assert await ledger.outbox.ahead_of(second, "b")  # "1", now c's, goes first
    await ledger.outbox.settle_messages(sent=[head.id])
    assert not await ledger.outbox.ahead_of(second, "b")
    assert await ledger.outbox.ahead_of(third, "c")  # b's "2" goes before c's "3"
    await ledger.outbox.settle_messages(sent=[second.id])
    assert not await ledger.outbox.ahead_of(third, "c")
    assert await ledger.outbox.claim_messages("b", LEASE) == []  # c's "3" is before "4"
    [last] = await ledger.outbox.claim_messages("c", LEASE)  # c, holding "3", takes "4"
    assert last.id == fourth.id


async def test_a_claim_that_waited_behind_the_owners_commit_takes_no_done_row(
        ledger: Ledger) -> None:
    """READ COMMITTED: a claim blocked on the row's lock re-reads the row, not its
    subquery, so the row itself must still be pending (PostgreSQL)."""
    if ledger.dialect != "postgresql":
        pytest.skip("SQLite runs one writer at a time: no claim waits on a row lock")
    import asyncio

    from sqlalchemy import text, update

    from storage.sql import tables as t

    await receive(ledger, 1)
    async with ledger.engine.connect() as owner:
        await owner.begin()
        await owner.execute(update(t.inbox).values(status="done", done_at=now()))
        owner_pid = (await owner.execute(text("SELECT pg_backend_pid()"))).scalar_one()
        claim = asyncio.create_task(ledger.inbox.claim_chat(CHAT, "b:1", LEASE))
        assert await waits_on(ledger, owner_pid), "the claim never waited on the owner"
        await owner.commit()
    assert await claim is None  # not the row just marked done


async def waits_on(ledger: Ledger, owner_pid: int) -> bool:
    """Whether some session comes to wait on ``owner_pid``'s locks (within 10 s)."""
    import asyncio

    from sqlalchemy import text

    async with ledger.engine.connect() as watcher:
        for _ in range(1000):
            blocked = (await watcher.execute(text(
                "SELECT count(*) FROM pg_stat_activity "
                "WHERE :owner = ANY(pg_blocking_pids(pid))"), {"owner": owner_pid})
            ).scalar_one()
            await watcher.rollback()
            if blocked:
                return True
            await asyncio.sleep(0.01)
    return False


async def test_an_update_its_holder_missed_is_taken_up_by_the_next_scan(
        ledger: Ledger) -> None:
    """The receipt's question is a hint, not a lock: a holder that finishes its last row
    just as the chat's next update is stored may end its run without it. That row then
    waits under no lease, and the next scan of the inbox (any worker's) offers it."""
    await receive(ledger, 1)
    assert await ledger.inbox.claim_chat(CHAT, "a:1", LEASE) is not None
    [row] = await ledger.inbox.receive([Incoming(
        key=f"m:{CHAT}:2", chat_id=CHAT, update_id=2, payload={"update_id": 2})],
        leases=True)
    assert row.held  # so its receiver leaves it to a
    assert await ledger.inbox.chats_waiting() == []
    await ledger.inbox.finish(1, [], "a", claim="a:1")  # a's run ended before it saw row 2
    assert await ledger.inbox.chats_waiting() == [CHAT]
    taken = await ledger.inbox.claim_chat(CHAT, "b:1", LEASE)
    assert taken is not None and taken.update_id == 2


FROZEN = """
import asyncio, os, signal, sys
import asyncpg

async def main(dsn: str, name: str, schema: str) -> None:
    conn = await asyncpg.connect(dsn, server_settings={"application_name": name,
                                                       "search_path": schema})
    await conn.execute("BEGIN")
    await conn.execute("UPDATE inbox SET attempts = attempts + 1")  # the row's lock
    await conn.prepare("SELECT count(*) FROM inbox WHERE id > $1")  # parsed, not bound
    print("frozen", flush=True)
    os.kill(os.getpid(), signal.SIGSTOP)

asyncio.run(main(*sys.argv[1:]))
"""


async def test_a_worker_frozen_inside_a_statement_is_ended_and_its_row_taken_over(
        ledger: Ledger, monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker stopped between asyncpg's prepare and bind holds its transaction "active"
    (no server timeout applies there) and the inbox row's lock with it: a claim on the row
    waits until the scan ends that session (PostgreSQL)."""
    if ledger.dialect != "postgresql":
        pytest.skip("SQLite: one process writes; no session of another worker to end")
    import asyncio
    import os
    import signal
    import sys
    import uuid

    from sqlalchemy import text

    from tests.databases import PG_URL

    name = f"tally-test-{uuid.uuid4().hex[:8]}"  # only this test's frozen session
    monkeypatch.setattr(pipeline, "APPLICATION_NAME", name)
    await receive(ledger, 1)
    async with ledger.read() as conn:
        schema = (await conn.execute(text("SHOW search_path"))).scalar_one()
    assert PG_URL is not None
    child = await asyncio.create_subprocess_exec(
        sys.executable, "-c", FROZEN, PG_URL.replace("postgresql+asyncpg", "postgresql"),
        name, schema, stdout=asyncio.subprocess.PIPE)
    try:
        assert child.stdout is not None
        assert await asyncio.wait_for(child.stdout.readline(), 30) == b"frozen\n"
        async with ledger.read() as conn:
            state = (await conn.execute(text(
                "SELECT state FROM pg_stat_activity WHERE application_name = :n"),
                {"n": name})).scalar_one()
        assert state == "active"  # out of reach of idle_in_transaction_session_timeout
        claim = asyncio.create_task(ledger.inbox.claim_chat(CHAT, "b:1", LEASE))
        await asyncio.sleep(0.2)
        assert not claim.done()  # held up by the frozen worker's lock
        assert await ledger.queues.end_stalled_sessions(after=3600) == 0  # not stalled that long
        ended = 0
        for _ in range(200):  # its transaction began a moment ago: until it is 0.1 s old
            ended = await ledger.queues.end_stalled_sessions(after=0.1)
            if ended:
                break
            await asyncio.sleep(0.05)
        assert ended == 1
        taken = await asyncio.wait_for(claim, 30)
        assert taken is not None and taken.attempts == 0  # its change rolled back
    finally:
        if child.returncode is None:
            os.kill(child.pid, signal.SIGKILL)
        await child.wait()


def item(k: int, chat: int = CHAT) -> Incoming:
    return Incoming(key=f"m:{chat}:{k}", chat_id=chat, update_id=k, payload={"update_id": k})


async def test_an_update_of_a_chat_with_nothing_pending_is_claimed_as_it_is_received(
        ledger: Ledger, clock: Clock) -> None:
    row, first = await ledger.inbox.receive_first(item(1), "a:1", LEASE)
    assert row is not None and first and not row.held
    # held by that claim: another worker's claim finds nothing, the scan leaves the chat
    assert await ledger.inbox.claim_chat(CHAT, "b:1", LEASE) is None
    assert await ledger.inbox.chats_waiting() == []
    # the chat's next update waits behind it, held, for that claim's holder
    second, first = await ledger.inbox.receive_first(item(2), "b:2", LEASE)
    assert second is not None and not first and second.held
    [done] = await ledger.inbox.finish(row.id, [say(CHAT, "one")], "a", claim="a:1")
    assert done.params["text"] == "one"
    nxt = await ledger.inbox.claim_chat(CHAT, "a:1", LEASE)
    assert nxt is not None and nxt.id == second.id
    # a key seen before is refused; a dead claimer's row is taken over after its lease
    assert await ledger.inbox.receive_first(item(2), "c:1", LEASE) == (None, False)
    clock.advance(LEASE + 1)
    third, first = await ledger.inbox.receive_first(item(3), "c:2", LEASE)
    assert third is not None and not first and not third.held  # the chat's older row first
    taken = await ledger.inbox.claim_chat(CHAT, "c:2", LEASE)
    assert taken is not None and taken.id == second.id


async def test_units_in_a_shared_transaction_commit_together_or_not_at_all(
        ledger: Ledger, clock: Clock) -> None:
    async with ledger.shared_transaction() as shared:
        row, first = await ledger.inbox.receive_first(item(1), "a:1", LEASE)
        assert row is not None and first
        await ledger.inbox.finish(row.id, [say(CHAT, "one")], "a", claim="a:1")
    assert shared.failed is None
    assert await ledger.queues.backlog() == (0, 1)
    async with ledger.shared_transaction() as shared:
        row, _ = await ledger.inbox.receive_first(item(2), "a:2", LEASE)
        assert row is not None
        with pytest.raises(AlreadyHandled):  # a unit that fails voids the transaction
            await ledger.inbox.finish(row.id, [say(CHAT, "two")], "a", claim="z:9")
    assert shared.failed is not None
    assert await ledger.queues.backlog() == (0, 1)  # the receipt is gone with it
    assert await ledger.inbox.pending_updates() == []
