"""The delivery pipeline under load, against a bare python-telegram-bot echo bot that
handles chats concurrently, both polling the same in-process fake Bot API in this run.

Run: ``python -m bench.load_bench [--seconds 20] [--url postgresql+asyncpg://...]
[--unbatched]``.

1. Load: the fake adds 50 ms to every Bot API call (Telegram's round trip); 200 chats;
   reports arrive at random (Poisson) at 40 a second. Goals: throughput equals the offered
   load; p50 within 25 ms of the echo bot's p50; p99 <= 250 ms; no reply before its
   report is committed (checked on a sample, at the moment the fake receives the reply);
   each chat's hands recorded in the order sent.
2. Isolation: Telegram's limits on (30/s, 20/min per group), 50 ms per call: one chat
   reports non-stop; how much later does another chat get its answers than alone (p99)?
3. Saturated: no delay, 200 chats, every report sent at once: reports/s, and ÷ echo.
4. Calls per report over a whole night: one table's night (blood battle, 36 reports) at
   a real table's pace, time-scaled 100x (a report every 0.6 s for every minute, and the
   default scoreboard interval / 100): sendMessage + editMessageText + pinChatMessage.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import random
import statistics
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from sqlalchemy import select
from telegram import Update
from telegram.ext import (
    Application,
    ApplicationBuilder,
    ContextTypes,
    MessageHandler,
    filters,
)

from bot.app import build_application, running
from bot.console.fake_api import FakeBotAPI, FakeRequest, FakeUser
from bot.delivery.pipeline import pipeline_of
from bot.ops.config import DeliverySettings, Settings, StorageSettings, TelegramSettings
from storage.sql import tables as t

PLAYERS = ["alice", "bob", "carol", "dave"]
WINNERS = ["bob", "carol", "dave"]  # three self-draws close each blood-battle hand
SPEAKING = {"sendMessage", "editMessageText", "pinChatMessage", "sendPhoto"}


class Clock:
    """When each report was said and when the fake received its reply."""

    def __init__(self, api: FakeBotAPI, delay: float) -> None:
        self.api = api
        self.said: dict[int, float] = {}  # message id -> time said
        self.answered: dict[int, float] = {}
        self.on_reply: Any = None
        api.faults.append(self.hook)
        self.delay = delay

    async def hook(self, method: str, params: dict[str, Any]) -> None:
        if self.delay:
            await asyncio.sleep(self.delay)
        if method == "sendMessage":
            reply = params.get("reply_parameters") or params.get("reply_to_message_id")
            if isinstance(reply, str):
                import json

                reply = json.loads(reply)
            mid = reply.get("message_id") if isinstance(reply, dict) else reply
            if mid is not None and int(mid) in self.said:
                mid = int(mid)
                self.answered.setdefault(mid, time.perf_counter())
                if self.on_reply is not None:
                    await self.on_reply(mid, params)

    def say(self, user: FakeUser, chat_id: int, text: str,
            mentions: dict[str, FakeUser] | None = None) -> int:
        self.api.say(user, chat_id, text, mentions=mentions)
        mid = int(self.api.updates[-1]["message"]["message_id"])
        self.said[mid] = time.perf_counter()
        return mid

    def latencies(self, mids: list[int]) -> list[float]:
        return [self.answered[m] - self.said[m] for m in mids if m in self.answered]


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


async def wait_answered(clock: Clock, mids: list[int], seconds: float) -> None:
    """Until every one of ``mids`` is answered (or ``seconds`` passed). Each look takes
    only the answers new since the last (``answered`` keeps its order): this runs on the
    bots' event loop, and looking at all 2,000 reports every 10 ms took 7% of its CPU."""
    deadline = time.perf_counter() + seconds
    left, seen = set(mids), 0
    while time.perf_counter() < deadline:
        now = len(clock.answered)
        left.difference_update(itertools.islice(clock.answered, seen, now))
        seen = now
        if not left:
            return
        await asyncio.sleep(0.01)


def users() -> dict[str, FakeUser]:
    return {n: FakeUser(i + 1, n, n, "en") for i, n in enumerate(PLAYERS)}


# ``--unbatched``: every report commits in a transaction of its own, as webhook workers
# write (no batches across chats, no writes left for the batch's end): what batching buys.
BATCHING = {"on": True}


def tally_app(api: FakeBotAPI, url: str, *, limits: bool = False,
              board_interval: float = TelegramSettings().board_interval,
              delivery: DeliverySettings | None = None) -> Any:
    telegram = TelegramSettings(overall_max_rate=30 if limits else 0,
                                group_max_rate=20 if limits else 0,
                                board_interval=board_interval)
    settings = Settings(storage=StorageSettings(url=url), telegram=telegram,
                        delivery=delivery or DeliverySettings(), default_language="en")
    app = build_application(settings, request=FakeRequest(api), token="1:TALLY")
    if not BATCHING["on"]:
        started = app.post_init
        assert started is not None

        async def unbatched(application: Any) -> None:
            await started(application)
            application.bot_data["services"].ledger.batching = False

        app.post_init = unbatched
    return app


def echo_app(api: FakeBotAPI, limits: bool = False) -> Any:
    async def echo(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        assert update.effective_message is not None
        await update.effective_message.reply_text(update.effective_message.text or "",
                                                  do_quote=True)

    request = FakeRequest(api)
    builder = (ApplicationBuilder().token("1:ECHO").request(request)
               .get_updates_request(request).concurrent_updates(256))
    app: Application[Any, Any, Any, Any, Any, Any]
    if limits:
        from telegram.ext import AIORateLimiter

        app = builder.rate_limiter(AIORateLimiter(overall_max_rate=30, group_max_rate=20,
                                                  max_retries=0)).build()
    else:
        app = builder.build()
    app.add_handler(MessageHandler(filters.TEXT, echo))
    return app


class EchoRunning:
    def __init__(self, app: Any) -> None:
        self.app = app

    async def __aenter__(self) -> Any:
        await self.app.initialize()
        await self.app.start()
        await self.app.updater.start_polling(poll_interval=0.0, timeout=1)
        return self.app

    async def __aexit__(self, *exc: object) -> None:
        await self.app.updater.stop()
        await self.app.stop()
        await self.app.shutdown()


async def open_tables(clock: Clock, app: Any, chats: list[int]) -> None:
    """A table in each chat, its players named by text mentions (so linked at once)."""
    u = users()
    mids = [clock.say(u["alice"], c, "/new chengdu alice bob carol dave", mentions=u)
            for c in chats]
    await wait_answered(clock, mids, 120)
    await pipeline_of(app).idle()


async def events_recorded(app: Any, chat_id: int) -> int:
    ledger = app.bot_data["services"].ledger

    def unit(conn: Any) -> int:
        rows = conn.execute(select(t.hands.c.reporters).where(t.hands.c.chat_id == chat_id))
        return sum(len(r.reporters) for r in rows)

    return int(await ledger.run(unit, write=False))


async def arrivals(clock: Clock, chats: list[int], rate: float, seconds: float,
                   text: Any) -> list[int]:
    """Poisson arrivals at ``rate`` a second for ``seconds``; returns the message ids."""
    u = users()
    counts: dict[int, int] = defaultdict(int)
    mids = []
    end = time.perf_counter() + seconds
    rng = random.Random(7)
    while time.perf_counter() < end:
        await asyncio.sleep(rng.expovariate(rate))
        chat = rng.choice(chats)
        winner = WINNERS[counts[chat] % 3]
        counts[chat] += 1
        mids.append(clock.say(u[winner], chat, text(winner)))
    return mids


# -- 1. load -------------------------------------------------------------------------------

async def load(bot: str, url: str, seconds: float, delay: float = 0.05) -> dict[str, Any]:
    api = FakeBotAPI()
    clock = Clock(api, 0.0)
    chats = [-1000 - i for i in range(200)]
    app = tally_app(api, url) if bot == "tally" else echo_app(api)
    ctx = running(app) if bot == "tally" else EchoRunning(app)
    early: list[int] = []
    sent: dict[int, list[str]] = defaultdict(list)
    async with ctx:
        if bot == "tally":
            await open_tables(clock, app, chats)
            checked = {"n": 0}

            async def before_commit(mid: int, params: dict[str, Any]) -> None:
                if checked["n"] >= 40 or random.random() > 0.1:
                    return
                checked["n"] += 1
                chat = int(params["chat_id"])
                needed = order[chat].index(mid) + 1
                if await events_recorded(app, chat) < needed:
                    early.append(mid)

            clock.on_reply = before_commit
        clock.delay = delay
        order: dict[int, list[int]] = defaultdict(list)
        orig_say = clock.say

        def say(user: FakeUser, chat_id: int, text: str, mentions: Any = None) -> int:
            mid = orig_say(user, chat_id, text, mentions)
            order[chat_id].append(mid)
            sent[chat_id].append(user.first_name)
            return mid

        clock.say = say  # type: ignore[method-assign]
        t0 = time.perf_counter()
        mids = await arrivals(clock, chats, 40.0, seconds, lambda w: f"/hu {w} 自摸")
        offered = len(mids) / (time.perf_counter() - t0)
        await wait_answered(clock, mids, 120)
        done = max(clock.answered.get(m, 0.0) for m in mids)
        lat = clock.latencies(mids)
        result = {"offered": offered, "throughput": len(lat) / (done - t0),
                  "answered": len(lat), "reports": len(mids), "p50": pct(lat, 50),
                  "p99": pct(lat, 99), "early": len(early)}
        if bot == "tally":
            result["in_order"] = await same_order(app, sent)
    return result


async def same_order(app: Any, sent: dict[int, list[str]]) -> bool:
    ledger = app.bot_data["services"].ledger
    for chat, names in sent.items():
        night = await ledger.open_nights.current_night(chat)

        def unit(conn: Any, chat: int = chat) -> list[Any]:
            return [r.report for r in conn.execute(
                select(t.hands.c.report).where(t.hands.c.chat_id == chat)
                .order_by(t.hands.c.number))]

        reports = await ledger.run(unit, write=False)
        recorded = [night.seats[e["winners"][0]["seat"]].name
                    for r in reports for e in r["events"]]
        if recorded != names:
            return False
    return True


# -- 2. isolation --------------------------------------------------------------------------

async def isolation(url: str, seconds: float, busy: bool, bot: str = "tally"
                    ) -> list[float]:
    api = FakeBotAPI()
    clock = Clock(api, 0.0)
    app = tally_app(api, url, limits=True) if bot == "tally" else echo_app(api, limits=True)
    ctx = running(app) if bot == "tally" else EchoRunning(app)
    quiet, noisy = -2001, -2002
    async with ctx:
        if bot == "tally":
            await open_tables(clock, app, [quiet, noisy])
            await asyncio.sleep(3.5)  # the /new answers leave the group limits' window
        clock.delay = 0.05
        u = users()

        async def stream(chat: int, every: float) -> list[int]:
            mids, i, end = [], 0, time.perf_counter() + seconds
            while time.perf_counter() < end:
                w = WINNERS[i % 3]
                i += 1
                mids.append(clock.say(u[w], chat, f"/hu {w} 自摸"))
                await asyncio.sleep(every)
            return mids

        tasks = [stream(quiet, 1.0)] + ([stream(noisy, 0.2)] if busy else [])
        mids = (await asyncio.gather(*tasks))[0]
        await wait_answered(clock, mids, 30)
        return clock.latencies(mids)


# -- 3. saturated --------------------------------------------------------------------------

async def saturated(bot: str, url: str, n: int) -> float:
    api = FakeBotAPI()
    clock = Clock(api, 0.0)
    chats = [-3000 - i for i in range(200)]
    app = tally_app(api, url) if bot == "tally" else echo_app(api)
    ctx = running(app) if bot == "tally" else EchoRunning(app)
    u = users()
    async with ctx:
        if bot == "tally":
            await open_tables(clock, app, chats)
        t0 = time.perf_counter()
        mids = [clock.say(u[WINNERS[(i // 200) % 3]], chats[i % 200],
                          f"/hu {WINNERS[(i // 200) % 3]} 自摸") for i in range(n)]
        await wait_answered(clock, mids, 300)
        return len(clock.latencies(mids)) / (max(clock.answered.values()) - t0)


# -- 4. calls per report -------------------------------------------------------------------

async def calls_per_report(url: str, scale: float = 100.0) -> tuple[float, int, int]:
    api = FakeBotAPI()
    clock = Clock(api, 0.0)
    interval = TelegramSettings().board_interval  # the default
    app = tally_app(api, url, board_interval=interval / scale)
    u = users()
    async with running(app):
        before = sum(1 for m, _ in api.log if m in SPEAKING)
        mids = [clock.say(u["alice"], -4000, "/new chengdu alice bob carol dave", mentions=u)]
        for i in range(36):
            await asyncio.sleep(60 / scale)
            w = WINNERS[i % 3]
            mids.append(clock.say(u[w], -4000, f"/hu {w} 自摸"))
        await wait_answered(clock, mids, 60)
        await asyncio.sleep(interval / scale + 0.5)  # the last scoreboard edit
        calls = sum(1 for m, _ in api.log if m in SPEAKING) - before
    return calls / 36, calls, 36


async def main(seconds: float, url: str | None, saturate: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        made: list[str] = []

        async def fresh(name: str) -> str:
            """A database of its own for each run: a file, or one on the given server."""
            if url is None:
                return f"sqlite+aiosqlite:///{Path(tmp) / name}.sqlite3"
            import asyncpg

            dsn = url.replace("postgresql+asyncpg", "postgresql")
            conn = await asyncpg.connect(dsn)
            await conn.execute(f"DROP DATABASE IF EXISTS bench_{name}")
            await conn.execute(f"CREATE DATABASE bench_{name}")
            await conn.close()
            made.append(name)
            return url.rsplit("/", 1)[0] + f"/bench_{name}"

        echo = await load("echo", "", seconds)
        tally = await load("tally", await fresh("load"), seconds)
        print(f"1. load, 200 chats, 40 reports/s offered, 50 ms per Bot API call, "
              f"{seconds:.0f} s:")
        for name, r in (("echo ", echo), ("tally", tally)):
            print(f"   {name}: offered {r['offered']:.1f}/s, answered {r['answered']}/"
                  f"{r['reports']} at {r['throughput']:.1f}/s, p50 {r['p50'] * 1000:.0f} ms,"
                  f" p99 {r['p99'] * 1000:.0f} ms")
        print(f"   p50 over echo: {(tally['p50'] - echo['p50']) * 1000:+.0f} ms (goal <= 25);"
              f" p99 {tally['p99'] * 1000:.0f} ms (goal <= 250); replies before their "
              f"commit: {tally['early']} (sampled); chats in order: {tally['in_order']}")
        alone = await isolation(await fresh("alone"), seconds, busy=False)
        crowded = await isolation(await fresh("crowded"), seconds, busy=True)
        print(f"2. isolation (30/s, 20/min per group): the quiet chat's p99 alone "
              f"{pct(alone, 99) * 1000:.0f} ms, beside a chat reporting 5/s "
              f"{pct(crowded, 99) * 1000:.0f} ms: "
              f"{(pct(crowded, 99) - pct(alone, 99)) * 1000:+.0f} ms (goal <= 100)")
        e = await saturated("echo", "", saturate)
        s = await saturated("tally", await fresh("saturated"), saturate)
        print(f"3. saturated, no delay, 200 chats, {saturate} reports: tally {s:.0f}/s "
              f"(goal >= 150), echo {e:.0f}/s, ratio {s / e:.2f}")
        per, calls, reports = await calls_per_report(await fresh("night"))
        print(f"4. Telegram calls per report over a night: {calls} calls for {reports} "
              f"reports = {per:.2f} (goal <= 1.5)")
        print(f"   (p50 median of echo {statistics.median([echo['p50']]) * 1000:.0f} ms)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--url", default=None, help="a database for the tally bot "
                        "(default: SQLite files in a temporary folder)")
    parser.add_argument("--saturate", type=int, default=2000)
    parser.add_argument("--unbatched", action="store_true",
                        help="every report in a transaction of its own (what batching buys)")
    args = parser.parse_args()
    BATCHING["on"] = not args.unbatched
    asyncio.run(main(args.seconds, args.url, args.saturate))
