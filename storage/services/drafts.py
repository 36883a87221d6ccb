"""Drafts behind inline buttons, kept in the database so buttons survive a restart.

Drafts are short-lived: each goes when its dialog ends (recorded, cancelled, confirmed);
the ones a table's dialogs left go when the table ends (:func:`drop_night_drafts`), and
any left untouched for long (abandoned) are pruned in small batches (:meth:`Drafts.prune`,
run by the delivery pipeline's pruner)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import and_, delete, insert, or_, select, update
from sqlalchemy.engine import Connection

from storage.errors import LedgerError
from storage.sql import tables as t
from storage.sql.clock import now
from storage.sql.store import Service


@dataclass(frozen=True)
class Hints:
    """What a guided report can guess from the ledger: the seats that won lately (newest
    first) and the kongs each seat has declared in the open hand."""

    recent_winners: tuple[str, ...] = ()
    kongs: dict[str, int] = field(default_factory=dict)


RECENT_HANDS = 8

# An /import awaiting its button: the chat's, not its table's (it outlives the table).
IMPORT_KIND = "import"

# Drafts deleted by one prune (one short transaction); the pruner repeats it while full.
PRUNE_BATCH = 500

_d = t.drafts.c


def drop_night_drafts(conn: Connection, chat_id: int) -> int:
    """The end of the chat's table: every draft its dialogs left (guided reports, seat
    buttons, reports kept as a question) goes, so a press on one is out of date; a pending
    /import stays. How many went."""
    return int(conn.execute(delete(t.drafts).where(
        _d.chat_id == chat_id, _d.kind != IMPORT_KIND)).rowcount)


def take_draft(conn: Connection, chat_id: int, draft: tuple[int, int] | int, stale: str
               ) -> None:
    """The press that confirms a draft (its id and version, or its id alone: any version)
    takes it, in the transaction of what it confirms; a draft gone or changed meanwhile
    (pressed twice, or another press first) is ``stale_button``, ``stale`` saying what
    happened."""
    draft_id, version = (draft, None) if isinstance(draft, int) else draft
    which = [_d.chat_id == chat_id, _d.id == draft_id]
    if version is not None:
        which.append(_d.version == version)
    if conn.execute(delete(t.drafts).where(*which)).rowcount != 1:
        raise LedgerError("stale_button", stale)


class Drafts(Service):
    """Drafts behind inline buttons, so that buttons survive a restart. Each change bumps a
    version; a press carrying an older version is stale and refused.

    A press's change rides in the update's own transaction (with its answers and "this
    update is handled"): ``tx.drafts`` of the bot's write scope's ledger, so a press tried
    again after a failure finds the draft as it was, never half-changed."""

    async def create(self, chat_id: int, user_id: int, kind: str, data: dict[str, Any]
                     ) -> tuple[int, int]:
        def unit(conn: Connection) -> tuple[int, int]:
            stamp = now()
            res = conn.execute(insert(t.drafts).values(
                chat_id=chat_id, user_id=user_id, kind=kind, version=1, data=data,
                created_at=stamp, touched_at=stamp).returning(t.drafts.c.id))
            return res.scalar_one(), 1

        return await self.store.run(unit, write=True)

    async def create_bounded(self, chat_id: int, user_id: int, kind: str,
                             data: dict[str, Any], *, keep: int, ttl: timedelta
                             ) -> tuple[int, int]:
        """As :meth:`create`, for a kind whose drafts expire: those older than ``ttl`` go
        (every chat's), and the chat keeps at most ``keep`` of the kind (the newest)."""
        d = t.drafts.c

        def unit(conn: Connection) -> tuple[int, int]:
            stamp = now()
            conn.execute(delete(t.drafts).where(d.kind == kind, d.created_at < stamp - ttl))
            older = conn.execute(select(d.id).where(d.chat_id == chat_id, d.kind == kind)
                                 .order_by(d.id.desc()).offset(max(keep - 1, 0))).scalars()
            gone = list(older)
            if gone:
                conn.execute(delete(t.drafts).where(d.id.in_(gone)))
            res = conn.execute(insert(t.drafts).values(
                chat_id=chat_id, user_id=user_id, kind=kind, version=1, data=data,
                created_at=stamp, touched_at=stamp).returning(d.id))
            return res.scalar_one(), 1

        return await self.store.run(unit, write=True)

    async def get(self, chat_id: int, draft_id: int) -> tuple[int, str, dict[str, Any], int
                                                               ] | None:
        d = t.drafts.c

        def unit(conn: Connection) -> tuple[int, str, dict[str, Any], int] | None:
            row = conn.execute(select(t.drafts).where(
                d.chat_id == chat_id, d.id == draft_id)).first()
            return None if row is None else (row.version, row.kind, row.data, row.user_id)

        return await self.store.run(unit, write=False)

    async def update(self, chat_id: int, draft_id: int, version: int, data: dict[str, Any]
                     ) -> int | None:
        """Store new data if ``version`` is current; the new version, or None when stale."""
        d = t.drafts.c

        def unit(conn: Connection) -> int | None:
            res = conn.execute(update(t.drafts).where(
                d.chat_id == chat_id, d.id == draft_id, d.version == version)
                .values(data=data, version=version + 1, touched_at=now()))
            return version + 1 if res.rowcount == 1 else None

        return await self.store.run(unit, write=True)

    async def advance(self, chat_id: int, draft_id: int, version: int, data: dict[str, Any]
                      ) -> int:
        """As :meth:`update`, but a stale version raises ``stale_button`` (so that the
        answer riding on this write is rolled back with it)."""
        d = t.drafts.c

        def unit(conn: Connection) -> int:
            res = conn.execute(update(t.drafts).where(
                d.chat_id == chat_id, d.id == draft_id, d.version == version)
                .values(data=data, version=version + 1, touched_at=now()))
            if res.rowcount != 1:
                raise LedgerError("stale_button", "that button's draft changed meanwhile")
            return version + 1

        return await self.store.run(unit, write=True)

    async def delete(self, chat_id: int, draft_id: int) -> None:
        def unit(conn: Connection) -> None:
            conn.execute(delete(t.drafts).where(
                t.drafts.c.chat_id == chat_id, t.drafts.c.id == draft_id))

        return await self.store.run(unit, write=True)

    async def prune(self, untouched_before: datetime, *, batch: int = PRUNE_BATCH) -> int:
        """Delete at most ``batch`` drafts (any chat's, any kind) untouched since
        ``untouched_before``: dialogs started and abandoned. One short transaction; how
        many went (``batch``: there may be more). A press on a pruned draft's button is
        out of date, as on any draft that is gone."""
        old = or_(_d.touched_at < untouched_before,  # (NULL: written before revision 0009)
                  and_(_d.touched_at.is_(None), _d.created_at < untouched_before))

        def unit(conn: Connection) -> int:
            ids = list(conn.execute(select(_d.id).where(old).order_by(_d.touched_at)
                                    .limit(batch)).scalars())
            if not ids:
                return 0
            return int(conn.execute(delete(t.drafts).where(_d.id.in_(ids), old)).rowcount)

        return await self.store.run(unit, write=True)

    async def hints(self, chat_id: int, night_id: int) -> Hints:
        """Recent winners and the open hand's kongs, from the table's last few hands."""
        h = t.hands.c

        def unit(conn: Connection) -> Hints:
            rows = conn.execute(select(h.status, h.report).where(
                h.chat_id == chat_id, h.night_id == night_id)
                .order_by(h.number.desc()).limit(RECENT_HANDS)).all()
            recent: list[str] = []
            kongs: Counter[str] = Counter()
            for row in rows:
                events = (row.report or {}).get("events", [])
                if row.status == "open":
                    kongs.update(e["seat"] for e in events if e.get("type") == "kong")
                if row.status == "void":
                    continue
                for event in reversed(events):
                    for w in event.get("winners", []) if event.get("type") == "win" else []:
                        if w["seat"] not in recent:
                            recent.append(w["seat"])
            return Hints(tuple(recent), dict(kongs))

        return await self.store.run(unit, write=False)
