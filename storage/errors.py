"""Errors the ledger raises for requests it refuses (the bot translates ``code``), and
which of the database's failures pass by themselves."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from typing import Any

from engine.errors import clip, clip_params


class LedgerError(Exception):
    def __init__(self, code: str, message: str, **params: str | int) -> None:
        super().__init__(clip(message, 300))
        self.code = code
        # Format fields of the refusal's text, spread as keywords into error_text().
        self.params: dict[str, Any] = clip_params(params)


# PostgreSQL's SQLSTATEs for what passes: the connection failed (class 08), the server
# shuts down, crashed or is starting (57P01-57P03), too many connections (53300), a
# serialization failure or deadlock (40001, 40P01: the transaction may simply run again).
_PASSING_STATES = ("08", "57P01", "57P02", "57P03", "53300", "40001", "40P01")
# SQLite's "database is locked" / "is busy" (another process holds the write lock).
_SQLITE_BUSY = (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)


def causes(exc: BaseException) -> Iterator[BaseException]:
    """``exc``, what SQLAlchemy wrapped (``.orig``) and what it was raised from or during
    (a cleanup's error hides the one that caused it), each once."""
    seen: set[int] = set()
    todo = [exc]
    while todo and len(seen) < 20:
        e = todo.pop()
        if id(e) in seen:
            continue
        seen.add(id(e))
        yield e
        todo.extend(x for x in (getattr(e, "orig", None), e.__cause__, e.__context__)
                    if isinstance(x, BaseException))


def _passing(e: BaseException) -> bool:
    from sqlalchemy.exc import DBAPIError, DisconnectionError

    if isinstance(e, DBAPIError) and e.connection_invalidated:
        return True  # SQLAlchemy saw the connection die (and dropped the pool's others)
    if isinstance(e, DisconnectionError | ConnectionError | TimeoutError):
        return True  # refused, reset, aborted; a connect that timed out
    state = getattr(e, "sqlstate", None) or getattr(e, "pgcode", None)
    if isinstance(state, str) and state.startswith(_PASSING_STATES):
        return True
    if isinstance(e, sqlite3.OperationalError):
        code = getattr(e, "sqlite_errorcode", None)
        if code is not None:
            return code & 0xFF in _SQLITE_BUSY
        return "locked" in str(e) or "busy" in str(e)
    try:
        import asyncpg
    except ImportError:  # pragma: no cover - asyncpg is a dependency
        return False
    if isinstance(e, asyncpg.exceptions.InterfaceError):  # not a misuse: a closed one
        return "closed" in str(e) or "connection" in str(e).lower()
    return isinstance(e, asyncpg.exceptions.ConnectionDoesNotExistError
                      | asyncpg.exceptions.InternalClientError)


def database_away(exc: BaseException) -> bool:
    """The database was briefly unavailable (busy, restarted, shutting down, a dropped
    or refused connection, a serialization failure): the unit of work rolled back and
    may be tried again. Judged by what happened (the driver's error and its SQLSTATE,
    anywhere in the chain of causes), not by the class SQLAlchemy wrapped it in."""
    return any(_passing(e) for e in causes(exc))
