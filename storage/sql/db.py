"""Engines for SQLite (aiosqlite, the default) and PostgreSQL (asyncpg), and migrations.

SQLite connections get WAL, foreign keys and a busy timeout; write transactions start with
``BEGIN IMMEDIATE`` so that two writers queue instead of failing half-way.
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import event, text
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from storage.sql.tables import json_serializer
from storage.sql.unit_of_work import begin_sqlite

HERE = Path(__file__).resolve().parent.parent  # storage/: alembic.ini and migrations/
BUSY_TIMEOUT_MS = 10_000


# How this bot's sessions are named on PostgreSQL (pg_stat_activity.application_name).
APPLICATION_NAME = "mahjong-tally"


def default_url() -> str:
    return os.environ.get("TALLY_STORAGE__URL", "sqlite+aiosqlite:///data/tally.sqlite3")


def _ensure_sqlite_dir(url: str) -> None:
    path = url.split("///", 1)[1] if "///" in url else ""
    if path and path != ":memory:":
        Path(path).expanduser().parent.mkdir(parents=True, exist_ok=True)


def create_engine(url: str, *, idle_transaction_seconds: float | None = None,
                  **kwargs: Any) -> AsyncEngine:
    """``idle_transaction_seconds`` (PostgreSQL): the server ends a session that sits that
    long inside a transaction. Units of work never wait inside one (they are synchronous
    code), so only a process that stalls (paused, or its event loop blocked) does, and its
    row locks must not hold up the workers that take over its leases."""
    kwargs.setdefault("json_serializer", json_serializer)
    if url.startswith("sqlite"):
        _ensure_sqlite_dir(url)
        # Every unit of work ends its own transaction (storage.sql.unit_of_work), so the pool
        # need not send a ROLLBACK (one more trip to aiosqlite's thread) on every return.
        kwargs.setdefault("pool_reset_on_return", None)
        engine = create_async_engine(url, **kwargs)
        _sqlite_events(engine)
        return engine
    # No ping on every checkout (a round trip per unit of work): a connection that died
    # with the server fails its unit (SQLAlchemy then drops every pooled connection made
    # before, so none is tried twice), and the delivery pipeline tries the update again.
    args = dict(kwargs.pop("connect_args", {}))
    server = {"application_name": APPLICATION_NAME, **args.get("server_settings", {})}
    if idle_transaction_seconds is not None:
        server["idle_in_transaction_session_timeout"] = str(
            max(1, int(idle_transaction_seconds * 1000)))
    args["server_settings"] = server
    kwargs["connect_args"] = args
    # Connections kept open: SQLAlchemy's default keeps 5 and closes every one opened
    # beyond them when it is returned, so a burst of reports (each handled in its own
    # transaction, on its own connection) opened and closed connections all the time, and
    # every new one prepared each statement again: 34 connections opened for 200 reports
    # in bench.statements_bench (20 chats), none with 16 kept. At most 20 a process, as
    # many as 15 before.
    kwargs.setdefault("pool_size", 16)
    kwargs.setdefault("max_overflow", 4)
    return create_async_engine(url, **kwargs)


def _sqlite_events(engine: AsyncEngine) -> None:
    @event.listens_for(engine.sync_engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Let SQLAlchemy emit BEGIN itself (see begin_sqlite), not the driver.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.close()

    event.listen(engine.sync_engine, "begin", begin_sqlite)


def alembic_config() -> Config:
    cfg = Config(str(HERE / "alembic.ini"))
    cfg.set_main_option("script_location", str(HERE / "migrations"))
    return cfg


@cache
def head_revision() -> str | None:
    """The newest migration's revision (the scripts do not change while a process runs)."""
    return ScriptDirectory.from_config(alembic_config()).get_current_head()


def _upgrade(connection: Connection) -> None:
    if MigrationContext.configure(connection).get_current_revision() == head_revision():
        return  # at head already: the usual start, without loading every migration script
    cfg = alembic_config()
    cfg.attributes["connection"] = connection
    command.upgrade(cfg, "head")


MIGRATION_LOCK = 0x7A11_0000  # PostgreSQL advisory lock key: one migration at a time


async def migrate(engine: AsyncEngine) -> None:
    """Bring the schema to the newest revision (idempotent). On PostgreSQL under an
    advisory lock held for the transaction, so that however many processes start at once,
    one migrates and the others then find the schema at head (on SQLite the migration's
    write lock does the same)."""
    async with engine.begin() as conn:
        if engine.dialect.name == "postgresql":
            await conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": MIGRATION_LOCK})
        await conn.run_sync(_upgrade)
