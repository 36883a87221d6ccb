"""The operator's routes: ``GET /healthz``, ``GET /readyz`` and ``GET /metrics``.

Webhook mode serves them beside the webhook (``bot.webhook``); polling mode serves them on
``telegram.admin_listen`` when set, with a small Uvicorn server in the bot's own event loop
(:func:`attach`).

- ``/healthz``: 200 while the process answers at all.
- ``/readyz``: 200 when the database answers, its schema is at the newest migration and no
  more than ``telegram.ready_max_outbox`` answers wait in the outbox; 503 otherwise. The
  body says which check failed.
- ``/metrics``: Prometheus text, every worker's samples summed (``bot.ops.metrics``); the
  inbox and outbox backlog are read from the ledger on each scrape.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Callable
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from bot.ops import metrics
from bot.ops.application import AnyApp
from bot.ops.config import Settings, split_listen
from bot.ops.side_server import SideServer, around

log = logging.getLogger(__name__)
CHECK_TIMEOUT = 3.0  # seconds a readiness check or a backlog read may take

LedgerOf = Callable[[], Any]  # the open ledger, or None while starting


def ledger_of(application: AnyApp) -> Any:
    services = application.bot_data.get("services")
    return None if services is None else services.ledger


async def readiness(ledger: Any, max_outbox: int) -> tuple[bool, dict[str, Any]]:
    """Whether this process can do its work, and the figures behind the answer."""
    if ledger is None:
        return False, {"database": "not open yet"}
    try:
        async with asyncio.timeout(CHECK_TIMEOUT):
            if not await ledger.schema_at_head():
                return False, {"database": "ok", "schema": "behind"}
            inbox, outbox = await ledger.queues.backlog()
    except Exception as exc:  # any failure means "not ready", said why
        log.warning("readiness: database unreachable: %s", type(exc).__name__)
        return False, {"database": f"unreachable ({type(exc).__name__})"}
    metrics.refresh_backlog(inbox, outbox)
    return outbox <= max_outbox, {"database": "ok", "schema": "at head", "inbox": inbox,
                                  "outbox": outbox, "max_outbox": max_outbox}


def routes(ledger: LedgerOf, max_outbox: int) -> list[Route]:
    async def healthz(_: Request) -> Response:
        metrics.HTTP_REQUESTS.labels(route="healthz", status="200").inc()
        return JSONResponse({"status": "ok", "pid": os.getpid()})

    async def readyz(_: Request) -> Response:
        ok, checks = await readiness(ledger(), max_outbox)
        status = 200 if ok else 503
        metrics.HTTP_REQUESTS.labels(route="readyz", status=str(status)).inc()
        return JSONResponse({"status": "ready" if ok else "not ready", **checks},
                            status_code=status)

    async def scrape(_: Request) -> Response:
        current = ledger()
        if current is not None:
            try:
                async with asyncio.timeout(CHECK_TIMEOUT):
                    metrics.refresh_backlog(*await current.queues.backlog())
            except Exception as exc:  # the other metrics still count
                log.warning("metrics: backlog not read: %s", type(exc).__name__)
        metrics.HTTP_REQUESTS.labels(route="metrics", status="200").inc()
        return Response(metrics.exposition(), media_type=metrics.CONTENT_TYPE)

    return [Route("/healthz", healthz, methods=["GET"]),
            Route("/readyz", readyz, methods=["GET"]),
            Route("/metrics", scrape, methods=["GET"])]


class AdminServer(SideServer):
    """The admin routes on their own port, as a task of the running event loop."""

    def __init__(self, listen: str, ledger: LedgerOf, max_outbox: int) -> None:
        super().__init__(Starlette(routes=routes(ledger, max_outbox)), *split_listen(listen),
                         name="admin")


def attach(application: AnyApp, settings: Settings) -> None:
    """Polling mode: serve the admin routes on ``telegram.admin_listen`` while ``application``
    runs (started after its ``post_init``, stopped before its ``post_shutdown``)."""
    listen = settings.telegram.admin_listen
    if listen is None:
        return
    server = AdminServer(listen, lambda: ledger_of(application),
                         settings.telegram.ready_max_outbox)

    async def start(app: AnyApp) -> None:
        await server.start()
        log.info("health and metrics on http://%s", listen)

    async def stop(app: AnyApp) -> None:
        await server.stop()

    around(application, start, stop)
