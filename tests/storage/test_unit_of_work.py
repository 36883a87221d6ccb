"""Units of work: one transaction each, through SQLAlchemy's public run_sync."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select
from sqlalchemy.engine import Connection
from sqlalchemy.util import greenlet_spawn

from storage.ledger import Ledger
from storage.models import PlayerRef
from storage.sql import statements as sql
from storage.sql import tables as t
from storage.sql.unit_of_work import deferring, later
from tests.storage.helpers import SEATED

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


async def test_writes_left_for_later_on_one_table_or_several_all_count(
        ledger: Ledger) -> None:
    """A unit's writes left for its end, on tables of their own (one statement on
    PostgreSQL) or two on one table (run one by one): every one counts."""
    night = await ledger.open_nights.open_night(CHAT, SEATED, preset="chengdu")
    ann = night.seats["E"]

    def nets(d_e: int) -> dict[str, int]:
        return {"night_id": night.id, "d_e": d_e, "d_s": -d_e, "d_w": 0, "d_n": 0}

    def move(pid: int, net: int) -> dict[str, int]:
        return {"pid": pid, "d_net": net, "d_hands": 1, "d_wins": 0, "d_self_draws": 0,
                "d_dealt_in": 0, "d_win_points": 0}

    def two_tables(conn: Connection) -> None:
        with deferring(conn):
            later(conn, sql.MOVE_TOTALS, move(ann.id, 4))
            later(conn, sql.MOVE_NIGHT_NETS, nets(4))
            later(conn, sql.MOVE_NIGHT_NETS, nets(1))

    def one_table_twice(conn: Connection) -> None:
        with deferring(conn):
            later(conn, sql.MOVE_TOTALS, move(ann.id, 2))
            later(conn, sql.MOVE_NIGHT_NETS, nets(2))
            later(conn, sql.MOVE_NIGHT, {**nets(3), "b_hands": 7, "b_dealer": "W"})

    await ledger.run(two_tables, write=True)
    await ledger.run(one_table_twice, write=True)

    def read(conn: Connection) -> tuple[Any, ...]:
        s, c = t.nights.c, t.totals.c
        row = conn.execute(select(s.net_e, s.net_s, s.hands, s.dealer).where(
            s.id == night.id)).one()
        total = conn.execute(select(c.net, c.hands).where(c.player_id == ann.id)).one()
        return tuple(row), tuple(total)

    assert await ledger.run(read, write=False) == ((10, -10, 7, "W"), (6, 2))
