"""a night is one word: the table ``sessions`` is ``nights``, ``session_id`` is ``night_id``

The indexes and constraints take the names the metadata's naming convention gives them.
On SQLite the table and columns are renamed in place (ALTER TABLE ... RENAME keeps the
foreign keys pointing at them) and the constraints' names are rewritten in the stored SQL,
as revision 0006 does: rebuilding ``nights`` would delete every hand through ON DELETE
CASCADE.

Revision ID: 0012
Revises: 0011
"""

from __future__ import annotations

import re

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None

# The tables with a column naming a night, and those of them with a foreign key to it.
_COLUMNS = ("hands", "entries", "audit", "debts", "app_requests")
_KEYED = ("hands", "entries", "debts")


def _names(old: str, new: str) -> list[tuple[str, str, str]]:
    """(table, old name, new name) of the constraints, on the tables' new names."""
    so, sn = f"{old}s", f"{new}s"
    out = [(sn, f"pk_{so}", f"pk_{sn}"), (sn, f"ck_{so}_status", f"ck_{sn}_status"),
           (sn, f"fk_{so}_chat_id_chats", f"fk_{sn}_chat_id_chats"),
           ("hands", f"uq_hands_{old}_number", f"uq_hands_{new}_number")]
    out += [(sn, f"fk_{so}_seat_{s}_players", f"fk_{sn}_seat_{s}_players") for s in "eswn"]
    out += [(t, f"fk_{t}_{old}_id_{so}", f"fk_{t}_{new}_id_{sn}") for t in _KEYED]
    return out


def _rename(old: str, new: str) -> None:
    conn = op.get_bind()
    so, sn = f"{old}s", f"{new}s"
    op.rename_table(so, sn)
    for table in _COLUMNS:
        op.alter_column(table, f"{old}_id", new_column_name=f"{new}_id")
    indexes = ((f"ix_{so}_chat_status", f"ix_{sn}_chat_status"),
               (f"uq_{so}_one_open", f"uq_{sn}_one_open"),
               (f"ix_entries_{old}_player", f"ix_entries_{new}_player"))
    if conn.dialect.name == "postgresql":
        for a, b in indexes:
            op.execute(f"ALTER INDEX {a} RENAME TO {b}")
        for table, a, b in _names(old, new):
            op.execute(f"ALTER TABLE {table} RENAME CONSTRAINT {a} TO {b}")
        op.execute(f"ALTER SEQUENCE IF EXISTS {so}_id_seq RENAME TO {sn}_id_seq")
        return
    # SQLite: no ALTER INDEX; the indexes are made again under their new names.
    for a, _b in indexes:
        op.execute(f"DROP INDEX {a}")
    op.create_index(f"ix_{sn}_chat_status", sn, ["chat_id", "status"])
    op.create_index(f"uq_{sn}_one_open", sn, ["chat_id"], unique=True,
                    sqlite_where=sa.text("status = 'open'"))
    op.create_index(f"ix_entries_{new}_player", "entries", [f"{new}_id", "player_id"])
    version = conn.exec_driver_sql("PRAGMA schema_version").scalar_one()
    conn.exec_driver_sql("PRAGMA writable_schema = ON")
    for table in {t for t, _a, _b in _names(old, new)}:
        sql = conn.execute(sa.text("SELECT sql FROM sqlite_master WHERE type = 'table' AND "
                                   "name = :name"), {"name": table}).scalar_one()
        for t, a, b in _names(old, new):
            if t == table:
                sql = re.sub(rf"\b{a}\b", b, sql)
        conn.execute(sa.text("UPDATE sqlite_master SET sql = :sql WHERE type = 'table' AND "
                             "name = :name"), {"sql": sql, "name": table})
    conn.exec_driver_sql(f"PRAGMA schema_version = {int(version) + 1}")
    conn.exec_driver_sql("PRAGMA writable_schema = OFF")


def upgrade() -> None:
    _rename("session", "night")


def downgrade() -> None:
    _rename("night", "session")
