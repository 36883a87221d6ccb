"""PostgreSQL goes away under load: its backends terminated again and again, and a real
restart. The bot (a process, polling the fake Bot API over loopback) must try every
update again until the database is back, and then handle it once: nothing lost, nothing
twice, no "nothing was recorded", each chat's answers in order, and no ERROR in its log
for a failure that passed (see tests/bot/fault_checks.py). Every wait is bounded."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path

import pytest

from bot.console.fake_api import FakeBotAPI, serve_http
from tests.bot.fault_checks import Load, check, drained, errors_logged, until
from tests.bot.test_faults import BotProcess, database
from tests.private_postgres import Server, private_postgres, unavailable
from tests.storage.conftest import PG_URL

CHATS = [-100910, -100911, -100912, -100913]


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


async def outage_under_load(tmp_path: Path, fault: str,
                            db: AbstractAsyncContextManager[str],
                            restart: Server | None = None) -> None:
    api = FakeBotAPI()
    load = Load(api, CHATS)
    server = await serve_http(api)
    port = server.sockets[0].getsockname()[1]
    async with db as url:
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
                assert restart is not None
                await asyncio.sleep(0.5)
                await restart.restart()
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


@pytest.mark.skipif(not PG_URL, reason="needs TALLY_TEST_POSTGRES_URL")
async def test_backends_terminated_again_and_again_under_load(tmp_path: Path) -> None:
    await outage_under_load(tmp_path, "terminate", database("postgres", tmp_path))


@asynccontextmanager
async def its_url(server: Server) -> AsyncIterator[str]:
    yield server.url


async def test_a_real_restart_of_postgresql_under_load(tmp_path: Path) -> None:
    """On a server of the test's own (tests/private_postgres.py), so that the others,
    which share the usual one, run on beside it."""
    why = unavailable()
    if why is not None:
        pytest.skip(why)
    async with private_postgres() as server:
        await outage_under_load(tmp_path, "restart", its_url(server), server)
