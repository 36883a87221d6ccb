"""The delivery pipeline's inbox: updates made durable, claimed by a worker, handled."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta

from sqlalchemy import TextualSelect, bindparam, func, or_, select, text, update
from sqlalchemy.engine import Connection

from storage.queues.messages import (
    DEFAULT_LEASE,
    Incoming,
    Outgoing,
    Pending,
    Queued,
    insert_many,
    pending_of,
)
from storage.queues.messages import finish as finish_update
from storage.sql import tables as t
from storage.sql.clock import naive, now
from storage.sql.store import Service

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


# The chats (of those given) whose pending rows a live lease holds: a hint, read without a
# lock. A holder that finishes its last row just as this transaction stores the chat's next
# one may end its run without seeing it; the row then waits, under no lease, for the next
# scan of the inbox (within about a second). A lock here (FOR SHARE) would close that gap
# but tie this worker to the holder: a receiving worker stalled inside this transaction
# would block the holder's lease renewals until its leases ran out.
_HELD = (
    select(_i.chat_id)
    .where(_i.chat_id.in_(bindparam("h_chats", expanding=True)), _i.status == "pending",
           _i.claimed_until >= bindparam("h_now"))
)


# A chat's receipts one at a time (PostgreSQL; SQLite's writer is one at a time anyway):
# a transaction-level advisory lock on the chat, keyed apart from the other advisory locks.
_CHAT_LOCK = text("SELECT pg_advisory_xact_lock(hashtextextended(:k, 0))")

def _receipt() -> TextualSelect:
    """An update stored, claimed at once (``claimed_by``) if its chat has no other pending
    row, and until when a live lease holds one of the chat's others (``held_until``): one
    statement, run after the chat's advisory lock so that it reads the rows committed
    while it waited. On both backends (SQLite wants a WHERE before ON CONFLICT)."""
    columns = ("key", "chat_id", "update_id", "payload", "received_at", "claim", "until")
    return text(
        "INSERT INTO inbox (key, chat_id, update_id, payload, status, attempts, "
        "received_at, claimed_by, claimed_until) "
        "SELECT :key, :chat_id, :update_id, :payload, 'pending', 0, :received_at, "
        "CASE WHEN waiting.n = 0 THEN :claim END, CASE WHEN waiting.n = 0 THEN :until END "
        "FROM (SELECT count(*) AS n FROM inbox "
        "WHERE chat_id = :chat_id AND status = 'pending') AS waiting WHERE true "
        "ON CONFLICT (key) DO NOTHING "
        "RETURNING id, claimed_by, (SELECT max(other.claimed_until) FROM inbox AS other "
        "WHERE other.chat_id = inbox.chat_id AND other.status = 'pending' "
        "AND other.id <> inbox.id) AS held_until"
    ).bindparams(*(bindparam(c, type_=t.inbox.c[{"claim": "claimed_by",
                                                 "until": "claimed_until"}.get(c, c)].type)
                   for c in columns)).columns(
        t.inbox.c.id, t.inbox.c.claimed_by, t.inbox.c.claimed_until.label("held_until"))


_RECEIPT = _receipt()


class Inbox(Service):
    """The inbox of updates: received (durable before Telegram is told), claimed
    one chat at a time by a worker's lease, handled or counted as a failed attempt."""

    async def receive(self, items: Sequence[Incoming], *, leases: bool = False
                      ) -> list[Pending]:
        """Make updates durable, in one transaction; returns the new ones (a key seen
        before is a re-delivery and is left out). ``leases`` (several workers): each new
        row says whether a live lease held its chat (``held``): its holder takes it next,
        and a claim beside it would only fail."""

        def unit(conn: Connection) -> list[Pending]:
            if not items:
                return []
            stamp = now()
            rows = insert_many(conn, t.inbox, [{
                "key": i.key, "chat_id": i.chat_id, "update_id": i.update_id,
                "payload": i.payload, "status": "pending", "attempts": 0,
                "received_at": stamp} for i in items], _i.key, skip_key=_i.key)
            ids = {row.key: row.id for row in rows}
            held: set[int] = set()
            if leases and ids:
                held.update(conn.execute(_HELD, {
                    "h_chats": sorted({i.chat_id for i in items if i.key in ids}),
                    "h_now": stamp}).scalars())
            new = []
            for item in items:  # a key twice in one batch: the first is the update
                row_id = ids.pop(item.key, None)
                if row_id is not None:
                    new.append(Pending(id=row_id, key=item.key, chat_id=item.chat_id,
                                       update_id=item.update_id, payload=item.payload,
                                       received_at=stamp, held=item.chat_id in held))
            return new

        # Urgent: the next getUpdates (or the webhook's answer to Telegram) waits for it.
        return await self.store.run(unit, write=True, urgent=True)

    async def receive_first(self, item: Incoming, claim: str, lease: float
                            ) -> tuple[Pending | None, bool]:
        """Make one update durable, as :meth:`receive` does; if its chat has no other
        pending update, the new row is claimed at once by the claim token ``claim`` for
        ``lease`` seconds (``True``: the caller handles it, within the same transaction
        when it shares one, see :meth:`storage.sql.store.Store.shared_transaction`).
        Otherwise it is left pending, ``held`` if a live lease holds its chat, as
        :meth:`receive` leaves it. None for a key seen before. The chat's receipts run
        one at a time (an advisory lock on PostgreSQL), so that two rows of one chat are
        never both claimed at receipt."""

        def unit(conn: Connection) -> tuple[Pending | None, bool]:
            stamp = now()
            if conn.dialect.name == "postgresql":
                conn.execute(_CHAT_LOCK, {"k": f"inbox:{item.chat_id}"})
            row = conn.execute(_RECEIPT, {
                "key": item.key, "chat_id": item.chat_id, "update_id": item.update_id,
                "payload": item.payload, "received_at": stamp, "claim": claim,
                "until": stamp + timedelta(seconds=lease)}).one_or_none()
            if row is None:
                return None, False
            held = row.held_until is not None and naive(row.held_until) >= naive(stamp)
            return Pending(id=row.id, key=item.key, chat_id=item.chat_id,
                           update_id=item.update_id, payload=item.payload,
                           received_at=stamp, held=held), row.claimed_by is not None

        return await self.store.run(unit, write=True, urgent=True)

    async def pending_updates(self, limit: int = 10_000) -> list[Pending]:
        """Updates not handled yet, oldest first (what a restart picks up)."""

        def unit(conn: Connection) -> list[Pending]:
            rows = conn.execute(select(t.inbox).where(_i.status == "pending")
                                .order_by(_i.id).limit(limit)).all()
            return [pending_of(r) for r in rows]

        return await self.store.run(unit, write=False)

    async def finish(self, inbox_id: int | None, messages: Sequence[Outgoing],
                     worker: str | None = None, *, claim: str | None = None,
                     lease: float = DEFAULT_LEASE) -> list[Queued]:
        """An update that changed nothing: queue its messages and mark it handled, in one
        transaction (without an inbox row, only queue them). ``worker`` holds the answers;
        ``claim`` is the inbox row's claim token (``worker`` if not given)."""
        claim = claim if claim is not None else worker

        def unit(conn: Connection) -> list[Queued]:
            return finish_update(conn, inbox_id, claim, messages, now(), worker, lease)

        return await self.store.run(unit, write=True, batch=True)

    async def attempted(self, inbox_id: int, claim: str | None = None) -> int:
        """Count a failed attempt at an update (left pending for a retry); with ``claim``,
        only while that claim holds it."""

        def unit(conn: Connection) -> int:
            mine = [] if claim is None else [_i.claimed_by == claim]
            conn.execute(update(t.inbox).where(_i.id == inbox_id, *mine).values(
                attempts=_i.attempts + 1, claimed_by=None, claimed_until=None))
            return int(conn.execute(select(_i.attempts).where(_i.id == inbox_id))
                       .scalar_one())

        return await self.store.run(unit, write=True, batch=True)

    async def claim_chat(self, chat_id: int, worker: str, lease: float) -> Pending | None:
        """The chat's oldest pending update, if no other claim holds it; held by the claim
        token ``worker`` for ``lease`` seconds (a dead worker's lease runs out)."""

        def unit(conn: Connection) -> Pending | None:
            stamp = now()
            row = conn.execute(_CLAIM, {
                "c_chat": chat_id, "c_now": stamp, "c_worker": worker,
                "c_until": stamp + timedelta(seconds=lease)}).first()
            return None if row is None else pending_of(row)

        return await self.store.run(unit, write=True, batch=True)

    async def chats_waiting(self, limit: int = 500) -> list[int]:
        """Chats with pending updates that no live lease holds, oldest first. A chat
        whose pending row a worker holds is left to that worker: it takes the chat's next
        rows when it is done with this one (a claim tried beside it would only fail)."""

        def unit(conn: Connection) -> list[int]:
            held_until = func.max(_i.claimed_until)
            rows = conn.execute(
                select(_i.chat_id, func.min(_i.id).label("first"))
                .where(_i.status == "pending")
                .group_by(_i.chat_id)
                .having(or_(held_until.is_(None), held_until < now()))
                .order_by(text("first")).limit(limit)).all()
            return [r.chat_id for r in rows]

        return await self.store.run(unit, write=False)
