"""What the batching writer saves: CPU per report when ten chats report one at a time
(one transaction each) against the same reports arriving together (the writer commits
them in shared transactions), through the real ``Ledger.hands.record``.

Run: ``python -m bench.writer_bench [--url postgresql+asyncpg://...] [--rounds 100]``
(default: a SQLite file in a temporary folder). On PostgreSQL the tables go to a schema of
their own, dropped afterwards.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
import uuid
from pathlib import Path

from bench.ledger_bench import _setup_chat, _templates
from storage.ledger import Ledger

CHATS = 10


async def _ledger(url: str | None, tmp: str) -> tuple[Ledger, str | None]:
    if url is None:
        return await Ledger.open(f"sqlite+aiosqlite:///{Path(tmp) / 'w.sqlite3'}"), None
    import asyncpg

    schema = "bench_" + uuid.uuid4().hex[:8]
    conn = await asyncpg.connect(url.replace("postgresql+asyncpg", "postgresql"))
    await conn.execute(f"CREATE SCHEMA {schema}")
    await conn.close()
    ledger = await Ledger.open(url, connect_args={"server_settings": {"search_path": schema}})
    return ledger, schema


async def run(url: str | None, rounds: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        ledger, schema = await _ledger(url, tmp)
        try:
            events = [t[0]["events"][0] for t in _templates()]
            chats = [10**9 + i for i in range(CHATS)]
            for chat in chats:
                await _setup_chat(ledger, chat)
            writer = ledger._writer
            c0 = time.process_time()
            for i in range(rounds):
                for chat in chats:
                    await ledger.hands.record(chat, events[i % len(events)])
            alone = (time.process_time() - c0) / (rounds * CHATS)
            before = writer.batches, writer.units
            c0 = time.process_time()
            for i in range(rounds):
                await asyncio.gather(*(ledger.hands.record(chat, events[i % len(events)])
                                       for chat in chats))
            together = (time.process_time() - c0) / (rounds * CHATS)
            per_tx = (writer.units - before[1]) / max(1, writer.batches - before[0])
            print(f"[{ledger.dialect}] one transaction a report: {alone * 1e3:.2f} ms CPU a "
                  f"report; ten chats together: {together * 1e3:.2f} ms "
                  f"({per_tx:.1f} reports a transaction): {alone / together:.2f}x")
        finally:
            await ledger.close()
            if schema is not None:
                import asyncpg

                conn = await asyncpg.connect(url.replace("postgresql+asyncpg", "postgresql"))  # type: ignore[union-attr]
                await conn.execute(f"DROP SCHEMA {schema} CASCADE")
                await conn.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", default=None)
    parser.add_argument("--rounds", type=int, default=100)
    args = parser.parse_args()
    asyncio.run(run(args.url, args.rounds))
