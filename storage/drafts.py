"""Drafts behind inline buttons, kept in the database so buttons survive a restart."""

from __future__ import annotations

from typing import Any

from sqlalchemy import delete, insert, select, update
from sqlalchemy.engine import Connection

from storage import tables as t
from storage.ledger_base import LedgerBase as Ledger
from storage.ledger_base import now


class Drafts:
    """Drafts behind inline buttons, so that buttons survive a restart. Each change bumps a
    version; a press carrying an older version is stale and refused."""

    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger

    async def create(self, chat_id: int, user_id: int, kind: str, data: dict[str, Any]
                     ) -> tuple[int, int]:
        def unit(conn: Connection) -> tuple[int, int]:
            res = conn.execute(insert(t.drafts).values(
                chat_id=chat_id, user_id=user_id, kind=kind, version=1, data=data,
                created_at=now()).returning(t.drafts.c.id))
            return res.scalar_one(), 1

        return await self.ledger.run(unit, write=True)

    async def get(self, chat_id: int, draft_id: int) -> tuple[int, str, dict[str, Any], int
                                                               ] | None:
        d = t.drafts.c

        def unit(conn: Connection) -> tuple[int, str, dict[str, Any], int] | None:
            row = conn.execute(select(t.drafts).where(
                d.chat_id == chat_id, d.id == draft_id)).first()
            return None if row is None else (row.version, row.kind, row.data, row.user_id)

        return await self.ledger.run(unit, write=False)

    async def update(self, chat_id: int, draft_id: int, version: int, data: dict[str, Any]
                     ) -> int | None:
        """Store new data if ``version`` is current; the new version, or None when stale."""
        d = t.drafts.c

        def unit(conn: Connection) -> int | None:
            res = conn.execute(update(t.drafts).where(
                d.chat_id == chat_id, d.id == draft_id, d.version == version)
                .values(data=data, version=version + 1))
            return version + 1 if res.rowcount == 1 else None

        return await self.ledger.run(unit, write=True)

    async def delete(self, chat_id: int, draft_id: int) -> None:
        def unit(conn: Connection) -> None:
            conn.execute(delete(t.drafts).where(
                t.drafts.c.chat_id == chat_id, t.drafts.c.id == draft_id))

        return await self.ledger.run(unit, write=True)
