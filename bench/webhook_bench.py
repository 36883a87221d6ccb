"""Webhook mode at 1, 2 and 3 worker processes on PostgreSQL, each worker held to a share
of a CPU: saturated reports a second and the update-to-answer latency, with the fake Bot
API adding 50 ms to every call.

Run (as root, for the cap): ``python -m bench.webhook_bench --url postgresql+asyncpg://…``
(or set ``TALLY_TEST_POSTGRES_URL``). The bot's tables live in that database's public schema
and are dropped before every round. Each round starts ``python -m bot run`` in webhook mode
with the bot's default settings except Telegram's rate limits (off: this measures the
bot, and a bot token's own limits are discussed in docs/performance.md), puts each worker
process in a cgroup of its own with ``--cpu-cap`` CPUs (0.3 by default; cgroup v1
``cpu.cfs_quota_us``, or v2 ``cpu.max``; not root or no cgroup: uncapped, and it says so),
as if each worker had a small machine of its own, opens a table in every chat, then offers
all the reports at once: Telegram's side (``tests.fake_webhook``) posts them over
``--connections`` parallel connections, a chat's next report after the 2xx for its last.
Throughput is the reports divided by the time from the first post to the last answer;
latency is from an update's first post to the reply that answers it. Each round also says
how the answers were split between the worker processes (the fake Bot API notes which
worker's connection each ``sendMessage`` came on), the CPU time the workers spent per
report (Linux ``/proc``) and how long the cap held them back.

``--anchor`` runs, in every round beside the real bot, the same load on
``bench.anchor_bot`` (the smallest bot on the same stack that keeps the same promises; its
docstring says which) and prints both CPU figures a report and their ratio; ``--rate 40``
offers the reports at 40 a second instead of all at once; ``--pool 256,16`` runs the real
bot once with each ``telegram.connection_pool_size``. The configurations of a round run
one after the other, their order turned from round to round; each round also says the
CPU a report of the PostgreSQL backends serving the database and the transactions a report
(``pg_stat_database``). Use a database of its own: the bench drops its tables.

Goal (issue 20): at 0.3 CPU a worker, 2 workers at least 1.8× one worker's throughput and 3
workers at least 2.5× (median of 3 rounds), p99 not worse, and no round of 2 workers under
1.6× one worker's median.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from bench.worker_cap import CallsByWorker, CpuCap, serve_http_counting
from bot.console.fake_api import FakeUser
from tests.fake_webhook import BotProcess, WebhookBotAPI, WebhookSender

PLAYERS = ["alice", "bob", "carol", "dave"]
# ``--env KEY=VALUE``: a setting of the bot's for every round (e.g. TALLY_DELIVERY__AT_ONCE=false).
EXTRA_ENV: dict[str, str] = {}
NEW = "/new chengdu @alice @bob @carol @dave"
PATTERNS = ["清一色", "七对", "对对胡", "平胡"]


def report(chat: int, n: int) -> tuple[str, str]:
    """The n-th report of a chat: self-drawn wins, three to a hand, winners rotating."""
    hand, i = divmod(n, 3)
    turn = (hand + chat) % 4
    who = (PLAYERS[turn:] + PLAYERS[:turn])[i]
    return who, f"/hu {who} 自摸 {PATTERNS[(hand + i) % 4]}"


async def reset_tables(url: str) -> None:
    import asyncpg

    from storage.sql.tables import metadata

    conn = await asyncpg.connect(url.replace("postgresql+asyncpg", "postgresql"))
    try:
        names = [t.name for t in metadata.sorted_tables] + ["alembic_version"] + [
            f"anchor_{name}" for name in ("inbox", "tables", "hands", "outbox")]
        await conn.execute("DROP TABLE IF EXISTS "
                           + ", ".join(f"public.{n}" for n in names) + " CASCADE")
    finally:
        await conn.close()


async def wait_for(condition, seconds: float) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError(f"not done within {seconds} s")
        await asyncio.sleep(0.01)


class Database:
    """The database's side of a round: the CPU time of the backends serving it, and the
    transactions it committed or rolled back (``pg_stat_database``)."""

    def __init__(self, url: str) -> None:
        self.dsn = url.replace("postgresql+asyncpg", "postgresql")

    async def backends_cpu(self) -> dict[int, float]:
        """CPU seconds so far of each backend connected to the database (Linux; the
        server on this machine)."""
        import asyncpg

        conn = await asyncpg.connect(self.dsn)
        try:
            pids = [int(r[0]) for r in await conn.fetch(
                "SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
                "AND pid <> pg_backend_pid()")]
        finally:
            await conn.close()
        cpu = {}
        for pid in pids:
            try:
                cpu[pid] = cpu_seconds([pid])
            except OSError:  # gone, or the server is not on this machine
                continue
        return cpu

    async def transactions(self) -> int:
        """Transactions so far, this read's own included. A backend reports its counts at
        most once a second while busy, ten seconds after it fell idle, and when it ends:
        read this before and after the bot's whole life, not inside it."""
        import asyncpg

        conn = await asyncpg.connect(self.dsn)
        try:
            return int(await conn.fetchval(
                "SELECT xact_commit + xact_rollback FROM pg_stat_database "
                "WHERE datname = current_database()"))
        finally:
            await conn.close()


def machine_busy_seconds() -> float:
    """CPU time all cores have spent busy so far, every process and the kernel (Linux)."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + fields[4]  # idle, iowait; steal (the 8th) is another guest's
    return (sum(fields[:7]) - idle) / os.sysconf("SC_CLK_TCK")


def cpu_seconds(pids: list[int]) -> float:
    """User and system CPU time the processes used so far (Linux)."""
    total = 0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / os.sysconf("SC_CLK_TCK")


class Round:
    """What one round measured."""

    def __init__(self, rate: float, latencies: list[float], cpu: float, harness: float,
                 rest: float, split: Counter[int], throttled: float, db_cpu: float = 0.0,
                 xacts: float = 0.0) -> None:
        self.rate, self.latencies, self.cpu, self.rest = rate, latencies, cpu, rest
        self.harness, self.split, self.throttled = harness, split, throttled
        self.db_cpu, self.xacts = db_cpu, xacts


class Setup:
    """What runs in a round: the real bot (``python -m bot run``) or the anchor, and the
    Bot API connection pool (None: the bot's default)."""

    def __init__(self, anchor: bool = False, pool: int | None = None) -> None:
        self.anchor, self.pool = anchor, pool

    def __str__(self) -> str:
        pool = f", pool {self.pool}" if self.pool is not None else ""
        return ("anchor" if self.anchor else "worker") + pool


async def offer_at(rate: float, offers: list[tuple[FakeUser, int, str]], api: WebhookBotAPI,
                   offered: list[tuple[tuple[int, int], int]]) -> None:
    """Queue ``offers`` at ``rate`` a second (0: all at once)."""
    started = time.monotonic()
    for i, (user, chat, text) in enumerate(offers):
        if rate:
            wait = started + i / rate - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
        key = api.say_message(user, chat, text)
        offered.append((key, int(api.updates[-1]["update_id"])))


async def one_round(url: str, workers: int, chats: int, reports: int, delay: float,
                    connections: int, cap: CpuCap, setup: Setup | None = None,
                    rate: float = 0.0) -> Round:
    """One run: reports a second, latencies in seconds, CPU seconds a report of the
    workers, of this process (Telegram's side: the fake Bot API and the webhook's sender)
    and of the rest of the machine (PostgreSQL, the kernel, anything else), answers per
    worker pid, the seconds the cap held the workers back, the CPU seconds a report of
    the database's backends and its transactions a report."""
    setup = setup or Setup()
    await reset_tables(url)
    database = Database(url)
    xacts = await database.transactions()
    api = WebhookBotAPI(delay=delay)
    calls = CallsByWorker()
    users = {name: FakeUser(100 + i, name, name, "en") for i, name in enumerate(PLAYERS)}
    groups = [-200_000 - c for c in range(chats)]
    for chat in groups:
        api.chat(chat, type="group")
    fake = await serve_http_counting(api, calls)
    with tempfile.TemporaryDirectory(prefix="webhook-bench-") as workdir:
        bot = BotProcess(f"http://127.0.0.1:{fake.sockets[0].getsockname()[1]}/bot",
                         Path(workdir), {
                             "TALLY_TELEGRAM__WORKERS": str(workers),
                             "TALLY_TELEGRAM__MAX_CONNECTIONS": str(connections),
                             "TALLY_TELEGRAM__OVERALL_MAX_RATE": "0",
                             "TALLY_TELEGRAM__GROUP_MAX_RATE": "0",
                             "TALLY_DEFAULT_LANGUAGE": "en",
                             "TALLY_LOGGING__LEVEL": "WARNING",
                             **EXTRA_ENV,
                             "TALLY_STORAGE__URL": url,
                             **({"TALLY_TELEGRAM__CONNECTION_POOL_SIZE": str(setup.pool)}
                                if setup.pool is not None else {}),
                         }, module="bench.anchor_bot" if setup.anchor else "bot")
        try:
            async with bot, WebhookSender(api, bot.webhook, bot.secret,
                                          max_connections=connections,
                                          keepalive=False) as sender:
                assert bot.process is not None
                pids = bot.workers() or [bot.process.pid]  # one worker: Uvicorn in-process
                calls.pids = pids
                cap.apply(pids)
                opened = [api.say_message(users["alice"], chat, NEW) for chat in groups]
                await sender.drained(timeout=300)
                await wait_for(lambda: all(api.replies.get(k) for k in opened), 300)
                offered: list[tuple[tuple[int, int], int]] = []
                offers = []
                for n in range(reports // chats):
                    for chat in groups:
                        who, text = report(chat, n)
                        offers.append((users[who], chat, text))
                calls.reset()
                db_cpu = await database.backends_cpu()
                throttled = cap.throttled_seconds()
                cpu = cpu_seconds(pids)
                harness = time.process_time()
                busy = machine_busy_seconds()
                started = time.monotonic()
                await offer_at(rate, offers, api, offered)
                await sender.drained(timeout=600)
                await wait_for(lambda: all(api.replies.get(k) for k, _ in offered), 600)
                cpu = cpu_seconds(pids) - cpu
                harness = time.process_time() - harness
                rest = machine_busy_seconds() - busy - cpu - harness
                throttled = cap.throttled_seconds() - throttled
                db_cpu = {pid: t - db_cpu.get(pid, 0.0)
                          for pid, t in (await database.backends_cpu()).items()}
                elapsed = max(api.replies[k][0][0] for k, _ in offered) - started
                latencies = [api.replies[k][0][0] - sender.first_sent[u] for k, u in offered]
        finally:
            cap.remove()
            fake.close()
            await fake.wait_closed()
    await asyncio.sleep(0.5)  # the bot's backends, ended with it, report their counts
    xacts = await database.transactions() - xacts - 1  # the first read's own
    n = len(offered)
    return Round(n / elapsed, latencies, cpu / n, harness / n, rest / n, Counter(calls.answers),
                 throttled, sum(db_cpu.values()) / n, xacts / (n + len(groups)))


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def spread(seconds: list[float]) -> str:
    """The median of CPU seconds a report in ms, with the lowest and highest."""
    return (f"{statistics.median(seconds) * 1000:.2f} ms "
            f"({min(seconds) * 1000:.2f}–{max(seconds) * 1000:.2f})")


async def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.webhook_bench",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", default=os.environ.get("TALLY_TEST_POSTGRES_URL"),
                        help="PostgreSQL (postgresql+asyncpg://…); default "
                        "$TALLY_TEST_POSTGRES_URL")
    parser.add_argument("--chats", type=int, default=40)
    parser.add_argument("--reports", type=int, default=600, help="reports a round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--delay", type=float, default=0.05,
                        help="seconds added to every Bot API call")
    parser.add_argument("--connections", type=int, default=40,
                        help="Telegram's parallel connections (max_connections)")
    parser.add_argument("--workers", default="1,2,3")
    parser.add_argument("--cpu-cap", type=float, default=0.3,
                        help="CPUs each worker process may use (a cgroup; needs root); "
                        "0: uncapped")
    parser.add_argument("--rate", type=float, default=0.0,
                        help="reports a second offered (0: all at once, saturated)")
    parser.add_argument("--anchor", action="store_true",
                        help="run bench.anchor_bot on the same load in every round too")
    parser.add_argument("--pool", default="",
                        help="the real bot's telegram.connection_pool_size, one round each "
                        "(e.g. 256,16); default: the bot's own default")
    parser.add_argument("--anchor-pool", type=int, default=None,
                        help="the anchor's connection pool (default: python-telegram-bot's)")
    parser.add_argument("--env", action="append", default=[], metavar="KEY=VALUE",
                        help="a setting of the bot's in every round, e.g. "
                        "TALLY_DELIVERY__AT_ONCE=false")
    args = parser.parse_args(argv)
    EXTRA_ENV.update(item.split("=", 1) for item in args.env)
    if not args.url:
        print("needs --url or TALLY_TEST_POSTGRES_URL (PostgreSQL)", file=sys.stderr)
        return 2
    cap = CpuCap(args.cpu_cap)
    offered = f"at {args.rate:g} a second" if args.rate else "all at once"
    print(f"each worker: {cap.describe()}; {args.rounds} round(s) of {args.reports} "
          f"reports from {args.chats} chats, offered {offered}, over {args.connections} "
          "connections", flush=True)
    setups = [Setup(pool=int(p)) for p in args.pool.split(",") if p] or [Setup()]
    if args.anchor:
        setups.append(Setup(anchor=True, pool=args.anchor_pool))
    results: dict[int, tuple[float, float, float]] = {}
    rounds: dict[int, list[Round]] = {}
    for workers in [int(w) for w in args.workers.split(",")]:
        by_setup: dict[str, list[Round]] = {str(setup): [] for setup in setups}
        for r in range(args.rounds):
            turn = r % len(setups)
            for setup in setups[turn:] + setups[:turn]:
                one = await one_round(args.url, workers, args.chats, args.reports,
                                      args.delay, args.connections, cap, setup, args.rate)
                by_setup[str(setup)].append(one)
                total = sum(one.split.values()) or 1
                split = ", ".join(f"{pid or '?'}: {n} ({n / total:.0%})"
                                  for pid, n in sorted(one.split.items()))
                who = str(setup) if setup.anchor else f"{workers} worker(s), {setup}"
                print(f"{who}, round {r + 1}: {one.rate:6.1f} reports/s, "
                      f"p50 {quantile(one.latencies, 0.5) * 1000:5.0f} ms, "
                      f"p99 {quantile(one.latencies, 0.99) * 1000:5.0f} ms, "
                      f"CPU a report: workers {one.cpu * 1000:4.1f} ms, PostgreSQL's "
                      f"backends {one.db_cpu * 1000:4.1f} ms, Telegram's side "
                      f"{one.harness * 1000:4.1f} ms, the rest of the machine "
                      f"{one.rest * 1000:4.1f} ms; transactions an update "
                      f"{one.xacts:.2f}; held back by the cap {one.throttled:.1f} s; "
                      f"load average {os.getloadavg()[0]:.1f}; answers by worker pid: "
                      f"{split}", flush=True)
        for name, these in by_setup.items():
            rate, p50, p99 = (statistics.median(o.rate for o in these),
                              statistics.median(quantile(o.latencies, 0.5) for o in these),
                              statistics.median(quantile(o.latencies, 0.99) for o in these))
            if name == str(setups[0]):
                results[workers], rounds[workers] = (rate, p50, p99), these
            who = name if name.startswith("anchor") else f"{workers} worker(s), {name}"
            print(f"{who}, median of {len(these)}: {rate:6.1f} reports/s, "
                  f"p50 {p50 * 1000:.0f} ms, p99 {p99 * 1000:.0f} ms, CPU a report: workers "
                  f"{spread([o.cpu for o in these])}, PostgreSQL's backends "
                  f"{spread([o.db_cpu for o in these])}, Telegram's side "
                  f"{statistics.median(o.harness for o in these) * 1000:.1f} ms, the rest "
                  f"{statistics.median(o.rest for o in these) * 1000:.1f} ms; transactions "
                  f"an update {statistics.median(o.xacts for o in these):.2f}", flush=True)
        if args.anchor:
            anchor = by_setup[str(setups[-1])]
            for setup in setups[:-1]:
                these = by_setup[str(setup)]
                alone = [o.cpu / a.cpu for o, a in zip(these, anchor, strict=True)]
                both = [(o.cpu + o.db_cpu) / (a.cpu + a.db_cpu)
                        for o, a in zip(these, anchor, strict=True)]
                print(f"{workers} worker(s), {setup} ÷ anchor, CPU a report, round by round: "
                      f"workers {', '.join(f'{x:.2f}×' for x in alone)} (median "
                      f"{statistics.median(alone):.2f}×); with PostgreSQL's backends "
                      f"{', '.join(f'{x:.2f}×' for x in both)} (median "
                      f"{statistics.median(both):.2f}×)", flush=True)
    if 1 in results:
        one_rate, _, one_p99 = results[1]
        goals = {2: 1.8, 3: 2.5}
        for workers in sorted(results):
            if workers == 1:
                continue
            rate, _, p99 = results[workers]
            each = [o.rate / one_rate for o in rounds[workers]]
            goal = f" (goal ≥ {goals[workers]})" if workers in goals else ""
            print(f"{workers} workers ÷ 1: {rate / one_rate:.2f}× the throughput{goal}, "
                  f"rounds {', '.join(f'{x:.2f}×' for x in each)}; p99 "
                  f"{p99 * 1000:.0f} vs {one_p99 * 1000:.0f} ms (goal: not worse)")
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
