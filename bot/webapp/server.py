"""Serving the Mini App: beside the webhook in webhook mode (:func:`mount`), and in polling
mode on ``webapp.listen`` by a small Uvicorn server in the bot's own event loop
(:func:`attach`), started after the bot's ``post_init`` and stopped before its
``post_shutdown``, as the admin server is (:mod:`bot.ops.admin`)."""

from __future__ import annotations

import logging

from starlette.applications import Starlette
from starlette.routing import BaseRoute

from bot.ops.application import AnyApp
from bot.ops.config import Settings, split_listen
from bot.ops.side_server import SideServer, around
from bot.webapp.api import routes

log = logging.getLogger(__name__)


def mount(application: AnyApp, settings: Settings
          ) -> list[BaseRoute]:
    """The Mini App's routes for the webhook server, when the Mini App is enabled."""
    if settings.webapp.public_url is None:
        return []
    return routes(application, settings)


class WebAppServer(SideServer):
    """``port`` 0: a free port, chosen when it starts (tests)."""

    def __init__(self, host: str, port: int, application: AnyApp,
                 settings: Settings) -> None:
        super().__init__(Starlette(routes=routes(application, settings)), host, port,
                         name="Mini App")


def attach(application: AnyApp, settings: Settings) -> None:
    """Polling mode: serve the Mini App on ``webapp.listen`` while ``application`` runs."""
    listen = settings.webapp.listen
    if listen is None or settings.webapp.public_url is None:
        return
    holder: dict[str, WebAppServer] = {}

    async def start(app: AnyApp) -> None:
        server = WebAppServer(*split_listen(listen), app, settings)
        await server.start()
        holder["server"] = server
        app.bot_data["webapp_server"] = server
        log.info("the Mini App on http://%s:%d%s", server.host, server.port,
                 settings.webapp.path)

    async def stop(app: AnyApp) -> None:
        server = holder.pop("server", None)
        if server is not None:
            await server.stop()

    around(application, start, stop)
