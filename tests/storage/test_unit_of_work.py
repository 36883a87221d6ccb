"""Units of work: one transaction each, through SQLAlchemy's public run_sync."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import func, select
from sqlalchemy.engine import Connection
from sqlalchemy.util import greenlet_spawn

from storage.ledger import Ledger
from storage.models import PlayerRef
from storage.sql import statements as sql
from storage.sql import tables as t
from storage.sql.unit_of_work import deferring, later

CHAT = -42


def _audit_count(conn: Connection) -> int:
    return int(conn.execute(select(func.count()).select_from(t.audit)).scalar_one())


def _add_audit(conn: Connection, action: str) -> None:
    conn.execute(t.audit.insert().values(chat_id=CHAT, action=action, at=datetime.now(UTC)))


async def test_a_unit_that_raises_keeps_nothing(ledger: Ledger) -> None:
    await ledger.chats.chat(CHAT)

    def half_done(conn: Connection) -> None:
        _add_audit(conn, "first")
        raise RuntimeError("power cut")

    with pytest.raises(RuntimeError, match="power cut"):
        await ledger.run(half_done, write=True)
    assert await ledger.run(_audit_count, write=False) == 0
    await ledger.run(_add_audit, "kept", write=True)
    assert await ledger.run(_audit_count, write=False) == 1


async def test_sqlite_never_builds_on_a_transaction_left_open(tmp_path: Path) -> None:
    ledger = await Ledger.open(f"sqlite+aiosqlite:///{tmp_path}/left.sqlite3")
    try:
        await ledger.chats.chat(CHAT)
        pooled = await ledger.engine.raw_connection()
        driver = pooled.driver_connection
        assert driver is not None
        await driver.execute("BEGIN")  # a caller interrupted mid-transaction
        await driver.execute("INSERT INTO audit (chat_id, action, at) VALUES (?, 'stray', ?)",
                             (CHAT, datetime.now(UTC).isoformat()))
        await greenlet_spawn(pooled.close)
        await ledger.run(_add_audit, "mine", write=True)
        async with ledger.read() as conn:
            actions = (await conn.execute(select(t.audit.c.action))).scalars().all()
        assert actions == ["mine"]
    finally:
        await ledger.close()


async def test_a_players_moves_left_for_later_all_count(ledger: Ledger) -> None:
    """Two moves of one player's totals left for the transaction's end (one statement on
    PostgreSQL) both count, as two updates would; and so do two players' at once."""
    ann = await ledger.chats.player(CHAT, PlayerRef(name="Ann"))
    bob = await ledger.chats.player(CHAT, PlayerRef(name="Bob"))

    def move(pid: int, net: int) -> dict[str, int]:
        return {"pid": pid, "d_net": net, "d_hands": 1, "d_wins": 0, "d_self_draws": 0,
                "d_dealt_in": 0, "d_win_points": 0}

    def unit(conn: Connection) -> None:
        with deferring(conn):
            later(conn, sql.MOVE_TOTALS, [move(ann.id, 5), move(bob.id, -5)])
            later(conn, sql.MOVE_TOTALS, move(ann.id, -2))

    await ledger.run(unit, write=True)

    def totals(conn: Connection) -> dict[int, tuple[int, int]]:
        c = t.totals.c
        return {r.player_id: (r.net, r.hands) for r in conn.execute(
            select(c.player_id, c.net, c.hands).where(c.chat_id == CHAT)).all()}

    assert await ledger.run(totals, write=False) == {ann.id: (3, 2), bob.id: (-5, 1)}
