"""A fresh ledger per test, on SQLite always and on PostgreSQL when TALLY_TEST_POSTGRES_URL
is set (see tests/databases.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from storage.ledger import Ledger
from tests.databases import BACKENDS, PG_URL, drop_schema, ledger_on, make_ledger

__all__ = ["BACKENDS", "PG_URL", "drop_schema", "ledger_on", "make_ledger"]


@pytest.fixture(params=BACKENDS)
async def ledger(request: pytest.FixtureRequest, tmp_path: Path
                 ) -> AsyncIterator[Ledger]:
    async with ledger_on(request.param, tmp_path) as led:
        yield led


@pytest.fixture(params=BACKENDS)
async def fresh_ledger(request: pytest.FixtureRequest, tmp_path: Path
                 ) -> AsyncIterator[Ledger]:
    """A ledger whose database Alembic migrated from scratch for this test."""
    async with ledger_on(request.param, tmp_path, fresh=True) as led:
        yield led
