"""The sender: delivers the outbox to Telegram, each chat in order, chats in parallel.

- A row is sent, retried or given up, and what happened is written back in batches.
- 429 waits the ``retry_after`` Telegram asks for (that chat only); 5xx, timeouts and
  network errors are retried with exponential backoff, up to ``max_attempts``; a refusal
  (400, 403) is final and logged.
- A chat's scoreboard is one row that later ones replace (``collapse``): only the newest
  is sent, at most once every ``board_interval`` seconds; a table's first goes at once.
  The first one posts the board and pins it; later ones edit it; if it was deleted, a new
  one is posted. A table's board is never replaced by the next table's: the last edit of
  one that ended goes first.
- Telegram's rates (about 30 messages a second, 20 a minute in a group) are kept by the
  Bot's rate limiter, per chat, so a busy chat waits without holding up the others.
- Several workers (``worker`` set): each sends the answers it holds by a lease (those it
  wrote, and those a sweep took over from a worker that stopped renewing). Its heartbeat
  renews every lease it holds, inbox claims included, every third of the lease; a row is
  sent only while a lease it renewed still has a margin to run (else it renews first,
  and drops the rows another worker took meanwhile), and an answer written ``behind``
  older ones of its chat held elsewhere waits until those are gone (so does one still
  held after a renewal found older ones of its chat taken over: the sweep takes a chat's
  answers whose lease ran out up to the first one a live worker holds). So a worker paused
  past its lease sends nothing when it wakes, except a call already in flight; and a
  chat's answers leave in order.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import logging
import random
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC
from typing import Any

from telegram import Bot, InputFile, Message
from telegram.error import BadRequest, Forbidden, NetworkError, RetryAfter, TelegramError

from bot.delivery.outage import Outage
from bot.ops import metrics
from storage.delivery import DEFAULT_LEASE, Outgoing, Queued
from storage.ledger import Ledger, now

log = logging.getLogger(__name__)

METHODS = {"sendMessage": "send_message", "editMessageText": "edit_message_text",
           "editMessageReplyMarkup": "edit_message_reply_markup", "sendPhoto": "send_photo",
           "answerCallbackQuery": "answer_callback_query"}


def _raw(params: dict[str, Any]) -> dict[str, Any] | None:
    """The keyboard and the reply to, as stored (the Bot API's JSON): passed through
    python-telegram-bot's ``api_kwargs`` as they are, rather than parsed into objects only
    to be serialized again."""
    raw = {k: params[k] for k in ("reply_markup", "reply_parameters")
           if params.get(k) is not None}
    return raw or None


def _kwargs(bot: Bot, params: dict[str, Any]) -> dict[str, Any]:
    kw = {k: v for k, v in params.items() if k not in ("reply_markup", "reply_parameters")}
    kw["api_kwargs"] = _raw(params)
    if "photo" in kw:
        kw["photo"] = InputFile(base64.b64decode(kw["photo"]),
                                filename=kw.pop("filename", "picture.png"))
    return kw


async def deliver_now(bot: Bot, message: Outgoing) -> Any:
    """One Bot API call for ``message`` (a board row posts a new board)."""
    if message.method == "board":
        params = message.params
        return await bot.send_message(
            message.chat_id, params["text"], parse_mode="HTML",
            api_kwargs=_raw({"reply_markup": params.get("reply_markup")}))
    return await getattr(bot, METHODS[message.method])(**_kwargs(bot, message.params))


def seconds(wait: Any) -> float:
    """A ``retry_after`` (seconds, or a timedelta in newer python-telegram-bot)."""
    return float(wait.total_seconds() if hasattr(wait, "total_seconds") else wait)


def backoff(attempt: int) -> float:
    """Seconds before retry ``attempt`` (1, 2, ...): 0.5, 1, 2, ... up to 30, jittered."""
    return min(30.0, 0.5 * 2.0 ** (attempt - 1)) * random.uniform(0.8, 1.2)


@dataclass
class ChatStream:
    fifo: deque[Queued] = field(default_factory=deque)
    board: Queued | None = None
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    task: asyncio.Task[None] | None = None
    waiting: bool = False  # only a scoreboard edit is left, and it is not due yet


class Sender:
    def __init__(self, bot: Bot, ledger: Ledger, *, board_interval: float = 0.0,
                 max_attempts: int = 8, max_in_flight: int = 64, worker: str | None = None,
                 sweep_interval: float = 1.0, lease: float = DEFAULT_LEASE,
                 outage: Outage | None = None) -> None:
        """``worker``: several workers share the outbox (webhook mode); each sends what
        it holds, and now and then takes up answers whose worker stopped (its lease ran
        out)."""
        self.bot = bot
        self.worker = worker
        self.sweep_interval = sweep_interval
        self.lease = lease
        self.outage = outage or Outage()
        # The dispatcher's claim tokens in hand, renewed with the outbox's leases.
        self.inbox_claims: Callable[[], list[str]] = list
        self._sweeper: asyncio.Task[None] | None = None
        self._heart: asyncio.Task[None] | None = None
        self._renewing = asyncio.Lock()
        self._in_hand: set[int] = set()  # rows being delivered
        self._lost: set[int] = set()  # of those, taken over by another worker
        self._flushing: set[int] = set()  # rows settled, being written back
        self.ledger = ledger
        self.board_interval = board_interval
        self.max_attempts = max_attempts
        self.slots = asyncio.Semaphore(max_in_flight)
        self.streams: dict[int, ChatStream] = {}
        # night id -> its board's message id and the text it shows (the newest few)
        self.boards: dict[int, tuple[int, str | None]] = {}
        # chat id -> time.monotonic() before which its board is not edited again, and the
        # table (night id) that board showed: another table's first board goes at once
        self.board_due: dict[int, tuple[float, Any]] = {}
        self._sent: list[int] = []
        self._dropped: list[int] = []
        self._failed: list[tuple[int, str]] = []
        self._retried: list[int] = []
        self._dirty = asyncio.Event()
        self._hurry = asyncio.Event()  # someone waits in idle(): write back without delay
        self._writer: asyncio.Task[None] | None = None
        self._idle = asyncio.Event()
        self._idle.set()
        self._closing = False

    # -- intake -------------------------------------------------------------------------

    def enqueue(self, rows: Sequence[Queued]) -> None:
        for row in rows:
            stream = self.streams.setdefault(row.chat_id, ChatStream())
            old = stream.board
            if row.collapse is not None and old is not None and \
                    old.params.get("night_id") != row.params.get("night_id"):
                # Another table's board (the one that ended: its last edit drops its
                # buttons) is not replaced by this one's: it goes first, in order.
                earlier, stream.board = sorted((old, row), key=lambda r: r.id)
                self._in_order(stream, earlier)
            elif row.collapse is not None:
                if old is not None:
                    if old.id > row.id:  # taken up late: a newer one is here
                        self._settle(dropped=row.id)
                        continue
                    self._settle(dropped=old.id)  # older, never shown
                stream.board = row
            else:
                self._in_order(stream, row)
            stream.wake.set()
            self._idle.clear()
            if stream.task is None:
                stream.task = asyncio.create_task(self._run(row.chat_id),
                                                  name=f"sender:{row.chat_id}")

    @staticmethod
    def _in_order(stream: ChatStream, row: Queued) -> None:
        if stream.fifo and stream.fifo[-1].id > row.id:  # taken up late: in order
            stream.fifo.insert(next(i for i, r in enumerate(stream.fifo)
                                    if r.id > row.id), row)
        else:
            stream.fifo.append(row)

    async def start(self) -> None:
        self._writer = asyncio.create_task(self._write_back(), name="sender:write-back")
        if self.worker is not None:
            self._sweeper = asyncio.create_task(self._sweep(), name="sender:sweep")
            self._heart = asyncio.create_task(self.heartbeat(), name="sender:heartbeat")

    def _known(self) -> set[int]:
        """Rows this sender has in hand, queued or settled and not yet written back."""
        return ({r.id for st in self.streams.values()
                 for r in [*st.fifo, *([st.board] if st.board else [])]}
                | self._in_hand | self._flushing | set(self._sent) | set(self._dropped)
                | {f[0] for f in self._failed})

    async def _sweep(self) -> None:
        """Take up answers that a worker wrote and stopped holding (dead, or paused past
        its lease): a chat's in order, up to the first one a live worker holds."""
        while True:
            await asyncio.sleep(self.sweep_interval)
            try:
                assert self.worker is not None
                rows = await self.ledger.outbox.claim_messages(self.worker, self.lease)
                self.outage.back()
            except Exception as exc:
                if not self.outage.seen(exc, "the outbox sweep"):
                    log.exception("could not look for answers left unsent; will retry")
                continue
            known = self._known()
            self.enqueue([r for r in rows if r.id not in known])

    async def heartbeat(self) -> None:
        """Renew the leases in hand every third of a lease."""
        while True:
            await asyncio.sleep(self.lease / 3)
            try:
                await self.renew()
                self.outage.back()
            except Exception as exc:
                if not self.outage.seen(exc, "renewing leases"):
                    log.warning("could not renew this worker's leases: %r", exc)

    async def renew(self) -> None:
        """Renew every lease this worker holds; forget the rows another worker took
        over, and take up rows held by this one that it did not know of."""
        assert self.worker is not None
        async with self._renewing:
            before = self._known()  # rows queued later were written after the renewal
            _ids, rows = await self.ledger.queues.renew(self.worker, self.lease,
                                                          self.inbox_claims())
            held = {r.id: r for r in rows}
            self._lost = {i for i in self._lost if i in self._in_hand}

            def lost(r: Queued) -> bool:
                if r.id in held:
                    r.held_until = held[r.id].held_until
                    return False
                if r.id not in before:
                    return False
                log.info("chat %s: outbox row %s was taken over by another worker",
                         r.chat_id, r.id)
                if r.id in self._in_hand:  # waiting to try again: it stops
                    self._lost.add(r.id)
                    return False
                return True

            for stream in list(self.streams.values()):
                kept = deque(r for r in stream.fifo if not lost(r))
                if len(kept) < len(stream.fifo):  # older ones went elsewhere: wait for them
                    for r in kept:
                        r.behind = True
                stream.fifo = kept
                if stream.board is not None and lost(stream.board):
                    stream.board = None
                stream.wake.set()
            known = self._known()
            self.enqueue([r for r in rows if r.id not in known])

    def _lease_ends(self, row: Queued) -> bool:
        """Whether ``row``'s lease, as last renewed, is within its margin of ending."""
        if row.held_until is None:
            return True
        until = row.held_until
        if until.tzinfo is None:  # SQLite keeps times without their zone
            until = until.replace(tzinfo=UTC)
        margin = min(self.lease / 4, 5.0)
        return (until - now()).total_seconds() < margin

    async def _may_send(self, stream: ChatStream, row: Queued) -> bool:
        """Several workers: ``row`` is still this worker's, within a lease, and nothing
        older of its chat waits elsewhere. False: look at the stream again."""
        assert self.worker is not None
        try:
            while True:
                if not (row is stream.board or (stream.fifo and stream.fifo[0] is row)):
                    return False  # taken over, or older rows came first
                if self._lease_ends(row):
                    await self.renew()
                    continue
                if row.behind and row.collapse is None:
                    # The worker holding the older answers marks them sent a moment after
                    # it sends them (it gathers its marks for up to 0.2 s): ask after that
                    # moment, not at once (that question nearly always found them).
                    stream.wake.clear()
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(stream.wake.wait(), 0.2)
                    if await self.ledger.outbox.ahead_of(row, self.worker):
                        continue
                    row.behind = False
                    continue  # the question awaited: older rows may have come meanwhile
                return True
        except Exception as exc:
            if not self.outage.seen(exc, f"the outbox of chat {row.chat_id}"):
                log.warning("chat %s: cannot confirm outbox row %s: %r", row.chat_id,
                            row.id, exc)
            await asyncio.sleep(min(1.0, self.lease / 4))
            return False

    async def stop(self, timeout: float = 5.0) -> None:
        """Send what is due (boards at once) within ``timeout``, then write back."""
        self._closing = True
        self.board_due.clear()
        for stream in self.streams.values():
            stream.wake.set()
        tasks = [s.task for s in self.streams.values() if s.task is not None]
        if tasks:
            _done, late = await asyncio.wait(tasks, timeout=timeout)
            for task in late:
                task.cancel()
            await asyncio.gather(*late, return_exceptions=True)
        for helper in (self._writer, self._sweeper, self._heart):
            if helper is not None:
                helper.cancel()
                await asyncio.gather(helper, return_exceptions=True)
        await self._flush()
        if self.worker is not None:  # what is left goes to another worker at once
            try:
                await self.ledger.queues.release(self.worker, self.inbox_claims())
            except Exception as exc:
                log.info("could not give up this worker's leases (they run out): %r", exc)

    async def idle(self) -> None:
        """Until every queued row was sent (or given up) and written back."""
        while True:
            await self._idle.wait()
            if (self._dirty.is_set() or self._sent or self._dropped or self._failed
                    or self._flushing):
                self._hurry.set()
                await asyncio.sleep(0.002)
                continue
            if self._idle.is_set():
                return

    def backlog(self) -> int:
        """Rows queued and due (a scoreboard edit waiting its turn is not counted)."""
        return sum(len(s.fifo) + (s.board is not None and not s.waiting)
                   for s in self.streams.values())

    # -- one chat ---------------------------------------------------------------------

    async def _run(self, chat_id: int) -> None:
        stream = self.streams[chat_id]
        try:
            while True:
                stream.wake.clear()
                if stream.fifo:
                    row = stream.fifo[0]
                    if self.worker is not None and not await self._may_send(stream, row):
                        continue
                    await self._deliver(row)
                    if row in stream.fifo:
                        stream.fifo.remove(row)
                    continue
                if stream.board is None:
                    break
                due, shown = self.board_due.get(chat_id, (0.0, None))
                wait = due - time.monotonic()
                if wait > 0 and not self._closing and not stream.board.params.get("now") \
                        and stream.board.params.get("night_id") == shown:
                    stream.waiting = True
                    self._check_idle()
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(stream.wake.wait(), wait)
                    stream.waiting = False
                    continue
                row = stream.board
                if self.worker is not None and not await self._may_send(stream, row):
                    continue
                stream.board = None
                await self._deliver(row)
                self.board_due[chat_id] = (time.monotonic() + self.board_interval,
                                           row.params.get("night_id"))
        finally:
            stream.task = None
            stream.waiting = False
            if not stream.fifo and stream.board is None:
                self.streams.pop(chat_id, None)
                if self.board_due.get(chat_id, (0.0, None))[0] <= time.monotonic():
                    self.board_due.pop(chat_id, None)
            self._check_idle()

    def _check_idle(self) -> None:
        """Idle: nothing is being sent, nor due (a scoreboard edit may wait its turn)."""
        if all(s.task is None or s.waiting for s in self.streams.values()):
            self._idle.set()

    async def _deliver(self, row: Queued) -> None:
        self._in_hand.add(row.id)
        try:
            await self._attempts(row)
        finally:
            self._in_hand.discard(row.id)

    async def _attempts(self, row: Queued) -> None:
        attempt = row.attempts
        first = True
        while True:
            if not first and self.worker is not None and self._lease_ends(row):
                try:  # after a wait (a 429, a backoff): still this worker's?
                    await self.renew()
                except Exception as exc:
                    if not self.outage.seen(exc, "renewing leases"):
                        log.warning("could not renew this worker's leases: %r", exc)
                    await asyncio.sleep(1.0)
                    continue
                if row.id in self._lost:
                    self._lost.discard(row.id)
                    return  # taken over meanwhile: the other worker sends it
            first = False
            try:
                async with self.slots:
                    if row.method == "board":
                        await self._board(row)
                    else:
                        await deliver_now(self.bot, row)
                self._settle(sent=row.id)
                if row.answers_since is not None and row.method != "board":
                    since = row.answers_since
                    if since.tzinfo is None:  # SQLite keeps times without their zone
                        since = since.replace(tzinfo=UTC)
                    metrics.answered((now() - since).total_seconds())
                    row.answers_since = None  # the update's first answer only
                return
            except RetryAfter as exc:
                metrics.telegram_error("429")
                wait = seconds(exc.retry_after)
                if row.method == "answerCallbackQuery":
                    # Late, a button's answer is worth nothing (its spinner stops by
                    # itself), and the chat's other answers would wait behind it.
                    log.info("chat %s: Telegram asks to wait %ss; a button press goes "
                             "unanswered", row.chat_id, wait)
                    self._settle(dropped=row.id)
                    return
                log.info("chat %s: Telegram asks to wait %ss", row.chat_id, wait)
                await asyncio.sleep(wait)
            except BadRequest as exc:
                if "not modified" in str(exc).lower():
                    self._settle(sent=row.id)
                    return
                if row.method == "answerCallbackQuery":  # too late, or answered: no matter
                    log.info("chat %s: could not answer a button press: %s", row.chat_id, exc)
                    self._settle(dropped=row.id)
                    return
                metrics.telegram_error("400")
                log.warning("chat %s: Telegram refused %s: %s", row.chat_id, row.method, exc)
                self._settle(failed=(row.id, str(exc)))
                return
            except Forbidden as exc:  # the bot was removed from the chat
                metrics.telegram_error("403")
                log.info("chat %s: %s", row.chat_id, exc)
                self._settle(failed=(row.id, str(exc)))
                return
            except (NetworkError, OSError) as exc:  # timeouts, 5xx, connection errors
                metrics.telegram_error(type(exc).__name__)
                attempt += 1
                if attempt >= self.max_attempts:
                    log.error("chat %s: giving up on outbox row %s after %d attempts: %s",
                              row.chat_id, row.id, attempt, exc)
                    self._settle(failed=(row.id, str(exc)))
                    return
                metrics.RETRIES.inc()
                self._retried.append(row.id)
                await asyncio.sleep(backoff(attempt))
            except TelegramError as exc:
                metrics.telegram_error("other")
                log.warning("chat %s: %s failed: %s", row.chat_id, row.method, exc)
                self._settle(failed=(row.id, str(exc)))
                return
            except Exception as exc:  # the database, or a bug: never let one row stop the chat
                if self.outage.seen(exc, f"the outbox of chat {row.chat_id}"):
                    await asyncio.sleep(1.0)  # not counted: tried until it is back
                    continue
                attempt += 1
                log.exception("chat %s: outbox row %s failed (attempt %d)", row.chat_id,
                              row.id, attempt)
                if attempt >= self.max_attempts:
                    self._settle(failed=(row.id, "gave up after an unexpected error"))
                    return
                await asyncio.sleep(backoff(attempt))

    async def _board(self, row: Queued) -> None:
        """Show the table on its scoreboard: edit it, or post and pin it."""
        params = row.params
        night_id, text = int(params["night_id"]), params["text"]
        message_id, shown = self.boards.get(night_id, (None, None))
        if message_id is None:  # as the report's transaction read it, else asked now
            message_id = params.get("message_id")
        if message_id is None:
            message_id = await self.ledger.open_nights.board_message(row.chat_id, night_id)
        if message_id is not None and text == shown and self.worker is None:
            return  # it shows that already (with several workers, another may have edited)
        markup = _raw({"reply_markup": params.get("reply_markup")})
        if message_id is not None:
            try:
                await self.bot.edit_message_text(text, row.chat_id, message_id,
                                                 parse_mode="HTML", api_kwargs=markup)
                self._shown(night_id, message_id, text)
                return
            except BadRequest as exc:
                if "not modified" in str(exc).lower():
                    self._shown(night_id, message_id, text)
                    return
                if "not found" not in str(exc).lower():
                    raise
                log.info("scoreboard %s in chat %s is gone; posting a new one", message_id,
                         row.chat_id)
        msg: Message = await deliver_now(self.bot, row)
        await self.ledger.open_nights.set_board_message(row.chat_id, night_id, msg.message_id)
        self._shown(night_id, msg.message_id, text)
        try:  # the bot may not pin here; the board works all the same
            await self.bot.pin_chat_message(row.chat_id, msg.message_id,
                                            disable_notification=True)
        except TelegramError as exc:
            log.info("cannot pin the scoreboard in chat %s: %s", row.chat_id, exc)

    def _shown(self, night_id: int, message_id: int, text: str) -> None:
        self.boards.pop(night_id, None)
        self.boards[night_id] = (message_id, text)
        while len(self.boards) > 10_000:  # remember the newest boards only
            del self.boards[next(iter(self.boards))]

    # -- writing back ------------------------------------------------------------------

    def _settle(self, *, sent: int | None = None, dropped: int | None = None,
                failed: tuple[int, str] | None = None) -> None:
        if sent is not None:
            self._sent.append(sent)
        if dropped is not None:
            self._dropped.append(dropped)
        if failed is not None:
            self._failed.append(failed)
        self._dirty.set()

    async def _write_back(self) -> None:
        while True:
            await self._dirty.wait()
            # Gather what was sent into one transaction now and then: the writer is shared
            # with the reports. A crash in between sends those rows again (same words).
            # Unless idle() is waiting for it (tests, console mode). Not asyncio.wait_for:
            # on Python 3.11 it can swallow the cancel of stop() when the hurry comes at
            # the same moment, and this loop would then wait for ever.
            hurry = asyncio.ensure_future(self._hurry.wait())
            try:
                await asyncio.wait({hurry}, timeout=0.2)
            finally:
                hurry.cancel()
            self._hurry.clear()
            try:
                await self._flush()
                self.outage.back()
            except Exception as exc:  # the database may be briefly unavailable: try again
                if not self.outage.seen(exc, "recording what was sent"):
                    log.exception("could not record what was sent; will retry")
                await asyncio.sleep(1.0)

    async def _flush(self) -> None:
        self._dirty.clear()
        sent, dropped, failed, retried = self._sent, self._dropped, self._failed, self._retried
        if not (sent or dropped or failed or retried):
            return
        self._sent, self._dropped, self._failed, self._retried = [], [], [], []
        self._flushing = {*sent, *dropped, *(f[0] for f in failed)}
        try:
            await self.ledger.outbox.settle_messages(sent, dropped, failed, retried)
        except BaseException:  # failed, or cancelled (stop): written by the next flush
            self._sent[:0], self._dropped[:0] = sent, dropped
            self._failed[:0], self._retried[:0] = failed, retried
            self._dirty.set()
            raise
        finally:
            self._flushing = set()
