"""Pull the plug: the real bot, as a process, polling the fake Bot API over HTTP on
loopback, killed with SIGKILL at chosen moments while Telegram misbehaves (429 with
retry_after, 502, a call that hangs past the client's timeout), on SQLite and PostgreSQL.

After each restart it must hold that every report is recorded exactly once, in the order
sent, and answered; and no report is answered twice with different words.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from bot.console.fake_api import ApiError, FakeBotAPI, FakeUser, serve_http
from storage.ledger import Ledger
from tests.databases import postgres_database
from tests.storage.conftest import PG_URL

ROOT = Path(__file__).resolve().parents[2]
CHAT = -100777
SEATS = ["alice", "bob", "carol", "dave"]
BACKENDS = [
    pytest.param("sqlite", id="sqlite"),
    pytest.param("postgres", id="postgres", marks=pytest.mark.skipif(
        not PG_URL, reason="PostgreSQL tests need TALLY_TEST_POSTGRES_URL (.ci/run sets it)")),
]


async def until(check: Callable[[], bool], what: str, seconds: float = 120.0) -> None:
    """Wait for ``check`` (a guard against hanging, not a timing assertion)."""
    for _ in range(int(seconds / 0.02)):
        if check():
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"never happened: {what}")


class BotProcess:
    """``python -m bot run`` against the fake, restartable."""

    def __init__(self, port: int, url: str, log: Path) -> None:
        self.env = {**os.environ,
                    "TALLY_TELEGRAM__TOKEN": "42:FAULTS",
                    "TALLY_TELEGRAM__BASE_URL": f"http://127.0.0.1:{port}/bot",
                    "TALLY_TELEGRAM__OVERALL_MAX_RATE": "0",
                    "TALLY_TELEGRAM__GROUP_MAX_RATE": "0",
                    "TALLY_TELEGRAM__BOARD_INTERVAL": "0",
                    "TALLY_TELEGRAM__REQUEST_TIMEOUT": "1",
                    "TALLY_STORAGE__URL": url,
                    "TALLY_DEFAULT_LANGUAGE": "en",
                    "TALLY_CONFIG": str(ROOT / "config.example.toml")}
        self.log = log
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0

    def start(self) -> None:
        self.starts += 1
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen([sys.executable, "-m", "bot", "run"], cwd=ROOT,
                                         env=self.env, stdout=out, stderr=out)

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.kill()


@asynccontextmanager
async def database(backend: str, tmp_path: Path) -> AsyncIterator[str]:
    if backend == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path}/faults.sqlite3"
        return
    async with postgres_database("faults", migrated=False) as url:
        yield url


class Plug:
    """Kill the bot the n-th time a call matches, before or after Telegram serves it."""

    def __init__(self, bot: BotProcess, api: FakeBotAPI) -> None:
        self.bot, self.api = bot, api
        self.armed: tuple[Callable[[str, dict[str, Any]], bool], bool] | None = None
        self.fired = asyncio.Event()

    def arm(self, match: Callable[[str, dict[str, Any]], bool], after: bool) -> None:
        self.fired.clear()
        self.armed = (match, after)

    async def hook(self, method: str, params: dict[str, Any]) -> None:
        if self.armed is None or not self.armed[0](method, params):
            return
        _, after = self.armed
        self.armed = None
        if after:  # Telegram serves the call; the bot dies before it hears back
            asyncio.get_running_loop().call_soon(self._pull)
            return
        self._pull()
        raise ApiError("Bad Gateway", 502)  # never served: the bot is gone anyway

    def _pull(self) -> None:
        self.bot.kill()
        self.fired.set()


@pytest.mark.parametrize("backend", BACKENDS)
async def test_sigkill_at_chosen_moments_loses_and_doubles_nothing(
        backend: str, tmp_path: Path) -> None:
    api = FakeBotAPI()
    api.chat(CHAT)
    users = {n: FakeUser(200 + i, n, n, "en") for i, n in enumerate(SEATS)}
    server = await serve_http(api)
    port = server.sockets[0].getsockname()[1]
    async with database(backend, tmp_path) as url:
        bot = BotProcess(port, url, tmp_path / "bot.log")
        plug = Plug(bot, api)
        flaky = {"n": 0}

        async def misbehave(method: str, params: dict[str, Any]) -> None:
            if method != "sendMessage":
                return
            flaky["n"] += 1
            if flaky["n"] % 7 == 3:
                raise ApiError("Too Many Requests: retry after 1", 429, retry_after=1)
            if flaky["n"] % 7 == 5:
                raise ApiError("Bad Gateway", 502)
            if flaky["n"] == 12:
                await asyncio.sleep(1.5)  # past the client's timeout of 1 s

        api.faults[:] = [plug.hook, misbehave]
        sent: list[tuple[str, int]] = []  # (winner, message id) in the order sent

        def report(winner: str) -> None:
            api.say(users[winner], CHAT, f"/hu {winner} 自摸")
            sent.append((winner, api.updates[-1]["message"]["message_id"]))

        try:
            bot.start()
            api.say(users["alice"], CHAT, "/new changsha @alice @bob @carol @dave")
            await until(lambda: any("Scoreboard" in m.text for m in api.outbox), "a table")

            first = {"id": 0}  # the first report of the batch under way

            def reply_to_first(method: str, params: dict[str, Any]) -> bool:
                reply = params.get("reply_parameters") or {}
                return method == "sendMessage" and reply.get("message_id") == first["id"]

            moments: list[tuple[str, Callable[[str, dict[str, Any]], bool], bool]] = [
                # fetched (the batch is on its way), perhaps not yet durable
                ("fetched", lambda m, p: m == "getUpdates" and bool(api.updates), True),
                # the hand is committed, its reply not yet sent
                ("committed", reply_to_first, False),
                # the reply went out, the bot never heard back (so never marked it sent)
                ("replied", reply_to_first, True),
                # mid-outbox: the reply is out, the scoreboard is not (its edit, or its
                # post where the bot that came back posts it anew)
                ("mid-outbox", lambda m, p: m == "editMessageText" or (
                    m == "sendMessage" and str(p.get("text", "")).startswith("📋")), False),
            ]
            winners = ["bob", "carol", "dave", "alice"]
            for i, (name, match, after) in enumerate(moments):
                batch = winners[i % 4:] + winners[:i % 4]
                plug.arm(match, after)
                report(batch[0])  # no await in between: the bot cannot answer it yet
                first["id"] = sent[-1][1]
                for w in batch[1:]:
                    report(w)
                try:
                    await asyncio.wait_for(plug.fired.wait(), 120)
                except TimeoutError:
                    raise AssertionError(
                        f"the moment {name!r} never came; the last calls: "
                        f"{[m for m, _p in api.log[-30:]]}; the bot's log: "
                        f"{bot.log.read_text()[-2000:]}") from None
                bot.start()
            for w in winners:
                report(w)
            await until(lambda: all(any(m.reply_to == mid for m in api.outbox)
                                    for _w, mid in sent), "every report answered", 180)
            api.faults.clear()  # Telegram recovers: what is left in the outbox goes out
            watcher = await Ledger.open(url, run_migrations=False)
            try:
                for _ in range(1500):
                    if await watcher.queues.backlog() == (0, 0):
                        break
                    await asyncio.sleep(0.02)
            finally:
                await watcher.close()
        finally:
            bot.stop()
            server.close()
            await server.wait_closed()

        # Recorded exactly once, in the order sent.
        ledger = await Ledger.open(url)
        try:
            night = await ledger.open_nights.current_night(CHAT)
            assert night is not None
            winners_recorded = []
            for number in range(1, night.hands + 1):
                hand_report, _result = await ledger.nights.hand(CHAT, number)
                [event] = hand_report["events"]
                winners_recorded.append(night.seats[event["winners"][0]["seat"]].name)
            assert winners_recorded == [w for w, _ in sent]
            assert await ledger.queues.backlog() == (0, 0)
        finally:
            await ledger.close()
        # Answered, never twice with different words.
        for _w, mid in sent:
            texts = {m.text for m in api.outbox if m.reply_to == mid}
            assert len(texts) == 1, texts
        assert not any("nothing was recorded" in m.text for m in api.outbox)
        assert bot.starts == 5
