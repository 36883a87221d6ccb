"""Serving the Mini App: beside the webhook in webhook mode (:func:`mount`), and in polling
mode on ``webapp.listen`` by a small Uvicorn server in the bot's own event loop
(:func:`attach`), started after the bot's ``post_init`` and stopped before its
``post_shutdown``, as the admin server is (:mod:`bot.ops.admin`)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
from collections.abc import Iterator

import uvicorn
from starlette.applications import Starlette
from starlette.routing import BaseRoute
from telegram.ext import Application

from bot.ops.config import Settings, split_listen
from bot.webapp.api import routes

log = logging.getLogger(__name__)


def mount(application: Application, settings: Settings  # type: ignore[type-arg]
          ) -> list[BaseRoute]:
    """The Mini App's routes for the webhook server, when the Mini App is enabled."""
    if settings.webapp.public_url is None:
        return []
    return routes(application, settings)


class _Server(uvicorn.Server):
    """Uvicorn inside an event loop it does not own: the bot handles the signals."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield


class WebAppServer:
    """``port`` 0: a free port, chosen when it starts (tests)."""

    def __init__(self, host: str, port: int, application: Application,  # type: ignore[type-arg]
                 settings: Settings) -> None:
        self.host, self.port = host, port
        app = Starlette(routes=routes(application, settings))
        self.server = _Server(uvicorn.Config(app, host=self.host, port=self.port,
                                             log_config=None, access_log=False,
                                             lifespan="off", server_header=False))
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        family = socket.AF_INET6 if ":" in self.host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            sock.bind((self.host, self.port))
        except OSError:
            sock.close()
            raise
        self.port = sock.getsockname()[1]  # port 0: the one the system chose
        self._task = asyncio.create_task(self.server.serve(sockets=[sock]))
        while not self.server.started:
            if self._task.done():
                self._task.result()
                raise RuntimeError("the Mini App server stopped while starting")
            await asyncio.sleep(0.02)

    async def stop(self) -> None:
        if self._task is not None:
            self.server.should_exit = True
            await self._task
            self._task = None


def attach(application: Application, settings: Settings) -> None:  # type: ignore[type-arg]
    """Polling mode: serve the Mini App on ``webapp.listen`` while ``application`` runs."""
    listen = settings.webapp.listen
    if listen is None or settings.webapp.public_url is None:
        return
    post_init, post_shutdown = application.post_init, application.post_shutdown
    holder: dict[str, WebAppServer] = {}

    async def start(app: Application) -> None:  # type: ignore[type-arg]
        if post_init is not None:
            await post_init(app)
        server = WebAppServer(*split_listen(listen), app, settings)
        await server.start()
        holder["server"] = server
        app.bot_data["webapp_server"] = server
        log.info("the Mini App on http://%s:%d%s", server.host, server.port,
                 settings.webapp.path)

    async def stop(app: Application) -> None:  # type: ignore[type-arg]
        server = holder.pop("server", None)
        if server is not None:
            await server.stop()
        if post_shutdown is not None:
            await post_shutdown(app)

    application.post_init = start
    application.post_shutdown = stop
