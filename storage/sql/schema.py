"""Is the database's schema at the newest migration? (for readiness checks)

Compares the revision stored in the database with the head of the migration scripts,
through Alembic's public API, without changing anything.
"""

from __future__ import annotations

from functools import cache

from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine

from storage.sql.db import alembic_config


@cache
def script_heads() -> frozenset[str]:
    return frozenset(ScriptDirectory.from_config(alembic_config()).get_heads())


def current_heads(connection: Connection) -> frozenset[str]:
    return frozenset(MigrationContext.configure(connection).get_current_heads())


def at_head(connection: Connection) -> bool:
    return current_heads(connection) == script_heads()


async def schema_at_head(engine: AsyncEngine) -> bool:
    """True when the database is reachable and migrated to the newest revision; raises
    when it cannot be reached."""
    async with engine.connect() as conn:
        return await conn.run_sync(at_head)
