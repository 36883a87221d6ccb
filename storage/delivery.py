"""The delivery pipeline's storage: the inbox of updates and the outbox of answers.

- :meth:`Delivery.receive` makes updates durable (one transaction for a batch), refusing a
  re-delivered one by its key; only then may Telegram be told they arrived.
- An :class:`Answer` rides on a ledger write (``ledger.answering(answer).record(...)``): in
  the same transaction as the change, it renders the messages from the change's result,
  queues them in the outbox and marks the update handled. So a change is never committed
  without its answer, nor an update marked handled without its change. The bound ledger
  makes that one write; a second is refused before it runs (:class:`SecondWrite`). The
  bot reaches this only through its write scope (:func:`bot.delivery.send.write`).
- :meth:`Delivery.finish` does the same for an update that changed nothing.
- The sender reads the outbox and marks what it sent; :meth:`Delivery.prune` forgets
  handled updates and sent answers after a while (never the ledger's own tables). A
  handled update keeps only its key (a re-delivery is refused by it), for as long as
  Telegram may deliver it again; a sent answer is deleted at once (only an answer given
  up on stays, with its error, for the operator).
- Several workers share the inbox and the outbox through leases (``claimed_by`` and
  ``claimed_until``): a row is worked on by one worker at a time, and a chat's rows in order.
  ``claimed_by`` is the claim's token: an inbox claim's is new for every run of a chat's
  dispatcher (``<worker>:<n>``), an outbox row's is its sender's (``<worker>``). A worker
  renews the leases it holds (:meth:`Delivery.renew`) while it works on them; every late
  action is fenced by the token, in the same statement: "handled" only while the claim is
  still this one's (else :class:`AlreadyHandled` rolls the whole unit back), a renewal
  only of rows still held (the sender sends a row only within a lease it renewed, and
  drops rows another worker took over). Another worker takes a chat's answers only all
  at once, when none of them is held by a live lease (:meth:`Delivery.claim_messages`),
  and an answer written while older ones of its chat wait with another worker is marked
  ``behind``: its sender waits until those are gone (:meth:`Delivery.ahead_of`).
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from typing import Any, Self

from pydantic import BaseModel, ConfigDict
from sqlalchemy import and_, bindparam, delete, func, or_, select, text, update
from sqlalchemy.engine import Connection

from storage import tables as t
from storage.db import APPLICATION_NAME
from storage.ledger_base import LedgerBase, now
from storage.unit_of_work import T, Unit

_i, _o = t.inbox.c, t.outbox.c

# A worker's claim on a chat's oldest pending update, built once (a statement built per
# call costs its cache key every time): held if no other worker's lease is live.
_CLAIM = (
    update(t.inbox)
    .where(_i.id == select(func.min(_i.id))
           .where(_i.status == "pending", _i.chat_id == bindparam("c_chat"))
           .scalar_subquery(),
           # again on the row itself: a claim that waited behind the owner's commit (READ
           # COMMITTED re-reads the row, not the subquery) must not take a row just done
           _i.status == "pending",
           or_(_i.claimed_until.is_(None), _i.claimed_until < bindparam("c_now"),
               _i.claimed_by == bindparam("c_worker")))
    .values(claimed_by=bindparam("c_worker"), claimed_until=bindparam("c_until"))
    .returning(*t.inbox.c)
)


# Sessions of this bot stalled inside a transaction (see Delivery.end_stalled_sessions).
_END_STALLED = text(
    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
    " WHERE datname = current_database() AND usename = current_user"
    " AND application_name = :name AND pid <> pg_backend_pid() AND state <> 'idle'"
    " AND xact_start < now() - make_interval(secs => :after)")

DEFAULT_LEASE = 30.0  # seconds (the setting delivery.lease_seconds)
HANDLED: dict[str, Any] = {}  # what a handled update's row keeps of the update
_SWEEP_LOCK = 0x7A11_0001  # the advisory lock that one sweep of the outbox holds at a time


class Incoming(BaseModel):
    """An update to make durable: its key, chat and the update as Telegram sent it."""

    model_config = ConfigDict(frozen=True)
    key: str
    chat_id: int
    update_id: int
    payload: dict[str, Any]


class Pending(BaseModel):
    """An inbox row not handled yet."""

    id: int
    key: str
    chat_id: int
    update_id: int
    payload: dict[str, Any]
    attempts: int = 0
    received_at: datetime | None = None


class Outgoing(BaseModel):
    """Something to say: a Bot API method and its parameters. Rows with one ``collapse``
    key replace each other (only the newest is sent)."""

    chat_id: int
    method: str
    params: dict[str, Any]
    collapse: str | None = None


class Queued(Outgoing):
    """An outbox row."""

    id: int
    attempts: int = 0
    created_at: datetime | None = None
    answers_since: datetime | None = None  # when the update it answers arrived (not stored)
    # Several workers: until when this worker's lease on it holds (as last written), and
    # whether older answers of its chat waited with another worker when it was written.
    held_until: datetime | None = None
    behind: bool = False


class AlreadyHandled(Exception):
    """The update was handled meanwhile (another worker, or a lease that ran out)."""


class SecondWrite(RuntimeError):
    """A second write on a ledger bound to one answer (:meth:`Delivery.answering`): refused
    before it runs, so that nothing is written without the answer, nor lost."""


class Answer:
    """The messages a write answers with, written in the write's own transaction.

    ``render`` turns the unit of work's result into messages; ``before`` are messages
    the handler queued before the write. After the commit, ``queued`` holds the rows."""

    def __init__(self, inbox_id: int | None, render: Callable[[Any], Sequence[Outgoing]],
                 before: Sequence[Outgoing] = (), worker: str | None = None,
                 claim: str | None = None, lease: float = DEFAULT_LEASE) -> None:
        """``worker``: the sender that holds the answers (several workers); ``claim``: the
        token of the inbox row's claim (``worker`` if not given)."""
        self.inbox_id = inbox_id
        self.render = render
        self.before = list(before)
        self.worker = worker
        self.claim = claim if claim is not None else worker
        self.lease = lease
        self.queued: list[Queued] = []
        self.taken = False  # its write has begun: no other write may carry it
        self.committed = False
        self.absorbed = False  # its rows taken in by the update's handling

    def write(self, conn: Connection, result: Any) -> None:
        stamp = now()
        if self.inbox_id is not None:  # fenced first: a lost claim writes nothing
            _mark_done(conn, self.inbox_id, self.claim, stamp)
        self.queued = _enqueue(conn, [*self.before, *self.render(result)], self.inbox_id,
                               stamp, self.worker, self.lease)


def _insert_many(conn: Connection, table: Any, rows: list[dict[str, Any]],
                 *returning: Any, skip_key: Any = None) -> list[Any]:
    """One multi-row ``INSERT ... RETURNING`` (one statement, one round trip, on both
    backends), its rows in insertion order; with ``skip_key``, rows whose key exists are
    skipped (``ON CONFLICT DO NOTHING``). Ids grow in insertion order (SQLite's integer
    primary key, a PostgreSQL sequence), so sorting by id restores the order given."""
    columns = tuple(rows[0])
    stmt = _rows_statement(conn.dialect.name, table, columns, len(rows),
                           tuple(c.name for c in returning),
                           None if skip_key is None else skip_key.name)
    flat = {f"{c}_{n}": row[c] for n, row in enumerate(rows) for c in columns}
    return sorted(conn.execute(stmt, flat).all(), key=lambda r: r.id)


@functools.lru_cache(maxsize=256)
def _rows_statement(dialect: str, table: Any, columns: tuple[str, ...], n: int,
                    returning: tuple[str, ...], skip_key: str | None) -> Any:
    """The statement for :func:`_insert_many`, built once for each shape. It is SQL text
    with typed parameters: SQLAlchemy compiles a Core multi-row ``values()`` anew on every
    execution (it has no cache key), which costs more than the round trip it saves."""
    rows = ", ".join("(" + ", ".join(f":{c}_{i}" for c in columns) + ")" for i in range(n))
    conflict = f" ON CONFLICT ({skip_key}) DO NOTHING" if skip_key is not None else ""
    back = ", ".join(("id", *returning))
    stmt = text(f"INSERT INTO {table.name} ({', '.join(columns)}) VALUES {rows}{conflict} "
                f"RETURNING {back}")
    return stmt.bindparams(*(bindparam(f"{c}_{i}", type_=table.c[c].type)
                             for i in range(n) for c in columns))


# Handled: only the key (and the status) is kept, for as long as Telegram may deliver the
# update again (delivery.inbox_retention_hours); the update itself is dropped.
_DONE = (update(t.inbox).where(_i.id == bindparam("b_id"), _i.status == "pending")
         .values(status="done", done_at=bindparam("b_at"), claimed_by=None, claimed_until=None,
                 payload=HANDLED))
_DONE_BY = _DONE.where(_i.claimed_by == bindparam("b_worker"))


def _enqueue(conn: Connection, messages: Sequence[Outgoing], inbox_id: int | None,
             stamp: datetime, worker: str | None = None, lease: float = DEFAULT_LEASE
             ) -> list[Queued]:
    """Queue ``messages``; a worker (several share the outbox) holds them for a while, so
    that no other sends them unless it stops renewing the lease. An answer whose chat
    has older answers not held by this worker is ``behind`` them."""
    if not messages:
        return []
    until = stamp + timedelta(seconds=lease) if worker is not None else None
    behind: set[int] = set()
    if worker is not None:
        chats = sorted({m.chat_id for m in messages})
        behind = set(conn.execute(
            select(_o.chat_id).distinct().where(
                _o.status == "pending", _o.chat_id.in_(chats), _o.collapse.is_(None),
                or_(_o.claimed_by.is_(None), _o.claimed_by != worker))).scalars())
    rows = _insert_many(conn, t.outbox, [{
        "chat_id": m.chat_id, "inbox_id": inbox_id, "method": m.method, "params": m.params,
        "collapse": m.collapse, "status": "pending", "attempts": 0, "created_at": stamp,
        "claimed_by": worker, "claimed_until": until}
        for m in messages])
    return [Queued(id=row.id, chat_id=m.chat_id, method=m.method, params=m.params,
                   collapse=m.collapse, created_at=stamp, held_until=until,
                   behind=m.chat_id in behind and m.collapse is None)
            for row, m in zip(rows, messages, strict=True)]


def _mark_done(conn: Connection, inbox_id: int, claim: str | None, stamp: datetime) -> None:
    if claim is None:
        done = conn.execute(_DONE, {"b_id": inbox_id, "b_at": stamp})
    else:  # only while this claim holds (not taken over after its lease ran out)
        done = conn.execute(_DONE_BY, {"b_id": inbox_id, "b_at": stamp, "b_worker": claim})
    if done.rowcount != 1:
        raise AlreadyHandled(inbox_id)


def _pending(row: Any) -> Pending:
    return Pending(id=row.id, key=row.key, chat_id=row.chat_id, update_id=row.update_id,
                   payload=row.payload, attempts=row.attempts, received_at=row.received_at)


def _queued(row: Any) -> Queued:
    return Queued(id=row.id, chat_id=row.chat_id, method=row.method, params=row.params,
                  collapse=row.collapse, attempts=row.attempts, created_at=row.created_at,
                  held_until=row.claimed_until)


class Delivery(LedgerBase):
    _answer: Answer | None = None

    # -- answers riding on writes ----------------------------------------------------------

    def answering(self, answer: Answer) -> Self:
        """This ledger, bound to make one write, which carries ``answer`` in its own
        transaction; any further write on it raises :class:`SecondWrite` before it runs.
        Reads go on as usual. The storage-level mechanism under the bot's write scope
        (:func:`bot.delivery.send.write`), its only caller in the bot."""
        bound = copy.copy(self)
        bound._answer = answer
        return bound

    async def run(self, unit: Unit[T], *args: Any, write: bool, batch: bool = False,
                  urgent: bool = False, key: Any = None) -> T:
        answer = self._answer if write else None
        if answer is None:
            return await super().run(unit, *args, write=write, batch=batch, urgent=urgent,
                                     key=key)
        if answer.taken:
            raise SecondWrite("this ledger carries one answer and has made its write")
        answer.taken = True  # one answer, one write

        def answered(conn: Connection, *a: Any) -> T:
            result = unit(conn, *a)
            answer.write(conn, result)
            return result

        result = await super().run(answered, *args, write=write, batch=batch, key=key)
        answer.committed = True
        return result

    # -- the inbox ---------------------------------------------------------------------

    async def receive(self, items: Sequence[Incoming]) -> list[Pending]:
        """Make updates durable, in one transaction; returns the new ones (a key seen
        before is a re-delivery and is left out)."""

        def unit(conn: Connection) -> list[Pending]:
            if not items:
                return []
            stamp = now()
            rows = _insert_many(conn, t.inbox, [{
                "key": i.key, "chat_id": i.chat_id, "update_id": i.update_id,
                "payload": i.payload, "status": "pending", "attempts": 0,
                "received_at": stamp} for i in items], _i.key, skip_key=_i.key)
            ids = {row.key: row.id for row in rows}
            new = []
            for item in items:  # a key twice in one batch: the first is the update
                row_id = ids.pop(item.key, None)
                if row_id is not None:
                    new.append(Pending(id=row_id, key=item.key, chat_id=item.chat_id,
                                       update_id=item.update_id, payload=item.payload,
                                       received_at=stamp))
            return new

        # Urgent: the next getUpdates (or the webhook's answer to Telegram) waits for it.
        return await self.run(unit, write=True, urgent=True)

    async def pending_updates(self, limit: int = 10_000) -> list[Pending]:
        """Updates not handled yet, oldest first (what a restart picks up)."""

        def unit(conn: Connection) -> list[Pending]:
            rows = conn.execute(select(t.inbox).where(_i.status == "pending")
                                .order_by(_i.id).limit(limit)).all()
            return [_pending(r) for r in rows]

        return await self.run(unit, write=False)

    async def finish(self, inbox_id: int | None, messages: Sequence[Outgoing],
                     worker: str | None = None, *, claim: str | None = None,
                     lease: float = DEFAULT_LEASE) -> list[Queued]:
        """An update that changed nothing: queue its messages and mark it handled, in one
        transaction (without an inbox row, only queue them). ``worker`` holds the answers;
        ``claim`` is the inbox row's claim token (``worker`` if not given)."""
        claim = claim if claim is not None else worker

        def unit(conn: Connection) -> list[Queued]:
            stamp = now()
            if inbox_id is not None:
                _mark_done(conn, inbox_id, claim, stamp)
            return _enqueue(conn, messages, inbox_id, stamp, worker, lease)

        return await self.run(unit, write=True, batch=True)

    async def attempted(self, inbox_id: int, claim: str | None = None) -> int:
        """Count a failed attempt at an update (left pending for a retry); with ``claim``,
        only while that claim holds it."""

        def unit(conn: Connection) -> int:
            mine = [] if claim is None else [_i.claimed_by == claim]
            conn.execute(update(t.inbox).where(_i.id == inbox_id, *mine).values(
                attempts=_i.attempts + 1, claimed_by=None, claimed_until=None))
            return int(conn.execute(select(_i.attempts).where(_i.id == inbox_id))
                       .scalar_one())

        return await self.run(unit, write=True, batch=True)

    # -- leases, for several workers ----------------------------------------------------

    async def claim_chat(self, chat_id: int, worker: str, lease: float) -> Pending | None:
        """The chat's oldest pending update, if no other claim holds it; held by the claim
        token ``worker`` for ``lease`` seconds (a dead worker's lease runs out)."""

        def unit(conn: Connection) -> Pending | None:
            stamp = now()
            row = conn.execute(_CLAIM, {
                "c_chat": chat_id, "c_now": stamp, "c_worker": worker,
                "c_until": stamp + timedelta(seconds=lease)}).first()
            return None if row is None else _pending(row)

        return await self.run(unit, write=True, batch=True)

    async def chats_waiting(self, limit: int = 500) -> list[int]:
        """Chats with pending updates that no live lease holds, oldest first."""

        def unit(conn: Connection) -> list[int]:
            rows = conn.execute(
                select(_i.chat_id, func.min(_i.id).label("first"))
                .where(_i.status == "pending",
                       or_(_i.claimed_until.is_(None), _i.claimed_until < now()))
                .group_by(_i.chat_id).order_by(text("first")).limit(limit)).all()
            return [r.chat_id for r in rows]

        return await self.run(unit, write=False)

    async def end_stalled_sessions(self, after: float) -> int:
        """PostgreSQL: end this bot's database sessions that have been inside one
        transaction for more than ``after`` seconds (a lease); returns how many.

        Units of work last milliseconds, so such a session belongs to a worker that
        stalled mid-transaction (paused, frozen), and its row locks would hold up the
        worker that takes over its leases. The server ends a session idle in a
        transaction by itself (``idle_in_transaction_session_timeout``, storage.db), but
        not one stopped inside a statement: asyncpg prepares a statement and then binds
        it, and a pipelined ``executemany`` streams its rows, with no sync point between,
        and there neither that timeout nor ``statement_timeout`` applies. Only sessions
        of this database, this user and this bot (its ``application_name``) are ended;
        the stalled worker finds its connection gone and its work fenced."""
        if self.dialect != "postgresql":
            return 0

        def unit(conn: Connection) -> int:
            return len(conn.execute(_END_STALLED, {"name": APPLICATION_NAME,
                                                   "after": after}).all())

        return await self.run(unit, write=False)

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
            return ids, sorted((_queued(r) for r in rows), key=lambda q: q.id)

        return await self.run(unit, write=True)

    async def ahead_of(self, row: Queued, worker: str) -> bool:
        """Whether an older answer of ``row``'s chat still waits that ``worker`` does not
        hold (a scoreboard, replaced by newer ones, does not count)."""

        def unit(conn: Connection) -> bool:
            return conn.execute(select(_o.id).where(
                _o.status == "pending", _o.chat_id == row.chat_id, _o.id < row.id,
                _o.collapse.is_(None),
                or_(_o.claimed_by.is_(None), _o.claimed_by != worker)).limit(1)
            ).first() is not None

        return await self.run(unit, write=False)

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

        await self.run(unit, write=True)

    async def release_claims(self) -> None:
        """Forget every lease (one process owning the pipeline, at its start)."""

        def unit(conn: Connection) -> None:
            conn.execute(update(t.inbox).where(_i.claimed_by.is_not(None))
                         .values(claimed_by=None, claimed_until=None))
            conn.execute(update(t.outbox).where(_o.claimed_by.is_not(None))
                         .values(claimed_by=None, claimed_until=None))

        await self.run(unit, write=True)

    # -- the outbox ----------------------------------------------------------------------

    async def pending_messages(self, limit: int = 10_000) -> list[Queued]:
        def unit(conn: Connection) -> list[Queued]:
            rows = conn.execute(select(t.outbox).where(_o.status == "pending")
                                .order_by(_o.id).limit(limit)).all()
            return [_queued(r) for r in rows]

        return await self.run(unit, write=False)

    async def claim_messages(self, worker: str, lease: float, limit: int = 200
                             ) -> list[Queued]:
        """Pending answers no live lease holds, oldest first, now held by ``worker``: only
        of chats none of whose answers another worker holds by a live lease, so a chat's
        answers change hands together and leave in order."""

        def unit(conn: Connection) -> list[Queued]:
            if self.dialect == "postgresql":  # one sweep at a time: none splits a chat
                conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": _SWEEP_LOCK})
            stamp = now()
            free = or_(_o.claimed_until.is_(None), _o.claimed_until < stamp)
            held = (select(_o.chat_id).where(_o.status == "pending", _o.claimed_by != worker,
                                             _o.claimed_until >= stamp))
            ids = (select(_o.id).where(_o.status == "pending", free,
                                       _o.chat_id.not_in(held.scalar_subquery()))
                   .order_by(_o.id).limit(limit))
            rows = conn.execute(update(t.outbox).where(_o.id.in_(ids.scalar_subquery()), free,
                                                       _o.status == "pending")
                                .values(claimed_by=worker,
                                        claimed_until=stamp + timedelta(seconds=lease))
                                .returning(*t.outbox.c)).all()
            return sorted((_queued(r) for r in rows), key=lambda q: q.id)

        return await self.run(unit, write=True)

    async def settle_messages(self, sent: Sequence[int] = (), dropped: Sequence[int] = (),
                              failed: Sequence[tuple[int, str]] = (),
                              retried: Sequence[int] = ()) -> None:
        """Record what the sender did, in one transaction: what was sent (or dropped, a
        scoreboard replaced by a newer one) is deleted, whoever holds it now (it went out,
        and no retry will need it); a failure is kept, with its error, until pruned."""

        def unit(conn: Connection) -> None:
            stamp = now()
            done = [*sent, *dropped]
            if done:  # no retry will need them: gone at once (a failure is kept a while)
                conn.execute(delete(t.outbox).where(_o.id.in_(done)))
            for row_id, error in failed:
                conn.execute(update(t.outbox).where(_o.id == row_id).values(
                    status="failed", sent_at=stamp, error=error[:500], claimed_by=None,
                    claimed_until=None))
            if retried:
                conn.execute(update(t.outbox).where(_o.id.in_(list(retried)))
                             .values(attempts=_o.attempts + 1))

        await self.run(unit, write=True, batch=True)

    # -- the operator's view -------------------------------------------------------------

    async def backlog(self) -> tuple[int, int]:
        """(updates not handled, answers not sent)."""

        def unit(conn: Connection) -> tuple[int, int]:
            inbox = conn.execute(select(func.count()).where(_i.status == "pending")
                                 .select_from(t.inbox)).scalar_one()
            outbox = conn.execute(select(func.count()).where(_o.status == "pending")
                                  .select_from(t.outbox)).scalar_one()
            return int(inbox), int(outbox)

        return await self.run(unit, write=False)

    async def prune(self, handled_before: datetime, sent_before: datetime) -> tuple[int, int]:
        """Forget the keys of updates handled, and the answers given up on (sent ones are
        gone already), before these times."""

        def unit(conn: Connection) -> tuple[int, int]:
            a = conn.execute(delete(t.inbox).where(and_(
                _i.status == "done", _i.done_at < handled_before))).rowcount
            b = conn.execute(delete(t.outbox).where(and_(
                _o.status != "pending", _o.sent_at < sent_before))).rowcount
            return int(a), int(b)

        return await self.run(unit, write=True)
