"""The delivery pipeline's storage: the inbox of updates and the outbox of answers. This
module holds what they exchange (:class:`Incoming`, :class:`Pending`, :class:`Outgoing`,
:class:`Queued`, :class:`Answer`); their operations are the ledger's services
``ledger.inbox`` (:mod:`storage.queues.inbox`), ``ledger.outbox`` (:mod:`storage.queues.outbox`) and
``ledger.queues`` (:mod:`storage.queues.leases`).

- ``inbox.receive`` makes updates durable (one transaction for a batch), refusing a
  re-delivered one by its key; only then may Telegram be told they arrived.
- An :class:`Answer` rides on a ledger write (``ledger.answering(answer).hands.record(...)``):
  in the same transaction as the change, it renders the messages from the change's result,
  queues them in the outbox and marks the update handled. So a change is never committed
  without its answer, nor an update marked handled without its change. The bound ledger
  makes that one write; a second is refused before it runs
  (:class:`storage.sql.store.SecondWrite`). The
  bot reaches this only through its write scope (:func:`bot.delivery.send.write`).
- ``inbox.finish`` does the same for an update that changed nothing.
- The sender reads the outbox and marks what it sent; ``queues.prune`` forgets handled
  updates and sent answers after a while (never the ledger's own tables). A handled
  update keeps only its key (a re-delivery is refused by it), for as long as Telegram
  may deliver it again; a sent answer is deleted at once (only an answer given up on
  stays, with its error, for the operator).
- Several workers share the inbox and the outbox through leases (``claimed_by`` and
  ``claimed_until``): a row is worked on by one worker at a time, and a chat's rows in order.
  ``claimed_by`` is the claim's token: an inbox claim's is new for every run of a chat's
  dispatcher (``<worker>:<n>``), an outbox row's is its sender's (``<worker>``). A worker
  renews the leases it holds (``queues.renew``) while it works on them; every late
  action is fenced by the token, in the same statement: "handled" only while the claim is
  still this one's (else :class:`AlreadyHandled` rolls the whole unit back), a renewal
  only of rows still held (the sender sends a row only within a lease it renewed, and
  drops rows another worker took over). Another worker takes a chat's answers whose lease
  ran out in order, up to the first one a live worker holds, whatever live workers hold
  behind them (``outbox.claim_messages``), and an answer written while older ones of its
  chat wait with another worker is marked ``behind``: its sender waits until those are
  gone (``outbox.ahead_of``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from typing import Any

from pydantic import BaseModel, ConfigDict
from sqlalchemy import bindparam, text, update
from sqlalchemy.engine import Connection

from storage.sql import tables as t
from storage.sql.clock import now

_i, _o = t.inbox.c, t.outbox.c

DEFAULT_LEASE = 30.0  # seconds (the setting delivery.lease_seconds)
HANDLED: dict[str, Any] = {}  # what a handled update's row keeps of the update


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
    # When it was received, a live lease held its chat (several workers): the holder takes
    # it next, so the worker that received it starts nothing.
    held: bool = False


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


# What turns a write's result into the messages that answer it. It runs inside the write's
# transaction, so it is synchronous (it cannot await the ledger or Telegram: the type says
# so) and pure: it reads only its argument and what the handler captured before the write.
Render = Callable[[Any], Sequence[Outgoing]]


class AlreadyHandled(Exception):
    """The update was handled meanwhile (another worker, or a lease that ran out)."""


class Answer:
    """The messages a write answers with, written in the write's own transaction.

    ``render`` turns the unit of work's result into messages; ``before`` are messages
    the handler queued before the write. After the commit, ``queued`` holds the rows."""

    def __init__(self, inbox_id: int | None, render: Render,
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
        self.queued = finish(conn, self.inbox_id, self.claim,
                             [*self.before, *self.render(result)], now(), self.worker,
                             self.lease)


def insert_many(conn: Connection, table: Any, rows: list[dict[str, Any]],
                 *returning: Any, skip_key: Any = None, behind: str | None = None,
                 done: tuple[int, str | None, datetime] | None = None) -> list[Any]:
    """One multi-row ``INSERT ... RETURNING`` (one statement, one round trip, on both
    backends), its rows in insertion order; with ``skip_key``, rows whose key exists are
    skipped (``ON CONFLICT DO NOTHING``). Ids grow in insertion order (SQLite's integer
    primary key, a PostgreSQL sequence), so sorting by id restores the order given. With
    ``behind`` (outbox rows held by that worker), each row also says whether an older answer
    of its chat waits that the worker does not hold (``behind``), in the same statement.
    With ``done`` (PostgreSQL only: an inbox id, its claim token or None, the time), the
    same statement marks that inbox row handled, fenced as :func:`mark_done` fences it,
    and each row says whether it did (``done``: 1, else 0)."""
    columns = tuple(rows[0])
    stmt = _rows_statement(conn.dialect.name, table, columns, len(rows),
                           tuple(c.name for c in returning),
                           None if skip_key is None else skip_key.name, behind is not None,
                           None if done is None else done[1] is not None)
    flat = {f"{c}_{n}": row[c] for n, row in enumerate(rows) for c in columns}
    if behind is not None:
        flat["b_worker"] = behind
    if done is not None:
        flat["d_id"], flat["d_at"], flat["d_payload"] = done[0], done[2], HANDLED
        if done[1] is not None:
            flat["d_claim"] = done[1]
    return sorted(conn.execute(stmt, flat).all(), key=lambda r: r.id)


@functools.lru_cache(maxsize=256)
def _rows_statement(dialect: str, table: Any, columns: tuple[str, ...], n: int,
                    returning: tuple[str, ...], skip_key: str | None, behind: bool,
                    done: bool | None = None) -> Any:
    """The statement for :func:`insert_many`, built once for each shape. It is SQL text
    with typed parameters: SQLAlchemy compiles a Core multi-row ``values()`` anew on every
    execution (it has no cache key), which costs more than the round trip it saves.
    ``done``: None, or with the inbox row's "handled" (True: fenced by a claim)."""
    rows = ", ".join("(" + ", ".join(f":{c}_{i}" for c in columns) + ")" for i in range(n))
    conflict = f" ON CONFLICT ({skip_key}) DO NOTHING" if skip_key is not None else ""
    back = ", ".join(("id", *returning, *([_BEHIND] if behind else []),
                      *([_DONE_COUNT] if done is not None else [])))
    first = "" if done is None else _DONE_WITH + (_DONE_FENCE if done else "") + \
        " RETURNING 1) "
    stmt = text(f"{first}INSERT INTO {table.name} ({', '.join(columns)}) VALUES {rows}"
                f"{conflict} RETURNING {back}")
    fenced = [bindparam("d_id", type_=_i.id.type), bindparam("d_at", type_=_i.done_at.type),
              bindparam("d_payload", type_=_i.payload.type),
              *([bindparam("d_claim", type_=_i.claimed_by.type)] if done else [])]
    return stmt.bindparams(*(bindparam(f"{c}_{i}", type_=table.c[c].type)
                             for i in range(n) for c in columns),
                           *([bindparam("b_worker", type_=_o.claimed_by.type)] if behind else []),
                           *(fenced if done is not None else []))


# An update marked handled in its answers' insert (PostgreSQL's data-modifying WITH: it
# runs once, whatever the insert reads of it), as _DONE and _DONE_BY do it alone.
_DONE_WITH = ("WITH done AS (UPDATE inbox SET status = 'done', done_at = :d_at, "
              "claimed_by = NULL, claimed_until = NULL, payload = :d_payload "
              "WHERE inbox.id = :d_id AND inbox.status = 'pending'")
_DONE_FENCE = " AND inbox.claimed_by = :d_claim"
_DONE_COUNT = "(SELECT count(*) FROM done) AS done"


# An answer's chat has older answers waiting (pending, not a board edit) that the worker
# writing it does not hold; its own rows, held by it, are not among them.
_BEHIND = ("EXISTS (SELECT 1 FROM outbox AS older WHERE older.chat_id = outbox.chat_id "
           "AND older.status = 'pending' AND older.collapse IS NULL "
           "AND (older.claimed_by IS NULL OR older.claimed_by <> :b_worker)) AS behind")


# Handled: only the key (and the status) is kept, for as long as Telegram may deliver the
# update again (delivery.inbox_retention_hours); the update itself is dropped.
_DONE = (update(t.inbox).where(_i.id == bindparam("b_id"), _i.status == "pending")
         .values(status="done", done_at=bindparam("b_at"), claimed_by=None, claimed_until=None,
                 payload=HANDLED))
_DONE_BY = _DONE.where(_i.claimed_by == bindparam("b_worker"))


def finish(conn: Connection, inbox_id: int | None, claim: str | None,
           messages: Sequence[Outgoing], stamp: datetime, worker: str | None = None,
           lease: float = DEFAULT_LEASE) -> list[Queued]:
    """Mark update ``inbox_id`` handled (if any; fenced by ``claim``: a lost claim raises
    :class:`AlreadyHandled` and the unit is rolled back, nothing of it written) and queue
    ``messages``: on PostgreSQL in one statement when there are messages."""
    if inbox_id is None:
        return enqueue(conn, messages, None, stamp, worker, lease)
    if not messages or conn.dialect.name != "postgresql":
        mark_done(conn, inbox_id, claim, stamp)
        return enqueue(conn, messages, inbox_id, stamp, worker, lease)
    return enqueue(conn, messages, inbox_id, stamp, worker, lease, handled=True, claim=claim)


def enqueue(conn: Connection, messages: Sequence[Outgoing], inbox_id: int | None,
            stamp: datetime, worker: str | None = None, lease: float = DEFAULT_LEASE,
            *, handled: bool = False, claim: str | None = None) -> list[Queued]:
    """Queue ``messages``; a worker (several share the outbox) holds them for a while, so
    that no other sends them unless it stops renewing the lease. An answer whose chat
    has older answers not held by this worker is ``behind`` them. ``handled`` (PostgreSQL):
    mark ``inbox_id`` handled in the same statement, fenced by ``claim`` (see
    :func:`finish`)."""
    if not messages:
        return []
    until = stamp + timedelta(seconds=lease) if worker is not None else None
    values = [{"chat_id": m.chat_id, "inbox_id": inbox_id, "method": m.method,
               "params": m.params, "collapse": m.collapse, "status": "pending",
               "attempts": 0, "created_at": stamp, "claimed_by": worker,
               "claimed_until": until} for m in messages]
    # held by a worker: whether older answers of its chat wait that the worker does not hold
    fence = (inbox_id, claim, stamp) if handled and inbox_id is not None else None
    rows = insert_many(conn, t.outbox, values, behind=worker, done=fence)
    if fence is not None and any(row.done != 1 for row in rows):
        raise AlreadyHandled(inbox_id)
    return [Queued(id=row.id, chat_id=m.chat_id, method=m.method, params=m.params,
                   collapse=m.collapse, created_at=stamp, held_until=until,
                   behind=bool(getattr(row, "behind", False)) and m.collapse is None)
            for row, m in zip(rows, messages, strict=True)]


def mark_done(conn: Connection, inbox_id: int, claim: str | None, stamp: datetime) -> None:
    if claim is None:
        done = conn.execute(_DONE, {"b_id": inbox_id, "b_at": stamp})
    else:  # only while this claim holds (not taken over after its lease ran out)
        done = conn.execute(_DONE_BY, {"b_id": inbox_id, "b_at": stamp, "b_worker": claim})
    if done.rowcount != 1:
        raise AlreadyHandled(inbox_id)


def pending_of(row: Any) -> Pending:
    return Pending(id=row.id, key=row.key, chat_id=row.chat_id, update_id=row.update_id,
                   payload=row.payload, attempts=row.attempts, received_at=row.received_at)


def queued_of(row: Any) -> Queued:
    return Queued(id=row.id, chat_id=row.chat_id, method=row.method, params=row.params,
                  collapse=row.collapse, attempts=row.attempts, created_at=row.created_at,
                  held_until=row.claimed_until)
