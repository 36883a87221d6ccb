"""Webhook mode: an ASGI app (Starlette, served by Uvicorn) that takes Telegram's posts.

python-telegram-bot's documented custom-webhook pattern: the Application is built without
an updater and runs, with the delivery pipeline but no polling, for the server's lifespan
(``bot.app.running``); each request hands its update to the inbox.
``POST <path of telegram.webhook_url>``:

- 403, nothing written, unless ``X-Telegram-Bot-Api-Secret-Token`` equals
  ``telegram.secret_token`` (compared in constant time);
- 413 for a body over :data:`MAX_BODY`, 400 for one that is not a JSON object with an
  integer ``update_id``, nothing written either way;
- otherwise the update is made durable in the inbox
  (``bot.delivery.pipeline.Pipeline.accept``, which also wakes this worker's
  dispatcher), and the answer is 200 only after that returned (a duplicate is 200 too);
  if it raised, 500, so that Telegram delivers the update again.
  Telegram sends a chat's next update only after a 2xx for the previous one, so each
  chat's inbox stays in order.

The same server answers ``/healthz``, ``/readyz`` and ``/metrics`` (``bot.ops.admin``).
``bot.serving`` starts the workers; :func:`worker_app` is what each of them runs.
"""

from __future__ import annotations

import json
import logging
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from bot.app import build_application, running
from bot.delivery import intake
from bot.delivery.pipeline import pipeline_of
from bot.ops import admin, logs, metrics
from bot.ops.application import AnyApp
from bot.ops.config import Settings, load_settings
from bot.webapp import server as webapp_server

log = logging.getLogger(__name__)

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
MAX_BODY = 1 << 20  # bytes; Telegram's updates are a few kilobytes at most
ALLOWED_UPDATES = intake.ALLOWED_UPDATES

Accept = Callable[[AnyApp, dict[str, Any]], Awaitable[bool]]


async def _accept(application: AnyApp, payload: dict[str, Any]) -> bool:
    return await pipeline_of(application).accept(payload)


class Refused(Exception):
    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status = status


async def read_body(request: Request, limit: int = MAX_BODY) -> bytes:
    """The request's body, refused (413) as soon as it is known to be over ``limit``."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > limit):
        raise Refused(413 if declared.isdigit() else 400, "body too large or bad length")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise Refused(413, "body too large")
    return bytes(body)


def parse_update(body: bytes) -> dict[str, Any]:
    try:
        payload = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        raise Refused(400, "not JSON") from None
    if not isinstance(payload, dict):
        raise Refused(400, "not a JSON object")
    update_id = payload.get("update_id")
    if not isinstance(update_id, int) or isinstance(update_id, bool):
        raise Refused(400, "no integer update_id")
    return payload


def create_app(settings: Settings, application: AnyApp,
               accept: Accept | None = None) -> Starlette:
    """The webhook and admin routes; the lifespan runs ``application``."""
    tg = settings.telegram
    if tg.secret_token is None:
        raise ValueError("webhook mode needs telegram.secret_token")
    secret = tg.secret_token.get_secret_value().encode()
    store = accept or _accept

    async def receive(request: Request) -> Response:
        started = time.perf_counter()
        status = await answer(request)
        metrics.HTTP_REQUESTS.labels(route="webhook", status=str(status)).inc()
        metrics.WEBHOOK_SECONDS.observe(time.perf_counter() - started)
        return Response(status_code=status)

    async def answer(request: Request) -> int:
        given = request.headers.get(SECRET_HEADER, "").encode("utf-8", "surrogateescape")
        if not secrets.compare_digest(given, secret):
            log.warning("webhook: refused a request without the right secret token")
            return 403
        try:
            payload = parse_update(await read_body(request))
        except Refused as exc:
            log.warning("webhook: refused a request: %s", exc)
            return exc.status
        kind = metrics.update_kind(payload)
        pipeline = getattr(application, "bot_data", {}).get("pipeline")
        outage = getattr(pipeline, "outage", None)  # None until the pipeline runs
        try:
            new = await store(application, payload)
        except Exception as exc:
            if outage is None or not outage.seen(exc, "the webhook"):  # else logged once
                log.exception("webhook: the update was not stored; Telegram will send it "
                              "again", extra={"update_id": payload["update_id"]})
            return 500
        if outage is not None:
            outage.back()
        if not new:
            metrics.duplicate(kind)
        return 200

    @asynccontextmanager
    async def lifespan(_: Starlette) -> AsyncIterator[None]:
        async with running(application, poll=False):  # the pipeline, without polling
            yield

    return Starlette(
        routes=[Route(tg.webhook_path, receive, methods=["POST"]),
                *admin.routes(lambda: admin.ledger_of(application), tg.ready_max_outbox),
                *webapp_server.mount(application, settings)],  # the Mini App, if enabled
        lifespan=lifespan)


def worker_app() -> Starlette:
    """Uvicorn's factory in each worker process: settings, logs, and a bot of its own."""
    settings = load_settings()
    logs.setup(settings.logging.level, settings.logging.format)
    return create_app(settings, build_application(settings, shared=True))
