"""Hand reports per second through polling and SQLite, against a bare echo bot.

Run: ``python -m bench.bot_bench [--reports 300]``. Both bots run python-telegram-bot's
real polling against the same in-process fake Bot API in this run; the ratio is the
tally bot's rate divided by the echo bot's (goal: at least 0.8).
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path

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


async def echo_rate(n: int) -> float:
    api = FakeBotAPI()

    async def echo(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        assert update.effective_message is not None
        await update.effective_message.reply_text(update.effective_message.text or "")

    request = FakeRequest(api)
    app = (ApplicationBuilder().token("1:ECHO").request(request).get_updates_request(request)
           .build())
    app.add_handler(MessageHandler(filters.TEXT, echo))
    user = FakeUser(1, "alice", "alice", "en")
    async with running(app):
        t0 = time.perf_counter()
        last = 0
        for _ in range(n):
            last = api.say(user, GROUP, "/hu bob 自摸")
        await _drain(api, app, last)
        return n / (time.perf_counter() - t0)


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
        tally = asyncio.run(tally_rate(n, Path(tmp) / "bench.sqlite3"))
    ratio = tally / echo
    print(f"echo bot: {echo:.0f} updates/s; tally bot: {tally:.0f} hand reports/s "
          f"(recorded, replied, scoreboard edited) -> ratio {ratio:.2f} (goal >= 0.8)")
    return {"echo": echo, "tally": tally, "ratio": ratio}


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--reports", type=int, default=300)
    run(parser.parse_args().reports)
