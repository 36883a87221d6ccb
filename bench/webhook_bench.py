"""Webhook mode at 1 and 2 worker processes on PostgreSQL: saturated reports a second and
the update-to-answer latency, with the fake Bot API adding 50 ms to every call.

Run: ``python -m bench.webhook_bench --url postgresql+asyncpg://…`` (or set
``TALLY_TEST_POSTGRES_URL``). The bot's tables live in that database's public schema and
are dropped before every round. Each round starts ``python -m bot run`` in webhook mode
with the bot's default settings except Telegram's rate limits (off: this measures the
bot, and a bot token's own limits are discussed in the README), opens a table in every
chat, then offers all the reports at once: Telegram's side (``tests.fake_webhook``) posts
them over ``--connections`` parallel connections, a chat's next report after the 2xx for
its last. Throughput is the reports divided by the time from the first post to the last
answer; latency is from an update's first post to the reply that answers it; the CPU time
the worker processes spent per report (Linux ``/proc``) says what one core can serve
whatever else the machine is doing; the load average printed says how busy it was.

Goal (issue 13): 2 workers at least 1.5× one worker's throughput (median of 3 rounds; the
machine has 2 cores, shared with PostgreSQL and this load generator), p99 not worse.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bot.console.fake_api import FakeUser, serve_http
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

    from storage.tables import metadata

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


async def one_round(url: str, workers: int, chats: int, reports: int, delay: float,
                    connections: int) -> tuple[float, list[float], float, float]:
    """(reports a second, latencies in seconds, worker CPU seconds a report, the rest of
    the machine's CPU seconds a report) of one run."""
    await reset_tables(url)
    api = WebhookBotAPI(delay=delay)
    users = {name: FakeUser(100 + i, name, name, "en") for i, name in enumerate(PLAYERS)}
    groups = [-200_000 - c for c in range(chats)]
    for chat in groups:
        api.chat(chat, type="group")
    fake = await serve_http(api)
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
                opened = [api.say_message(users["alice"], chat, NEW) for chat in groups]
                await sender.drained(timeout=300)
                await wait_for(lambda: all(api.replies.get(k) for k in opened), 300)
                offered: list[tuple[tuple[int, int], int]] = []
                for n in range(reports // chats):
                    for chat in groups:
                        who, text = report(chat, n)
                        key = api.say_message(users[who], chat, text)
                        offered.append((key, int(api.updates[-1]["update_id"])))
                assert bot.process is not None
                pids = bot.workers() or [bot.process.pid]  # one worker: Uvicorn in-process
                cpu = cpu_seconds(pids)
                busy = machine_busy_seconds()
                started = time.monotonic()
                await sender.drained(timeout=600)
                await wait_for(lambda: all(api.replies.get(k) for k, _ in offered), 600)
                cpu = cpu_seconds(pids) - cpu
                rest = machine_busy_seconds() - busy - cpu
                elapsed = max(api.replies[k][0][0] for k, _ in offered) - started
                latencies = [api.replies[k][0][0] - sender.first_sent[u] for k, u in offered]
        finally:
            fake.close()
            await fake.wait_closed()
    return len(offered) / elapsed, latencies, cpu / len(offered), rest / len(offered)


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
    parser.add_argument("--workers", default="1,2")
    args = parser.parse_args(argv)
    if not args.url:
        print("needs --url or TALLY_TEST_POSTGRES_URL (PostgreSQL)", file=sys.stderr)
        return 2
    results: dict[int, tuple[float, float, float]] = {}
    costs: dict[int, tuple[float, float]] = {}
    for workers in [int(w) for w in args.workers.split(",")]:
        rates, p50s, p99s, cpus, rests = [], [], [], [], []
        for r in range(args.rounds):
            rate, latencies, cpu, rest = await one_round(
                args.url, workers, args.chats, args.reports, args.delay, args.connections)
            rates.append(rate)
            p50s.append(quantile(latencies, 0.5))
            p99s.append(quantile(latencies, 0.99))
            cpus.append(cpu)
            rests.append(rest)
            print(f"{workers} worker(s), round {r + 1}: {rate:6.1f} reports/s, "
                  f"p50 {p50s[-1] * 1000:5.0f} ms, p99 {p99s[-1] * 1000:5.0f} ms, "
                  f"worker CPU {cpu * 1000:4.1f} ms a report, rest of the machine "
                  f"{rest * 1000:4.1f} ms; load average {os.getloadavg()[0]:.1f}", flush=True)
        results[workers] = (statistics.median(rates), statistics.median(p50s),
                            statistics.median(p99s))
        costs[workers] = (statistics.median(cpus), statistics.median(rests))
        rate, p50, p99 = results[workers]
        print(f"{workers} worker(s), median: {rate:6.1f} reports/s, p50 {p50 * 1000:.0f} ms, "
              f"p99 {p99 * 1000:.0f} ms, worker CPU {costs[workers][0] * 1000:.1f} ms a "
              f"report, rest of the machine {costs[workers][1] * 1000:.1f} ms", flush=True)
    if 1 in results and 2 in results:
        ratio = results[2][0] / results[1][0]
        print(f"2 workers ÷ 1: {ratio:.2f}× the throughput (goal ≥ 1.5), p99 "
              f"{results[2][2] * 1000:.0f} vs {results[1][2] * 1000:.0f} ms (goal: not worse)")
        worker, rest = costs[1]
        cores = os.cpu_count() or 1
        ceiling = cores / (worker + rest)
        print(f"   ceiling on this machine: {cores} cores ÷ ({worker * 1000:.1f} + "
              f"{rest * 1000:.1f}) ms a report = {ceiling:.0f} reports/s whatever the "
              f"workers, {ceiling / results[1][0]:.2f}× one worker's throughput")
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
