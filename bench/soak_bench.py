"""Memory over a long run: the real bot against the in-process fake Bot API at a steady
offered rate, for as long as an operator would notice a leak (issue 20: "memory flat after
warm-up").

Run: ``python -m bench.soak_bench [--minutes 60] [--rate 30] [--chats 200] [--trace]
[--url postgresql+asyncpg://.../postgres]`` (a PostgreSQL server: the bench makes a
database ``bench_soak`` of its own there; default: a SQLite file in a temporary folder).

Every chat plays nights as a group would: ``/new`` with its four players, self-drawn wins
at a Chengdu blood-battle table (three close a hand), ``/end`` after 24-48 reports (its
summary, the night's chart and the settle-up card), now and then ``/settle`` and its
confirm button, and a new table. Messages arrive at random (Poisson) at ``--rate`` a second
over ``--chats`` chats, each chat's in turn. Handled updates are forgotten after
``--inbox-minutes`` and pruned every minute, so that pruning runs too.

Every ``--every`` seconds the bench records the process's resident memory (VmRSS), the
updates handled and the backlog (updates received and not yet handled, answers due). The
fake's own records (its call log, sent messages, uploaded pictures) are trimmed as it goes,
so that what grows is the bot's. At the end: RSS over time and its slope in MB per 1,000
reports over the last half of the run (flat is the goal). ``--trace [FRAMES]``:
tracemalloc, started at the end of the warm-up (it slows the bot a great deal), snapshots
then and at the end, and the 15 allocation sites that grew most between them (by line,
then the largest by traceback). Always: the object types that grew most (live objects the
collector tracks).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import random
import resource
import tempfile
import time
import tracemalloc
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from prometheus_client import REGISTRY

from bench.load_bench import PLAYERS, WINNERS, tally_app, users
from bot.app import running
from bot.console.fake_api import FakeBotAPI, FakeUser
from bot.delivery.pipeline import pipeline_of
from bot.handlers.money import SETTLE_PATTERN
from bot.ops.config import DeliverySettings
from bot.ops.metrics import UPDATE_KINDS

NEW_TABLE = "/new chengdu " + " ".join(PLAYERS)
SETTLE_DATA = SETTLE_PATTERN.lstrip("^")


def rss_mb() -> float:
    """The process's resident memory now (VmRSS), in MB."""
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # the peak, in KB


def counted(name: str) -> int:
    """A counter of bot.ops.metrics summed over the update kinds."""
    return int(sum(REGISTRY.get_sample_value(name, {"kind": k}) or 0.0
                   for k in UPDATE_KINDS))


def refusals() -> int:
    return int(sum(s.value for m in REGISTRY.collect() if m.name == "tally_refusals"
                   for s in m.samples if s.name == "tally_refusals_total"))


@dataclass
class Table:
    """One chat's night: what it says next."""

    chat_id: int
    step: str = "open"  # open | play | end | settle | confirm
    reports: int = 0  # /hu said at this table
    night: int = 36  # reports before /end
    waited: int = 0  # turns spent looking for /settle's confirm button


@dataclass
class Sample:
    seconds: float
    rss: float
    handled: int
    backlog: int
    offered: float  # messages a second said since the last sample
    objects: int  # objects the garbage collector tracks (what was frozen at start aside)


@dataclass
class Soak:
    api: FakeBotAPI
    app: Any
    tables: list[Table]
    settle_share: float
    rng: random.Random = field(default_factory=lambda: random.Random(20))
    people: dict[str, FakeUser] = field(default_factory=users)
    said: int = 0
    pressed: int = 0
    nights: int = 0

    def act(self, table: Table) -> bool:
        """Say (or press) what ``table``'s chat does next; False if it has nothing yet."""
        u, chat = self.people, table.chat_id
        if table.step == "open":
            self.api.say(u["alice"], chat, NEW_TABLE, mentions=u)
            table.step, table.reports = "play", 0
            table.night = 3 * self.rng.randint(8, 16)
        elif table.step == "play":
            winner = WINNERS[table.reports % 3]
            self.api.say(u[winner], chat, f"/hu {winner} 自摸")
            table.reports += 1
            if table.reports >= table.night:
                table.step = "end"
        elif table.step == "end":
            self.api.say(u["alice"], chat, "/end")
            self.nights += 1
            table.step = "settle" if self.rng.random() < self.settle_share else "open"
        elif table.step == "settle":
            self.api.say(u["bob"], chat, "/settle")
            table.step, table.waited = "confirm", 0
        else:  # confirm: press /settle's button once its answer is there
            message = next((m for m in reversed(self.api.outbox) if m.chat_id == chat and
                            any(str(b.get("callback_data", "")).startswith(SETTLE_DATA)
                                for b in m.buttons)), None)
            if message is None:
                table.waited += 1
                if table.waited >= 5:  # no open debt (no button): on with the next night
                    table.step = "open"
                return False
            data = next(str(b["callback_data"]) for b in message.buttons
                        if str(b.get("callback_data", "")).startswith(SETTLE_DATA))
            payer = message.text.split("→")[0].split()[-1] if "→" in message.text else ""
            self.api.press(u.get(payer, u["alice"]), message, data)
            self.pressed += 1
            table.step = "open"
        self.said += 1
        return True

    async def offer(self, rate: float, until: float) -> None:
        """Poisson arrivals at ``rate`` a second until ``until`` (perf_counter), never
        catching up in a burst more than a second behind."""
        due = time.perf_counter()
        while due < until:
            due = max(due + self.rng.expovariate(rate), time.perf_counter() - 1.0)
            pause = due - time.perf_counter()
            if pause > 0:
                await asyncio.sleep(pause)
            for _ in range(len(self.tables)):
                if self.act(self.rng.choice(self.tables)):
                    break

    def trim_fake(self) -> None:
        """Forget what the fake keeps of the bot's calls (it is not the bot's memory):
        its log, what getUpdates delivered, uploads, answered buttons, and every sent
        message but the recent ones and each chat's newest pinned scoreboard."""
        api = self.api
        api.log.clear()
        api.delivered.clear()
        api.errors.clear()
        api.files.clear()
        api.answered.clear()
        del api.outbox[:-2000]
        for message in api.outbox:
            message.data = b""  # a picture's bytes
        recent = api.outbox[0].message_id if api.outbox else api.next_message
        pinned: dict[int, int] = {}
        for (chat, mid), m in api.messages.items():
            if m.pinned and mid > pinned.get(chat, 0):
                pinned[chat] = mid
        api.messages = {k: m for k, m in api.messages.items()
                        if k[1] >= recent or pinned.get(k[0]) == k[1]}


def backlog(app: Any) -> int:
    return (counted("tally_updates_received_total") - counted("tally_updates_handled_total")
            + pipeline_of(app).sender.backlog())


@contextmanager
def stopping_trace() -> Iterator[None]:
    try:
        yield
    finally:
        tracemalloc.stop()  # nothing if it was not started


def census() -> Counter[str]:
    """The objects the collector tracks, by type, after a full collection."""
    gc.collect()
    return Counter(f"{type(o).__module__}.{type(o).__qualname__}" for o in gc.get_objects())


def print_census(before: Counter[str], after: Counter[str]) -> None:
    grown = sorted(((after[k] - before[k], k) for k in after.keys() | before.keys()),
                   reverse=True)
    print("\nObject types that grew most after the warm-up (live, after a full collection):")
    for diff, name in grown[:15]:
        print(f"  {diff:+8d}  {name} ({after[name]})")


def snapshot() -> tracemalloc.Snapshot:
    gc.collect()
    return tracemalloc.take_snapshot().filter_traces([
        tracemalloc.Filter(False, tracemalloc.__file__),
        tracemalloc.Filter(False, "<frozen importlib._bootstrap*>"),
        tracemalloc.Filter(False, "<unknown>")])


def print_growth(before: tracemalloc.Snapshot, after: tracemalloc.Snapshot,
                 reports: int) -> None:
    per = 1000 / max(reports, 1)
    print(f"\nAllocation sites that grew most after the warm-up ({reports} updates):")
    for stat in after.compare_to(before, "lineno")[:15]:
        frame = stat.traceback[0]
        print(f"  {stat.size_diff / 1024:+9.1f} KB ({stat.size_diff / 1024 * per:+7.2f} KB"
              f" per 1,000) {stat.count_diff:+7d} blocks  {frame.filename}:{frame.lineno}")
    print("\nThe five largest by traceback (innermost last):")
    for stat in after.compare_to(before, "traceback")[:5]:
        print(f"  {stat.size_diff / 1024:+9.1f} KB {stat.count_diff:+7d} blocks")
        for frame in list(stat.traceback)[-8:]:  # oldest first
            print(f"      {frame.filename}:{frame.lineno}")


def slope(points: list[Sample]) -> float:
    """Least-squares MB of RSS per 1,000 updates handled."""
    xs = [p.handled / 1000 for p in points]
    ys = [p.rss for p in points]
    if len(points) < 2 or max(xs) == min(xs):
        return float("nan")
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    return (sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
            / sum((x - mx) ** 2 for x in xs))


async def soak(url: str, tmp: str, minutes: float, rate: float, chats: int, every: float,
               warmup: float, trace: int, inbox_minutes: float, settle_share: float
               ) -> None:
    api = FakeBotAPI()
    # Minutes of inbox keys, below the 24 hours a deployment may set (model_copy does not
    # validate), so that an hour's soak reaches the steady state of pruning.
    delivery = DeliverySettings().model_copy(
        update={"inbox_retention_hours": inbox_minutes / 60, "prune_interval_minutes": 1})
    app = tally_app(api, url, delivery=delivery)
    samples: list[Sample] = []
    before: tracemalloc.Snapshot | None = None
    after: tracemalloc.Snapshot | None = None
    warm: Sample | None = None
    kinds: Counter[str] = Counter()
    with stopping_trace():
        async with running(app, poll_timeout=1):
            run = Soak(api, app, [Table(-5_000_000 - i) for i in range(chats)],
                       settle_share)
            start = time.perf_counter()
            end = start + minutes * 60
            driver = asyncio.create_task(run.offer(rate, end))
            said = 0
            while not driver.done():
                await asyncio.wait([driver], timeout=every)
                run.trim_fake()
                now = time.perf_counter() - start
                last = samples[-1].seconds if samples else 0.0
                sample = Sample(now, rss_mb(), counted("tally_updates_handled_total"),
                                backlog(app), (run.said - said) / max(now - last, 1e-9),
                                len(gc.get_objects()))
                said = run.said
                samples.append(sample)
                print(f"{now / 60:6.1f} min  RSS {sample.rss:7.1f} MB  handled "
                      f"{sample.handled:7d}  backlog {sample.backlog:5d}  offered "
                      f"{sample.offered:5.1f}/s  objects {sample.objects}  nights "
                      f"{run.nights}  refusals {refusals()}"
                      + (f"  traced {tracemalloc.get_traced_memory()[0] / 2**20:.1f} MB"
                         if trace else ""), flush=True)
                if warm is None and now >= warmup * 60:
                    warm = sample
                    kinds = census()
                    if trace:  # from here: what is allocated after the warm-up
                        tracemalloc.start(trace)
                        snapshot().dump(str(Path(tmp) / "warm.trace"))  # not kept alive
            await driver
            await pipeline_of(app).idle()
            run.trim_fake()
            kinds_after = census()
            if trace:
                after = snapshot()
                before = tracemalloc.Snapshot.load(str(Path(tmp) / "warm.trace"))
            handled = counted("tally_updates_handled_total")
    elapsed = samples[-1].seconds
    print(f"\n{run.said} messages said in {elapsed / 60:.1f} min ({run.said / elapsed:.1f}/s"
          f" offered, {rate:g}/s asked), {handled} handled, {run.nights} nights ended, "
          f"{run.pressed} settle-ups confirmed, {refusals()} refusals")
    print("\n  minute   RSS MB   handled   backlog   objects")
    step = max(1, len(samples) // 40)
    for s in samples[::step] + ([samples[-1]] if (len(samples) - 1) % step else []):
        print(f"  {s.seconds / 60:6.1f}  {s.rss:7.1f}  {s.handled:8d}  {s.backlog:7d}  "
              f"{s.objects:8d}")
    half = [s for s in samples if s.seconds >= elapsed / 2]
    if warm is not None:
        after_warm = [s for s in samples if s.seconds >= warm.seconds]
        print(f"\nRSS at the end of the warm-up ({warm.seconds / 60:.1f} min) "
              f"{warm.rss:.1f} MB, at the end {samples[-1].rss:.1f} MB "
              f"({samples[-1].rss - warm.rss:+.1f} MB over "
              f"{samples[-1].handled - warm.handled} updates); slope after the warm-up "
              f"{slope(after_warm):+.3f} MB per 1,000")
    print(f"slope over the last half ({half[0].seconds / 60:.1f}-{elapsed / 60:.1f} min): "
          f"{slope(half):+.3f} MB per 1,000 updates (goal: flat)")
    if warm is not None:
        print_census(kinds, kinds_after)
    if before is not None and after is not None and warm is not None:
        print_growth(before, after, handled - warm.handled)


async def database(url: str | None, tmp: str) -> str:
    """A SQLite file in ``tmp``, or a fresh database ``bench_soak`` on the given server."""
    if url is None:
        return f"sqlite+aiosqlite:///{Path(tmp) / 'soak.sqlite3'}"
    import asyncpg

    conn = await asyncpg.connect(url.replace("postgresql+asyncpg", "postgresql"))
    await conn.execute("DROP DATABASE IF EXISTS bench_soak")
    await conn.execute("CREATE DATABASE bench_soak")
    await conn.close()
    return url.rsplit("/", 1)[0] + "/bench_soak"


async def main(args: argparse.Namespace) -> None:
    warmup = args.warmup if args.warmup is not None else min(8.0, args.minutes / 4)
    with tempfile.TemporaryDirectory() as tmp:
        await soak(await database(args.url, tmp), tmp, args.minutes, args.rate, args.chats,
                   args.every, warmup, args.trace, args.inbox_minutes, args.settle_share)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=60.0)
    parser.add_argument("--rate", type=float, default=30.0, help="messages a second")
    parser.add_argument("--chats", type=int, default=200)
    parser.add_argument("--every", type=float, default=30.0, help="seconds between samples")
    parser.add_argument("--warmup", type=float, default=None,
                        help="minutes (default: a quarter of the run, at most 8)")
    parser.add_argument("--trace", type=int, nargs="?", const=6, default=0, metavar="FRAMES",
                        help="tracemalloc's growth, keeping FRAMES frames (6) an allocation")
    parser.add_argument("--inbox-minutes", type=float, default=3.0,
                        help="handled updates kept this long, then pruned")
    parser.add_argument("--settle-share", type=float, default=0.3,
                        help="nights followed by /settle and its confirm button")
    parser.add_argument("--url", default=None, help="a PostgreSQL server (default: SQLite)")
    asyncio.run(main(parser.parse_args()))
