"""The operator's routes: ``GET /healthz``, ``GET /readyz`` and ``GET /metrics``.

Webhook mode serves them beside the webhook (``bot.delivery.webhook``); polling mode serves them on
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
import contextlib
import logging
import os
import socket
from collections.abc import Callable, Iterator
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from telegram.ext import Application

from bot.ops import metrics
from bot.ops.config import Settings, split_listen
from storage.schema import schema_at_head

log = logging.getLogger(__name__)
CHECK_TIMEOUT = 3.0  # seconds a readiness check or a backlog read may take

LedgerOf = Callable[[], Any]  # the open ledger, or None while starting


def ledger_of(application: Application) -> Any:  # type: ignore[type-arg]
    services = application.bot_data.get("services")
    return None if services is None else services.ledger


async def readiness(ledger: Any, max_outbox: int) -> tuple[bool, dict[str, Any]]:
    """Whether this process can do its work, and the figures behind the answer."""
    if ledger is None:
        return False, {"database": "not open yet"}
    try:
        async with asyncio.timeout(CHECK_TIMEOUT):
            if not await schema_at_head(ledger.engine):
                return False, {"database": "ok", "schema": "behind"}
            inbox, outbox = await ledger.backlog()
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
                    metrics.refresh_backlog(*await current.backlog())
            except Exception as exc:  # the other metrics still count
                log.warning("metrics: backlog not read: %s", type(exc).__name__)
        metrics.HTTP_REQUESTS.labels(route="metrics", status="200").inc()
        return Response(metrics.exposition(), media_type=metrics.CONTENT_TYPE)

    return [Route("/healthz", healthz, methods=["GET"]),
            Route("/readyz", readyz, methods=["GET"]),
            Route("/metrics", scrape, methods=["GET"])]


class _Server(uvicorn.Server):
    """Uvicorn inside an event loop it does not own: the bot handles the signals."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield


class AdminServer:
    """The admin routes on their own port, as a task of the running event loop."""

    def __init__(self, listen: str, ledger: LedgerOf, max_outbox: int) -> None:
        self.host, self.port = split_listen(listen)
        app = Starlette(routes=routes(ledger, max_outbox))
        self.server = _Server(uvicorn.Config(app, host=self.host, port=self.port,
                                             log_config=None, access_log=False,
                                             lifespan="off"))
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Bind (an ``OSError`` says why not: Uvicorn itself would exit the process),
        then serve until :meth:`stop`."""
        family = socket.AF_INET6 if ":" in self.host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind((self.host, self.port))
        except OSError:
            sock.close()
            raise
        self._task = asyncio.create_task(self.server.serve(sockets=[sock]))
        while not self.server.started:
            if self._task.done():  # it could not bind: say so
                self._task.result()
                raise RuntimeError("the admin server stopped while starting")
            await asyncio.sleep(0.05)

    async def stop(self) -> None:
        if self._task is not None:
            self.server.should_exit = True
            await self._task
            self._task = None


def attach(application: Application, settings: Settings) -> None:  # type: ignore[type-arg]
    """Polling mode: serve the admin routes on ``telegram.admin_listen`` while ``application``
    runs (started after its ``post_init``, stopped before its ``post_shutdown``)."""
    listen = settings.telegram.admin_listen
    if listen is None:
        return
    server = AdminServer(listen, lambda: ledger_of(application),
                         settings.telegram.ready_max_outbox)
    post_init, post_shutdown = application.post_init, application.post_shutdown

    async def start(app: Application) -> None:  # type: ignore[type-arg]
        if post_init is not None:
            await post_init(app)
        await server.start()
        log.info("health and metrics on http://%s", listen)

    async def stop(app: Application) -> None:  # type: ignore[type-arg]
        await server.stop()
        if post_shutdown is not None:
            await post_shutdown(app)

    application.post_init = start
    application.post_shutdown = stop
