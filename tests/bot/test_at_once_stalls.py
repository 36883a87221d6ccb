"""A webhook worker stopped inside the one transaction in which it handles an update at
once (``delivery.at_once``, on PostgreSQL): its receipt written and the chat's advisory
lock taken, its handler waiting for the table's row. The moment is chosen, not hoped
for: the test holds the chat's table row itself (``FOR UPDATE``), posts a report, and
stops the worker whose database session waits on that lock, then lets the row go.

Killed (SIGKILL), or paused (SIGSTOP, its supervisor too, as when a host freezes) past
its lease and woken: nothing it did is seen outside its transaction; the server ends its
session (the connection dropped, or after a lease: ``idle_in_transaction_session_timeout``
and the live worker's scan of stalled sessions), which frees the chat; Telegram posts the
update again, to the live worker, which handles it. Meanwhile the other chats are
answered. Every report is recorded once, in order, and answered exactly once, in order
(the earlier answers are marked sent before the worker stops, so it has no send in
flight, which the promise would let go twice; and the report's answers leave only after
its commit), within the lease and a bounded time; the inbox and outbox are empty, no
advisory lock is left held and no session in a transaction; the log has no ERROR. Both on
one bot of their own, with a lease of 2 s.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg
import pytest
import pytest_asyncio

from storage.sql.db import APPLICATION_NAME
from tests.bot.fault_checks import Load, check, drained, errors_in, until
from tests.bot.test_stalled_workers import Rig, _since, _state, all_up, live_workers, running
from tests.bot.test_webhook_workers import leftovers
from tests.fake_webhook import WebhookSender
from tests.storage.conftest import PG_URL

pytestmark = [
    pytest.mark.skipif(not PG_URL, reason="several workers need TALLY_TEST_POSTGRES_URL"),
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc"),
    pytest.mark.asyncio(loop_scope="module"),  # the scenarios share one bot (Rig)
]

LEASE = 2.0  # seconds: the server ends a session idle in its transaction after this
BOUND = 20.0  # seconds beyond the lease for the report to be answered (a loaded machine)

# The table's row of an open table of the chat, as the handler reads it (FOR UPDATE).
_LOCK_TABLE = "SELECT id FROM nights WHERE chat_id = $1 AND status = 'open' FOR UPDATE"


def _pg(url: str) -> str:
    return url.replace("postgresql+asyncpg", "postgresql")


async def waiting_on(watcher: asyncpg.Connection, holder: int) -> asyncpg.Record | None:
    """The bot's database session that waits on a lock the session ``holder`` holds: its
    pid, its client's port, whether it wrote (a transaction id of its own) and whether it
    holds an advisory lock (the chat's, taken at receipt). Asked from ``watcher``, outside
    any transaction (pg_stat_activity is read once a transaction)."""
    return await watcher.fetchrow(
        "SELECT a.pid, a.client_port, EXISTS (SELECT 1 FROM pg_locks l WHERE l.pid = a.pid"
        "  AND l.locktype = 'transactionid' AND l.granted) AS wrote, EXISTS ("
        "  SELECT 1 FROM pg_locks l WHERE l.pid = a.pid AND l.locktype = 'advisory'"
        "  AND l.granted) AS advisory FROM pg_stat_activity a"
        " WHERE a.application_name = $1 AND a.datname = current_database()"
        " AND $2::int = ANY(pg_blocking_pids(a.pid))",
        APPLICATION_NAME, holder)


def owner_of_port(pids: list[int], port: int) -> int:
    """Which of ``pids`` owns the TCP connection whose local port is ``port`` (Linux)."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(OSError):
            for line in Path(table).read_text().splitlines()[1:]:
                fields = line.split()
                if int(fields[1].rsplit(":", 1)[1], 16) == port:
                    inodes.add(f"socket:[{fields[9]}]")
    for pid in pids:
        with contextlib.suppress(OSError):
            for fd in Path(f"/proc/{pid}/fd").iterdir():
                with contextlib.suppress(OSError):
                    if os.readlink(fd) in inodes:
                        return pid
    raise AssertionError(f"no worker of {pids} owns the connection from port {port}")


async def nothing_held(watcher: asyncpg.Connection, seconds: float = 20.0) -> None:
    """Wait (bounded) for a moment none of the bot's sessions holds an advisory lock or
    sits in a transaction (the workers' own scans and sweeps take milliseconds each). Only
    its database's: other tests' bots share the server, and one may pause a worker inside
    a transaction meanwhile."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while True:
        rows = await watcher.fetch(
            "SELECT a.pid, a.state, a.xact_start, l.objid FROM pg_stat_activity a"
            " LEFT JOIN pg_locks l ON l.pid = a.pid AND l.locktype = 'advisory'"
            " WHERE a.application_name = $1 AND a.datname = current_database()"
            " AND (l.pid IS NOT NULL OR a.state LIKE 'idle in transaction%')",
            APPLICATION_NAME)
        if not rows:
            return
        if loop.time() > deadline:
            raise AssertionError(f"still held after {seconds} s: {[dict(r) for r in rows]}")
        await asyncio.sleep(0.05)


async def stopped_inside(rig: Rig, scenario: str, chats: list[int]) -> None:
    api, bot, url = rig.api, rig.bot, rig.url
    stalled, others = chats[0], chats[1:]
    load, rest = Load(api, chats), None
    await all_up(rig)
    offset = bot.log.stat().st_size  # what this scenario logs starts here
    assert bot.process is not None
    supervisor, victim = bot.process.pid, None
    loop = asyncio.get_running_loop()
    conn = await asyncpg.connect(_pg(url))
    watcher = await asyncpg.connect(_pg(url))
    try:
        # Telegram waits for a worker's answer a little longer than a lease, then posts
        # the update again (a killed worker's connection fails at once).
        async with WebhookSender(api, bot.webhook, bot.secret, max_connections=8,
                                 retry_delay=0.05, timeout=LEASE + 1,
                                 keepalive=False) as sender:
            load.open_tables()
            await until(load.tables_open, "the tables", 40)
            await load.run(rounds=2, pause=0.2)
            await until(load.answered, "the first reports answered", 40)
            # Their answers marked sent too: the stopped worker has no send in flight
            # (one would go again after its lease, the at-least-once the promise allows),
            # so each answer must go exactly once.
            await drained(url)
            await nothing_held(watcher)

            # The moment: the test holds the stalled chat's table row, and a report
            # comes; the worker that takes it waits for the row inside its transaction.
            lock = conn.transaction()
            await lock.start()
            assert await conn.fetchval(_LOCK_TABLE, stalled) is not None
            load.report(stalled)
            update_id = api.updates[-1]["update_id"]
            deadline = loop.time() + 40
            while (inside := await waiting_on(watcher, conn.get_server_pid())) is None:
                assert loop.time() < deadline, "no worker ever waited for the table"
                await asyncio.sleep(0.02)
            # Handled at once: the receipt took the chat's advisory lock and wrote the
            # inbox row in the same transaction, which no one else sees.
            assert inside["advisory"] and inside["wrote"], dict(inside)
            assert await watcher.fetchval(
                "SELECT count(*) FROM inbox WHERE chat_id = $1 AND update_id = $2",
                stalled, update_id) == 0
            victim = owner_of_port(bot.workers(), inside["client_port"])
            assert victim in (await live_workers(bot)).values()
            if scenario == "sigstop":
                os.kill(supervisor, signal.SIGSTOP)  # or it ends a worker silent for 5 s
                os.kill(victim, signal.SIGSTOP)
            else:
                os.kill(victim, signal.SIGKILL)
            await lock.rollback()  # the row goes; the stopped worker's statement ends

            # The other chats are answered meanwhile, by the live worker.
            rest = asyncio.create_task(run_on(load, others, rounds=3, pause=0.2))
            try:
                await until(lambda: load.answered(),
                            "every report answered within the lease and a bound",
                            LEASE + BOUND)
            except AssertionError as exc:
                raise AssertionError(f"{exc}: {load.unanswered()}; {await leftovers(url)}; "
                                     f"sessions: {await db_sessions(watcher)}") from None
            await rest
            await until(load.answered, "the other chats answered", 40)
            # Its session was ended (the server, or the live worker's scan, ended it; or
            # it went with the connection), and Telegram posted its update again.
            deadline = loop.time() + 20
            while await watcher.fetchval(
                    "SELECT count(*) FROM pg_stat_activity WHERE pid = $1", inside["pid"]):
                assert loop.time() < deadline, await db_sessions(watcher)
                await asyncio.sleep(0.05)
            assert [s for u, s in sender.failures if u == update_id], sender.failures
            if scenario == "sigstop":
                # Still paused: its session was ended by the server, not by its waking.
                assert _state(victim) in ("T", "t"), _state(victim)
                os.kill(victim, signal.SIGCONT)
                os.kill(supervisor, signal.SIGCONT)
            await sender.drained(timeout=40)
            await drained(url)
            # It woke (or was replaced), and nothing of its transaction came back.
            await asyncio.sleep(0.5)
            await drained(url)
            await nothing_held(watcher)
    finally:
        if rest is not None and not rest.done():
            rest.cancel()
        await conn.close()
        await watcher.close()
        if scenario == "sigstop" and victim is not None:
            for pid in (victim, supervisor):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGCONT)
    # Recorded once each, in order; answered exactly once each, in order.
    await check(url, load, exactly_once=True)
    log = _since(bot.log, offset)
    if scenario == "sigstop":  # it woke and went on; its supervisor did not end it
        assert f"Child process [{victim}] died" not in log
        assert victim in (await live_workers(bot)).values()
    else:  # its supervisor started another in its place
        await until(lambda: f"Child process [{victim}] died" in _since(bot.log, offset),
                    "the supervisor saw the worker die", 20)
        await all_up(rig)
    assert errors_in(_since(bot.log, offset)) == [], _since(bot.log, offset)[-3000:]


async def run_on(load: Load, chats: list[int], rounds: int, pause: float) -> None:
    for _ in range(rounds):
        for chat in chats:
            load.report(chat)
        await asyncio.sleep(pause)


async def db_sessions(conn: asyncpg.Connection) -> list[dict[str, object]]:
    rows = await conn.fetch(
        "SELECT pid, state, wait_event_type, wait_event, xact_start, left(query, 120) AS q"
        " FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()",
        APPLICATION_NAME)
    return [dict(r) for r in rows]


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def at_once_rig(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Rig]:
    async with running(tmp_path_factory.mktemp("at-once"), LEASE, at_once=True) as shared:
        yield shared


async def test_a_worker_killed_inside_its_one_transaction(at_once_rig: Rig) -> None:
    await stopped_inside(at_once_rig, "sigkill", [-100990, -100991, -100992])


async def test_a_worker_paused_inside_its_one_transaction_past_its_lease(
        at_once_rig: Rig) -> None:
    await stopped_inside(at_once_rig, "sigstop", [-100995, -100996, -100997])
