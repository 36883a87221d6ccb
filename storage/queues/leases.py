"""What spans both queues (``ledger.queues``): workers' leases on the inbox and the
outbox, the backlog, and forgetting what is done."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from sqlalchemy import and_, delete, func, select, text, update
from sqlalchemy.engine import Connection

from storage.queues.messages import (
    Queued,
    queued_of,
)
from storage.sql import tables as t
from storage.sql.clock import now
from storage.sql.db import APPLICATION_NAME
from storage.sql.store import Service

_i, _o = t.inbox.c, t.outbox.c

QUEUE_PRUNE_BATCH = 2000  # inbox keys (and answers given up on) deleted a transaction

# Sessions of this bot stalled inside a transaction (see Queues.end_stalled_sessions).
_END_STALLED = text(
    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
    " WHERE datname = current_database() AND usename = current_user"
    " AND application_name = :name AND pid <> pg_backend_pid() AND state <> 'idle'"
    " AND xact_start < now() - make_interval(secs => :after)")


class Queues(Service):
    """What spans the inbox and the outbox: a worker renews or gives up its
    leases on both, a stalled worker's database sessions are ended, the operator
    reads the backlog, and handled updates and given-up answers are pruned."""

    async def renew(self, worker: str, lease: float, inbox: Sequence[str] = ()
                    ) -> tuple[set[int], list[Queued]]:
        """The heartbeat of a worker that still works on its rows: the leases of the inbox
        rows claimed by the tokens ``inbox`` and of the outbox rows held by ``worker`` run
        ``lease`` seconds from now. Fenced: only rows still held are renewed. Returns the
        inbox ids renewed and the outbox rows held (what is not among them was taken
        over: drop it)."""

        def unit(conn: Connection) -> tuple[set[int], list[Queued]]:
            until = now() + timedelta(seconds=lease)
            ids: set[int] = set()
            if inbox:
                ids = set(conn.execute(
                    update(t.inbox).where(_i.status == "pending",
                                          _i.claimed_by.in_(list(inbox)))
                    .values(claimed_until=until).returning(_i.id)).scalars())
            rows = conn.execute(
                update(t.outbox).where(_o.status == "pending", _o.claimed_by == worker)
                .values(claimed_until=until).returning(*t.outbox.c)).all()
            return ids, sorted((queued_of(r) for r in rows), key=lambda q: q.id)

        return await self.store.run(unit, write=True)

    async def release(self, worker: str, inbox: Sequence[str] = ()) -> None:
        """Give up the leases a stopping worker holds (others take them at once)."""

        def unit(conn: Connection) -> None:
            if inbox:
                conn.execute(update(t.inbox).where(_i.status == "pending",
                                                   _i.claimed_by.in_(list(inbox)))
                             .values(claimed_by=None, claimed_until=None))
            conn.execute(update(t.outbox).where(_o.status == "pending",
                                                _o.claimed_by == worker)
                         .values(claimed_until=None))

        await self.store.run(unit, write=True)

    async def release_claims(self) -> None:
        """Forget every lease (one process owning the pipeline, at its start)."""

        def unit(conn: Connection) -> None:
            conn.execute(update(t.inbox).where(_i.claimed_by.is_not(None))
                         .values(claimed_by=None, claimed_until=None))
            conn.execute(update(t.outbox).where(_o.claimed_by.is_not(None))
                         .values(claimed_by=None, claimed_until=None))

        await self.store.run(unit, write=True)

    async def end_stalled_sessions(self, after: float) -> int:
        """PostgreSQL: end this bot's database sessions that have been inside one
        transaction for more than ``after`` seconds (a lease); returns how many.

        Units of work last milliseconds, so such a session belongs to a worker that
        stalled mid-transaction (paused, frozen), and its row locks would hold up the
        worker that takes over its leases. The server ends a session idle in a
        transaction by itself (``idle_in_transaction_session_timeout``, storage.sql.db), but
        not one stopped inside a statement: asyncpg prepares a statement and then binds
        it, and a pipelined ``executemany`` streams its rows, with no sync point between,
        and there neither that timeout nor ``statement_timeout`` applies. Only sessions
        of this database, this user and this bot (its ``application_name``) are ended;
        the stalled worker finds its connection gone and its work fenced."""
        if self.store.dialect != "postgresql":
            return 0

        def unit(conn: Connection) -> int:
            return len(conn.execute(_END_STALLED, {"name": APPLICATION_NAME,
                                                   "after": after}).all())

        return await self.store.run(unit, write=False)

    async def backlog(self) -> tuple[int, int]:
        """(updates not handled, answers not sent)."""

        def unit(conn: Connection) -> tuple[int, int]:
            inbox = conn.execute(select(func.count()).where(_i.status == "pending")
                                 .select_from(t.inbox)).scalar_one()
            outbox = conn.execute(select(func.count()).where(_o.status == "pending")
                                  .select_from(t.outbox)).scalar_one()
            return int(inbox), int(outbox)

        return await self.store.run(unit, write=False)

    async def prune(self, handled_before: datetime, sent_before: datetime, *,
                    batch: int = QUEUE_PRUNE_BATCH) -> tuple[int, int]:
        """Forget the keys of updates handled, and the answers given up on (sent ones are
        gone already), before these times: at most ``batch`` rows of each, oldest first,
        in one short transaction (a backlog goes over several calls, so the chats' own
        writes are never held up long, on SQLite's one writer above all)."""
        done = and_(_i.status == "done", _i.done_at < handled_before)
        given_up = and_(_o.status != "pending", _o.sent_at < sent_before)

        def unit(conn: Connection) -> tuple[int, int]:
            a = conn.execute(delete(t.inbox).where(_i.id.in_(
                select(_i.id).where(done).order_by(_i.done_at).limit(batch)))).rowcount
            b = conn.execute(delete(t.outbox).where(_o.id.in_(
                select(_o.id).where(given_up).order_by(_o.sent_at).limit(batch)))).rowcount
            return int(a), int(b)

        return await self.store.run(unit, write=True)
