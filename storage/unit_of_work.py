"""Units of work: one transaction, written as a plain function over a Core ``Connection``.

The ledger's operations are synchronous SQLAlchemy Core code; :func:`run` gives each one
its transaction through :meth:`AsyncConnection.run_sync`, SQLAlchemy's documented bridge,
on both backends. On PostgreSQL (asyncpg) every statement is awaited on the event loop; on
SQLite (aiosqlite) every cursor call is handed to the connection's worker thread and back.
That costs a few thread switches per statement (see the README's performance section for
what it costs per report); it uses nothing but the libraries' public API.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine

T = TypeVar("T")
Unit = Callable[..., T]


def begin_sqlite(conn: Connection) -> None:
    """SQLAlchemy's "begin" hook for SQLite: writers take the lock up front
    (``BEGIN IMMEDIATE``) so that two writers queue instead of failing half-way. A
    transaction left open on the connection (a caller cancelled mid-way; the pool does
    not roll back on return, see :mod:`storage.db`) is rolled back first, never built on."""
    driver = conn.connection.driver_connection
    if getattr(driver, "in_transaction", False):
        conn.exec_driver_sql("ROLLBACK")
    if conn.get_execution_options().get("write"):
        conn.exec_driver_sql("BEGIN IMMEDIATE")
    else:
        conn.exec_driver_sql("BEGIN")


async def run(engine: AsyncEngine, fn: Unit[T], *args: Any, write: bool) -> T:
    """Run ``fn(conn, *args)`` in one transaction and return its result. A write takes
    the write lock first (SQLite) and may lock rows itself (PostgreSQL); an exception
    rolls the whole unit back."""
    async with engine.connect() as aconn:
        aconn = await aconn.execution_options(write=write)
        async with aconn.begin():
            return await aconn.run_sync(fn, *args)
