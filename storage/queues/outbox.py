"""The delivery pipeline's outbox: the answers waiting to be sent, and what the
sender did with them."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta

from sqlalchemy import bindparam, delete, exists, or_, select, text, update
from sqlalchemy.engine import Connection

from storage.queues.messages import (
    Queued,
    queued_of,
)
from storage.sql import tables as t
from storage.sql.clock import now
from storage.sql.store import Service

_i, _o = t.inbox.c, t.outbox.c
_h = t.outbox.alias("ahead").c  # an older answer of the same chat

_DELETE = delete(t.outbox).where(_o.id.in_(bindparam("ids", expanding=True)))
_SWEEP_LOCK = 0x7A11_0001  # the advisory lock that one sweep of the outbox holds at a time


class Outbox(Service):
    """The outbox of answers: pending ones, claimed by a sender's lease a chat at
    a time, in order, and what was sent, dropped or failed."""

    async def pending_messages(self, limit: int = 10_000) -> list[Queued]:
        def unit(conn: Connection) -> list[Queued]:
            rows = conn.execute(select(t.outbox).where(_o.status == "pending")
                                .order_by(_o.id).limit(limit)).all()
            return [queued_of(r) for r in rows]

        return await self.store.run(unit, write=False)

    async def claim_messages(self, worker: str, lease: float, limit: int = 200
                             ) -> list[Queued]:
        """Pending answers no live lease holds, oldest first, now held by ``worker``: of
        each chat, those older than its first answer another worker holds by a live lease
        (all of them if none), so a chat's answers change hands in order, a head whose
        holder is gone whatever later ones live workers hold. Those later ones were
        written ``behind`` it and wait until it is sent."""

        def unit(conn: Connection) -> list[Queued]:
            if self.store.dialect == "postgresql":  # one sweep at a time: none takes another's
                conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": _SWEEP_LOCK})
            stamp = now()
            free = or_(_o.claimed_until.is_(None), _o.claimed_until < stamp)
            held_before = exists().where(_h.chat_id == _o.chat_id, _h.id < _o.id,
                                         _h.status == "pending", _h.claimed_by != worker,
                                         _h.claimed_until >= stamp)
            ids = (select(_o.id).where(_o.status == "pending", free, ~held_before)
                   .order_by(_o.id).limit(limit))
            rows = conn.execute(update(t.outbox).where(_o.id.in_(ids.scalar_subquery()), free,
                                                       _o.status == "pending")
                                .values(claimed_by=worker,
                                        claimed_until=stamp + timedelta(seconds=lease))
                                .returning(*t.outbox.c)).all()
            return sorted((queued_of(r) for r in rows), key=lambda q: q.id)

        return await self.store.run(unit, write=True)

    async def ahead_of(self, row: Queued, worker: str) -> bool:
        """Whether an older answer of ``row``'s chat still waits that ``worker`` does not
        hold (a scoreboard, replaced by newer ones, does not count)."""

        def unit(conn: Connection) -> bool:
            return conn.execute(select(_o.id).where(
                _o.status == "pending", _o.chat_id == row.chat_id, _o.id < row.id,
                _o.collapse.is_(None),
                or_(_o.claimed_by.is_(None), _o.claimed_by != worker)).limit(1)
            ).first() is not None

        return await self.store.run(unit, write=False)

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
                conn.execute(_DELETE, {"ids": done})
            for row_id, error in failed:
                conn.execute(update(t.outbox).where(_o.id == row_id).values(
                    status="failed", sent_at=stamp, error=error[:500], claimed_by=None,
                    claimed_until=None))
            if retried:
                conn.execute(update(t.outbox).where(_o.id.in_(list(retried)))
                             .values(attempts=_o.attempts + 1))

        await self.store.run(unit, write=True, batch=True)
