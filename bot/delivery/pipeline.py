"""The delivery pipeline, put together: intake (polling here; webhooks in webhook mode),
the dispatcher, the sender, and the pruning of old inbox and outbox rows and of
abandoned drafts.

Its promise: every update that reached the inbox is handled exactly once (its write and
"handled" commit together); every answer written is delivered at least once.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from datetime import timedelta
from typing import Any

from telegram import Update

from bot.delivery.dispatch import Dispatcher
from bot.delivery.intake import incoming, kind_of
from bot.delivery.outage import Outage
from bot.delivery.poller import Poller
from bot.delivery.sender import Sender
from bot.ops import metrics
from bot.ops.application import AnyApp
from bot.ops.config import DeliverySettings
from storage.delivery import DRAFT_PRUNE_BATCH, QUEUE_PRUNE_BATCH
from storage.ledger import Ledger, now

log = logging.getLogger(__name__)

QUEUE_BATCHES = 50  # a round forgets at most 100,000 keys: 166 a second over 10 minutes
DRAFT_BATCHES = 20  # batches of abandoned drafts deleted a round (each DRAFT_PRUNE_BATCH)


def pipeline_of(app: AnyApp) -> Pipeline:
    """The delivery pipeline that ``app``'s post_init put in its bot_data (bot.app)."""
    return app.bot_data["pipeline"]  # type: ignore[no-any-return]


class Pipeline:
    def __init__(self, app: AnyApp, ledger: Ledger, settings: DeliverySettings, *,
                 board_interval: float, default_language: str, shared: bool = False
                 ) -> None:
        self.app = app
        self.ledger = ledger
        self.settings = settings
        self.outage = Outage()  # the database being away, as every part sees it
        self.sender = Sender(app.bot, ledger, board_interval=board_interval,
                             max_attempts=settings.send_attempts,
                             max_in_flight=settings.max_in_flight,
                             lease=settings.lease_seconds, outage=self.outage,
                             # a stopped worker's answers are taken up within a second
                             # of its lease's end, as its updates are (the inbox scan)
                             sweep_interval=min(1.0, settings.lease_seconds / 2))
        self.dispatcher = Dispatcher(app, ledger, self.sender,
                                     max_in_flight=settings.max_in_flight,
                                     max_attempts=settings.handle_attempts, shared=shared,
                                     lease=settings.lease_seconds,
                                     database_retry=settings.database_retry_hours * 3600,
                                     default_language=default_language, outage=self.outage,
                                     at_once=settings.at_once)
        self.sender.worker = self.dispatcher.worker  # None unless workers share the outbox
        self.sender.inbox_claims = lambda: list(self.dispatcher.claims.values())
        self.poller: Poller | None = None
        self._pruner: asyncio.Task[None] | None = None

    async def start(self, poll: bool = False, poll_timeout: float = 10.0) -> None:
        """Take up what an earlier run left (answers first, then updates), then run."""
        await self.sender.start()
        if not self.dispatcher.shared:
            self.sender.enqueue(await self.ledger.outbox.pending_messages())
        await self.dispatcher.start()
        self._pruner = asyncio.create_task(self._prune(), name="pipeline:prune")
        if poll:
            self.poller = Poller(self.app, self.accept_many, timeout=poll_timeout,
                                 outage=self.outage)
            await self.poller.start()

    async def stop(self) -> None:
        if self.poller is not None:
            await self.poller.stop()
        if self._pruner is not None:
            self._pruner.cancel()
            await asyncio.gather(self._pruner, return_exceptions=True)
        await self.dispatcher.stop()
        await self.sender.stop()

    async def accept_many(self, payloads: Sequence[dict[str, Any]],
                          parsed: Sequence[Update] = ()) -> int:
        """Make ``payloads`` durable in one transaction and hand the new ones to this
        process's dispatcher; returns how many were new. Raises if they could not be
        stored (then Telegram must not be told they arrived). ``parsed``, when given, are
        the same updates as python-telegram-bot objects (the poller's), so they are not
        parsed again."""
        if not payloads:
            return 0
        items = [incoming(p) for p in payloads]
        for item in items:
            metrics.received(kind_of(item.payload))
        if len(items) == 1 and self.dispatcher.shared:  # a webhook's update
            done = await self.dispatcher.inline(items[0])
            if done is not None:
                if not done:
                    log.warning("update %s refused by the inbox: key %s was seen before",
                                items[0].update_id, items[0].key,
                                extra={"update_id": items[0].update_id,
                                       "chat_id": items[0].chat_id})
                return int(done)
        new = await self.ledger.inbox.receive(items, leases=self.dispatcher.shared)
        if len(new) < len(items):
            fresh = {row.key for row in new}
            for item in items:
                if item.key in fresh:
                    fresh.discard(item.key)  # a key twice in one batch: the second is refused
                else:
                    log.warning("update %s refused by the inbox: key %s was seen before",
                                item.update_id, item.key,
                                extra={"update_id": item.update_id, "chat_id": item.chat_id})
        objects = {i.key: u for i, u in zip(items, parsed, strict=False)}
        self.dispatcher.submit(new, {row.id: objects[row.key] for row in new
                                     if row.key in objects})
        return len(new)

    async def accept(self, payload: dict[str, Any]) -> bool:
        """One update (a webhook request): True if new, False if Telegram sent it before."""
        return await self.accept_many([payload]) == 1

    async def idle(self) -> None:
        """Until every update handed in is handled and every answer sent (for tests,
        console mode and benchmarks)."""
        while True:
            await self.dispatcher.idle()
            await self.sender.idle()
            await asyncio.sleep(0)
            if self.dispatcher._idle.is_set() and self.sender.backlog() == 0:
                return

    async def _prune(self) -> None:
        s = self.settings
        while True:
            try:
                gone = await self.prune_queues()
                if any(gone):
                    log.info("pruned %d handled updates and %d sent answers", *gone)
                drafts = await self.prune_drafts()
                if drafts:
                    log.info("pruned %d abandoned drafts", drafts)
            except Exception as exc:
                if not self.outage.seen(exc, "pruning"):
                    log.exception("pruning the inbox and outbox failed")
                await asyncio.sleep(60)  # sooner than the interval
                continue
            await asyncio.sleep(s.prune_interval_minutes * 60)

    async def prune_queues(self) -> tuple[int, int]:
        """Forget the inbox keys and the answers given up on past their retention, a
        batch a transaction, at most ``QUEUE_BATCHES`` batches a round (a backlog, say
        after an upgrade, goes over the next rounds); how many of each went."""
        s = self.settings
        handled = now() - timedelta(hours=s.inbox_retention_hours)
        sent = now() - timedelta(hours=s.outbox_retention_hours)
        inbox, outbox = await in_batches(
            lambda: self.ledger.queues.prune(handled, sent, batch=QUEUE_PRUNE_BATCH),
            QUEUE_BATCHES, QUEUE_PRUNE_BATCH)
        return inbox, outbox

    async def prune_drafts(self) -> int:
        """Delete the drafts untouched for ``draft_retention_hours`` (abandoned dialogs),
        a small batch a transaction, at most ``DRAFT_BATCHES`` batches a round (a
        backlog goes over the next rounds); how many went."""
        before = now() - timedelta(hours=self.settings.draft_retention_hours)

        async def batch() -> tuple[int]:
            return (await self.ledger.drafts.prune(before, batch=DRAFT_PRUNE_BATCH),)

        [gone] = await in_batches(batch, DRAFT_BATCHES, DRAFT_PRUNE_BATCH)
        return gone


async def in_batches(batch: Callable[[], Awaitable[tuple[int, ...]]], batches: int,
                     size: int) -> tuple[int, ...]:
    """Run ``batch`` (one short transaction deleting at most ``size`` rows of each kind)
    until a run deletes fewer than ``size`` of every kind, at most ``batches`` runs, the
    chats' own writes let in between; how many of each kind went."""
    gone: tuple[int, ...] = ()
    for _ in range(batches):
        counts = await batch()
        gone = tuple(map(sum, zip(gone, counts, strict=True))) if gone else counts
        if max(counts) < size:
            break
        await asyncio.sleep(0)
    return gone
