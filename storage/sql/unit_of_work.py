"""Units of work: one transaction, written as a plain function over a Core ``Connection``.

The ledger's operations are synchronous SQLAlchemy Core code; :func:`run` gives each one
its transaction through :meth:`AsyncConnection.run_sync`, SQLAlchemy's documented bridge,
on both backends. On PostgreSQL (asyncpg) every statement is awaited on the event loop; on
SQLite (aiosqlite) every cursor call is handed to the connection's worker thread and back.
That costs a few thread switches per statement (see docs/performance.md for what
it costs per report); it uses nothing but the libraries' public API.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import Any, TypeVar

from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from storage.sql.statements import together

log = logging.getLogger(__name__)

T = TypeVar("T")
Unit = Callable[..., T]


def begin_sqlite(conn: Connection) -> None:
    """SQLAlchemy's "begin" hook for SQLite: writers take the lock up front
    (``BEGIN IMMEDIATE``) so that two writers queue instead of failing half-way. A
    transaction left open on the connection (a caller cancelled mid-way; the pool does
    not roll back on return, see :mod:`storage.sql.db`) is rolled back first, never built on."""
    driver = conn.connection.driver_connection
    if getattr(driver, "in_transaction", False):
        conn.exec_driver_sql("ROLLBACK")
    if conn.get_execution_options().get("write"):
        conn.exec_driver_sql("BEGIN IMMEDIATE")
    else:
        conn.exec_driver_sql("BEGIN")


class Later:
    """Writes that a transaction's units do not read back, run at its end: the same
    statement's parameters of every unit in one ``executemany`` (one statement, where
    each unit would run its own). What an ORM session's flush does for its inserts.

    Only writes whose order does not matter may wait here: new rows, additive updates
    (``x = x + d``), and updates that set a row no other unit in the transaction touches
    (the writer batches different chats). Anything read back, deleted or counted runs at
    once."""

    def __init__(self) -> None:
        self.open = False
        self.pending: dict[Any, list[dict[str, Any]]] = {}

    def flush(self, conn: Connection) -> None:
        pending, self.pending = self.pending, {}
        if together(conn, pending):  # one statement (PostgreSQL)
            return
        for statement, rows in pending.items():
            execute(conn, statement, rows)


def execute(conn: Connection, statement: Any,
            params: dict[str, Any] | list[dict[str, Any]]) -> None:
    """``conn.execute``, or a statement's own way of writing several rows (``run``: a
    statement that writes them all in one, as ``statements.Columns`` does)."""
    run = getattr(statement, "run", None)
    if run is not None:
        run(conn, params if isinstance(params, list) else [params])
    else:
        conn.execute(statement, params)


_LATER = "tally_later"


def _current(conn: Connection) -> Later | None:
    """This transaction's writes left for later, if it was begun by :func:`run` (a
    leftover of a transaction that never finished is not this one's)."""
    held = conn.info.get(_LATER)
    if held is None or held[0] is not conn.get_transaction():
        return None
    return held[1]  # type: ignore[no-any-return]


@contextmanager
def deferring(conn: Connection) -> Iterator[None]:
    """While inside, :func:`later` writes wait for the end of the transaction."""
    writes = _current(conn)
    if writes is None:  # outside unit_of_work.run (a bulk tool): at once
        yield
        return
    writes.open = True
    try:
        yield
    finally:
        writes.open = False


def later(conn: Connection, statement: Any, params: dict[str, Any] | list[dict[str, Any]]
          ) -> None:
    """Run ``statement`` with ``params`` (one set or several), at the end of the
    transaction when inside :func:`deferring`, else now."""
    writes = _current(conn)
    if writes is None or not writes.open:
        execute(conn, statement, params)
        return
    rows = writes.pending.setdefault(statement, [])
    if isinstance(params, list):
        rows.extend(params)
    else:
        rows.append(params)


class Kept:
    """What the units of one shared transaction (:func:`transaction`) pass on to the
    next: rows a unit read (locked) that a later unit would read again. A row kept is
    good for the next write unit only (``writes``: the write units begun so far), so a
    write in between (which might change it) makes the next one read it again."""

    def __init__(self, trans: Any) -> None:
        self.trans = trans
        self.writes = 0
        self.rows: dict[Any, tuple[int, Any]] = {}


_KEPT = "tally_kept"


def _kept(conn: Connection) -> Kept | None:
    held = conn.info.get(_KEPT)
    if held is None or held.trans is not conn.get_transaction():
        return None
    return held  # type: ignore[no-any-return]


def sharing(conn: Connection) -> bool:
    """Whether ``conn`` runs a transaction that several units share (:func:`transaction`)."""
    return _kept(conn) is not None


def keep(conn: Connection, key: Any, row: Any) -> None:
    """Inside a shared transaction, keep ``row`` for the next write unit (:func:`recall`)."""
    kept = _kept(conn)
    if kept is not None:
        kept.rows[key] = (kept.writes, row)


def recall(conn: Connection, key: Any) -> Any:
    """The row kept under ``key`` if no write unit ran since (this one aside), once;
    else None."""
    kept = _kept(conn)
    if kept is None:
        return None
    entry = kept.rows.pop(key, None)
    if entry is None or entry[0] < kept.writes - 1:
        return None
    return entry[1]


def flushed(conn: Connection, fn: Unit[T], *args: Any) -> T:
    kept = _kept(conn)
    if kept is not None:
        kept.writes += 1
    writes = Later()
    conn.info[_LATER] = (conn.get_transaction(), writes)
    try:
        result = fn(conn, *args)
        writes.flush(conn)
        return result
    finally:
        if not conn.invalidated:  # (a dead connection's info is gone with it, and reading
            conn.info.pop(_LATER, None)  # it would raise in place of what killed it)


async def run(engine: AsyncEngine, fn: Unit[T], *args: Any, write: bool) -> T:
    """Run ``fn(conn, *args)`` in one transaction and return its result. A write takes
    the write lock first (SQLite) and may lock rows itself (PostgreSQL); an exception
    rolls the whole unit back. Writes left for later (:func:`later`) run before the
    commit.

    When the unit fails, that failure is what the caller sees: the rollback and the
    connection's return after a dead connection fail too (SQLAlchemy's
    ``PendingRollbackError``, "connection is closed"), and such a cleanup error is only
    logged, never raised in its place."""
    aconn = engine.connect()
    try:
        await aconn.start()
        aconn = await aconn.execution_options(write=write)
        trans = await aconn.begin()
        try:
            if write:
                result = await aconn.run_sync(flushed, fn, *args)
            else:
                result = await aconn.run_sync(fn, *args)
        except BaseException as exc:
            await _cleanup(trans.rollback(), exc)
            raise
        await trans.commit()
        return result
    finally:
        await _cleanup(aconn.close(), None)


async def _cleanup(step: Awaitable[None], cause: BaseException | None) -> None:
    """Roll back or close; after a dead connection this fails too, and must not take the
    place of the error that killed it (nor fail a unit that committed)."""
    try:
        await step
    except Exception as exc:
        log.debug("cleanup after %r failed: %r", cause, exc)


class Rollback(Exception):
    """Raised inside :func:`transaction` to end it without committing (and without an
    error for the caller)."""


@asynccontextmanager
async def transaction(engine: AsyncEngine) -> AsyncIterator[AsyncConnection]:
    """One write transaction that several units of work share (each run on it with
    ``conn.run_sync``, writes through :func:`flushed`): committed when the block ends,
    rolled back if it raises (:class:`Rollback` ends it quietly). Cleanup errors after a
    dead connection are only logged, as in :func:`run`."""
    aconn = engine.connect()
    try:
        await aconn.start()
        aconn = await aconn.execution_options(write=True)
        trans = await aconn.begin()
        sync = aconn.sync_connection
        assert sync is not None
        sync.info[_KEPT] = Kept(sync.get_transaction())
        try:
            yield aconn
        except Rollback:
            await _cleanup(trans.rollback(), None)
            return
        except BaseException as exc:
            await _cleanup(trans.rollback(), exc)
            raise
        await trans.commit()
    finally:
        if not aconn.closed and aconn.sync_connection is not None \
                and not aconn.sync_connection.invalidated:
            aconn.sync_connection.info.pop(_KEPT, None)
        await _cleanup(aconn.close(), None)
