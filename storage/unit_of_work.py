"""Units of work: one transaction, written as a plain function over a Core ``Connection``.

The ledger's operations are synchronous SQLAlchemy Core code; :func:`run` gives each one
its transaction and runs it without blocking the event loop:

- PostgreSQL (asyncpg): through :meth:`AsyncConnection.run_sync`, SQLAlchemy's documented
  bridge, so every statement is awaited on the event loop as usual.
- SQLite (aiosqlite): in the worker thread that aiosqlite keeps for each connection, in one
  step. SQLAlchemy's aiosqlite adapter hands every cursor call to that thread and back
  (three or four thread switches per statement, 0.1–0.2 ms each here), so a ten-statement
  write costs milliseconds in switching alone. Running the whole unit on the thread that
  owns the connection costs one switch. There a synchronous engine (the ``pysqlite``
  dialect, sharing the same ``sqlite3`` connection, which aiosqlite's pool still owns and
  closes) executes the same Core statements.

The SQLite path uses two private members of ``aiosqlite.Connection`` (``_execute`` and
``_conn``), present since aiosqlite's first releases; the version is pinned below 0.23 and
a test checks that the path is taken. Should they ever be missing, :func:`run` falls back
to ``run_sync``, which is correct, only slower.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from sqlalchemy import create_engine, event
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlalchemy.pool import StaticPool
from sqlalchemy.util import greenlet_spawn

T = TypeVar("T")
Unit = Callable[..., T]

_SYNC_ENGINE = "_tally_sync_engine"  # attribute cached on each aiosqlite connection


def begin_sqlite(conn: Connection) -> None:
    """SQLAlchemy's "begin" hook for SQLite: writers take the lock up front
    (``BEGIN IMMEDIATE``) so that two writers queue instead of failing half-way."""
    if conn.get_execution_options().get("write"):
        conn.exec_driver_sql("BEGIN IMMEDIATE")
    else:
        conn.exec_driver_sql("BEGIN")


def _engine_over(sqlite_connection: Any) -> Engine:
    """A synchronous engine whose one connection is an existing ``sqlite3`` connection."""
    engine = create_engine("sqlite://", creator=lambda: sqlite_connection,
                           poolclass=StaticPool)
    event.listen(engine, "begin", begin_sqlite)
    return engine


def _in_worker_thread(driver: Any, fn: Unit[T], args: tuple[Any, ...], write: bool) -> T:
    engine: Engine | None = getattr(driver, _SYNC_ENGINE, None)
    if engine is None:
        engine = _engine_over(driver._conn)
        setattr(driver, _SYNC_ENGINE, engine)
    if driver._conn.in_transaction:  # left over by an interrupted caller: never build on it
        driver._conn.rollback()
    with engine.connect() as conn:
        conn = conn.execution_options(write=write)
        with conn.begin():
            return fn(conn, *args)


def one_step_capable(driver: Any) -> bool:
    """Whether this aiosqlite connection offers what the one-step path needs."""
    return callable(getattr(driver, "_execute", None)) and hasattr(type(driver), "_conn")


async def run(engine: AsyncEngine, fn: Unit[T], *args: Any, write: bool) -> T:
    """Run ``fn(conn, *args)`` in one transaction and return its result. A write takes
    the write lock first (SQLite) and may lock rows itself (PostgreSQL); an exception
    rolls the whole unit back."""
    if engine.dialect.name == "sqlite":
        pooled = await engine.raw_connection()  # checked out of SQLAlchemy's pool
        try:
            driver = pooled.driver_connection
            if one_step_capable(driver):
                return await driver._execute(  # type: ignore[union-attr, no-any-return]
                    _in_worker_thread, driver, fn, args, write)
        finally:
            await greenlet_spawn(pooled.close)  # back to the pool (may close an overflow)
    async with engine.connect() as aconn:
        aconn = await aconn.execution_options(write=write)
        async with aconn.begin():
            return await aconn.run_sync(fn, *args)
