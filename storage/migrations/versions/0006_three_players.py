"""three-player tables

A table of three sits at E, S and W: ``seat_n`` is empty (NULL) for it, and ``net_n`` stays 0.

On SQLite the NOT NULL is dropped in place, as SQLite's documentation gives it for removing
a NOT NULL constraint (the table's stored SQL is rewritten and the schema version bumped).
Rebuilding the table instead (Alembic's batch mode) would drop ``sessions``, and with
foreign keys on, that deletes every hand and entry through ON DELETE CASCADE.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

_NOT_NULL = "seat_n INTEGER NOT NULL,"
_NULL = "seat_n INTEGER,"


def _sqlite_rewrite(old: str, new: str) -> None:
    conn = op.get_bind()
    sql = conn.exec_driver_sql(
        "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'sessions'").scalar_one()
    if sql.count(old) != 1:
        raise RuntimeError(f"sessions' schema does not hold {old!r} once: {sql}")
    version = conn.exec_driver_sql("PRAGMA schema_version").scalar_one()
    conn.exec_driver_sql("PRAGMA writable_schema = ON")
    conn.execute(sa.text("UPDATE sqlite_master SET sql = :sql WHERE type = 'table' AND "
                         "name = 'sessions'"), {"sql": sql.replace(old, new)})
    conn.exec_driver_sql(f"PRAGMA schema_version = {int(version) + 1}")
    conn.exec_driver_sql("PRAGMA writable_schema = OFF")


def upgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        _sqlite_rewrite(_NOT_NULL, _NULL)
    else:
        op.alter_column("sessions", "seat_n", existing_type=sa.Integer(), nullable=True)


def downgrade() -> None:
    # A schema without tables of three cannot hold one: refuse rather than lose them.
    if op.get_bind().exec_driver_sql(
            "SELECT COUNT(*) FROM sessions WHERE seat_n IS NULL").scalar_one():
        raise RuntimeError("this database holds three-player tables; revision 0005 cannot "
                           "hold them")
    if op.get_bind().dialect.name == "sqlite":
        _sqlite_rewrite(_NULL, _NOT_NULL)
    else:
        op.alter_column("sessions", "seat_n", existing_type=sa.Integer(), nullable=False)
