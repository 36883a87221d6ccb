"""Polling that loses nothing: an update is confirmed to Telegram only once it is durable.

``getUpdates`` confirms every update below the ``offset`` it is given. This poller asks
for updates, makes them durable in the inbox (one transaction per batch), and only then
asks again with the next offset; a crash in between means Telegram sends them again, and
the inbox refuses the ones it already has. (python-telegram-bot's own ``Updater``
confirms updates as soon as it has fetched them, before any handler ran, so it is not
used.)
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from telegram import Update
from telegram.error import Conflict, InvalidToken, NetworkError, RetryAfter, TelegramError

from bot.delivery.intake import ALLOWED_UPDATES
from bot.delivery.outage import Outage
from bot.delivery.sender import backoff, seconds
from bot.ops.application import AnyApp

log = logging.getLogger(__name__)


# Makes a batch of updates durable (JSON, and the same parsed); how many were new.
Store = Callable[[Sequence[dict[str, Any]], Sequence[Update]], Awaitable[int]]


class Poller:
    def __init__(self, app: AnyApp, store: Store, timeout: float = 10.0, limit: int = 100,
                 outage: Outage | None = None) -> None:
        """``store``: the pipeline's intake; the offset moves on only once it returned."""
        self.app = app
        self.store = store
        self.outage = outage or Outage()
        self.timeout = timeout
        self.limit = limit
        self.offset: int | None = None
        self.task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        await self.app.bot.delete_webhook(drop_pending_updates=False)
        self.task = asyncio.create_task(self._loop(), name="poller")

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            await asyncio.gather(self.task, return_exceptions=True)
            self.task = None
        if self.offset is not None:  # confirm what is durable, so it is not sent again
            with contextlib.suppress(TelegramError):
                await self.app.bot.get_updates(offset=self.offset, timeout=0, limit=1,
                                               allowed_updates=ALLOWED_UPDATES)

    async def fetch(self) -> tuple[list[dict[str, Any]], tuple[Update, ...]]:
        """The next updates, as JSON for the inbox and as parsed for the dispatcher."""
        updates = await self.app.bot.get_updates(
            offset=self.offset, timeout=int(self.timeout), limit=self.limit,
            allowed_updates=ALLOWED_UPDATES, read_timeout=self.timeout + 10)
        return [u.to_dict() for u in updates], updates

    async def _loop(self) -> None:
        failures = 0
        while True:
            try:
                payloads, parsed = await self.fetch()
                failures = 0
            except RetryAfter as exc:
                await asyncio.sleep(seconds(exc.retry_after))
                continue
            except (InvalidToken, Conflict) as exc:
                log.error("polling stopped: %s", exc)
                raise
            except (NetworkError, TelegramError) as exc:
                failures += 1
                log.warning("getUpdates failed (%s); retrying", exc)
                await asyncio.sleep(backoff(min(failures, 6)))
                continue
            if not payloads:
                continue
            while True:  # the offset moves on only once the batch is durable
                try:
                    await self.store(payloads, parsed)
                    self.outage.back()
                    break
                except Exception as exc:
                    failures += 1
                    if self.outage.seen(exc, "the inbox"):  # back within a second of it
                        await asyncio.sleep(min(1.0, backoff(failures)))
                        continue
                    log.exception("could not store %d updates; retrying", len(payloads))
                    await asyncio.sleep(backoff(min(failures, 6)))
            self.offset = max(int(p["update_id"]) for p in payloads) + 1
