"""Statements and transactions an update in webhook mode (several workers sharing the
inbox), counted in one process: the real application built as a webhook worker
(``shared=True``), updates handed to its pipeline as the webhook hands them, the fake Bot
API in place of Telegram. SQLAlchemy's engine events count every statement and every
transaction the worker runs while the reports are handled (the sender's marks and sweeps
included); each chat reports one update at a time, as Telegram sends a chat's next update
only after the last one's 2xx.

Run: ``python -m bench.statements_bench [--url postgresql+asyncpg://…] [--show]``;
without ``--url``, a SQLite file. ``--show`` lists the statements by how often they ran.
These counts do not depend on the machine's load.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import re
import sys
import tempfile
import time
import traceback
from collections import Counter
from pathlib import Path
from typing import Any

from sqlalchemy import event

from bench.webhook_bench import NEW, PLAYERS, report
from bot.app import build_application, running
from bot.console.fake_api import FakeBotAPI, FakeRequest, FakeUser
from bot.delivery.pipeline import pipeline_of
from bot.ops.config import Settings, StorageSettings, TelegramSettings
from storage.ledger import Ledger


class Counts:
    def __init__(self, trace: str | None = None, built: bool = False) -> None:
        self.built = built  # note statements built anew (compiles each one to name it)
        self.trace = trace
        self.callers: Counter[str] = Counter()
        self.on = False
        self.objects: dict[str, set[int]] = {}
        self.executed: Counter[str] = Counter()
        self.statements: Counter[str] = Counter()
        self.transactions = 0
        self.connections = 0  # database connections opened while counting

    def attach(self, engine: Any) -> None:
        @event.listens_for(engine, "before_cursor_execute")
        def _statement(conn: Any, cursor: Any, statement: str, *a: Any) -> None:
            if self.on:
                # counted as run; folded (whitespace, length) when shown: the counting
                # itself is part of the CPU measured, and should cost next to nothing
                self.statements[statement] += 1
                if self.trace and statement.startswith(self.trace):
                    self.callers[" < ".join(
                        f"{Path(f.filename).stem}.{f.name}:{f.lineno}"
                        for f in traceback.extract_stack()
                        if "/site-packages/" not in f.filename
                        and "statements_bench" not in f.filename)] += 1

        @event.listens_for(engine, "before_execute")
        def _built(conn: Any, element: Any, *a: Any) -> None:
            if self.on and self.built and not isinstance(element, str):
                seen = self.objects.setdefault(type(element).__name__ + " " + re.sub(
                    r"\s+", " ", str(element))[:100], set())
                seen.add(id(element))
                self.executed[type(element).__name__ + " " + re.sub(
                    r"\s+", " ", str(element))[:100]] += 1

        @event.listens_for(engine.pool, "connect")
        def _connect(*a: Any) -> None:
            if self.on:
                self.connections += 1

        @event.listens_for(engine, "begin")
        def _begin(conn: Any) -> None:
            if self.on:
                self.transactions += 1


async def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.statements_bench",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", default=None)
    parser.add_argument("--chats", type=int, default=10)
    parser.add_argument("--reports", type=int, default=60, help="reports in all")
    parser.add_argument("--shared", type=int, default=1,
                        help="1: a webhook worker (default); 0: the polling process")
    parser.add_argument("--gap", type=float, default=0.3,
                        help="seconds between a chat's reports (its last handled by then)")
    parser.add_argument("--show", action="store_true")
    parser.add_argument("--profile", default=None,
                        help="write a profile (CPU time) of the measured reports here")
    parser.add_argument("--trace", default=None,
                        help="for statements that start so, where they were run from")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="statements-bench-") as folder:
        url = args.url or f"sqlite+aiosqlite:///{Path(folder) / 'bench.db'}"
        if args.url:
            from bench.webhook_bench import reset_tables
            await reset_tables(args.url)
        await (await Ledger.open(url)).close()  # a webhook worker finds it migrated
        api = FakeBotAPI()
        config = Settings(storage=StorageSettings(url=url),
                          telegram=TelegramSettings(overall_max_rate=0, group_max_rate=0))
        app = build_application(config, request=FakeRequest(api), token="42:TEST",
                                shared=bool(args.shared))
        users = {n: FakeUser(100 + i, n, n, "en") for i, n in enumerate(PLAYERS)}
        groups = [-300_000 - c for c in range(args.chats)]
        for chat in groups:
            api.chat(chat, type="group")
        counts = Counts(args.trace, built=args.show)
        async with running(app, poll=False):
            pipeline = pipeline_of(app)
            counts.attach(app.bot_data["services"].ledger.engine.sync_engine)

            async def say(chat: int, who: str, text: str) -> None:
                api.say(users[who], chat, text)
                await pipeline.accept(api.updates.pop())

            await asyncio.gather(*(say(c, "alice", NEW) for c in groups))
            await pipeline.idle()
            per_chat = args.reports // args.chats

            async def chat_reports(chat: int, first: int, last: int) -> None:
                for n in range(first, last):
                    who, text = report(chat, n)
                    await say(chat, who, text)
                    # as Telegram: the next only after this one's 2xx (already given);
                    # let the worker handle it before the next comes
                    await asyncio.sleep(args.gap)

            # a warm-up: every player reports once (their first act links their account)
            await asyncio.gather(*(chat_reports(c, 0, 4) for c in groups))
            await pipeline.idle()
            await asyncio.sleep(0.2)
            counts.on = True
            cpu = time.process_time()
            profile = cProfile.Profile(time.process_time) if args.profile else None
            if profile is not None:
                profile.enable()
            await asyncio.gather(*(chat_reports(c, 4, 4 + per_chat) for c in groups))
            await pipeline.idle()
            cpu = time.process_time() - cpu
            if profile is not None:
                profile.disable()
                profile.dump_stats(args.profile)
            counts.on = False
            n = per_chat * len(groups)
        calls = sum(counts.statements.values())
        folded: Counter[str] = Counter()
        for text, k in counts.statements.items():
            folded[re.sub(r"\s+", " ", text)[:160]] += k
        print(f"{'webhook worker' if args.shared else 'polling'} on "
              f"{url.split(':')[0]}: {n} reports: {calls / n:.2f} statements and "
              f"{counts.transactions / n:.2f} transactions an update; "
              f"{counts.connections} database connections opened; Bot API calls "
              f"{api.calls}; CPU a report (this process: the bot, the fake Bot API, "
              f"this bench) {cpu / n * 1000:.1f} ms")
        if args.show:
            for text, k in folded.most_common():
                print(f"{k / n:6.2f}  {text}")
        if args.show:
            print("statements built anew for (nearly) every execution:")
            for text, k in counts.executed.most_common():
                if len(counts.objects[text]) > k / 2:
                    print(f"{k / n:6.2f}  {text}")
        for where, k in counts.callers.most_common():
            print(f"{k / n:6.2f}  {where}")
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
