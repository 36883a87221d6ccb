"""Databases for tests, on SQLite always and on PostgreSQL when TALLY_TEST_POSTGRES_URL is
set (each test in a schema of its own).

Alembic runs once per test process and backend, not once per test: a SQLite test gets a
copy of a migrated file, a PostgreSQL test a migrated schema emptied, its ids restarted
(schemas are reused by the process that made them and dropped at its end).
``fresh=True`` migrates from scratch, as the migration tests do. A PostgreSQL database of
a test's own (:func:`postgres_database`) is a copy of one migrated once per process.

The handler tier's SQLite (:func:`inline`) is the same file through the standard library's
driver on the event loop's own thread, not aiosqlite's worker thread: the handlers run the
same statements in the same transactions, without two thread switches per statement, and
the statements compiled by one test's engine serve the next's (a fifth of that tier's CPU
went to the thread switches, a tenth to compiling each statement anew for every test's
engine). The storage tests and the full stack keep aiosqlite.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import tempfile
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import pool
from sqlalchemy.dialects import registry
from sqlalchemy.dialects.sqlite.pysqlite import SQLiteDialect_pysqlite

from storage.ledger import Ledger
from storage.sql import tables as storage_tables

PG_URL = os.environ.get("TALLY_TEST_POSTGRES_URL")
BACKENDS = [
    pytest.param("sqlite", id="sqlite"),
    pytest.param("postgres", id="postgres", marks=pytest.mark.skipif(
        not PG_URL, reason="PostgreSQL tests need TALLY_TEST_POSTGRES_URL (.ci/run sets it)")),
]

_template_dir: Path | None = None  # holds this process's migrated SQLite file
_free_schemas: list[str] = []  # migrated, emptied, not in use
_schemas: dict[str, str] = {}  # every schema this process made -> its Alembic revision


def _dsn() -> str:
    assert PG_URL is not None
    return PG_URL.replace("postgresql+asyncpg", "postgresql")


async def sqlite_copy(path: Path) -> str:
    """The URL of a migrated SQLite database at ``path``: a copy of a file that Alembic
    brought to the newest revision once in this process. A database already at ``path``
    is kept (a test that restarts the bot on it)."""
    global _template_dir
    if _template_dir is None:
        folder = Path(tempfile.mkdtemp(prefix="tally-template-"))
        ledger = await Ledger.open(f"sqlite+aiosqlite:///{folder}/template.sqlite3")
        await ledger.close()  # the last connection gone, the WAL is in the file
        _template_dir = folder
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(_template_dir / "template.sqlite3", path)
    return f"sqlite+aiosqlite:///{path}"


def _on_schema(schema: str) -> dict[str, Any]:
    return {"connect_args": {"server_settings": {"search_path": schema}}}


async def _revision(conn: object, schema: str) -> str | None:
    return await conn.fetchval(f"SELECT version_num FROM {schema}.alembic_version")  # type: ignore[attr-defined, no-any-return]


async def make_ledger(backend: str, tmp_path: Path | str, *, fresh: bool = False
                      ) -> tuple[Ledger, object]:
    """A ledger on an empty database at the newest revision, and the schema to hand back
    to :func:`drop_schema` (None on SQLite)."""
    if backend == "sqlite":
        path = Path(tmp_path) / "tally.sqlite3"
        if fresh:
            return await Ledger.open(f"sqlite+aiosqlite:///{path}"), None
        return await Ledger.open(await sqlite_copy(path), run_migrations=False), None
    import asyncpg

    if _free_schemas and not fresh:
        schema = _free_schemas.pop()
        assert PG_URL is not None
        return await Ledger.open(PG_URL, run_migrations=False, **_on_schema(schema)), schema
    schema = "t_" + uuid.uuid4().hex[:12]
    conn = await asyncpg.connect(_dsn())
    try:
        await conn.execute(f"CREATE SCHEMA {schema}")
        assert PG_URL is not None
        ledger = await Ledger.open(PG_URL, **_on_schema(schema))
        revision = await _revision(conn, schema)
    finally:
        await conn.close()
    assert revision is not None
    _schemas[schema] = revision
    return ledger, schema


@contextlib.asynccontextmanager
async def ledger_on(backend: str, tmp_path: Path | str, *, fresh: bool = False
                    ) -> AsyncIterator[Ledger]:
    """:func:`make_ledger`'s ledger, closed after and its schema handed back."""
    led, schema = await make_ledger(backend, tmp_path, fresh=fresh)
    try:
        yield led
    finally:
        await led.close()
        await drop_schema(schema)


async def drop_schema(schema: object) -> None:
    """Hand a schema back (its ledger closed): emptied for the next test, or dropped if
    a test left it at another revision."""
    if schema is None:
        return
    import asyncpg

    conn = await asyncpg.connect(_dsn())
    try:
        if await _revision(conn, str(schema)) != _schemas.get(str(schema)):
            await conn.execute(f"DROP SCHEMA {schema} CASCADE")
            _schemas.pop(str(schema), None)
            return
        await conn.execute(await _emptying(conn, str(schema)))
        _free_schemas.append(str(schema))
    finally:
        await conn.close()


async def _emptying(conn: Any, schema: str) -> str:
    """The statements that empty a schema at the newest revision and restart its ids:
    each table's rows deleted, those that refer to others first. (A TRUNCATE gives every
    table and index new files: ten times as long for the few rows a test leaves.)"""
    sequences = await conn.fetch(
        "SELECT sequencename FROM pg_sequences WHERE schemaname = $1", schema)
    deletes = [f"DELETE FROM {schema}.{table.name}"
               for table in reversed(storage_tables.metadata.sorted_tables)]
    restarts = [f"ALTER SEQUENCE {schema}.{row[0]} RESTART" for row in sequences]
    return "; ".join(["BEGIN", *deletes, *restarts, "COMMIT"])


async def _drop_all() -> None:
    global _template_database_name
    import asyncpg

    conn = await asyncpg.connect(_dsn())
    try:
        for schema in _schemas:
            await conn.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
        if _template_database_name is not None:
            await conn.execute(f"DROP DATABASE IF EXISTS {_template_database_name} "
                               "WITH (FORCE)")
            _template_database_name = None
    finally:
        await conn.close()


def clean_up() -> None:
    """At the end of the run (tests/conftest.py), this process's templates go."""
    if _schemas or _template_database_name is not None:
        asyncio.run(_drop_all())
        _schemas.clear()
        _free_schemas.clear()
    if _template_dir is not None:
        shutil.rmtree(_template_dir, ignore_errors=True)


async def _template_database() -> str:
    """A database that Alembic brought to the newest revision once in this process, for
    :func:`postgres_database` to copy (no one stays connected to it)."""
    global _template_database_name
    if _template_database_name is None:
        import asyncpg

        assert PG_URL is not None
        name = f"tmpl_{uuid.uuid4().hex[:10]}"
        conn = await asyncpg.connect(_dsn())
        try:
            await conn.execute(f"CREATE DATABASE {name}")
        finally:
            await conn.close()
        ledger = await Ledger.open(PG_URL.rsplit("/", 1)[0] + "/" + name)
        await ledger.close()
        _template_database_name = name
    return _template_database_name


_template_database_name: str | None = None


@contextlib.asynccontextmanager
async def postgres_database(prefix: str = "bot", *, migrated: bool = True
                            ) -> AsyncIterator[str]:
    """The URL of a PostgreSQL database of its own, dropped after: a copy of one migrated
    once in this process (the bot finds it at the newest revision), or, not ``migrated``,
    an empty one (the bot migrates it)."""
    import asyncpg

    assert PG_URL is not None
    name = f"{prefix}_{uuid.uuid4().hex[:10]}"
    template = f" TEMPLATE {await _template_database()}" if migrated else ""
    conn = await asyncpg.connect(_dsn())
    await conn.execute(f"CREATE DATABASE {name}{template}")
    await conn.close()
    try:
        yield PG_URL.rsplit("/", 1)[0] + "/" + name
    finally:
        conn = await asyncpg.connect(_dsn())
        await conn.execute(f"DROP DATABASE {name} WITH (FORCE)")
        await conn.close()



class InlineSQLite(SQLiteDialect_pysqlite):
    """``sqlite+inline://``: SQLite through the standard library's ``sqlite3`` under
    SQLAlchemy's asyncio extension. Its statements never wait on anything, so a unit of
    work (synchronous code under ``run_sync``) runs straight through on the event loop's
    thread. ``AsyncConnection.execute`` refuses such a driver (it requires an await): a
    test that reads the ledger directly does it through ``run_sync``."""

    driver = "inline"
    is_async = True
    supports_statement_cache = True

    @classmethod
    def get_pool_class(cls, url: Any) -> type[pool.Pool]:
        return pool.AsyncAdaptedQueuePool

    @classmethod
    def engine_created(cls, engine: Any) -> None:
        # One cache of compiled statements for every engine of this process: the cache
        # is keyed by the dialect, and all of this driver's are alike (__eq__ below).
        engine.update_execution_options(compiled_cache=_COMPILED)

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self)

    def __hash__(self) -> int:
        return hash(type(self))


_COMPILED: dict[Any, Any] = {}
registry.register("sqlite.inline", __name__, "InlineSQLite")


def inline(url: str) -> str:
    """An aiosqlite URL as the handler tier's driver's (:class:`InlineSQLite`)."""
    return url.replace("sqlite+aiosqlite:", "sqlite+inline:", 1)
