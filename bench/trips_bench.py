"""What one statement costs on each road to the database, in CPU of this process: a
one-row ``INSERT`` run 2,000 times in one transaction.

- anchor: SQLAlchemy's sync engine on Python's own ``sqlite3``, in the calling thread;
- SQLAlchemy's ``AsyncConnection.run_sync`` on aiosqlite (how the ledger runs on SQLite:
  each statement is three or four calls to aiosqlite's thread and back);
- one aiosqlite call alone (``execute_fetchall``), and a bare hand-off between two
  threads (a queue ping-pong): what a call to another thread costs on this machine;
- with ``--url``, ``run_sync`` on asyncpg (PostgreSQL).

Run: ``python -m bench.trips_bench [--url postgresql+asyncpg://...]``.
"""

from __future__ import annotations

import argparse
import asyncio
import queue
import tempfile
import threading
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sqlalchemy import Column, Integer, MetaData, String, Table, create_engine, insert
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import create_async_engine

N = 2000
metadata = MetaData()
rows = Table("trips", metadata, Column("id", Integer, primary_key=True),
             Column("a", Integer), Column("b", String(16)))
INSERT = insert(rows)


def _statements(conn: Connection) -> None:
    for i in range(N):
        conn.execute(INSERT, {"a": i, "b": "hello"})


def _cpu(fn: Callable[[], Any]) -> float:
    """µs of this process's CPU per statement."""
    start = time.process_time()
    fn()
    return (time.process_time() - start) / N * 1e6


async def _acpu(coro: Any) -> float:
    start = time.process_time()
    await coro
    return (time.process_time() - start) / N * 1e6


def _ping_pong() -> float:
    there: queue.SimpleQueue[int] = queue.SimpleQueue()
    back: queue.SimpleQueue[int] = queue.SimpleQueue()

    def echo() -> None:
        for _ in range(N):
            back.put(there.get())

    thread = threading.Thread(target=echo)
    thread.start()

    def run() -> None:
        for i in range(N):
            there.put(i)
            back.get()

    cost = _cpu(run)
    thread.join()
    return cost


async def _run_sync(url: str, schema: str | None = None) -> float:
    kw: dict[str, Any] = {}
    if schema is not None:
        kw["connect_args"] = {"server_settings": {"search_path": schema}}
    engine = create_async_engine(url, **kw)
    try:
        async with engine.begin() as conn:
            await conn.run_sync(metadata.create_all)
        async with engine.begin() as conn:
            return await _acpu(conn.run_sync(_statements))
    finally:
        await engine.dispose()


async def _one_call(path: Path) -> float:
    import aiosqlite

    async with aiosqlite.connect(path) as db:
        await db.execute("CREATE TABLE trips (id INTEGER PRIMARY KEY, a INT, b TEXT)")

        async def calls() -> None:
            for i in range(N):
                await db.execute_fetchall("INSERT INTO trips (a, b) VALUES (?, ?)",
                                          (i, "hello"))
        return await _acpu(calls())


async def main(url: str | None) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        sync = create_engine(f"sqlite:///{Path(tmp) / 'sync.sqlite3'}")
        metadata.create_all(sync)
        with sync.begin() as conn:
            anchor = _cpu(lambda: _statements(conn))
        sync.dispose()
        aio = await _run_sync(f"sqlite+aiosqlite:///{Path(tmp) / 'aio.sqlite3'}")
        call = await _one_call(Path(tmp) / "calls.sqlite3")
        hand_off = _ping_pong()
        print(f"one INSERT, µs of CPU ({N} in one transaction):")
        print(f"  sqlite3 in the calling thread (anchor): {anchor:6.0f}")
        print(f"  run_sync on aiosqlite:                  {aio:6.0f}  ({aio / anchor:.0f}x)")
        print(f"  one aiosqlite call:                     {call:6.0f}")
        print(f"  a bare hand-off between two threads:    {hand_off:6.0f}")
        if url is not None:
            import asyncpg

            schema = "bench_" + uuid.uuid4().hex[:8]
            dsn = url.replace("postgresql+asyncpg", "postgresql")
            admin = await asyncpg.connect(dsn)
            await admin.execute(f"CREATE SCHEMA {schema}")
            try:
                pg = await _run_sync(url, schema)
                print(f"  run_sync on asyncpg:                    {pg:6.0f}  "
                      f"({pg / anchor:.0f}x)")
            finally:
                await admin.execute(f"DROP SCHEMA {schema} CASCADE")
                await admin.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", default=None, help="PostgreSQL, to measure asyncpg too")
    asyncio.run(main(parser.parse_args().url))
