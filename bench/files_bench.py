"""Pictures and files: the time to draw a 40-hand night's chart and its settle-up card, and
the export of 100,000 hands with its peak memory.

Run: ``python -m bench.files_bench [--hands 100000] [--import]``.

- Drawing is timed against an anchor measured in the same run: an empty figure of the
  same size saved as PNG (what any matplotlib picture costs at least).
- Each export runs in a fresh process that opens the ledger and exports one chat; how far
  its resident memory rises above what it was before the export (sampled every 10 ms from
  ``/proc/self/statm``) is compared with the same for a chat of 1,000 hands: bounded memory
  means the rise stays about the same while the zip grows a hundredfold.
- ``--import`` also times importing the large export into an empty chat.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bench.ledger_bench import _bulk, _templates
from storage.ledger import Ledger
from storage.models import PlayerRef

CHAT = -42


def _best(fn: Callable[[], Any], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def _empty_png() -> bytes:
    from bot.pictures import drawing, fonts

    def draw(fig: Any) -> None:
        fig.add_axes((0.1, 0.1, 0.8, 0.8))

    return drawing._render(fonts.chosen(), draw, drawing.CHART_SIZE)


async def _forty_hands(tmp: Path) -> None:
    # Imported here: the export's child process measures its memory without matplotlib.
    from bot.handlers.files import card_of, draw_night
    from bot.pictures import drawing, fonts

    ledger = await Ledger.open(f"sqlite+aiosqlite:///{tmp}/draw.sqlite3")
    try:
        seats = [PlayerRef(name=n) for n in ("小明", "bob", "carol", "大卫")]
        await ledger.open_nights.open_night(CHAT, seats, preset="chengdu",
                                           overrides={"blood_battle": False})
        rng = random.Random(5)
        for _ in range(40):
            winner = rng.choice("ESWN")
            loser = rng.choice([s for s in "ESWN" if s != winner])
            await ledger.hands.record(CHAT, {"type": "win", "how": "discard", "winner": winner,
                                             "from_seat": loser,
                                             "patterns": rng.choice([[], ["清一色"], ["七对"]])})
        summary = await ledger.nights.end_night(CHAT)
        night_chart = await ledger.series.night_chart(CHAT)
        font = fonts.chosen()
        card = card_of(night_chart, summary, "周五麻将")
        anchor = _best(_empty_png, 10)
        chart = _best(lambda: draw_night(night_chart, "zh-Hans", font), 10)
        settle = _best(lambda: drawing.settle_card(card, "zh-Hans", font), 10)
        print(f"font: {font.family} (CJK: {font.cjk})")
        print(f"anchor, an empty {drawing.CHART_SIZE[0]}x{drawing.CHART_SIZE[1]} PNG: "
              f"{anchor * 1000:.0f} ms")
        print(f"40-hand night chart: {chart * 1000:.0f} ms ({chart / anchor:.1f}x the anchor)")
        print(f"settle-up card: {settle * 1000:.0f} ms ({settle / anchor:.1f}x the anchor)")
    finally:
        await ledger.close()


async def _fill(ledger: Ledger, chat_id: int, hands: int, per_night: int) -> None:
    templates = _templates()
    rng = random.Random(9)
    seats = [PlayerRef(name=f"p{i}", telegram_id=1000 + i) for i in range(4)]
    done = 0
    while done < hands:
        n = min(per_night, hands - done)
        s = await ledger.open_nights.open_night(chat_id, seats, preset="chengdu",
                                               overrides={"blood_battle": False})
        pids: dict[str, int] = {seat: p.id for seat, p in s.seats.items()}
        await _bulk(ledger, chat_id, s.id, pids, 0, n, templates, rng, {})
        await ledger.nights.end_night(chat_id)
        done += n


def _rss() -> int:
    """The process's resident memory now, in bytes (Linux), or its peak so far."""
    try:
        with open("/proc/self/statm") as fh:
            return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except OSError:
        import resource

        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


async def _export_only(db: str, chat_id: int) -> None:
    """In a fresh process: export one chat; print its size, time, the resident memory
    before and its highest value during the export (sampled every 10 ms)."""
    ledger = await Ledger.open(f"sqlite+aiosqlite:///{db}", run_migrations=False)
    peak = [0]
    done = threading.Event()

    def sample() -> None:
        while not done.wait(0.01):
            peak[0] = max(peak[0], _rss())

    try:
        before = _rss()
        sampler = threading.Thread(target=sample)
        sampler.start()
        t0 = time.perf_counter()
        with await ledger.files.export_zip(chat_id) as fh:
            size = fh.seek(0, io.SEEK_END)
        seconds = time.perf_counter() - t0
        done.set()
        sampler.join()
        print(json.dumps({"size": size, "seconds": seconds, "rss_kb": max(peak[0], before) / 1e3,
                          "rss_before_kb": before / 1e3}))
    finally:
        await ledger.close()


def _export_in_child(db: Path, chat_id: int) -> dict[str, float]:
    out = subprocess.run([sys.executable, "-m", "bench.files_bench", "--export-only", str(db),
                          "--chat", str(chat_id)], check=True, capture_output=True, text=True)
    return json.loads(out.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


async def _import(ledger: Ledger, source: int, target: int) -> None:
    with await ledger.files.export_zip(source) as fh:
        t0 = time.perf_counter()
        done = await ledger.files.import_zip(target, fh)
        seconds = time.perf_counter() - t0
    print(f"import of {done.hands:,} hands into an empty chat: {seconds:.0f} s")


async def _fill_db(db: Path, hands: int, do_import: bool) -> None:
    ledger = await Ledger.open(f"sqlite+aiosqlite:///{db}")
    try:
        t0 = time.perf_counter()
        await _fill(ledger, 1, 1000, 1000)
        await _fill(ledger, 2, hands, 5000)
        print(f"filled 1,000 + {hands:,} hands in {time.perf_counter() - t0:.0f} s")
        if do_import:
            await _import(ledger, 2, 3)
    finally:
        await ledger.close()


def _export(tmp: Path, hands: int, do_import: bool) -> None:
    db = tmp / "export.sqlite3"
    asyncio.run(_fill_db(db, hands, do_import))
    small, large = _export_in_child(db, 1), _export_in_child(db, 2)
    for label, r in (("1,000 hands", small), (f"{hands:,} hands", large)):
        print(f"export of {label}: {r['size'] / 1e6:.1f} MB zip in {r['seconds']:.1f} s, "
              f"resident memory {r['rss_before_kb'] / 1e3:.0f} MB before, "
              f"{r['rss_kb'] / 1e3:.0f} MB at most during it")
    grow_small = small["rss_kb"] - small["rss_before_kb"]
    grow_large = large["rss_kb"] - large["rss_before_kb"]
    print(f"rise of resident memory during the export, {hands:,} ÷ 1,000 hands: "
          f"{grow_large / max(grow_small, 1):.2f} ({grow_large / 1e3:.1f} MB vs "
          f"{grow_small / 1e3:.1f} MB; zip size ratio {large['size'] / small['size']:.0f})")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--import", dest="do_import", action="store_true")
    parser.add_argument("--export-only", dest="export_only")
    parser.add_argument("--chat", type=int, default=2)
    args = parser.parse_args()
    if args.export_only:
        asyncio.run(_export_only(args.export_only, args.chat))
        return
    print(f"== pictures and files ({datetime.now(UTC):%Y-%m-%d})")
    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(_forty_hands(Path(tmp)))
        _export(Path(tmp), args.hands, args.do_import)


if __name__ == "__main__":
    main()
