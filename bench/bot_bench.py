"""Hand reports per second through polling and SQLite, against a bare echo bot.

Run: ``python -m bench.bot_bench [--reports 300]``. All bots run python-telegram-bot's
real polling against the same in-process fake Bot API in this run; the ratio is the
tally bot's rate divided by the echo bot's (goal: at least 0.8).

A third bot bounds what any design could reach: the echo bot that, before replying,
makes the least durable write there is through aiosqlite (one autocommitted INSERT, one
trip to aiosqlite's thread), with no parsing, scoring or rendering. A bot that records a
report before answering it cannot beat that ratio.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import aiosqlite
from telegram import Update
from telegram.ext import ApplicationBuilder, ContextTypes, MessageHandler, filters

from bot.app import build_application, running
from bot.config import Settings, StorageSettings, TelegramSettings
from bot.fake_api import FakeBotAPI, FakeRequest, FakeUser

GROUP = -700


async def _drain(api: FakeBotAPI, app, last_update: int) -> None:  # type: ignore[no-untyped-def]
    while api.offset <= last_update:
        await asyncio.sleep(0.001)
    await app.update_queue.join()


Handler = Callable[[Update, ContextTypes.DEFAULT_TYPE], Awaitable[None]]


async def _bare_bot_rate(n: int, handler: Handler) -> float:
    """Updates per second through polling for a bot with one text handler."""
    api = FakeBotAPI()
    request = FakeRequest(api)
    app = (ApplicationBuilder().token("1:BARE").request(request).get_updates_request(request)
           .build())
    app.add_handler(MessageHandler(filters.TEXT, handler))
    user = FakeUser(1, "alice", "alice", "en")
    async with running(app):
        t0 = time.perf_counter()
        last = 0
        for _ in range(n):
            last = api.say(user, GROUP, "/hu bob 自摸")
        await _drain(api, app, last)
        return n / (time.perf_counter() - t0)


async def echo_rate(n: int) -> float:
    async def echo(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        assert update.effective_message is not None
        await update.effective_message.reply_text(update.effective_message.text or "")

    return await _bare_bot_rate(n, echo)


async def echo_with_write_rate(n: int, db: Path) -> float:
    """The echo bot plus one autocommitted INSERT per update: the floor of durable work."""
    conn = await aiosqlite.connect(db, isolation_level=None)
    await conn.execute("PRAGMA journal_mode=WAL")
    await conn.execute("PRAGMA synchronous=NORMAL")
    await conn.execute("CREATE TABLE reports (update_id INTEGER PRIMARY KEY, text TEXT)")

    async def echo(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        assert update.effective_message is not None
        text = update.effective_message.text or ""
        await conn.execute("INSERT INTO reports VALUES (?, ?)", (update.update_id, text))
        await update.effective_message.reply_text(text)

    try:
        return await _bare_bot_rate(n, echo)
    finally:
        await conn.close()


async def tally_rate(n: int, db: Path) -> float:
    api = FakeBotAPI()
    settings = Settings(storage=StorageSettings(url=f"sqlite+aiosqlite:///{db}"),
                        telegram=TelegramSettings(overall_max_rate=0, group_max_rate=0))
    app = build_application(settings, request=FakeRequest(api), token="1:TALLY")
    users = {name: FakeUser(i + 1, name, name, "en")
             for i, name in enumerate(["alice", "bob", "carol", "dave"])}
    async with running(app):
        uid = api.say(users["alice"], GROUP, "/new chengdu @alice @bob @carol @dave")
        await _drain(api, app, uid)
        winners = ["bob", "carol", "dave"]  # three self-draws close each blood-battle hand
        t0 = time.perf_counter()
        last = 0
        for i in range(n):
            w = winners[i % 3]
            last = api.say(users[w], GROUP, f"/hu {w} 自摸")
        await _drain(api, app, last)
        rate = n / (time.perf_counter() - t0)
        session = await app.bot_data["services"].ledger.current_session(GROUP)
        assert session is not None and session.hands >= n // 3, "reports went missing"
        assert not api.errors, api.errors
        return rate


def run(n: int = 300) -> dict[str, float]:
    echo = asyncio.run(echo_rate(n))
    with tempfile.TemporaryDirectory() as tmp:
        floor = asyncio.run(echo_with_write_rate(n, Path(tmp) / "floor.sqlite3"))
        tally = asyncio.run(tally_rate(n, Path(tmp) / "bench.sqlite3"))
    ratio = tally / echo
    print(f"echo bot: {echo:.0f} updates/s")
    print(f"echo bot + one durable aiosqlite INSERT: {floor:.0f} updates/s "
          f"-> ratio {floor / echo:.2f} (the most any bot that records first can reach)")
    print(f"tally bot: {tally:.0f} hand reports/s (recorded, replied; scoreboard edits merged "
          f"per board_interval, the default settings) "
          f"-> ratio {ratio:.2f} (goal >= 0.8)")
    return {"echo": echo, "floor": floor, "tally": tally, "ratio": ratio,
            "floor_ratio": floor / echo}


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--reports", type=int, default=300)
    run(parser.parse_args().reports)
