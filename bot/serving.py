"""``python -m bot run`` in webhook mode: the parent process and its workers.

The parent, once: refuses several workers on one SQLite file (use PostgreSQL), gives the
workers a fresh directory for their metrics (``PROMETHEUS_MULTIPROC_DIR``, before
anything imports prometheus-client), brings the schema to the newest migration (under a
PostgreSQL advisory lock, so that several parents starting at once migrate one after
another; the workers never migrate), sets the command menus, and calls ``setWebhook``
with the URL, the secret token, the update kinds the bot handles and
``max_connections``. Then Uvicorn binds ``telegram.listen`` and starts
``telegram.workers`` worker processes on that one socket (restarting any that dies); each
runs :func:`bot.webhook.worker_app`, a whole bot of its own. With one worker Uvicorn serves
in this process.
"""

from __future__ import annotations

import asyncio
import logging
import os
import shutil
import sys
import tempfile
from pathlib import Path

from bot.ops.config import Settings, split_listen

log = logging.getLogger(__name__)
MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"  # as bot.ops.metrics reads it (not imported here)
GRACEFUL_SECONDS = 20  # a worker's time to finish its requests and stop its sender


async def prepare(settings: Settings) -> None:
    """Migrate once, set the menus, then point Telegram at the webhook."""
    from telegram import Bot

    from bot.delivery.kinds import ALLOWED_UPDATES
    from bot.text.menus import set_menus
    from storage.ledger import Ledger

    await Ledger.migrate(settings.storage.url)
    tg = settings.telegram
    assert tg.token is not None and tg.secret_token is not None and tg.webhook_url
    async with Bot(tg.token.get_secret_value(), base_url=tg.base_url) as bot:
        await set_menus(bot)
        await bot.set_webhook(url=tg.webhook_url, secret_token=tg.secret_token.get_secret_value(),
                              allowed_updates=ALLOWED_UPDATES, max_connections=tg.max_connections)
    log.info("webhook set to %s (%d workers, up to %d connections)", tg.webhook_url,
             tg.workers, tg.max_connections)


class SeveralWorkersOnSqlite(Exception):
    """Webhook workers that would share one SQLite file."""


def check_workers(settings: Settings) -> None:
    """Several workers need PostgreSQL: on one SQLite file they would queue on its one
    write lock, each waiting up to the busy timeout, for less than one worker does."""
    workers = settings.telegram.workers
    if workers > 1 and settings.storage.url.startswith("sqlite"):
        raise SeveralWorkersOnSqlite(
            f"telegram.workers = {workers} needs PostgreSQL: several workers cannot share "
            "one SQLite file. Set storage.url (TALLY_STORAGE__URL) to "
            "postgresql+asyncpg://user@host/db, or run one worker (telegram.workers = 1).")


def run(settings: Settings, config_path: str | None = None) -> int:
    import uvicorn

    try:
        check_workers(settings)
    except SeveralWorkersOnSqlite as exc:
        print(f"configuration error: {exc}", file=sys.stderr)
        return 2
    directory = tempfile.mkdtemp(prefix="tally-metrics-")
    os.environ[MULTIPROC_ENV] = directory
    if config_path:  # the workers load the same file
        os.environ["TALLY_CONFIG"] = str(Path(config_path).resolve())
    try:
        asyncio.run(prepare(settings))
        host, port = split_listen(settings.telegram.listen)
        uvicorn.run("bot.webhook:worker_app", factory=True, host=host, port=port,
                    workers=settings.telegram.workers, lifespan="on", log_config=None,
                    access_log=False, server_header=False,
                    timeout_graceful_shutdown=GRACEFUL_SECONDS)
    finally:
        shutil.rmtree(directory, ignore_errors=True)
    return 0
