"""PostgreSQL goes away under load: its backends terminated again and again, and a real
restart. The bot (a process, polling the fake Bot API over loopback) must try every
update again until the database is back, and then handle it once: nothing lost, nothing
twice, no "nothing was recorded", each chat's answers in order, and no ERROR in its log
for a failure that passed (see tests/bot/fault_checks.py). Every wait is bounded."""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from bot.console.fake_api import FakeBotAPI, serve_http
from tests.bot.fault_checks import Load, check, drained, errors_logged, until
from tests.bot.test_faults import BotProcess, database
from tests.storage.conftest import PG_URL

pytestmark = pytest.mark.skipif(not PG_URL, reason="needs TALLY_TEST_POSTGRES_URL")

CHATS = [-100910, -100911, -100912, -100913]
CLUSTER = ("15", "main")  # pg_ctlcluster's version and name of the server under test


async def terminate_all(url: str) -> int:
    """Terminate every backend of ``url``'s database but this one; how many."""
    import asyncpg

    name = url.rsplit("/", 1)[1]
    conn = await asyncpg.connect(url.replace("postgresql+asyncpg", "postgresql"))
    try:
        return len(await conn.fetch(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = $1 AND pid <> pg_backend_pid()", name))
    finally:
        await conn.close()


async def outage_under_load(tmp_path: Path, fault: str) -> None:
    api = FakeBotAPI()
    load = Load(api, CHATS)
    server = await serve_http(api)
    port = server.sockets[0].getsockname()[1]
    async with database("postgres", tmp_path) as url:
        bot = BotProcess(port, url, tmp_path / "bot.log")
        bot.env["TALLY_LOGGING__FORMAT"] = "json"
        try:
            bot.start()
            load.open_tables()
            await until(load.tables_open, "the tables", 60)
            reports = asyncio.create_task(load.run(rounds=10, pause=0.25))
            if fault == "terminate":
                killed = 0
                for _ in range(12):  # about 3 s of backends dying every quarter second
                    killed += await terminate_all(url)
                    await asyncio.sleep(0.25)
                assert killed > 0
            else:
                await asyncio.sleep(0.5)
                restart = await asyncio.create_subprocess_exec(
                    "pg_ctlcluster", *CLUSTER, "restart", "-m", "fast")
                assert await asyncio.wait_for(restart.wait(), 50) == 0
            await reports
            await until(load.answered, f"every report answered ({load.unanswered()})", 45)
            await drained(url)
        finally:
            bot.stop()
            server.close()
            await server.wait_closed()
        await check(url, load)
    log = (tmp_path / "bot.log").read_text()
    assert "the database is away" in log  # the fault did reach the bot
    assert "the database was away for" in log  # and it said, once, how long
    assert errors_logged(tmp_path / "bot.log") == []


async def test_backends_terminated_again_and_again_under_load(tmp_path: Path) -> None:
    await outage_under_load(tmp_path, "terminate")


def restart_unavailable() -> str | None:
    if shutil.which("pg_ctlcluster") is None:
        return "no pg_ctlcluster here (Debian's postgresql-common)"
    if os.geteuid() != 0:
        return "restarting PostgreSQL needs root"
    listed = subprocess.run(["pg_lsclusters", "--no-header"], capture_output=True,
                            text=True, check=False).stdout.split()
    if listed[:2] != list(CLUSTER) or "5432" not in (PG_URL or ""):
        return f"TALLY_TEST_POSTGRES_URL is not cluster {' '.join(CLUSTER)} on port 5432"
    return None


@pytest.mark.exclusive  # the server is shared: `make test` runs this alone, after the rest
async def test_a_real_restart_of_postgresql_under_load(tmp_path: Path) -> None:
    unavailable = restart_unavailable()  # asked here: pg_lsclusters takes a second
    if unavailable is not None:
        pytest.skip(unavailable)
    await outage_under_load(tmp_path, "restart")
