"""A fresh ledger per test, on SQLite always and on PostgreSQL when TALLY_TEST_POSTGRES_URL
is set (each test in a schema of its own, dropped afterwards)."""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator

import pytest

from storage.ledger import Ledger

PG_URL = os.environ.get("TALLY_TEST_POSTGRES_URL")
BACKENDS = [
    pytest.param("sqlite", id="sqlite"),
    pytest.param("postgres", id="postgres", marks=pytest.mark.skipif(
        not PG_URL, reason="PostgreSQL tests need TALLY_TEST_POSTGRES_URL (.ci/run sets it)")),
]


async def make_ledger(backend: str, tmp_path) -> tuple[Ledger, object]:  # type: ignore[no-untyped-def]
    if backend == "sqlite":
        return await Ledger.open(f"sqlite+aiosqlite:///{tmp_path}/tally.sqlite3"), None
    import asyncpg

    schema = "t_" + uuid.uuid4().hex[:12]
    dsn = PG_URL.replace("postgresql+asyncpg", "postgresql")  # type: ignore[union-attr]
    conn = await asyncpg.connect(dsn)
    await conn.execute(f"CREATE SCHEMA {schema}")
    await conn.close()
    ledger = await Ledger.open(
        PG_URL, connect_args={"server_settings": {"search_path": schema}})  # type: ignore[arg-type]
    return ledger, schema


async def drop_schema(schema: object) -> None:
    if schema is None:
        return
    import asyncpg

    conn = await asyncpg.connect(PG_URL.replace("postgresql+asyncpg", "postgresql"))  # type: ignore[union-attr]
    await conn.execute(f"DROP SCHEMA {schema} CASCADE")
    await conn.close()


@pytest.fixture(params=BACKENDS)
async def ledger(request, tmp_path) -> AsyncIterator[Ledger]:  # type: ignore[no-untyped-def]
    led, schema = await make_ledger(request.param, tmp_path)
    try:
        yield led
    finally:
        await led.close()
        await drop_schema(schema)
