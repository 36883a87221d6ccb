"""A small web server beside a polling bot: Uvicorn serving a Starlette app as a task of
the bot's own event loop, started after the application's ``post_init`` and stopped
before its ``post_shutdown``. The admin routes (:mod:`bot.ops.admin`) and the Mini App
(:mod:`bot.webapp.server`) run on it in polling mode."""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import Awaitable, Callable, Iterator

import uvicorn
from starlette.applications import Starlette

from bot.ops.application import AnyApp


class _Server(uvicorn.Server):
    """Uvicorn inside an event loop it does not own: the bot handles the signals."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield


class SideServer:
    """``app`` on ``host:port`` (port 0: a free one, chosen when it starts)."""

    def __init__(self, app: Starlette, host: str, port: int, name: str) -> None:
        self.host, self.port, self.name = host, port, name
        self.server = _Server(uvicorn.Config(app, host=host, port=port, log_config=None,
                                             access_log=False, lifespan="off",
                                             server_header=False))
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Bind (an ``OSError`` says why not: Uvicorn itself would exit the process),
        then serve until :meth:`stop`."""
        family = socket.AF_INET6 if ":" in self.host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            # Small answers: without it, a response waits ~40 ms on the client's ACK.
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            sock.bind((self.host, self.port))
        except OSError:
            sock.close()
            raise
        self.port = sock.getsockname()[1]
        self._task = asyncio.create_task(self.server.serve(sockets=[sock]))
        while not self.server.started:
            if self._task.done():  # it could not start: say so
                self._task.result()
                raise RuntimeError(f"the {self.name} server stopped while starting")
            await asyncio.sleep(0.02)

    async def stop(self) -> None:
        if self._task is not None:
            self.server.should_exit = True
            await self._task
            self._task = None


AppHook = Callable[[AnyApp], Awaitable[None]]


def around(application: AnyApp, start: AppHook, stop: AppHook) -> None:
    """Run ``start`` after the application's ``post_init`` and ``stop`` before its
    ``post_shutdown``."""
    post_init, post_shutdown = application.post_init, application.post_shutdown

    async def started(app: AnyApp) -> None:
        if post_init is not None:
            await post_init(app)
        await start(app)

    async def stopping(app: AnyApp) -> None:
        await stop(app)
        if post_shutdown is not None:
            await post_shutdown(app)

    application.post_init = started
    application.post_shutdown = stopping
