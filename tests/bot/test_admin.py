"""Polling mode's admin port: /healthz, /readyz and /metrics beside real polling (the bot
against the fake Bot API), served on loopback while the bot runs and gone after."""

from __future__ import annotations

import socket
from pathlib import Path

import httpx
import pytest

from bot.app import build_application, running
from bot.console.fake_api import FakeBotAPI, FakeRequest
from bot.ops import admin
from bot.ops.config import Settings


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def test_the_admin_port_answers_while_the_bot_polls(tmp_path: Path) -> None:
    port = free_port()
    settings = Settings(telegram={"admin_listen": f"127.0.0.1:{port}"},
                        storage={"url": f"sqlite+aiosqlite:///{tmp_path / 't.sqlite3'}"})
    api = FakeBotAPI()
    app = build_application(settings, request=FakeRequest(api), token="42:ADMIN")
    admin.attach(app, settings)
    base = f"http://127.0.0.1:{port}"
    async with running(app), httpx.AsyncClient(base_url=base, timeout=30) as client:
        assert (await client.get("/healthz")).status_code == 200
        ready = await client.get("/readyz")
        assert ready.status_code == 200 and ready.json()["schema"] == "at head"
        scraped = await client.get("/metrics")
        assert scraped.status_code == 200 and "tally_outbox_backlog" in scraped.text
        assert (await client.post("/healthz")).status_code == 405
    async with httpx.AsyncClient(base_url=base, timeout=5) as client:
        with pytest.raises(httpx.ConnectError):  # stopped with the bot
            await client.get("/healthz")


async def test_without_admin_listen_nothing_is_served(tmp_path: Path) -> None:
    settings = Settings(storage={"url": f"sqlite+aiosqlite:///{tmp_path / 't.sqlite3'}"})
    app = build_application(settings, request=FakeRequest(FakeBotAPI()), token="42:ADMIN")
    post_init = app.post_init
    admin.attach(app, settings)
    assert app.post_init is post_init


async def test_a_port_in_use_stops_the_start(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        server = admin.AdminServer(f"127.0.0.1:{port}", lambda: None, 10)
        with pytest.raises(OSError):
            await server.start()
