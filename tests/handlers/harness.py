"""The handler tier: the real handlers on a real ledger (SQLite, or PostgreSQL for the
tests that run on both), with no poller, no dispatcher and no delivery pipeline. An update
is built as Telegram would send it and handed to python-telegram-bot's ``process_update``
inside a :class:`bot.delivery.send.Turn`, as the dispatcher does; what the handlers said
(written to the outbox with their change, or left to be written as "handled") is then sent
in order, as the sender sends it, each call made in this process to a
:class:`bot.console.fake_api.FakeBotAPI` that records it (every message as it stands,
every button's answer) and refuses what Telegram refuses (``api.errors``).

The interface is the full stack's (:class:`tests.bot.harness.Table`: ``say``, ``press``,
``last_with_buttons``, ``ledger``, ``admin``, ``api``), so a transcript, and a test that
checks only what the bot says, plays on either tier. What only the full stack can show
stays there: polling and delivery, order across updates, retries, faults, webhook, console."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from telegram import Update
from telegram.error import BadRequest, TelegramError

from bot.app import build_application
from bot.console.fake_api import FakeBotAPI, FakeRequest, FakeUser, SentMessage
from bot.delivery import send
from bot.delivery.sender import deliver_now
from bot.ops.config import Settings, StorageSettings, TelegramSettings
from storage.queues.messages import Outgoing
from tests.databases import inline, postgres_database, sqlite_copy

GROUP = -100500


class HandlerTable:
    def __init__(self, api: FakeBotAPI, app: Any, lang: str = "en") -> None:
        self.api = api
        self.app = app
        self.lang = lang
        self.users: dict[str, FakeUser] = {}
        self.chat_id = GROUP
        self.boards: dict[int, tuple[int, str]] = {}  # night -> its board and its text
        api.chat(GROUP)

    def user(self, name: str) -> FakeUser:
        key = name.lstrip("@").lower()
        if key not in self.users:
            self.users[key] = FakeUser(100 + len(self.users), key, key, self.lang)
        return self.users[key]

    def admin(self, name: str) -> None:
        self.api.chat(self.chat_id).admins.add(self.user(name).id)

    @property
    def ledger(self) -> Any:
        return self.app.bot_data["services"].ledger

    async def say(self, who: str, text: str, chat_id: int | None = None,
                  **kw: Any) -> list[SentMessage]:
        before = len(self.api.outbox)
        await self._handle(self.api.say(self.user(who), chat_id or self.chat_id, text, **kw))
        return self.api.outbox[before:]

    async def press(self, who: str, message: SentMessage, data: str) -> list[SentMessage]:
        before = len(self.api.outbox)
        await self._handle(self.api.press(self.user(who), message, data))
        return self.api.outbox[before:]

    async def settle(self, update_id: int) -> None:
        """Hand an update the fake made (``api.say``, ``api.send_file``, ...) to the
        handlers and send what they said, as the full stack's ``settle`` waits for."""
        await self._handle(update_id)

    def last_with_buttons(self) -> SentMessage:
        """The newest message with buttons, other than the pinned scoreboard."""
        return next(m for m in reversed(self.api.outbox) if m.buttons and not m.pinned)

    async def _handle(self, update_id: int) -> None:
        payload = next(u for u in self.api.updates if u["update_id"] == update_id)
        self.api.updates.remove(payload)
        self.api.delivered.append(payload)
        self.api.offset = update_id + 1
        update = Update.de_json(payload, self.app.bot)
        chat = update.effective_chat
        turn = send.Turn(None, chat.id if chat is not None else self.chat_id)
        token = send.CURRENT.set(turn)
        try:
            await self.app.process_update(update)
        finally:
            send.CURRENT.reset(token)
        send.absorb(turn)
        if turn.error is not None:
            raise turn.error
        # As the sender orders a chat's rows: messages in order; of the scoreboard's edits
        # only the newest, after them (another table's, that ended, in its place first).
        fifo: list[Outgoing] = []
        board: Outgoing | None = None
        for item in [*turn.queued, *turn.buffer]:
            if item.collapse is None:
                fifo.append(item)
            elif board is not None and \
                    board.params.get("night_id") != item.params.get("night_id"):
                fifo.append(board)
                board = item
            else:
                board = item
        for item in [*fifo, *([board] if board is not None else [])]:
            await self._send(item)

    async def _send(self, item: Outgoing) -> None:
        """As the sender sends it (bot.delivery.sender): a refusal is recorded by the fake
        (``api.errors``) and the next message goes on."""
        try:
            if item.method == "board":
                await self._board(item)
            else:
                await deliver_now(self.app.bot, item)
        except TelegramError:
            pass

    async def _board(self, item: Outgoing) -> None:
        night_id, text = int(item.params["night_id"]), str(item.params["text"])
        message_id, shown = self.boards.get(night_id, (None, None))
        if message_id is None:
            message_id = await self.ledger.open_nights.board_message(item.chat_id, night_id)
        if message_id is not None and text == shown:
            return
        if message_id is not None:
            try:
                await self.app.bot.edit_message_text(
                    text, item.chat_id, message_id, parse_mode="HTML",
                    api_kwargs={"reply_markup": item.params.get("reply_markup")}
                    if item.params.get("reply_markup") else None)
                self.boards[night_id] = (message_id, text)
                return
            except BadRequest as exc:
                if "not found" not in str(exc).lower():
                    raise
        msg = await deliver_now(self.app.bot, item)
        await self.ledger.open_nights.set_board_message(item.chat_id, night_id, msg.message_id)
        self.boards[night_id] = (msg.message_id, text)
        await self.app.bot.pin_chat_message(item.chat_id, msg.message_id,
                                            disable_notification=True)


@asynccontextmanager
async def handler_table(tmp_path: Path, lang: str = "en", url: str | None = None,
                        **settings: Any) -> AsyncIterator[HandlerTable]:
    """The application's handlers and ledger on ``tmp_path``'s database (or ``url``'s),
    nothing running: no poller, no dispatcher, no sender."""
    api = FakeBotAPI()
    url = url or inline(await sqlite_copy(tmp_path / "bot.db"))
    config = Settings(storage=StorageSettings(url=url),
                      telegram=TelegramSettings(overall_max_rate=0, group_max_rate=0,
                                                board_interval=settings.pop(
                                                    "board_interval", 0)),
                      **settings)
    app = build_application(config, request=FakeRequest(api), token="42:TEST")
    await app.initialize()
    try:
        assert app.post_init is not None
        await app.post_init(app)
        yield HandlerTable(api, app, lang)
    finally:
        await app.shutdown()
        if app.post_shutdown:
            await app.post_shutdown(app)


@asynccontextmanager
async def handler_table_on(backend: str, tmp_path: Path, lang: str = "en",
                           name: str = "handlers") -> AsyncIterator[HandlerTable]:
    """:func:`handler_table` on SQLite, or on a PostgreSQL database of its own (``name``)."""
    if backend == "sqlite":
        async with handler_table(tmp_path, lang=lang) as t:
            yield t
    else:
        async with postgres_database(name) as url, \
                handler_table(tmp_path, lang=lang, url=url) as t:
            yield t
