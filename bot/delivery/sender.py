"""The sender: delivers the outbox to Telegram, each chat in order, chats in parallel.

- A row is sent, retried or given up, and what happened is written back in batches.
- 429 waits the ``retry_after`` Telegram asks for (that chat only); 5xx, timeouts and
  network errors are retried with exponential backoff, up to ``max_attempts``; a refusal
  (400, 403) is final and logged.
- A chat's scoreboard is one row that later ones replace (``collapse``): only the newest
  is sent, at most once every ``board_interval`` seconds. The first one posts the board and
  pins it; later ones edit it; if it was deleted, a new one is posted.
- Telegram's rates (about 30 messages a second, 20 a minute in a group) are kept by the
  Bot's rate limiter, per chat, so a busy chat waits without holding up the others.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import logging
import random
import time
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC
from typing import Any

from telegram import Bot, InputFile, Message
from telegram.error import BadRequest, Forbidden, NetworkError, RetryAfter, TelegramError

from bot.ops import metrics
from storage.delivery import SEND_LEASE, Outgoing, Queued
from storage.ledger import Ledger, now

log = logging.getLogger(__name__)

METHODS = {"sendMessage": "send_message", "editMessageText": "edit_message_text",
           "editMessageReplyMarkup": "edit_message_reply_markup", "sendPhoto": "send_photo"}


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
    return min(30.0, 0.5 * 2 ** (attempt - 1)) * random.uniform(0.8, 1.2)


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
                 sweep_interval: float = 5.0) -> None:
        """``worker``: several workers share the outbox (webhook mode); each sends what
        it wrote, and now and then takes up answers whose worker died (its lease ran
        out)."""
        self.bot = bot
        self.worker = worker
        self.sweep_interval = sweep_interval
        self._sweeper: asyncio.Task[None] | None = None
        self.ledger = ledger
        self.board_interval = board_interval
        self.max_attempts = max_attempts
        self.slots = asyncio.Semaphore(max_in_flight)
        self.streams: dict[int, ChatStream] = {}
        # session id -> its board's message id and the text it shows (the newest few)
        self.boards: dict[int, tuple[int, str | None]] = {}
        # chat id -> time.monotonic() before which its board is not edited again
        self.board_due: dict[int, float] = {}
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
            if row.collapse is not None:
                if stream.board is not None:  # an older board that was never shown
                    self._settle(dropped=stream.board.id)
                stream.board = row
            else:
                stream.fifo.append(row)
            stream.wake.set()
            self._idle.clear()
            if stream.task is None:
                stream.task = asyncio.create_task(self._run(row.chat_id),
                                                  name=f"sender:{row.chat_id}")

    async def start(self) -> None:
        self._writer = asyncio.create_task(self._write_back(), name="sender:write-back")
        if self.worker is not None:
            self._sweeper = asyncio.create_task(self._sweep(), name="sender:sweep")

    async def _sweep(self) -> None:
        """Take up answers that a dead worker wrote and never sent."""
        while True:
            await asyncio.sleep(self.sweep_interval)
            try:
                assert self.worker is not None
                rows = await self.ledger.claim_messages(self.worker, SEND_LEASE)
            except Exception:
                log.exception("could not look for answers left unsent; will retry")
                continue
            known = {r.id for st in self.streams.values()
                     for r in [*st.fifo, *([st.board] if st.board else [])]}
            self.enqueue([r for r in rows if r.id not in known])

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
        if self._writer is not None:
            self._writer.cancel()
            await asyncio.gather(self._writer, return_exceptions=True)
        await self._flush()

    async def idle(self) -> None:
        """Until every queued row was sent (or given up) and written back."""
        while True:
            await self._idle.wait()
            if self._dirty.is_set() or self._sent or self._dropped or self._failed:
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
                    await self._deliver(row)
                    stream.fifo.popleft()
                    continue
                if stream.board is None:
                    break
                wait = self.board_due.get(chat_id, 0.0) - time.monotonic()
                if wait > 0 and not self._closing and not stream.board.params.get("now"):
                    stream.waiting = True
                    self._check_idle()
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(stream.wake.wait(), wait)
                    stream.waiting = False
                    continue
                row, stream.board = stream.board, None
                await self._deliver(row)
                self.board_due[chat_id] = time.monotonic() + self.board_interval
        finally:
            stream.task = None
            stream.waiting = False
            if not stream.fifo and stream.board is None:
                self.streams.pop(chat_id, None)
                if self.board_due.get(chat_id, 0.0) <= time.monotonic():
                    self.board_due.pop(chat_id, None)
            self._check_idle()

    def _check_idle(self) -> None:
        """Idle: nothing is being sent, nor due (a scoreboard edit may wait its turn)."""
        if all(s.task is None or s.waiting for s in self.streams.values()):
            self._idle.set()

    async def _deliver(self, row: Queued) -> None:
        attempt = row.attempts
        while True:
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
                log.info("chat %s: Telegram asks to wait %ss", row.chat_id, wait)
                await asyncio.sleep(wait)
            except BadRequest as exc:
                if "not modified" in str(exc).lower():
                    self._settle(sent=row.id)
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
            except Exception:  # the database, or a bug: never let one row stop the chat
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
        session_id, text = int(params["session_id"]), params["text"]
        message_id, shown = self.boards.get(session_id, (None, None))
        if message_id is None:
            message_id = await self.ledger.board_message(row.chat_id, session_id)
        if message_id is not None and text == shown and self.worker is None:
            return  # it shows that already (with several workers, another may have edited)
        markup = _raw({"reply_markup": params.get("reply_markup")})
        if message_id is not None:
            try:
                await self.bot.edit_message_text(text, row.chat_id, message_id,
                                                 parse_mode="HTML", api_kwargs=markup)
                self._shown(session_id, message_id, text)
                return
            except BadRequest as exc:
                if "not modified" in str(exc).lower():
                    self._shown(session_id, message_id, text)
                    return
                if "not found" not in str(exc).lower():
                    raise
                log.info("scoreboard %s in chat %s is gone; posting a new one", message_id,
                         row.chat_id)
        msg: Message = await deliver_now(self.bot, row)
        await self.ledger.set_board_message(row.chat_id, session_id, msg.message_id)
        self._shown(session_id, msg.message_id, text)
        try:  # the bot may not pin here; the board works all the same
            await self.bot.pin_chat_message(row.chat_id, msg.message_id,
                                            disable_notification=True)
        except TelegramError as exc:
            log.info("cannot pin the scoreboard in chat %s: %s", row.chat_id, exc)

    def _shown(self, session_id: int, message_id: int, text: str) -> None:
        self.boards.pop(session_id, None)
        self.boards[session_id] = (message_id, text)
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
            # Unless idle() is waiting for it (tests, console mode).
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._hurry.wait(), 0.2)
            self._hurry.clear()
            try:
                await self._flush()
            except Exception:  # the database may be briefly unavailable: try again
                log.exception("could not record what was sent; will retry")
                await asyncio.sleep(1.0)

    async def _flush(self) -> None:
        self._dirty.clear()
        sent, dropped, failed, retried = self._sent, self._dropped, self._failed, self._retried
        if not (sent or dropped or failed or retried):
            return
        self._sent, self._dropped, self._failed, self._retried = [], [], [], []
        try:
            await self.ledger.settle_messages(sent, dropped, failed, retried)
        except Exception:
            self._sent[:0], self._dropped[:0] = sent, dropped
            self._failed[:0], self._retried[:0] = failed, retried
            self._dirty.set()
            raise
