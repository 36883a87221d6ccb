"""At the default lease (30 s), on PostgreSQL, on a bot of its own with three webhook
workers: a worker that holds a chat's oldest answer is killed (its send held by Telegram,
or waiting out a 429), or paused past its lease, while the two live workers go on answering
the chat behind it; every report is answered once, in order, within the lease and 5 s
(issue 29: a dead worker's head row was never taken over while live workers held later
rows of its chat).

These mostly wait for a lease to run out in real time, with a margin of 5 s over a
takeover measured at 0.4-1.3 s, so they run among the other tests rather than alone.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from datetime import UTC, datetime
from pathlib import Path

import asyncpg
import pytest

from storage.queues.messages import DEFAULT_LEASE
from tests.bot.fault_checks import Load, check, drained, errors_in, until
from tests.bot.test_stalled_workers import (
    Rig,
    Stall,
    Wait429,
    _since,
    all_up,
    live_workers,
    running,
    worker_ids,
)
from tests.bot.test_webhook_workers import leftovers
from tests.fake_webhook import WebhookSender
from tests.storage.conftest import PG_URL

pytestmark = [
    pytest.mark.skipif(not PG_URL, reason="several workers need TALLY_TEST_POSTGRES_URL"),
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc"),
]


async def past_the_default_lease(rig: Rig, scenario: str, chats: list[int]) -> None:
    """A worker holds the oldest answer of a chat (its send held by Telegram, or waiting
    out a 429 longer than the lease) and is killed just after it renewed that lease, or
    paused past it. The chat's reports go on meanwhile, taken by the two live workers,
    their answers written behind that one, until both hold some (there each sweep left
    the chat to the other, and its answers never went out). Every report is answered
    once, in order, within the lease and 5 s of the stop. The lease runs out in real
    time: the workers are processes of their own, with their own clocks."""
    api, bot, url = rig.api, rig.bot, rig.url
    stalled = chats[0]
    load = Load(api, chats)
    stall, wait429 = Stall(stalled), Wait429(stalled, seconds=int(2 * DEFAULT_LEASE))
    api.faults[:] = [stall, wait429]
    await all_up(rig)
    offset = bot.log.stat().st_size  # what this scenario logs starts here
    assert bot.process is not None
    supervisor, victim_pid = bot.process.pid, None
    loop = asyncio.get_running_loop()
    conn = await asyncpg.connect(url.replace("postgresql+asyncpg", "postgresql"))
    try:
        async with WebhookSender(api, bot.webhook, bot.secret, max_connections=8,
                                 retry_delay=0.05, keepalive=False) as sender:
            load.open_tables()
            await until(load.tables_open, "the tables", 40)
            await load.run(rounds=2, pause=0.2)
            await until(load.answered, "the first reports answered", 40)
            if scenario == "429":
                wait429.armed = True
            else:
                stall.armed = True
            load.report(stalled)
            await until(lambda: wait429.fired + stall.held == 1, "the answer held", 20)
            victim, until_then = await head_lease(conn, stalled)
            victim_pid = worker_ids(bot.log)[victim]
            while (await head_lease(conn, stalled))[1] == until_then:  # its heartbeat
                assert loop.time() < deadline_of(until_then, loop), "never renewed"
                await asyncio.sleep(0.02)
            if scenario == "sigstop":
                # Its supervisor too (as when their host is frozen): uvicorn ends a
                # worker that does not answer its ping for 5 s.
                os.kill(supervisor, signal.SIGSTOP)
                os.kill(victim_pid, signal.SIGSTOP)
            else:
                os.kill(victim_pid, signal.SIGKILL)
            deadline = loop.time() + DEFAULT_LEASE + 5
            # Reports go on, a round once the last is handled (so that each lands on a
            # chat no worker is busy with, and any worker may take it), until two live
            # workers hold answers behind the stopped one's (a killed one's replacement
            # is up by then), or until its lease is nearly out.
            behind = 0
            while loop.time() < deadline - 7:
                await load.run(rounds=1, pause=0.5)
                while await conn.fetchval("SELECT count(*) FROM inbox "
                                          "WHERE status = 'pending'"):
                    assert loop.time() < deadline, "the reports were never handled"
                    await asyncio.sleep(0.05)
                behind = await holders_behind(conn, stalled, victim)
                if behind >= 2:
                    break
            assert behind >= 2, (
                f"the live workers held {behind} of the chat's answers behind the stopped "
                f"one's: {await leftovers(url)}")
            try:
                await until(load.answered, "every report answered within the lease and 5 s",
                            deadline - loop.time())
            except AssertionError as exc:
                raise AssertionError(f"{exc}: {load.unanswered()}; {await leftovers(url)}"
                                     ) from None
            if scenario == "sigstop":  # it wakes, and finds its rows taken over
                os.kill(victim_pid, signal.SIGCONT)
                os.kill(supervisor, signal.SIGCONT)
            stall.release.set()
            await sender.drained(timeout=40)
            await drained(url)
    finally:
        await conn.close()
        stall.release.set()
        api.faults.clear()
        if scenario == "sigstop" and victim_pid is not None:
            for pid in (victim_pid, supervisor):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGCONT)
    await check(url, load, exactly_once=True)
    if scenario == "sigstop":  # it woke and went on
        assert victim_pid in (await live_workers(bot)).values()
    else:  # its supervisor started another in its place
        await until(lambda: f"Child process [{victim_pid}] died" in _since(bot.log, offset),
                    "the supervisor saw the worker die", 20)
    assert errors_in(_since(bot.log, offset)) == [], _since(bot.log, offset)[-3000:]


async def head_lease(conn: asyncpg.Connection, chat: int) -> tuple[str, datetime]:
    """Who holds the chat's oldest answer, and until when."""
    row = await conn.fetchrow(
        "SELECT claimed_by, claimed_until FROM outbox WHERE status = 'pending' "
        "AND chat_id = $1 AND collapse IS NULL ORDER BY id LIMIT 1", chat)
    assert row is not None and row[0] is not None, f"chat {chat}: no answer held"
    return str(row[0]), row[1]


def deadline_of(until: datetime, loop: asyncio.AbstractEventLoop) -> float:
    """``until`` (the database's clock, this machine's) on ``loop``'s clock."""
    return loop.time() + (until - datetime.now(UTC)).total_seconds()


async def holders_behind(conn: asyncpg.Connection, chat: int, stopped: str) -> int:
    """How many workers other than ``stopped`` hold answers of the chat."""
    return int(await conn.fetchval(
        "SELECT count(DISTINCT claimed_by) FROM outbox WHERE status = 'pending' "
        "AND chat_id = $1 AND collapse IS NULL AND claimed_by <> $2", chat, stopped))


# Each scenario on chats of its own.
SCENARIOS = {
    "a worker killed under load": ("sigkill", [-100960, -100961, -100962]),
    "a worker killed while its answer waits out a 429": ("429", [-100970, -100971, -100972]),
    "a worker paused past its lease": ("sigstop", [-100980, -100981, -100982]),
}


# The three scenarios, each a bound of its own (the test's timeout is three tests').
@pytest.mark.timeout(900)
async def test_a_stopped_workers_answers_go_out_within_the_default_lease(
        tmp_path: Path, subtests: pytest.Subtests) -> None:
    """A stopped worker's answers go out within the default lease (30 s) and 5 s, on a
    bot of their own (stopped before the one-second lease's bot starts). One test runs
    the scenarios in turn on one bot, each a subtest that fails by its name while the
    others go on: one process of `make test` waits on the lease while the others keep
    the cores busy."""
    # Three workers: two live ones are up while the stopped one's lease runs (a killed
    # one's replacement may take most of a lease to start on a busy machine).
    async with running(tmp_path, None, workers=3) as rig:
        for name, (scenario, chats) in SCENARIOS.items():
            with subtests.test(name):
                await past_the_default_lease(rig, scenario, chats)
