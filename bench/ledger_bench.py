"""The ledger at scale: read costs at 1,000,000 hands against 1,000, bytes per hand, and
the rate of recorded hands, on SQLite and (with TALLY_TEST_POSTGRES_URL) PostgreSQL.

Run: ``python -m bench.ledger_bench [--hands 1000000] [--backend sqlite|postgres|both]``.
Recording uses the real ``Ledger.hands.record``; the rest of the history is bulk-inserted as the
same rows ``record`` writes (hand, four entries, four player facts, running totals).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import insert, select, text, update

from engine.models import SEATS
from engine.rules import ruleset
from engine.settle import parse_report, settle_hand
from storage.ledger import Ledger
from storage.models import PlayerRef
from storage.services.hand_stats import seat_facts
from storage.sql import tables as t

CHATS = 1_000
BATCH = 2_000


def _templates(n: int = 64) -> list[tuple[dict[str, Any], dict[str, Any], Any]]:
    rules = ruleset("chengdu", {"blood_battle": False})
    rng = random.Random(3)
    out = []
    for _ in range(n):
        winner = rng.choice(SEATS)
        ev: dict[str, Any] = {"type": "win", "winner": winner,
                              "patterns": rng.choice([[], ["清一色"], ["七对"], ["对对胡"]])}
        if rng.random() < 0.5:
            ev["how"] = "self_draw"
        else:
            ev["how"] = "discard"
            ev["from_seat"] = rng.choice([s for s in SEATS if s != winner])
        report = parse_report({"events": [ev]})
        result = settle_hand(rules, report)
        out.append((report.model_dump(mode="json"), result.model_dump(mode="json"), result))
    return out


async def _setup_chat(ledger: Ledger, chat_id: int) -> tuple[int, dict[str, int]]:
    seats = [PlayerRef(name=f"p{chat_id}_{i}") for i in range(4)]
    s = await ledger.open_nights.open_night(chat_id, seats, preset="chengdu",
                                           overrides={"blood_battle": False})
    return s.id, {seat: p.id for seat, p in s.seats.items()}


async def _bulk(ledger: Ledger, chat_id: int, night_id: int, pids: dict[str, int],
                start: int, count: int, templates: list[Any], rng: random.Random,
                totals: dict[int, list[int]]) -> None:
    stamp = datetime.now(UTC)
    async with ledger.write() as conn:
        for first in range(start, start + count, BATCH):
            n = min(BATCH, start + count - first)
            picks = [rng.choice(templates) for _ in range(n)]
            hand_rows = [{"chat_id": chat_id, "night_id": night_id, "number": first + i + 1,
                          "dealer": "E", "report": rep, "result": res, "status": "closed",
                          "next_dealer": res["next_dealer"], "reporters": [None],
                          "created_at": stamp, "updated_at": stamp}
                         for i, (rep, res, _) in enumerate(picks)]
            ids = (await conn.execute(insert(t.hands).returning(t.hands.c.id),
                                      hand_rows)).scalars().all()
            entry_rows, fact_rows = [], []
            for hid, (_, _, result) in zip(ids, picks, strict=True):
                facts = seat_facts(result)
                for seat in SEATS:
                    f = facts[seat]
                    pid = pids[seat]
                    entry_rows.append({"chat_id": chat_id, "night_id": night_id,
                                       "hand_id": hid, "event_index": 0, "player_id": pid,
                                       "delta": f.delta, "created_at": stamp})
                    fact_rows.append({"hand_id": hid, "player_id": pid, "chat_id": chat_id,
                                      "delta": f.delta, "won": f.won,
                                      "self_draws": f.self_draws, "dealt_in": f.dealt_in,
                                      "win_points": f.win_points})
                    tot = totals.setdefault(pid, [0, 0, 0, 0, 0, 0])
                    for k, v in enumerate((f.delta, 1, f.won, f.self_draws, f.dealt_in,
                                           f.win_points)):
                        tot[k] += v
            await conn.execute(insert(t.entries), entry_rows)
            await conn.execute(insert(t.hand_players), fact_rows)
        await conn.execute(update(t.nights).where(t.nights.c.id == night_id)
                           .values(hands=start + count))


async def _flush_totals(ledger: Ledger, totals: dict[int, list[int]]) -> None:
    tc = t.totals.c
    async with ledger.write() as conn:
        for pid, (net, hands, wins, sd, di, wp) in totals.items():
            await conn.execute(update(t.totals).where(tc.player_id == pid).values(
                net=net, hands=hands, wins=wins, self_draws=sd, dealt_in=di, win_points=wp))


async def _time(fn: Callable[[], Awaitable[Any]], repeat: int = 20) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        await fn()
        best = min(best, time.perf_counter() - t0)
    return best


async def _reads(ledger: Ledger, chat_id: int, player_id: int) -> dict[str, float]:
    return {
        "standings": await _time(lambda: ledger.lookback.standings(chat_id)),
        "player stats": await _time(lambda: ledger.lookback.player_stats(chat_id, player_id)),
        "history page": await _time(lambda: ledger.nights.history(chat_id, page=1)),
        "money standings": await _time(lambda: ledger.money.money_standings(chat_id)),
        "night history": await _time(lambda: ledger.lookback.night_history(chat_id, "current")),
        "player record": await _time(lambda: ledger.lookback.player_record(chat_id, player_id)),
    }


async def _size(ledger: Ledger, path: Path | None) -> int:
    if path is not None:  # the database file and its write-ahead log
        return sum(p.stat().st_size for p in path.parent.iterdir()
                   if p.name.startswith(path.name))
    async with ledger.read() as conn:
        return int((await conn.execute(text(
            "SELECT sum(pg_total_relation_size(c.oid)) FROM pg_class c JOIN pg_namespace n "
            "ON n.oid = c.relnamespace WHERE n.nspname = current_schema() AND c.relkind = 'r'"
        ))).scalar_one())


async def run_backend(backend: str, hands: int) -> dict[str, float]:
    tmp = tempfile.mkdtemp(prefix="tally-bench-")
    path: Path | None = None
    schema = None
    if backend == "sqlite":
        path = Path(tmp) / "bench.sqlite3"
        ledger = await Ledger.open(f"sqlite+aiosqlite:///{path}")
    else:
        import asyncpg

        url = os.environ["TALLY_TEST_POSTGRES_URL"]
        schema = "bench_" + uuid.uuid4().hex[:8]
        conn = await asyncpg.connect(url.replace("postgresql+asyncpg", "postgresql"))
        await conn.execute(f"CREATE SCHEMA {schema}")
        await conn.close()
        ledger = await Ledger.open(url, connect_args={"server_settings": {"search_path": schema}})
    try:
        templates = _templates()
        rng = random.Random(5)
        # 1. The recording rate, through the real API.
        rec_chat = 10**9
        await _setup_chat(ledger, rec_chat)
        n_rec = 300
        t0 = time.perf_counter()
        for i in range(n_rec):
            rep = templates[i % len(templates)][0]
            await ledger.hands.record(rec_chat, rep["events"][0])
        rate = n_rec / (time.perf_counter() - t0)
        # 2. Reads at 1,000 hands (one chat holding them all).
        totals: dict[int, list[int]] = {}
        sid, pids = await _setup_chat(ledger, 1)
        await _bulk(ledger, 1, sid, pids, 0, 1_000, templates, rng, totals)
        await _flush_totals(ledger, totals)
        small = await _reads(ledger, 1, pids["E"])
        # 3. Grow to `hands` across CHATS chats; read the same chat again.
        per_chat = (hands - 1_000) // (CHATS - 1)
        t0 = time.perf_counter()
        for chat in range(2, CHATS + 1):
            sid2, pids2 = await _setup_chat(ledger, chat)
            await _bulk(ledger, chat, sid2, pids2, 0, per_chat, templates, rng, totals)
        await _flush_totals(ledger, totals)
        fill = time.perf_counter() - t0
        async with ledger.read() as conn:
            total_hands = (await conn.execute(select(t.hands.c.id).order_by(
                t.hands.c.id.desc()).limit(1))).scalar_one()
        if backend == "postgres":
            async with ledger.write() as conn:
                await conn.exec_driver_sql("ANALYZE")
        big = await _reads(ledger, 1, pids["E"])
        size = await _size(ledger, path)
        print(f"[{backend}] recorded through Ledger.hands.record: {rate:.0f} hands/s")
        print(f"[{backend}] bulk fill to {total_hands:,} hands in {fill:.0f} s")
        out = {"record_rate": rate, "bytes_per_hand": size / total_hands}
        for k in small:
            ratio = big[k] / small[k]
            out[k] = ratio
            print(f"[{backend}] {k}: {small[k] * 1e3:.2f} ms at 1,000 hands, "
                  f"{big[k] * 1e3:.2f} ms at {total_hands:,}: ratio {ratio:.2f} (goal <= 2)")
        print(f"[{backend}] {size / total_hands:.0f} bytes per hand ({size / 2**20:.0f} MiB)")
        return out
    finally:
        await ledger.close()
        if schema is not None:
            import asyncpg

            conn = await asyncpg.connect(
                os.environ["TALLY_TEST_POSTGRES_URL"].replace("postgresql+asyncpg", "postgresql"))
            await conn.execute(f"DROP SCHEMA {schema} CASCADE")
            await conn.close()
        if path is not None:
            for p in Path(tmp).iterdir():
                p.unlink()
            Path(tmp).rmdir()


def run(hands: int = 20_000, backend: str = "sqlite") -> dict[str, dict[str, float]]:
    backends = ["sqlite", "postgres"] if backend == "both" else [backend]
    if "postgres" in backends and not os.environ.get("TALLY_TEST_POSTGRES_URL"):
        print("PostgreSQL skipped: set TALLY_TEST_POSTGRES_URL")
        backends.remove("postgres")
    return {b: asyncio.run(run_backend(b, hands)) for b in backends}


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--hands", type=int, default=1_000_000)
    parser.add_argument("--backend", choices=["sqlite", "postgres", "both"], default="both")
    args = parser.parse_args()
    run(args.hands, args.backend)
