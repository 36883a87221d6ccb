"""The handler tier: the real handlers on a real ledger (SQLite), with no poller, no
sender and no fake Bot API. An update is built as Telegram would send it and handed to
python-telegram-bot's ``process_update`` inside a :class:`bot.delivery.send.Turn`, as the
dispatcher does; what the handlers said (written to the outbox with their change, or left
to be written as "handled") comes back as the messages Telegram would have shown.

The interface is the full stack's (:class:`tests.bot.harness.Table`: ``say``, ``press``,
``last_with_buttons``, ``ledger``, ``admin``), so a transcript plays on either tier. What
only the full stack can show stays there: delivery, order, Telegram's limits, faults."""

from __future__ import annotations

import json
import re
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from telegram import Update
from telegram.request import BaseRequest, RequestData

from bot.app import build_application
from bot.delivery import send
from bot.ops.config import Settings, StorageSettings, TelegramSettings
from storage.queues.messages import Outgoing
from tests.databases import postgres_database, sqlite_copy

GROUP = -100500
BOT = {"id": 42, "is_bot": True, "first_name": "Tally", "username": "tally_bot"}


@dataclass
class Said:
    """A message as the chat would show it: sent, or an earlier one edited."""

    chat_id: int
    message_id: int
    text: str
    reply_markup: dict[str, Any] | None = None
    pinned: bool = False
    kind: str = "text"

    @property
    def buttons(self) -> list[dict[str, Any]]:
        rows = (self.reply_markup or {}).get("inline_keyboard", [])
        return [b for row in rows for b in row]


@dataclass
class Calls(BaseRequest):
    """The Bot API as far as the handlers reach it directly (not through the outbox):
    ``getMe`` at start, ``getChatMember`` for admin checks; every call is recorded."""

    admins: set[int] = field(default_factory=set)
    log: list[tuple[str, dict[str, Any]]] = field(default_factory=list)

    async def initialize(self) -> None:
        return None

    async def shutdown(self) -> None:
        return None

    @property
    def read_timeout(self) -> float | None:
        return 1.0

    async def do_request(self, url: str, method: str, request_data: RequestData | None = None,
                         read_timeout: Any = None, write_timeout: Any = None,
                         connect_timeout: Any = None, pool_timeout: Any = None
                         ) -> tuple[int, bytes]:
        name = url.rsplit("/", 1)[-1]
        params = request_data.parameters if request_data is not None else {}
        self.log.append((name, params))
        result: Any = True
        if name == "getMe":
            result = BOT
        elif name == "getChatMember":
            user = int(str(params["user_id"]))
            result = {"status": "administrator" if user in self.admins else "member",
                      "user": {"id": user, "is_bot": False, "first_name": str(user)},
                      "can_be_edited": False, "can_manage_chat": True,
                      "can_change_info": True, "can_delete_messages": True,
                      "can_invite_users": True, "can_restrict_members": True,
                      "can_pin_messages": True, "can_promote_members": False,
                      "can_manage_video_chats": True, "is_anonymous": False,
                      "can_post_stories": False, "can_edit_stories": False,
                      "can_delete_stories": False}
        return 200, json.dumps({"ok": True, "result": result}).encode()


class HandlerTable:
    def __init__(self, app: Any, calls: Calls, lang: str) -> None:
        self.app = app
        self.calls = calls
        self.lang = lang
        self.chat_id = GROUP
        self.users: dict[str, dict[str, Any]] = {}
        self.messages: list[Said] = []  # every message shown, in order
        self._next_message = 1
        self._next_update = 1

    def user(self, name: str) -> dict[str, Any]:
        key = name.lstrip("@").lower()
        if key not in self.users:
            self.users[key] = {"id": 100 + len(self.users), "is_bot": False,
                               "first_name": key, "username": key,
                               "language_code": self.lang}
        return self.users[key]

    def admin(self, name: str) -> None:
        self.calls.admins.add(int(self.user(name)["id"]))

    @property
    def ledger(self) -> Any:
        return self.app.bot_data["services"].ledger

    def _chat(self) -> dict[str, Any]:
        return {"id": self.chat_id, "type": "group", "title": "Mahjong night"}

    async def say(self, who: str, text: str) -> list[Said]:
        entities = []
        command = re.match(r"/\w+(@\w+)?", text)
        if command:
            entities.append({"type": "bot_command", "offset": 0, "length": command.end()})
        for m in re.finditer(r"@\w+", text):
            if not command or m.start() >= command.end():
                entities.append({"type": "mention", "offset": _utf16(text[:m.start()]),
                                 "length": _utf16(m.group())})
        message: dict[str, Any] = {"message_id": self._message_id(), "date": int(time.time()),
                                   "chat": self._chat(), "from": self.user(who), "text": text}
        if entities:
            message["entities"] = entities
        return await self._handle({"message": message})

    async def press(self, who: str, message: Said, data: str) -> list[Said]:
        return await self._handle({"callback_query": {
            "id": f"q{self._next_update}", "from": self.user(who), "chat_instance": "ci",
            "data": data, "message": {"message_id": message.message_id,
                                      "date": int(time.time()), "chat": self._chat(),
                                      "text": message.text, "from": BOT}}})

    def last_with_buttons(self) -> Said:
        """The newest message with buttons, other than the pinned scoreboard."""
        return next(m for m in reversed(self.messages) if m.buttons and not m.pinned)

    async def _handle(self, payload: dict[str, Any]) -> list[Said]:
        update = Update.de_json({"update_id": self._next_update, **payload}, self.app.bot)
        self._next_update += 1
        turn = send.Turn(None, self.chat_id)
        token = send.CURRENT.set(turn)
        try:
            await self.app.process_update(update)
        finally:
            send.CURRENT.reset(token)
        send.absorb(turn)
        if turn.error is not None:
            raise turn.error
        return self._show([*turn.queued, *turn.buffer])

    def _show(self, outgoing: list[Outgoing]) -> list[Said]:
        shown: list[Said] = []
        for item in outgoing:
            p = item.params
            if item.method in ("sendMessage", "sendPhoto", "sendDocument"):
                said = Said(item.chat_id, self._message_id(),
                            str(p.get("text") or p.get("caption") or ""),
                            p.get("reply_markup"), kind=item.method[4:].lower())
                self.messages.append(said)
                shown.append(said)
            elif item.method == "editMessageText" or item.method == "editMessageReplyMarkup":
                for m in self.messages:
                    if m.message_id == p.get("message_id"):
                        m.text = str(p.get("text", m.text))
                        m.reply_markup = p.get("reply_markup", m.reply_markup)
                        shown.append(m)
            elif item.method == "answerCallbackQuery" and p.get("text"):
                shown.append(Said(item.chat_id, 0, str(p["text"]), kind="alert"))
        return shown

    def _message_id(self) -> int:
        self._next_message += 1
        return self._next_message


def _utf16(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


@asynccontextmanager
async def handler_table(tmp_path: Path, lang: str = "en", url: str | None = None,
                        **settings: Any) -> AsyncIterator[HandlerTable]:
    """The application's handlers and ledger on ``tmp_path``'s database (or ``url``'s),
    nothing running: no poller, no dispatcher, no sender."""
    url = url or await sqlite_copy(tmp_path / "bot.db")
    config = Settings(storage=StorageSettings(url=url),
                      telegram=TelegramSettings(overall_max_rate=0, group_max_rate=0,
                                                board_interval=0),
                      **settings)
    calls = Calls()
    app = build_application(config, request=calls, token="42:TEST")
    await app.initialize()
    try:
        assert app.post_init is not None
        await app.post_init(app)
        yield HandlerTable(app, calls, lang)
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
