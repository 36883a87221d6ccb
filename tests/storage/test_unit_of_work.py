"""Units of work: one transaction each, and on SQLite one trip to aiosqlite's thread."""

from __future__ import annotations

from datetime import UTC, datetime

import aiosqlite
import pytest
from sqlalchemy import func, select
from sqlalchemy.engine import Connection
from sqlalchemy.util import greenlet_spawn

from storage import tables as t
from storage import unit_of_work
from storage.ledger import Ledger
from tests.storage.helpers import SEATED, assert_books_balance, win

CHAT = -42


def _audit_count(conn: Connection) -> int:
    return int(conn.execute(select(func.count()).select_from(t.audit)).scalar_one())


def _add_audit(conn: Connection, action: str) -> None:
    conn.execute(t.audit.insert().values(chat_id=CHAT, action=action, at=datetime.now(UTC)))


async def test_a_unit_that_raises_keeps_nothing(ledger: Ledger) -> None:
    await ledger.chat(CHAT)

    def half_done(conn: Connection) -> None:
        _add_audit(conn, "first")
        raise RuntimeError("power cut")

    with pytest.raises(RuntimeError, match="power cut"):
        await ledger.run(half_done, write=True)
    assert await ledger.run(_audit_count, write=False) == 0
    await ledger.run(_add_audit, "kept", write=True)
    assert await ledger.run(_audit_count, write=False) == 1


async def test_sqlite_records_a_report_in_one_trip_to_the_worker_thread(
        tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    ledger = await Ledger.open(f"sqlite+aiosqlite:///{tmp_path}/one.sqlite3")
    try:
        await ledger.open_session(CHAT, SEATED, preset="chengdu")
        trips = 0
        real = aiosqlite.Connection._execute

        async def counted(self, fn, *args, **kwargs):  # type: ignore[no-untyped-def]
            nonlocal trips
            trips += 1
            return await real(self, fn, *args, **kwargs)

        monkeypatch.setattr(aiosqlite.Connection, "_execute", counted)
        out = await ledger.record(CHAT, win("self_draw", "S"), update_id=5)
        assert out.event is not None and trips == 1
    finally:
        await ledger.close()


async def test_sqlite_falls_back_to_run_sync_without_the_one_step_path(
        tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(unit_of_work, "one_step_capable", lambda driver: False)
    ledger = await Ledger.open(f"sqlite+aiosqlite:///{tmp_path}/fallback.sqlite3")
    try:
        await ledger.open_session(CHAT, SEATED, preset="chengdu")
        await ledger.record(CHAT, win("self_draw", "S"))
        await ledger.record(CHAT, win("discard", "W", "E"))
        await ledger.undo(CHAT)
        session = await ledger.current_session(CHAT)
        assert session is not None and session.totals["S"] == 6
        await assert_books_balance(ledger, [CHAT])
    finally:
        await ledger.close()


async def test_sqlite_never_builds_on_a_transaction_left_open(tmp_path) -> None:  # type: ignore[no-untyped-def]
    ledger = await Ledger.open(f"sqlite+aiosqlite:///{tmp_path}/left.sqlite3")
    try:
        await ledger.chat(CHAT)
        pooled = await ledger.engine.raw_connection()
        driver = pooled.driver_connection
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
