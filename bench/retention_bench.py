"""What the delivery pipeline keeps per report: a short soak of the real bot against the
in-process fake Bot API, then the bytes the inbox, the outbox and the ledger's own tables
grew by, per report (on disk, with their indexes).

Run: ``python -m bench.retention_bench [--reports 1500] [--chats 50]
[--url postgresql+asyncpg://.../postgres]`` (a PostgreSQL server: the bench makes a
database ``bench_retention`` of its own there).

Reports are self-drawn wins at Changsha tables (one hand each), said in turn in every
chat. The growth is measured from after the tables were opened to after every report was
answered and written back, after a first batch of as many reports (its freed space is
used again, as at steady state: PostgreSQL is vacuumed, as autovacuum would): what a
report costs for as long as its rows are kept (the retention settings in
docs/operations.md), before pruning takes them.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
from pathlib import Path
from typing import Any

from sqlalchemy import text

from bench.load_bench import PLAYERS, tally_app, users
from bot.app import running
from bot.console.fake_api import FakeBotAPI
from bot.delivery.pipeline import pipeline_of

PIPELINE = ("inbox", "outbox")
LEDGER = ("chats", "players", "totals", "nights", "hands", "hand_players", "entries", "audit",
          "debts", "drafts")


async def sizes(app: Any) -> dict[str, int]:
    """Bytes on disk of each table with its indexes (SQLite: dbstat; PostgreSQL:
    pg_total_relation_size after a VACUUM)."""
    ledger = app.bot_data["services"].ledger
    engine = ledger.engine
    if engine.dialect.name == "sqlite":
        async with engine.connect() as conn:
            rows = (await conn.execute(text(
                "SELECT m.tbl_name AS t, SUM(d.pgsize) AS b FROM dbstat d "
                "JOIN sqlite_master m ON m.name = d.name GROUP BY m.tbl_name"))).all()
            total = (await conn.execute(text(
                "SELECT page_count * page_size FROM pragma_page_count(), "
                "pragma_page_size()"))).scalar_one()
        out = {str(r[0]): int(r[1]) for r in rows}
        out["(database)"] = int(total)
        return out
    async with engine.connect() as conn:
        conn = await conn.execution_options(isolation_level="AUTOCOMMIT")
        await conn.execute(text("VACUUM ANALYZE"))
        rows = (await conn.execute(text(
            "SELECT relname AS t, pg_total_relation_size(c.oid) AS b FROM pg_class c "
            "JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE c.relkind = 'r' AND n.nspname = current_schema()"))).all()
        total = (await conn.execute(text(
            "SELECT pg_database_size(current_database())"))).scalar_one()
    out = {str(r[0]): int(r[1]) for r in rows}
    out["(database)"] = int(total)
    return out


async def rows_of(app: Any) -> dict[str, int]:
    engine = app.bot_data["services"].ledger.engine
    async with engine.connect() as conn:
        return {name: int((await conn.execute(text(f"SELECT count(*) FROM {name}")))
                          .scalar_one()) for name in PIPELINE}


async def settle(app: Any, api: FakeBotAPI, last: int) -> None:
    while api.offset <= last:
        await asyncio.sleep(0.01)
    await pipeline_of(app).idle()


async def soak(url: str, reports: int, chats: int) -> dict[str, Any]:
    api = FakeBotAPI()
    people = users()
    app = tally_app(api, url, board_interval=0.5)
    ids = [-1_000_000 - i for i in range(chats)]
    async with running(app, poll_timeout=1):
        last = 0
        for chat in ids:
            api.chat(chat)
            last = api.say(people["alice"], chat, "/new changsha " +
                           " ".join(f"@{p}" for p in PLAYERS))
        await settle(app, api, last)

        async def batch(start: int) -> None:
            last = 0
            for n in range(start, start + reports):
                chat = ids[n % chats]
                winner = PLAYERS[(n // chats) % 4]
                last = api.say(people[winner], chat, f"/hu {winner} 自摸")
                if n % 50 == 49:
                    await asyncio.sleep(0.2)  # about 250 reports a second at most
            await settle(app, api, last)
            await asyncio.sleep(0.5)  # the sender's write-back of the last answers
            await pipeline_of(app).idle()

        await batch(0)  # warm-up: space freed (and vacuumed) here is used again below
        before, rows_before = await sizes(app), await rows_of(app)
        await batch(reports)
        after, rows_after = await sizes(app), await rows_of(app)
    grown = {k: after.get(k, 0) - before.get(k, 0) for k in after}
    return {"grown": grown, "rows": {k: rows_after[k] - rows_before[k] for k in PIPELINE},
            "reports": reports}


def report(name: str, r: dict[str, Any]) -> None:
    n, grown = r["reports"], r["grown"]
    pipe = sum(grown.get(k, 0) for k in PIPELINE)
    ledger = sum(grown.get(k, 0) for k in LEDGER)
    print(f"{name}: {n} reports; per report: inbox {grown.get('inbox', 0) / n:.0f} B "
          f"({r['rows']['inbox'] / n:.2f} rows), outbox {grown.get('outbox', 0) / n:.0f} B "
          f"({r['rows']['outbox'] / n:.2f} rows), inbox + outbox {pipe / n:.0f} B; ledger "
          f"{ledger / n:.0f} B (hands {grown.get('hands', 0) / n:.0f} B); database "
          f"{grown['(database)'] / n:.0f} B")
    print("  per table: " + ", ".join(f"{k} {grown.get(k, 0) / n:.0f} B" for k in LEDGER))


async def main(reports: int, chats: int, url: str | None) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        report("SQLite", await soak(f"sqlite+aiosqlite:///{Path(tmp) / 'r.sqlite3'}",
                                    reports, chats))
    if url is not None:
        import asyncpg

        dsn = url.replace("postgresql+asyncpg", "postgresql")
        conn = await asyncpg.connect(dsn)
        await conn.execute("DROP DATABASE IF EXISTS bench_retention")
        await conn.execute("CREATE DATABASE bench_retention")
        await conn.close()
        report("PostgreSQL", await soak(url.rsplit("/", 1)[0] + "/bench_retention",
                                        reports, chats))


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--reports", type=int, default=1500)
    parser.add_argument("--chats", type=int, default=50)
    parser.add_argument("--url", default=None, help="a PostgreSQL server to measure too")
    args = parser.parse_args()
    asyncio.run(main(args.reports, args.chats, args.url))
