"""Drafts behind inline buttons, kept in the database so buttons survive a restart."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from sqlalchemy import delete, insert, select, update
from sqlalchemy.engine import Connection

from storage import tables as t
from storage.errors import LedgerError
from storage.repository import now
from storage.store import Service


@dataclass(frozen=True)
class Hints:
    """What a guided report can guess from the ledger: the seats that won lately (newest
    first) and the kongs each seat has declared in the open hand."""

    recent_winners: tuple[str, ...] = ()
    kongs: dict[str, int] = field(default_factory=dict)


RECENT_HANDS = 8


class Drafts(Service):
    """Drafts behind inline buttons, so that buttons survive a restart. Each change bumps a
    version; a press carrying an older version is stale and refused.

    A press's change rides in the update's own transaction (with its answers and "this
    update is handled"): ``tx.drafts`` of the bot's write scope's ledger, so a press tried
    again after a failure finds the draft as it was, never half-changed."""

    async def create(self, chat_id: int, user_id: int, kind: str, data: dict[str, Any]
                     ) -> tuple[int, int]:
        def unit(conn: Connection) -> tuple[int, int]:
            res = conn.execute(insert(t.drafts).values(
                chat_id=chat_id, user_id=user_id, kind=kind, version=1, data=data,
                created_at=now()).returning(t.drafts.c.id))
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
                created_at=stamp).returning(d.id))
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
                .values(data=data, version=version + 1))
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
                .values(data=data, version=version + 1))
            if res.rowcount != 1:
                raise LedgerError("stale_button", "that button's draft changed meanwhile")
            return version + 1

        return await self.store.run(unit, write=True)

    async def delete(self, chat_id: int, draft_id: int) -> None:
        def unit(conn: Connection) -> None:
            conn.execute(delete(t.drafts).where(
                t.drafts.c.chat_id == chat_id, t.drafts.c.id == draft_id))

        return await self.store.run(unit, write=True)

    async def hints(self, chat_id: int, session_id: int) -> Hints:
        """Recent winners and the open hand's kongs, from the table's last few hands."""
        h = t.hands.c

        def unit(conn: Connection) -> Hints:
            rows = conn.execute(select(h.status, h.report).where(
                h.chat_id == chat_id, h.session_id == session_id)
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
