"""Webhook mode in one process, over ASGI (no network): the secret header, bounded and
well-formed bodies, 200 only once the inbox took the update, and the operator's routes.

``bot.delivery.pipeline.Pipeline.accept`` (issue 12's inbox) is stubbed by a recorder passed
to ``create_app``.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import httpx
import pytest
from prometheus_client import REGISTRY

from bot import webhook
from bot.app import build_application
from bot.console.fake_api import FakeBotAPI, FakeRequest, FakeUser
from bot.delivery.pipeline import pipeline_of
from bot.ops import admin
from bot.ops.config import Settings
from storage.ledger import Ledger
from storage.sql.db import create_engine

SECRET = "s3cret_TOKEN-1"
PATH = "/tg/hook"
UPDATE = {"update_id": 41, "message": {"message_id": 1, "date": 0, "text": "/table",
                                       "chat": {"id": -100, "type": "group"}}}


def settings(**telegram: Any) -> Settings:
    return Settings(telegram={"mode": "webhook", "token": "42:TEST", "secret_token": SECRET,
                              "webhook_url": f"https://bot.example.org{PATH}", **telegram})


class Inbox:
    """Stands in for ``bot.delivery.intake.accept``: records what it was given."""

    def __init__(self, fail: bool = False) -> None:
        self.accepted: list[dict[str, Any]] = []
        self.fail = fail
        self.release: asyncio.Event | None = None
        self.entered = asyncio.Event()

    async def __call__(self, app: Any, payload: dict[str, Any]) -> bool:
        self.entered.set()
        if self.release is not None:
            await self.release.wait()
        if self.fail:
            raise RuntimeError("the database went away")
        new = payload["update_id"] not in [p["update_id"] for p in self.accepted]
        self.accepted.append(payload)
        return new


def fake_application(ledger: Any = None) -> Any:
    services = None if ledger is None else SimpleNamespace(ledger=ledger)
    return SimpleNamespace(bot_data={} if services is None else {"services": services})


def client(app: Any) -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://test")


def counted(route: str, status: int) -> float:
    return REGISTRY.get_sample_value("tally_http_requests_total",
                                     {"route": route, "status": str(status)}) or 0.0


async def post(app: Any, content: Any, secret: str | bytes | None = SECRET,
               **headers: str | bytes) -> httpx.Response:
    if secret is not None:
        headers[webhook.SECRET_HEADER] = secret
    async with client(app) as c:
        return await c.post(PATH, content=content, headers={
            k.encode(): v.encode() if isinstance(v, str) else v for k, v in headers.items()})


@pytest.mark.parametrize("secret", [None, "", "wrong", SECRET + "x", SECRET[:-1],
                                    "ключ".encode()])
async def test_without_the_right_secret_nothing_is_accepted(secret: str | bytes | None
                                                            ) -> None:
    inbox = Inbox()
    app = webhook.create_app(settings(), fake_application(), accept=inbox)
    before = counted("webhook", 403)
    response = await post(app, json.dumps(UPDATE), secret=secret)
    assert response.status_code == 403 and inbox.accepted == [] and not inbox.entered.is_set()
    assert counted("webhook", 403) == before + 1


@pytest.mark.parametrize("body", [b"{not json", b"\xff\xfe", b"", b"[1, 2]", b"41",
                                  b'{"message": {}}', b'{"update_id": "41"}',
                                  b'{"update_id": true}', b'{"update_id": 4.5}'])
async def test_a_body_that_is_not_an_update_is_refused(body: bytes) -> None:
    inbox = Inbox()
    app = webhook.create_app(settings(), fake_application(), accept=inbox)
    response = await post(app, body, **{"content-type": "application/json"})
    assert response.status_code == 400 and not inbox.entered.is_set()


async def test_an_oversized_body_is_refused_declared_or_streamed() -> None:
    inbox = Inbox()
    app = webhook.create_app(settings(), fake_application(), accept=inbox)
    big = json.dumps({**UPDATE, "pad": "x" * webhook.MAX_BODY}).encode()
    assert (await post(app, big)).status_code == 413

    async def chunks() -> AsyncIterator[bytes]:  # no Content-Length: chunked
        for i in range(0, len(big), 64 * 1024):
            yield big[i:i + 64 * 1024]

    assert (await post(app, chunks())).status_code == 413
    assert not inbox.entered.is_set()
    # One byte under the limit is read and judged on its content.
    assert (await post(app, b" " * (webhook.MAX_BODY - 1))).status_code == 400


async def test_the_answer_is_200_only_after_the_inbox_took_the_update() -> None:
    inbox = Inbox()
    inbox.release = asyncio.Event()
    application = fake_application()
    app = webhook.create_app(settings(), application, accept=inbox)
    request = asyncio.create_task(post(app, json.dumps(UPDATE)))
    await asyncio.wait_for(inbox.entered.wait(), 10)
    assert not request.done()  # the inbox has not returned: no answer yet
    inbox.release.set()
    response = await request
    assert response.status_code == 200 and inbox.accepted == [UPDATE]
    # Telegram delivers it again: 200 again, counted as a duplicate.
    duplicates = REGISTRY.get_sample_value("tally_updates_duplicate_total",
                                           {"kind": "message"}) or 0.0
    assert (await post(app, json.dumps(UPDATE))).status_code == 200
    assert REGISTRY.get_sample_value("tally_updates_duplicate_total",
                                     {"kind": "message"}) == duplicates + 1


async def test_when_the_inbox_fails_the_answer_is_500_so_telegram_retries() -> None:
    app = webhook.create_app(settings(), fake_application(), accept=Inbox(fail=True))
    assert (await post(app, json.dumps(UPDATE))).status_code == 500


async def test_only_post_on_the_configured_path_reaches_the_inbox() -> None:
    inbox = Inbox()
    app = webhook.create_app(settings(), fake_application(), accept=inbox)
    async with client(app) as c:
        headers = {webhook.SECRET_HEADER: SECRET}
        assert (await c.get(PATH, headers=headers)).status_code == 405
        assert (await c.post("/other", content=json.dumps(UPDATE),
                             headers=headers)).status_code == 404
    assert not inbox.entered.is_set()


@pytest.fixture
async def ledger(tmp_path: Path) -> AsyncIterator[Ledger]:
    opened = await Ledger.open(f"sqlite+aiosqlite:///{tmp_path / 'tally.sqlite3'}")
    yield opened
    await opened.close()


class Backlogged:
    """A ledger whose queues' ``backlog()`` reports what the test says."""

    def __init__(self, ledger: Ledger, inbox: int, outbox: int) -> None:
        self.schema_at_head = ledger.schema_at_head
        self.queues = self
        self.figures = (inbox, outbox)

    async def backlog(self) -> tuple[int, int]:
        return self.figures


async def test_healthz_and_readyz_answer(ledger: Ledger) -> None:
    app = webhook.create_app(settings(ready_max_outbox=10), fake_application(ledger))
    async with client(app) as c:
        health = await c.get("/healthz")
        assert health.status_code == 200 and health.json()["status"] == "ok"
        ready = await c.get("/readyz")
        assert ready.status_code == 200, ready.text
        assert ready.json()["schema"] == "at head" and ready.json()["database"] == "ok"


async def test_readyz_fails_while_the_outbox_is_over_its_limit(ledger: Ledger) -> None:
    for outbox, status in ((10, 200), (11, 503)):
        app = webhook.create_app(settings(ready_max_outbox=10),
                                 fake_application(Backlogged(ledger, 3, outbox)))
        async with client(app) as c:
            ready = await c.get("/readyz")
        assert ready.status_code == status
        assert (ready.json()["inbox"], ready.json()["outbox"]) == (3, outbox)


async def test_readyz_fails_when_the_schema_is_behind(tmp_path: Path) -> None:
    behind = Ledger(create_engine(f"sqlite+aiosqlite:///{tmp_path / 'empty.sqlite3'}"))
    try:
        app = webhook.create_app(settings(), fake_application(behind))
        async with client(app) as c:
            ready = await c.get("/readyz")
        assert ready.status_code == 503 and ready.json()["schema"] == "behind"
    finally:
        await behind.close()


async def test_readyz_fails_when_the_database_is_unreachable() -> None:
    # Nothing listens on port 1 of loopback: the connection is refused at once.
    gone = Ledger(create_engine("postgresql+asyncpg://tally@127.0.0.1:1/tally"))
    try:
        app = webhook.create_app(settings(), fake_application(gone))
        async with client(app) as c:
            ready = await c.get("/readyz")
            assert ready.status_code == 503 and "unreachable" in ready.json()["database"]
            assert (await c.get("/healthz")).status_code == 200  # alive all the same
            assert (await c.get("/metrics")).status_code == 200  # and still counting
    finally:
        await gone.close()


async def test_readyz_fails_while_the_bot_is_starting() -> None:
    app = webhook.create_app(settings(), fake_application())
    async with client(app) as c:
        ready = await c.get("/readyz")
    assert ready.status_code == 503 and ready.json()["database"] == "not open yet"


async def test_metrics_expose_the_counters_and_the_backlog(ledger: Ledger) -> None:
    app = webhook.create_app(settings(), fake_application(Backlogged(ledger, 5, 7)),
                             accept=Inbox())
    await post(app, b"nope", secret="wrong")
    async with client(app) as c:
        scraped = await c.get("/metrics")
    assert scraped.status_code == 200
    assert scraped.headers["content-type"].startswith("text/plain")
    text = scraped.text
    assert "tally_inbox_backlog 5.0" in text and "tally_outbox_backlog 7.0" in text
    assert 'tally_http_requests_total{route="webhook",status="403"}' in text
    for name in ("tally_update_to_answer_seconds_bucket", "tally_updates_handled_total",
                 "tally_update_handle_seconds_bucket", "tally_updates_received_total",
                 "tally_reports_recorded_total", "tally_refusals_total",
                 "tally_telegram_errors_total", "tally_telegram_retries_total"):
        assert f"# TYPE {name.removesuffix('_bucket').removesuffix('_total')}" in text, name


async def test_a_real_update_is_stored_handled_and_answered(tmp_path: Path) -> None:
    """The lifespan runs the bot and its pipeline without polling; the real inbox takes
    a posted update; the dispatcher handles it and the sender answers."""
    config = settings(overall_max_rate=0, group_max_rate=0)
    config.storage.url = f"sqlite+aiosqlite:///{tmp_path / 'tally.sqlite3'}"
    api = FakeBotAPI()
    application = build_application(config, request=FakeRequest(api))
    app = webhook.create_app(config, application)
    api.say(FakeUser(7, "alice"), 42, "/score 1112345678999m")  # a private chat
    update = api.updates.pop()
    async with app.router.lifespan_context(app), client(app) as c:
        assert application.running and application.updater is None
        response = await c.post(PATH, json=update, headers={webhook.SECRET_HEADER: SECRET})
        assert response.status_code == 200
        inbox, _ = await admin.ledger_of(application).queues.backlog()
        assert inbox <= 1  # stored (and perhaps already handled)
        await pipeline_of(application).idle()
        assert [m.chat_id for m in api.outbox] == [42]  # the answer: its waits
        assert "123456789m" in api.outbox[0].text
        answers = len(api.outbox)
        again = await c.post(PATH, json=update, headers={webhook.SECRET_HEADER: SECRET})
        assert again.status_code == 200  # Telegram sent it again: stored once
        await pipeline_of(application).idle()
        assert (await c.get("/readyz")).json()["inbox"] == 0
        assert "getUpdates" not in [method for method, _ in api.log]
    assert not application.running
    assert "services" not in application.bot_data  # post_shutdown closed the ledger
    assert len(api.outbox) == answers == 1  # stored once, handled once
