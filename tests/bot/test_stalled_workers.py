"""Two webhook workers on PostgreSQL with a short lease (1 s), under load on several chats,
and one of them stalls: paused with SIGSTOP past its lease while it holds inbox and
outbox rows (then SIGCONT), killed with SIGKILL mid-send, or told by Telegram to wait
(429) far longer than its lease; or the database's backends are terminated under both.
The other worker takes over what a stopped one held (and only that); a worker that wakes
finds out before it sends or commits. Every report is recorded once, in order, answered,
never twice with different words (twice at all only for a send in flight when its worker
stopped, or sent while the database was away for longer than the lease), each chat's
answers in order, the inbox and outbox empty at the end (tests/bot/fault_checks.py).
Every wait is bounded.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import sys
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.console.fake_api import ApiError, serve_http
from tests.bot.fault_checks import Load, check, drained, errors_logged, until
from tests.bot.test_db_outages import terminate_all
from tests.bot.test_faults import database
from tests.fake_webhook import BotProcess, WebhookBotAPI, WebhookSender
from tests.storage.conftest import PG_URL

pytestmark = [
    pytest.mark.skipif(not PG_URL, reason="several workers need TALLY_TEST_POSTGRES_URL"),
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc"),
    pytest.mark.exclusive,  # times worker processes against a 1 s lease: run alone
]

CHATS = [-100920, -100921, -100922, -100923]
STALLED = CHATS[0]  # the chat whose answers the stalled worker holds
LEASE = 1.0  # seconds (uvicorn ends a worker that does not answer its ping for 5 s)


class Hold:
    """Telegram holds the answers to one chat (the calls wait) until released."""

    def __init__(self, chat: int) -> None:
        self.chat = chat
        self.armed = False
        self.held = 0
        self.release = asyncio.Event()

    async def __call__(self, method: str, params: dict[str, Any]) -> None:
        if self.armed and method == "sendMessage" and int(params["chat_id"]) == self.chat:
            self.held += 1
            await self.release.wait()


class Wait429:
    """Telegram answers the chat's next message with 429 and a long retry_after."""

    def __init__(self, chat: int, seconds: int) -> None:
        self.chat, self.seconds = chat, seconds
        self.armed = False
        self.fired = 0

    async def __call__(self, method: str, params: dict[str, Any]) -> None:
        if self.armed and method == "sendMessage" and int(params["chat_id"]) == self.chat:
            self.armed = False
            self.fired += 1
            raise ApiError(f"Too Many Requests: retry after {self.seconds}", 429,
                           retry_after=self.seconds)


def worker_ids(log: Path) -> dict[str, int]:
    """Each worker's id (the token it holds rows by) and its pid, from the log."""
    out = {}
    for line in log.read_text().splitlines():
        if line.startswith("{"):
            found = re.match(r"worker (\w+) \(pid (\d+)\) shares",
                             json.loads(line).get("message", ""))
            if found:
                out[found[1]] = int(found[2])
    return out


async def holdings(conn: asyncpg.Connection, worker: str) -> tuple[int, int]:
    """(inbox rows, outbox rows) that ``worker`` holds by a lease, pending."""
    row = await conn.fetchrow(
        "SELECT (SELECT count(*) FROM inbox WHERE status = 'pending' AND claimed_by LIKE $1),"
        " (SELECT count(*) FROM outbox WHERE status = 'pending' AND claimed_by = $2)",
        worker + ":%", worker)
    return int(row[0]), int(row[1])


async def holder_of(url: str, chat: int) -> str | None:
    conn = await asyncpg.connect(url.replace("postgresql+asyncpg", "postgresql"))
    try:
        return await conn.fetchval(  # type: ignore[no-any-return]
            "SELECT claimed_by FROM outbox WHERE status = 'pending' AND chat_id = $1 "
            "AND claimed_by IS NOT NULL ORDER BY id LIMIT 1", chat)
    finally:
        await conn.close()


async def two_workers(tmp_path: Path, scenario: str) -> None:
    api = WebhookBotAPI()
    load = Load(api, CHATS)
    hold, wait429 = Hold(STALLED), Wait429(STALLED, seconds=4)
    api.faults[:] = [hold, wait429]
    fake = await serve_http(api)
    async with database("postgres", tmp_path) as url:
        bot = BotProcess(f"http://127.0.0.1:{fake.sockets[0].getsockname()[1]}/bot",
                         tmp_path, {
                             "TALLY_TELEGRAM__WORKERS": "2",
                             "TALLY_TELEGRAM__OVERALL_MAX_RATE": "0",
                             "TALLY_TELEGRAM__GROUP_MAX_RATE": "0",
                             "TALLY_TELEGRAM__BOARD_INTERVAL": "0",
                             "TALLY_DEFAULT_LANGUAGE": "en",
                             "TALLY_DELIVERY__LEASE_SECONDS": str(LEASE),
                             "TALLY_LOGGING__FORMAT": "json",
                             "TALLY_STORAGE__URL": url,
                         }, start_seconds=60, stop_seconds=30)
        victim_pid = None
        try:
            async with bot, WebhookSender(api, bot.webhook, bot.secret, max_connections=8,
                                          retry_delay=0.05, keepalive=False) as sender:
                await until(lambda: len(worker_ids(bot.log)) >= 2, "two workers", 60)
                load.open_tables()
                await until(load.tables_open, "the tables", 40)
                if scenario == "terminate":  # the database goes away, again and again
                    reports = asyncio.create_task(load.run(rounds=8, pause=0.2))
                    for _ in range(10):
                        await terminate_all(url)
                        await asyncio.sleep(0.25)
                    await reports
                elif scenario == "429":
                    wait429.armed = True
                    await load.run(rounds=3, pause=0.2)
                    await until(lambda: wait429.fired == 1, "a 429", 20)
                    await load.run(rounds=3, pause=0.3)  # both workers busy meanwhile
                else:
                    hold.armed = True
                    await load.run(rounds=2, pause=0.1)
                    await until(lambda: hold.held >= 1, "an answer held by Telegram", 20)
                    victim = await holder_of(url, STALLED)
                    assert victim is not None
                    victim_pid = worker_ids(bot.log)[victim]
                    more = asyncio.create_task(load.run(rounds=4, pause=0.15))
                    if scenario == "sigkill":
                        os.kill(victim_pid, signal.SIGKILL)  # mid-send
                        hold.release.set()
                    else:
                        hold.release.set()  # its send in flight: the answer went out
                        await pause_holding(url, victim, victim_pid)
                        os.kill(victim_pid, signal.SIGCONT)
                    await more
                await sender.drained(timeout=40)
                await until(load.answered, f"every report answered ({load.unanswered()})",
                            40)
                await drained(url)
        finally:
            fake.close()
            await fake.wait_closed()
        await check(url, load, exactly_once=scenario == "429")
    log = bot.log.read_text()
    if scenario == "sigstop":  # it woke and went on; its supervisor did not end it
        assert f"Child process [{victim_pid}] died" not in log
    if scenario == "sigkill":
        assert f"Child process [{victim_pid}] died" in log
    if scenario == "terminate":
        assert "the database was away for" in log
    assert errors_logged(bot.log) == [], log[-3000:]


async def pause_holding(url: str, victim: str, pid: int) -> None:
    """SIGSTOP the worker at a moment it holds inbox and outbox rows (tried until it
    does: its claims on the inbox last only while it handles an update), then, past its
    lease, until the other worker took over all it held (bounded: its supervisor ends a
    worker that does not answer for 5 s)."""
    conn = await asyncpg.connect(url.replace("postgresql+asyncpg", "postgresql"))
    try:
        for _ in range(3000):  # the moment is short: answers leave the outbox once sent
            os.kill(pid, signal.SIGSTOP)
            inbox, outbox = await holdings(conn, victim)
            if inbox and outbox:
                break
            os.kill(pid, signal.SIGCONT)
            await asyncio.sleep(0.005)
        else:
            raise AssertionError("the worker never held inbox and outbox rows at once")
        yield_ = asyncio.get_running_loop().time()
        while await holdings(conn, victim) != (0, 0):
            if asyncio.get_running_loop().time() - yield_ > 4.0:
                sessions = await conn.fetch(
                    "SELECT pid, state, wait_event_type, wait_event, xact_start, "
                    "state_change, left(query, 160) AS query FROM pg_stat_activity "
                    "WHERE datname = current_database() AND pid <> pg_backend_pid()")
                os.kill(pid, signal.SIGCONT)
                rows = await conn.fetch("SELECT id, chat_id, claimed_by, claimed_until, "
                                        "now() AS at FROM inbox WHERE status = 'pending'")
                raise AssertionError(f"the paused worker's rows were not taken over: "
                                     f"{[dict(r) for r in rows]}; sessions: "
                                     f"{[dict(r) for r in sessions]}")
            await asyncio.sleep(0.05)
    finally:
        await conn.close()


async def test_a_worker_paused_past_its_lease_then_woken_sends_nothing_twice(
        tmp_path: Path) -> None:
    await two_workers(tmp_path, "sigstop")


async def test_a_worker_killed_mid_send_loses_nothing(tmp_path: Path) -> None:
    await two_workers(tmp_path, "sigkill")


async def test_a_long_retry_after_keeps_the_rows_with_their_worker(tmp_path: Path) -> None:
    await two_workers(tmp_path, "429")


async def test_two_workers_ride_out_their_backends_terminated_under_load(tmp_path: Path
                                                                         ) -> None:
    await two_workers(tmp_path, "terminate")
