"""The Mini App against the real bot and the fake Bot API (tests/bot/harness.py): init data
signed as Telegram signs it, and an HTTP client for the app's routes (over ASGI, or a
real socket for the browser tests)."""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
from starlette.applications import Starlette

from bot.handlers.app_link import chat_param
from bot.ops.config import WebAppSettings
from bot.webapp.api import routes
from bot.webapp.auth import sign_init_data
from tests.bot.harness import GROUP, Table, carol_leaves, table

TOKEN = "42:TEST"  # what tests/bot/harness.py gives the bot
PUBLIC_URL = "https://tally.example.org/app"
PLAYERS = ["alice", "bob", "carol", "dave"]


def init_data(t: Table, who: str, *, chat_id: int = GROUP, token: str = TOKEN,
              auth_date: int | None = None, lang: str | None = None, **extra: str) -> str:
    user = t.user(who)
    data = {"id": user.id, "first_name": user.first_name, "username": user.username,
            "language_code": lang or t.lang}
    fields = {"auth_date": str(int(time.time()) if auth_date is None else auth_date),
              "user": json.dumps(data, separators=(",", ":")),
              "start_param": chat_param(TOKEN, chat_id), "query_id": "AAHdF6IQAAAAAN0XohDhrOrc",
              **extra}
    return sign_init_data(token, fields)


def client(t: Table) -> httpx.AsyncClient:
    app = Starlette(routes=routes(t.app, t.app.bot_data["settings"]))
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app),
                             base_url="https://tally.example.org")


def auth(data: str) -> dict[str, str]:
    return {"Authorization": f"tma {data}"}


def keyed(body: dict[str, Any] | None = None, key: str | None = None) -> dict[str, Any]:
    """A write's body with its idempotency key, as the app sends it (a new one unless
    ``key`` is given)."""
    return {**(body or {}), "key": key or uuid.uuid4().hex}


@asynccontextmanager
async def app_table(tmp_path: Path, lang: str = "en", **settings: Any
                    ) -> AsyncIterator[Table]:
    webapp = WebAppSettings(public_url=PUBLIC_URL, **settings.pop("webapp", {}))
    async with table(tmp_path, lang, webapp=webapp, **settings) as t:
        yield t


async def seated(t: Table, preset: str = "chengdu", stake: str | None = None) -> None:
    await t.say("alice", f"/new {preset} @alice @bob @carol @dave")
    if stake:
        await t.say("alice", f"/set stake {stake}")


async def seat_change_night(t: Table) -> None:
    """A three-player 三人两房 night in which dave takes carol's seat after two hands, then
    plays a third."""
    await carol_leaves(t)
    await t.say("dave", "/hu dave 自摸")
    await t.say("bob", "/hu bob from alice")
