"""The dispatcher: handles inbox rows, each chat's strictly in order, chats in parallel.

Each update runs through python-telegram-bot's handlers (``Application.process_update``)
inside a :class:`bot.delivery.send.Turn`, so that what the handlers say is queued and written with
"this update is handled" (by the handler's own write, or after it). Then the new outbox
rows go to the sender. A bounded number of updates are in flight at once; a slow chat only
holds up itself.

- One process owning the pipeline (polling) keeps each chat's rows in a queue in memory;
  at start it takes up what the inbox still holds.
- Several worker processes (webhook) share the inbox: a worker leases a chat's oldest
  pending row (``claim_chat``), so a chat's rows are handled one at a time, in order,
  whichever worker received them; a periodic scan picks up rows whose worker died.

A handler that fails on something passing leaves its update pending and is tried again:

- the database away (:func:`storage.errors.database_away`: a dropped, refused or reset
  connection, a restart, a serialization failure, "database is locked"): again and again,
  a second or so apart, for up to ``database_retry`` seconds (hours), so that answers
  resume within about a second of its return; the outage is logged once
  (:mod:`bot.delivery.outage`), not per update;
- Telegram's side (a timeout, a 5xx): after a growing backoff, up to ``max_attempts``.

Only then is the chat told that nothing was recorded (an ERROR in the log), which is
true: the update's write, had it happened, would have marked it handled.

With several workers each run of a chat's dispatcher claims its rows with a token of its
own (``<worker>:<n>``); "handled" is written only while that claim holds, so a worker
whose lease another took over (it was paused past it) writes nothing. The sender's
heartbeat (:meth:`bot.delivery.sender.Sender.heartbeat`) renews the claims in hand.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
import uuid
from collections import deque
from collections.abc import Sequence

from telegram import Update
from telegram.error import BadRequest, NetworkError, RetryAfter

from bot.delivery import send
from bot.delivery.intake import kind_of
from bot.delivery.outage import Outage
from bot.delivery.sender import Sender, backoff
from bot.ops import metrics
from bot.ops.application import AnyApp
from bot.text.help_text import NOTHING_RECORDED
from bot.text.i18n import normalise_language, t
from storage.delivery import (
    DEFAULT_LEASE,
    AlreadyHandled,
    Incoming,
    Outgoing,
    Pending,
)
from storage.errors import database_away
from storage.ledger import Ledger, Rollback

log = logging.getLogger(__name__)



def transient(exc: BaseException) -> bool:
    """Worth trying the update again: Telegram or the database was briefly away."""
    if isinstance(exc, BadRequest):  # a refusal (python-telegram-bot counts it a NetworkError)
        return False
    return database_away(exc) or isinstance(exc, NetworkError | RetryAfter | OSError |
                                            TimeoutError)


class Dispatcher:
    def __init__(self, app: AnyApp, ledger: Ledger, sender: Sender, *,
                 max_in_flight: int = 64, max_attempts: int = 5, shared: bool = False,
                 lease: float = DEFAULT_LEASE, scan_interval: float = 1.0,
                 default_language: str = "zh-Hans", database_retry: float = 24 * 3600.0,
                 outage: Outage | None = None, at_once: bool = True) -> None:
        self.app = app
        self.ledger = ledger
        self.sender = sender
        self.slots = asyncio.Semaphore(max_in_flight)
        self.max_attempts = max_attempts
        self.shared = shared
        self.lease = lease
        self.scan_interval = scan_interval
        self.default_language = default_language
        self.database_retry = database_retry
        self.outage = outage or Outage()
        self.at_once = at_once  # several workers: an uncontended update in its request
        self.worker = uuid.uuid4().hex[:16] if shared else None
        self.claims: dict[int, str] = {}  # chat -> its run's claim token (several workers)
        self._runs = 0
        self.away: dict[int, float] = {}  # inbox id -> when the database first failed it
        self.queues: dict[int, deque[Pending]] = {}
        self.parsed: dict[int, Update] = {}  # inbox id -> the update already parsed
        self.tasks: dict[int, asyncio.Task[None]] = {}
        self._idle = asyncio.Event()
        self._idle.set()
        self._scanner: asyncio.Task[None] | None = None
        self._stopping = False

    # -- intake ------------------------------------------------------------------------

    def submit(self, rows: Sequence[Pending], parsed: dict[int, Update] | None = None
               ) -> None:
        """New inbox rows (committed) to handle; ``parsed``: those already parsed. With
        several workers, a row whose chat a lease held when it was received is left to
        that lease's holder, which takes the chat's rows in turn."""
        if parsed and not self.shared:
            self.parsed.update(parsed)
        for row in rows:
            if not self.shared:
                self.queues.setdefault(row.chat_id, deque()).append(row)
            elif row.held:
                continue
            self._start(row.chat_id)

    async def inline(self, item: Incoming) -> bool | None:
        """Several workers: take an update in, and if its chat has nothing else pending,
        handle it at once, in one transaction: its receipt, whatever its handlers read
        and write, its answers and "handled" commit together (its answers then go to the
        sender). If the chat has older updates pending, only the receipt commits and the
        update is handled in turn, as :meth:`submit` says. True: new; False: a key seen
        before. None when it was not taken in (a run of this worker holds its chat), or
        its handling failed: then the transaction is rolled back, nothing of it stays,
        and the caller receives the update the usual way (claims and retries)."""
        # PostgreSQL only: on SQLite the transaction would hold the one write lock while
        # the handlers run (and wait on Telegram).
        if not self.shared or not self.at_once or self._stopping or not item.chat_id \
                or item.chat_id in self.tasks or self.ledger.dialect != "postgresql":
            return None
        started = time.monotonic()
        self._runs += 1
        claim = f"{self.worker}:{self._runs:x}"
        turn: send.Turn | None = None
        try:
            async with self.ledger.shared_transaction() as shared:
                row, first = await self.ledger.inbox.receive_first(item, claim, self.lease)
                if row is None:
                    return False
                if first:
                    turn = await self._handle_at_once(row, claim)
                    if turn is None:
                        raise Rollback
        except Exception as exc:
            log.debug("chat %s: update %s not handled at once (%r); the usual way",
                      item.chat_id, item.update_id, exc)
            return None
        if shared.failed is not None:  # rolled back
            return None
        if turn is None:  # the chat has older updates pending: received, handled in turn
            self.submit([row])
            return True
        for q in turn.queued:
            q.answers_since = row.received_at
        self.sender.enqueue(turn.queued)
        metrics.handled(kind_of(row.payload), time.monotonic() - started)
        return True

    async def _handle_at_once(self, row: Pending, claim: str) -> send.Turn | None:
        """Handle ``row`` inside the caller's shared transaction; None if anything failed
        (the caller rolls it all back and the update goes the usual way)."""
        turn = send.Turn(row.id, row.chat_id, self.worker, claim, self.lease)
        token = send.CURRENT.set(turn)
        try:
            update = Update.de_json(row.payload, self.app.bot)
            await self.app.process_update(update)
        except Exception as exc:
            turn.error = exc
        finally:
            send.CURRENT.reset(token)
        send.absorb(turn)
        if turn.error is not None:
            return None
        if not turn.finished:
            turn.queued.extend(await self.ledger.inbox.finish(
                row.id, turn.buffer, self.worker, claim=claim, lease=self.lease))
        elif turn.buffer:  # said after the update's write: queue it too
            turn.queued.extend(await self.ledger.inbox.finish(
                None, turn.buffer, self.worker, lease=self.lease))
        return turn

    def _start(self, chat_id: int) -> None:
        if self._stopping or chat_id in self.tasks:
            return
        self._idle.clear()
        self.tasks[chat_id] = asyncio.create_task(self._run_chat(chat_id),
                                                  name=f"chat:{chat_id}")

    async def start(self) -> None:
        if self.shared:
            log.info("worker %s (pid %d) shares the inbox and the outbox", self.worker,
                     os.getpid())
            self._scanner = asyncio.create_task(self._scan(), name="dispatch:scan")
        else:
            await self.ledger.queues.release_claims()
            self.submit(await self.ledger.inbox.pending_updates())

    async def stop(self, timeout: float = 10.0) -> None:
        """Finish what is in hand (within ``timeout``); the rest stays in the inbox."""
        self._stopping = True
        if self._scanner is not None:
            self._scanner.cancel()
            await asyncio.gather(self._scanner, return_exceptions=True)
        for queue in self.queues.values():  # not started: left for the next start
            while len(queue) > 1:
                queue.pop()
        tasks = list(self.tasks.values())
        if tasks:
            _done, late = await asyncio.wait(tasks, timeout=timeout)
            for task in late:
                task.cancel()
            await asyncio.gather(*late, return_exceptions=True)

    async def idle(self) -> None:
        await self._idle.wait()

    async def _scan(self) -> None:
        """Start the chats with updates no live lease holds. First, end the database
        sessions of workers stalled inside a transaction past a lease (their row locks
        would hold the takeover up); this loop only reads, so it is never held up."""
        while True:
            try:
                ended, waiting = await self._scan_once()
                if ended:
                    log.warning("ended %d database session(s) stalled inside a transaction "
                                "for more than %.0f s (a worker paused or frozen)", ended,
                                self.lease)
                for chat_id in waiting:
                    self._start(chat_id)
                self.outage.back()
            except Exception as exc:
                if not self.outage.seen(exc, "the inbox scan"):
                    log.exception("scanning the inbox failed; will retry")
            await asyncio.sleep(self.scan_interval)

    async def _scan_once(self) -> tuple[int, list[int]]:
        """The stalled sessions ended and the chats waiting; on PostgreSQL in one
        transaction (the scan runs every second, busy or not)."""
        if self.ledger.dialect != "postgresql":
            return (await self.ledger.queues.end_stalled_sessions(self.lease),
                    await self.ledger.inbox.chats_waiting())
        async with self.ledger.shared_transaction():
            ended = await self.ledger.queues.end_stalled_sessions(self.lease)
            waiting = await self.ledger.inbox.chats_waiting()
        return ended, waiting

    # -- one chat ----------------------------------------------------------------------

    async def _next(self, chat_id: int, claim: str | None) -> Pending | None:
        if self.shared:
            assert claim is not None
            while True:
                try:
                    return await self.ledger.inbox.claim_chat(chat_id, claim, self.lease)
                except Exception as exc:
                    if not self.outage.seen(exc, "a claim on the inbox"):
                        raise
                    if self._stopping:
                        return None  # left to the next start (or another worker)
                await asyncio.sleep(self._pause(0))
        queue = self.queues.get(chat_id)
        return queue[0] if queue else None

    def _pause(self, attempt: int, away: bool = True) -> float:
        """Before trying again: about a second while the database is away (so that work
        resumes within about that of its return), else a growing backoff."""
        return min(1.0, backoff(attempt + 1)) if away else backoff(attempt + 1)

    async def _run_chat(self, chat_id: int) -> None:
        claim = None
        if self.shared:
            self._runs += 1
            claim = self.claims[chat_id] = f"{self.worker}:{self._runs:x}"
        try:
            while not (self._stopping and self.shared):
                row = await self._next(chat_id, claim)
                if row is None:
                    break
                async with self.slots:
                    done = await self.handle(row, claim)
                if done:
                    if not self.shared:
                        self.queues[chat_id].popleft()
                    if self._stopping and not self.shared:
                        break
                    continue
                if row.id in self.away:  # not counted: the database, not the update
                    tries = int(time.monotonic() - self.away[row.id])
                    await asyncio.sleep(self._pause(tries))
                    continue
                await asyncio.sleep(self._pause(row.attempts, away=False))
                row.attempts += 1
        except Exception:
            log.exception("chat %s: the dispatcher stopped on an unexpected error", chat_id)
        finally:
            if self.claims.get(chat_id) == claim:
                self.claims.pop(chat_id, None)
            self.tasks.pop(chat_id, None)
            if not self.shared and not self.queues.get(chat_id):
                self.queues.pop(chat_id, None)
            elif not self.shared and not self._stopping:  # more came in meanwhile
                self._start(chat_id)
            if not self.tasks:
                self._idle.set()

    async def handle(self, row: Pending, claim: str | None = None) -> bool:
        """Handle one inbox row; False to try it again later. ``claim``: the token of this
        worker's claim on it (several workers)."""
        started = time.monotonic()
        turn = send.Turn(row.id, row.chat_id, self.worker, claim, self.lease)
        token = send.CURRENT.set(turn)
        update: Update | None = None
        try:
            update = self.parsed.pop(row.id, None) or Update.de_json(row.payload,
                                                                     self.app.bot)
            await self.app.process_update(update)
        except Exception as exc:  # process_update hands handler errors to on_error
            turn.error = exc
        finally:
            send.CURRENT.reset(token)
        send.absorb(turn)
        try:
            ok = await self._conclude(row, turn, update, claim)
        except AlreadyHandled:
            log.info("chat %s: update %s was handled meanwhile (its claim was taken over); "
                     "this worker's attempt is void", row.chat_id, row.update_id)
            self.away.pop(row.id, None)
            ok = True  # another worker (or an earlier life of this one) handled it
        except Exception as exc:
            if self.outage.seen(exc, f"chat {row.chat_id}"):
                self.away.setdefault(row.id, time.monotonic())
            else:
                log.exception("chat %s: could not conclude update %s", row.chat_id,
                              row.update_id)
            ok = False
        for q in turn.queued:  # for the update-to-answer latency
            q.answers_since = row.received_at
        self.sender.enqueue(turn.queued)
        if ok:
            metrics.handled(kind_of(row.payload), time.monotonic() - started)
        return ok

    async def _conclude(self, row: Pending, turn: send.Turn, update: Update | None,
                        claim: str | None) -> bool:
        error = turn.error
        if isinstance(error, AlreadyHandled):
            raise error
        if error is not None and turn.finished:  # after its write committed: a bug
            log.error("chat %s: update %s failed after its change was recorded",
                      row.chat_id, row.update_id, exc_info=error)
        elif error is not None:
            if self.outage.seen(error, f"chat {row.chat_id}"):
                first = self.away.setdefault(row.id, time.monotonic())
                if time.monotonic() - first < self.database_retry:
                    return False
                log.error("chat %s: giving up on update %s: the database was away for "
                          "%.0f s", row.chat_id, row.update_id, time.monotonic() - first,
                          exc_info=error)
            elif transient(error) and row.attempts + 1 < self.max_attempts:
                log.warning("chat %s: update %s failed (%s: %s); trying again",
                            row.chat_id, row.update_id, type(error).__name__, error)
                await self.ledger.inbox.attempted(row.id, claim)
                return False
            else:
                log.error("chat %s: update %s failed", row.chat_id, row.update_id,
                          exc_info=error)
            if row.chat_id:
                turn.buffer.append(await self._nothing_recorded(row, update))
        if not turn.finished:
            turn.queued.extend(await self.ledger.inbox.finish(row.id, turn.buffer, self.worker,
                                                              claim=claim, lease=self.lease))
        elif turn.buffer:  # said after the update's write: queue it too
            turn.queued.extend(await self.ledger.inbox.finish(None, turn.buffer, self.worker,
                                                              lease=self.lease))
        self.outage.back()
        if row.id in self.away:
            first = self.away.pop(row.id)
            log.info("chat %s: update %s handled after the database was away for %.1f s",
                     row.chat_id, row.update_id, time.monotonic() - first)
        return True

    async def _nothing_recorded(self, row: Pending, update: Update | None) -> Outgoing:
        user = update.effective_user if update is not None else None
        lang = normalise_language(user.language_code if user else None,
                                  self.default_language)
        try:
            lang = (await self.ledger.chats.chat(row.chat_id, lang)).language
        except Exception:
            log.warning("chat %s: cannot read its language", row.chat_id)
        return send.to_chat(row.chat_id, t(lang, NOTHING_RECORDED))
