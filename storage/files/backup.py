"""CSV export of the whole ledger, and an import that restores it into an empty database."""

from __future__ import annotations

import csv
import io
import json
from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Boolean, DateTime, func, insert, select, text
from sqlalchemy.engine import Connection

from storage.errors import LedgerError
from storage.sql import tables as t
from storage.sql.store import Store

# Backups written before revision 0012 name the nights and their ids the old way.
OLD_NAMES = {"nights.csv": "sessions.csv", "session_id": "night_id"}

# The ledger's tables, in the order their foreign keys allow inserting them (not the
# buttons' drafts, nor the delivery pipeline's inbox and outbox).
TABLES = [tbl for tbl in t.metadata.sorted_tables
          if tbl.name not in ("drafts", "inbox", "outbox")]


def _encode(column: Any, value: Any) -> str:
    if value is None:
        return ""
    if isinstance(column.type, JSON):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, bool):
        return "1" if value else "0"
    return str(value)


def _decode(column: Any, value: str) -> Any:
    if value == "" and column.nullable:
        return None
    kind = column.type
    if isinstance(kind, JSON):
        return json.loads(value)
    if isinstance(kind, DateTime):
        return datetime.fromisoformat(value)
    if isinstance(kind, Boolean):
        return value == "1"
    if kind.python_type is int:
        return int(value)
    return value


async def export_csv(ledger: Store) -> dict[str, str]:
    """One CSV text per table, header first."""
    out: dict[str, str] = {}

    def unit(conn: Connection) -> dict[str, str]:
        for table in TABLES:
            buf = io.StringIO()
            writer = csv.writer(buf)
            cols = list(table.columns)
            writer.writerow([c.name for c in cols])
            key = list(table.primary_key.columns)
            for row in conn.execute(select(table).order_by(*key)).all():
                writer.writerow([_encode(c, row._mapping[c.name]) for c in cols])
            out[f"{table.name}.csv"] = buf.getvalue()
        return out

    return await ledger.run(unit, write=False)


async def import_csv(ledger: Store, files: dict[str, str]) -> dict[str, int]:
    """Restore an export into an empty database; refuses to mix with existing data."""
    counts: dict[str, int] = {}

    def unit(conn: Connection) -> dict[str, int]:
        for table in TABLES:
            if conn.execute(select(func.count()).select_from(table)).scalar_one():
                raise LedgerError("not_empty", f"table {table.name} is not empty; restore "
                                  "into an empty database", table=table.name)
        for table in TABLES:
            file = f"{table.name}.csv"
            data = files.get(file, files.get(OLD_NAMES.get(file, "")))
            if data is None:
                raise LedgerError("missing_file", f"{table.name}.csv is missing",
                                  table=table.name)
            reader = csv.reader(io.StringIO(data))
            header = next(reader)
            cols = [table.c[OLD_NAMES.get(name, name)] for name in header]
            rows = [{c.name: _decode(c, v) for c, v in zip(cols, row, strict=True)}
                    for row in reader]
            if rows:
                conn.execute(insert(table), rows)
            counts[table.name] = len(rows)
            if ledger.dialect == "postgresql":
                for c in table.primary_key.columns:
                    if c.autoincrement is True or (c.autoincrement == "auto" and len(
                            table.primary_key.columns) == 1 and c.type.python_type is int
                            and table.name != "chats"):
                        conn.execute(text(
                            f"SELECT setval(pg_get_serial_sequence('{table.name}', "
                            f"'{c.name}'), COALESCE((SELECT MAX({c.name}) FROM "
                            f"{table.name}), 0) + 1, false)"))
        return counts

    return await ledger.run(unit, write=True)
