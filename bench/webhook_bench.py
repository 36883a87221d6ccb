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
        names = [t.name for t in metadata.sorted_tables] + ["alembic_version"]
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
                 rest: float, split: Counter[int], throttled: float) -> None:
        self.rate, self.latencies, self.cpu, self.rest = rate, latencies, cpu, rest
        self.harness, self.split, self.throttled = harness, split, throttled


async def one_round(url: str, workers: int, chats: int, reports: int, delay: float,
                    connections: int, cap: CpuCap) -> Round:
    """One run: reports a second, latencies in seconds, CPU seconds a report of the
    workers, of this process (Telegram's side: the fake Bot API and the webhook's sender)
    and of the rest of the machine (PostgreSQL, the kernel, anything else), answers per
    worker pid, and the seconds the cap held the workers back."""
    await reset_tables(url)
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
                             "TALLY_STORAGE__URL": url,
                         })
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
                for n in range(reports // chats):
                    for chat in groups:
                        who, text = report(chat, n)
                        key = api.say_message(users[who], chat, text)
                        offered.append((key, int(api.updates[-1]["update_id"])))
                calls.reset()
                throttled = cap.throttled_seconds()
                cpu = cpu_seconds(pids)
                harness = time.process_time()
                busy = machine_busy_seconds()
                started = time.monotonic()
                await sender.drained(timeout=600)
                await wait_for(lambda: all(api.replies.get(k) for k, _ in offered), 600)
                cpu = cpu_seconds(pids) - cpu
                harness = time.process_time() - harness
                rest = machine_busy_seconds() - busy - cpu - harness
                throttled = cap.throttled_seconds() - throttled
                elapsed = max(api.replies[k][0][0] for k, _ in offered) - started
                latencies = [api.replies[k][0][0] - sender.first_sent[u] for k, u in offered]
        finally:
            cap.remove()
            fake.close()
            await fake.wait_closed()
    n = len(offered)
    return Round(n / elapsed, latencies, cpu / n, harness / n, rest / n, Counter(calls.answers),
                 throttled)


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


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
    args = parser.parse_args(argv)
    if not args.url:
        print("needs --url or TALLY_TEST_POSTGRES_URL (PostgreSQL)", file=sys.stderr)
        return 2
    cap = CpuCap(args.cpu_cap)
    print(f"each worker: {cap.describe()}; {args.rounds} round(s) of {args.reports} "
          f"reports from {args.chats} chats over {args.connections} connections", flush=True)
    results: dict[int, tuple[float, float, float]] = {}
    rounds: dict[int, list[Round]] = {}
    for workers in [int(w) for w in args.workers.split(",")]:
        rounds[workers] = []
        for r in range(args.rounds):
            one = await one_round(args.url, workers, args.chats, args.reports, args.delay,
                                  args.connections, cap)
            rounds[workers].append(one)
            total = sum(one.split.values()) or 1
            split = ", ".join(f"{pid or '?'}: {n} ({n / total:.0%})"
                              for pid, n in sorted(one.split.items()))
            print(f"{workers} worker(s), round {r + 1}: {one.rate:6.1f} reports/s, "
                  f"p50 {quantile(one.latencies, 0.5) * 1000:5.0f} ms, "
                  f"p99 {quantile(one.latencies, 0.99) * 1000:5.0f} ms, "
                  f"CPU a report: workers {one.cpu * 1000:4.1f} ms, Telegram's side "
                  f"{one.harness * 1000:4.1f} ms, the rest of the machine "
                  f"{one.rest * 1000:4.1f} ms; held back by the cap {one.throttled:.1f} s; "
                  f"load average {os.getloadavg()[0]:.1f}; answers by worker pid: {split}",
                  flush=True)
        these = rounds[workers]
        results[workers] = (statistics.median(o.rate for o in these),
                            statistics.median(quantile(o.latencies, 0.5) for o in these),
                            statistics.median(quantile(o.latencies, 0.99) for o in these))
        rate, p50, p99 = results[workers]
        print(f"{workers} worker(s), median of {len(these)}: {rate:6.1f} reports/s, "
              f"p50 {p50 * 1000:.0f} ms, p99 {p99 * 1000:.0f} ms, CPU a report: workers "
              f"{statistics.median(o.cpu for o in these) * 1000:.1f} ms, Telegram's side "
              f"{statistics.median(o.harness for o in these) * 1000:.1f} ms, the rest "
              f"{statistics.median(o.rest for o in these) * 1000:.1f} ms",
              flush=True)
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
