"""A fresh ledger per test, on SQLite always and on PostgreSQL when TALLY_TEST_POSTGRES_URL
is set (see tests/databases.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from storage.ledger import Ledger
from tests.databases import BACKENDS, PG_URL, drop_schema, make_ledger

__all__ = ["BACKENDS", "PG_URL", "drop_schema", "make_ledger"]


@pytest.fixture(params=BACKENDS)
async def ledger(request: pytest.FixtureRequest, tmp_path: Path
                 ) -> AsyncIterator[Ledger]:
    led, schema = await make_ledger(request.param, tmp_path)
    try:
        yield led
    finally:
        await led.close()
        await drop_schema(schema)


@pytest.fixture(params=BACKENDS)
async def fresh_ledger(request: pytest.FixtureRequest, tmp_path: Path
                 ) -> AsyncIterator[Ledger]:
    """A ledger whose database Alembic migrated from scratch for this test."""
    led, schema = await make_ledger(request.param, tmp_path, fresh=True)
    try:
        yield led
    finally:
        await led.close()
        await drop_schema(schema)
