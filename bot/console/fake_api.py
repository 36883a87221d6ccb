"""An in-process fake of the Telegram Bot API, for console mode, tests and benchmarks.

python-telegram-bot talks to it through :class:`FakeRequest` (a real ``BaseRequest``), so
the whole stack runs: polling with ``getUpdates``, handlers, rate limiter, error handler.
It refuses what Telegram refuses: ``callback_data`` empty or over 64 bytes, a button
without text, text over 4,096 characters after entity parsing (counted in UTF-16 code
units, the stricter reading), a caption over 1,024 (:func:`check_caption`, for the file
methods), HTML Telegram cannot parse, "message is not modified", a callback answer over
200 characters and a second answer to one callback query.
:func:`serve_http` offers the same fake over HTTP on loopback, for ``base_url``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, cast
from urllib.parse import parse_qsl

from telegram.request import BaseRequest, RequestData

BOT_ID = 777000
BOT_USERNAME = "tally_bot"
MAX_TEXT = 4096
MAX_CAPTION = 1024
MAX_CALLBACK = 64
MAX_PHOTO = 10 * 1024 * 1024  # bytes a bot may upload as a photo
MAX_DOCUMENT = 50 * 1024 * 1024  # bytes a bot may upload as a document
MAX_DOWNLOAD = 20 * 1024 * 1024  # bytes a bot may download with getFile
MAX_ANSWER = 200


class ApiError(Exception):
    def __init__(self, description: str, code: int = 400, retry_after: int | None = None
                 ) -> None:
        super().__init__(description)
        self.description = description
        self.code = code
        self.retry_after = retry_after


# A fault hook sees every call before it is served: it may wait (a slow or hanging
# Telegram), raise ApiError (429 with retry_after, 5xx), or act on the caller.
FaultHook = Callable[[str, dict[str, Any]], Awaitable[None]]


@dataclass
class FakeUser:
    id: int
    first_name: str
    username: str | None = None
    language_code: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "is_bot": False, "first_name": self.first_name}
        if self.username:
            out["username"] = self.username
        if self.language_code:
            out["language_code"] = self.language_code
        return out


@dataclass
class SentMessage:
    chat_id: int
    message_id: int
    text: str
    reply_markup: dict[str, Any] | None = None
    edits: int = 0
    pinned: bool = False
    reply_to: int | None = None  # the message it answers
    kind: str = "text"  # text | photo | document
    data: bytes = b""  # a photo's or document's bytes
    filename: str | None = None
    caption: str | None = None

    @property
    def buttons(self) -> list[dict[str, Any]]:
        if not self.reply_markup:
            return []
        return [b for row in self.reply_markup.get("inline_keyboard", []) for b in row]


@dataclass
class FakeChat:
    id: int
    type: str = "group"
    title: str = "Mahjong night"
    admins: set[int] = field(default_factory=set)
    bot_can_pin: bool = True

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "type": self.type}
        if self.type != "private":
            out["title"] = self.title
        return out


class FakeBotAPI:
    """The fake's state: chats, messages, the update queue and what the bot did."""

    def __init__(self, first_update: int = 1, first_message: int = 1) -> None:
        self.updates: list[dict[str, Any]] = []
        self.delivered: list[dict[str, Any]] = []  # every update getUpdates returned
        # The next ids handed out; a fake that stands for one Telegram across runs (the
        # console's) starts where the last run stopped, as Telegram never reuses them.
        self.next_update = first_update
        self.next_message = first_message
        self.offset = 0
        self.messages: dict[tuple[int, int], SentMessage] = {}
        self.outbox: list[SentMessage] = []  # in order, edits appended again
        self.log: list[tuple[str, dict[str, Any]]] = []
        self.errors: list[tuple[str, str]] = []
        self.commands: dict[str, list[dict[str, Any]]] = {}
        self.chats: dict[int, FakeChat] = {}
        self.answered: dict[str, dict[str, Any]] = {}
        self._callbacks: set[str] = set()
        self.files: dict[str, tuple[bytes, str]] = {}  # file id -> (bytes, file path)
        self.user_messages: dict[tuple[int, int], dict[str, Any]] = {}  # documents sent
        self._new_update = asyncio.Event()
        self._queued = asyncio.Event()  # for a webhook's sender: see :meth:`queued`
        self._activity = asyncio.Event()
        self.faults: list[FaultHook] = []
        self.calls = 0

    # -- the world, as tests and the console drive it --------------------------------

    def chat(self, chat_id: int, **kw: Any) -> FakeChat:
        if chat_id not in self.chats:
            self.chats[chat_id] = FakeChat(chat_id, **kw)
        return self.chats[chat_id]

    def _push(self, payload: dict[str, Any]) -> int:
        uid = self.next_update
        self.next_update += 1
        self.updates.append({"update_id": uid, **payload})
        self._wake()
        return uid

    def _wake(self) -> None:
        self._new_update.set()
        self._queued.set()

    async def queued(self, timeout: float = 0.1) -> None:
        """Until an update is queued, or ``timeout`` passed (for a webhook's sender, which
        takes them as they come, without polling; the timeout covers an update a test put
        into :attr:`updates` itself)."""
        if self.updates:
            return
        self._queued.clear()
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(timeout):
                await self._queued.wait()

    def say(self, user: FakeUser, chat_id: int, text: str, update_id: int | None = None,
            mentions: dict[str, FakeUser] | None = None) -> int:
        """A user sends ``text``; ``mentions`` turns names into text mentions of users."""
        chat = self.chat(chat_id)
        mid = self.next_message
        self.next_message += 1
        entities = []
        m = re.match(r"/\w+(@\w+)?", text)
        if m:
            entities.append({"type": "bot_command", "offset": 0, "length": m.end()})
        for mm in re.finditer(r"@\w+", text):
            if m and mm.start() < m.end():
                continue
            entities.append({"type": "mention", "offset": _utf16_len(text[: mm.start()]),
                             "length": _utf16_len(mm.group())})
        for name, u in (mentions or {}).items():
            pos = text.find(name)
            if pos >= 0:
                entities.append({"type": "text_mention", "offset": _utf16_len(text[:pos]),
                                 "length": _utf16_len(name), "user": u.to_dict()})
        message = {"message_id": mid, "date": int(time.time()), "chat": chat.to_dict(),
                   "from": user.to_dict(), "text": text}
        if entities:
            message["entities"] = sorted(entities, key=lambda e: cast(int, e["offset"]))
        payload = {"message": message}
        if update_id is not None:  # a re-delivery of an update Telegram sent before
            self.updates.append({"update_id": update_id, **payload})
            self._wake()
            return update_id
        return self._push(payload)

    def redeliver(self, update_id: int, new_id: bool = True) -> int:
        """Send an update again, as Telegram does when it was not confirmed (the bot
        crashed), or after restarting its update ids (``new_id``: under a new id)."""
        payload = next(u for u in self.delivered if u["update_id"] == update_id)
        body = {k: v for k, v in payload.items() if k != "update_id"}
        if new_id:
            return self._push(body)
        self.updates.insert(0, dict(payload))
        self.offset = min(self.offset, update_id)
        self._wake()
        return update_id

    def send_file(self, user: FakeUser, chat_id: int, data: bytes, filename: str, *,
                  caption: str | None = None, mime_type: str = "application/zip") -> int:
        """A user sends a document (with an optional caption, such as ``/import``)."""
        chat = self.chat(chat_id)
        mid = self.next_message
        self.next_message += 1
        file_id = f"file-{chat_id}-{mid}"
        self.files[file_id] = (data, f"documents/{file_id}-{filename}")
        message: dict[str, Any] = {
            "message_id": mid, "date": int(time.time()), "chat": chat.to_dict(),
            "from": user.to_dict(), "document": {
                "file_id": file_id, "file_unique_id": f"u{file_id}", "file_name": filename,
                "mime_type": mime_type, "file_size": len(data)}}
        if caption is not None:
            message["caption"] = caption
            m = re.match(r"/\w+(@\w+)?", caption)
            if m:
                message["caption_entities"] = [
                    {"type": "bot_command", "offset": 0, "length": m.end()}]
        self.user_messages[(chat_id, mid)] = message
        return self._push({"message": message})

    def say_reply(self, user: FakeUser, chat_id: int, text: str, to_message_id: int) -> int:
        """A user replies ``text`` to an earlier message of theirs (one sent with
        :meth:`send_file`)."""
        chat = self.chat(chat_id)
        mid = self.next_message
        self.next_message += 1
        message: dict[str, Any] = {
            "message_id": mid, "date": int(time.time()), "chat": chat.to_dict(),
            "from": user.to_dict(), "text": text,
            "reply_to_message": self.user_messages[(chat_id, to_message_id)]}
        m = re.match(r"/\w+(@\w+)?", text)
        if m:
            message["entities"] = [{"type": "bot_command", "offset": 0, "length": m.end()}]
        return self._push({"message": message})

    def add_bot(self, user: FakeUser, chat_id: int) -> int:
        """``user`` adds the bot to the group."""
        bot = {"id": BOT_ID, "is_bot": True, "first_name": "Mahjong Tally",
               "username": BOT_USERNAME}
        return self._push({"my_chat_member": {
            "chat": self.chat(chat_id).to_dict(), "from": user.to_dict(),
            "date": int(time.time()),
            "old_chat_member": {"status": "left", "user": bot},
            "new_chat_member": {"status": "member", "user": bot}}})

    def press(self, user: FakeUser, message: SentMessage, data: str) -> int:
        qid = f"q{self.next_update}"
        self._callbacks.add(qid)
        return self._push({"callback_query": {
            "id": qid, "from": user.to_dict(), "chat_instance": "ci", "data": data,
            "message": {"message_id": message.message_id, "date": int(time.time()),
                        "chat": self.chat(message.chat_id).to_dict(), "text": message.text,
                        "from": {"id": BOT_ID, "is_bot": True, "first_name": "Tally"}}}})

    def last(self, chat_id: int | None = None) -> SentMessage | None:
        for m in reversed(self.outbox):
            if chat_id is None or m.chat_id == chat_id:
                return m
        return None

    async def wait_activity(self, timeout: float = 5.0) -> None:
        self._activity.clear()
        await asyncio.wait_for(self._activity.wait(), timeout)

    # -- the Bot API -------------------------------------------------------------------

    async def call(self, method: str, params: dict[str, Any]) -> Any:
        self.log.append((method, params))
        self.calls += 1
        handler = getattr(self, "api_" + method.lower(), None)
        if handler is None:
            raise ApiError(f"Not Found: method {method} is not faked", 404)
        try:
            for fault in list(self.faults):
                await fault(method, params)
            return await handler(params)
        except ApiError as exc:
            self.errors.append((method, exc.description))
            raise

    async def api_getme(self, p: dict[str, Any]) -> Any:
        return {"id": BOT_ID, "is_bot": True, "first_name": "Mahjong Tally",
                "username": BOT_USERNAME, "can_join_groups": True,
                "can_read_all_group_messages": False, "supports_inline_queries": False}

    async def api_deletewebhook(self, p: dict[str, Any]) -> Any:
        return True

    async def api_getupdates(self, p: dict[str, Any]) -> Any:
        offset = int(p.get("offset", 0) or 0)
        if offset:
            self.offset = max(self.offset, offset)
            self.updates = [u for u in self.updates if u["update_id"] >= offset]
        timeout = float(p.get("timeout", 0) or 0)
        deadline = time.monotonic() + timeout
        while not self.updates and time.monotonic() < deadline:
            self._new_update.clear()
            try:
                await asyncio.wait_for(self._new_update.wait(),
                                       max(0.0, deadline - time.monotonic()))
            except TimeoutError:
                break
        limit = int(p.get("limit", 100) or 100)
        batch = self.updates[:limit]
        self.delivered.extend(u for u in batch if u not in self.delivered)
        return batch

    def _markup(self, p: dict[str, Any]) -> dict[str, Any] | None:
        markup = p.get("reply_markup")
        if isinstance(markup, str):
            markup = json.loads(markup)
        if markup:
            for row in markup.get("inline_keyboard", []):
                for button in row:
                    if not str(button.get("text", "")).strip():
                        raise ApiError("Bad Request: BUTTON_TEXT_INVALID")
                    data = button.get("callback_data")
                    if data is not None and not 1 <= len(data.encode()) <= MAX_CALLBACK:
                        raise ApiError("Bad Request: BUTTON_DATA_INVALID")
        return markup

    def _text(self, p: dict[str, Any]) -> str:
        text = str(p.get("text", ""))
        if not text.strip():
            raise ApiError("Bad Request: message text is empty")
        if visible_length(text, p.get("parse_mode")) > MAX_TEXT:
            raise ApiError("Bad Request: message is too long")
        return text

    async def api_sendmessage(self, p: dict[str, Any]) -> Any:
        chat_id = int(p["chat_id"])
        text, markup = self._text(p), self._markup(p)
        reply = p.get("reply_parameters")
        if isinstance(reply, str):
            reply = json.loads(reply)
        mid = self.next_message
        self.next_message += 1
        msg = SentMessage(chat_id, mid, text, markup,
                          reply_to=int(reply["message_id"]) if reply else None)
        self.messages[(chat_id, mid)] = msg
        self.outbox.append(msg)
        self._activity.set()
        return self._message_dict(msg)

    def _message_dict(self, msg: SentMessage) -> dict[str, Any]:
        out = {"message_id": msg.message_id, "date": int(time.time()),
               "chat": self.chat(msg.chat_id).to_dict(), "text": msg.text,
               "from": {"id": BOT_ID, "is_bot": True, "first_name": "Mahjong Tally",
                        "username": BOT_USERNAME}}
        if msg.reply_markup:
            out["reply_markup"] = msg.reply_markup
        return out

    def _find(self, p: dict[str, Any]) -> SentMessage:
        key = (int(p["chat_id"]), int(p["message_id"]))
        if key not in self.messages:
            raise ApiError("Bad Request: message to edit not found")
        return self.messages[key]

    async def api_editmessagetext(self, p: dict[str, Any]) -> Any:
        msg = self._find(p)
        text, markup = self._text(p), self._markup(p)
        if text == msg.text and markup == msg.reply_markup:
            raise ApiError("Bad Request: message is not modified: specified new message "
                           "content and reply markup are exactly the same as a current "
                           "content and reply markup of the message")
        msg.text, msg.reply_markup = text, markup
        msg.edits += 1
        self.outbox.append(msg)
        self._activity.set()
        return self._message_dict(msg)

    async def api_editmessagereplymarkup(self, p: dict[str, Any]) -> Any:
        msg = self._find(p)
        markup = self._markup(p)
        if markup == msg.reply_markup:
            raise ApiError("Bad Request: message is not modified")
        msg.reply_markup = markup
        msg.edits += 1
        self._activity.set()
        return self._message_dict(msg)

    async def api_answercallbackquery(self, p: dict[str, Any]) -> Any:
        qid = str(p["callback_query_id"])
        if len(str(p.get("text") or "")) > MAX_ANSWER:
            raise ApiError("Bad Request: MESSAGE_TOO_LONG")
        if qid in self.answered or qid not in self._callbacks:
            raise ApiError("Bad Request: query is too old and response timeout expired or "
                           "query ID is invalid")
        self.answered[qid] = p
        self._activity.set()
        return True

    async def api_setmycommands(self, p: dict[str, Any]) -> Any:
        scope = p.get("scope") or {"type": "default"}
        if isinstance(scope, str):
            scope = json.loads(scope)
        cmds = p["commands"]
        if isinstance(cmds, str):
            cmds = json.loads(cmds)
        self.commands[f"{json.dumps(scope, sort_keys=True)}|{p.get('language_code', '')}"] = \
            cmds
        return True

    async def api_deletemycommands(self, p: dict[str, Any]) -> Any:
        return True

    async def api_pinchatmessage(self, p: dict[str, Any]) -> Any:
        chat = self.chat(int(p["chat_id"]))
        if not chat.bot_can_pin:
            raise ApiError("Bad Request: not enough rights to manage pinned messages")
        self._find(p).pinned = True
        return True

    async def api_getchatmember(self, p: dict[str, Any]) -> Any:
        chat = self.chat(int(p["chat_id"]))
        uid = int(p["user_id"])
        status = "administrator" if uid in chat.admins else "member"
        member: dict[str, Any] = {"status": status, "user": {"id": uid, "is_bot": False,
                                                             "first_name": str(uid)}}
        if status == "administrator":
            member.update({"can_be_edited": False, "is_anonymous": False,
                           "can_manage_chat": True, "can_delete_messages": True,
                           "can_manage_video_chats": True, "can_restrict_members": True,
                           "can_promote_members": False, "can_change_info": True,
                           "can_invite_users": True, "can_post_stories": False,
                           "can_edit_stories": False, "can_delete_stories": False})
        return member

    async def api_close(self, p: dict[str, Any]) -> Any:
        return True

    # -- files: multipart uploads, getFile and downloads ----------------------------------

    def _upload(self, p: dict[str, Any], field: str, limit: int) -> tuple[bytes, str]:
        upload = p.get(field)
        if not isinstance(upload, Upload):
            raise ApiError(f"Bad Request: there is no {field} in the request")
        if not upload.data:
            raise ApiError("Bad Request: file must be non-empty")
        if len(upload.data) > limit:
            raise ApiError("Request Entity Too Large", 413)
        return upload.data, upload.filename

    def _caption(self, p: dict[str, Any]) -> str | None:
        return check_caption(p)

    async def _send_file(self, p: dict[str, Any], kind: str, limit: int) -> Any:
        chat_id = int(p["chat_id"])
        data, filename = self._upload(p, kind, limit)
        caption, markup = self._caption(p), self._markup(p)
        if kind == "photo" and not data.startswith(b"\x89PNG\r\n\x1a\n") and \
                not data.startswith(b"\xff\xd8"):
            raise ApiError("Bad Request: IMAGE_PROCESS_FAILED")
        mid = self.next_message
        self.next_message += 1
        msg = SentMessage(chat_id, mid, caption or "", markup, kind=kind, data=data,
                          filename=filename, caption=caption)
        self.messages[(chat_id, mid)] = msg
        self.outbox.append(msg)
        self._activity.set()
        out = self._message_dict(msg)
        out.pop("text", None)
        if caption is not None:
            out["caption"] = caption
        file_id = f"sent-{chat_id}-{mid}"
        self.files[file_id] = (data, f"{kind}s/{file_id}")
        if kind == "photo":
            out["photo"] = [{"file_id": file_id, "file_unique_id": f"u{file_id}",
                             "width": 1, "height": 1, "file_size": len(data)}]
        else:
            out["document"] = {"file_id": file_id, "file_unique_id": f"u{file_id}",
                               "file_name": filename, "file_size": len(data)}
        return out

    async def api_sendphoto(self, p: dict[str, Any]) -> Any:
        return await self._send_file(p, "photo", MAX_PHOTO)

    async def api_senddocument(self, p: dict[str, Any]) -> Any:
        return await self._send_file(p, "document", MAX_DOCUMENT)

    async def api_getfile(self, p: dict[str, Any]) -> Any:
        file_id = str(p.get("file_id", ""))
        if file_id not in self.files:
            raise ApiError("Bad Request: invalid file_id")
        data, path = self.files[file_id]
        if len(data) > MAX_DOWNLOAD:
            raise ApiError("Bad Request: file is too big")
        return {"file_id": file_id, "file_unique_id": f"u{file_id}", "file_size": len(data),
                "file_path": path}

    def download(self, file_path: str) -> tuple[int, bytes]:
        """A GET of ``<base_file_url><token>/<file_path>``."""
        for data, path in self.files.values():
            if path == file_path and len(data) <= MAX_DOWNLOAD:
                return 200, data
        return 404, json.dumps({"ok": False, "error_code": 404,
                                "description": "Not Found"}).encode()


@dataclass(frozen=True)
class Upload:
    """A file that came in a multipart request."""

    filename: str
    data: bytes
    mime_type: str | None = None


HTML_TAGS = {"b", "strong", "i", "em", "u", "ins", "s", "strike", "del", "a", "code", "pre",
             "tg-spoiler", "span", "blockquote", "tg-emoji"}
_TAG = re.compile(r"<(/?)([a-zA-Z-]+)(\s[^<>]*)?>")
_ENTITY = re.compile(r"&(#\d+|#x[0-9a-fA-F]+|lt|gt|amp|quot);")


def check_html(text: str) -> None:
    """Refuse what Telegram refuses in HTML mode: unknown or unbalanced tags, and a bare
    < or & that is not part of a tag or an entity."""
    stack: list[str] = []
    pos = 0
    while pos < len(text):
        ch = text[pos]
        if ch == "<":
            m = _TAG.match(text, pos)
            if m is None or m.group(2).lower() not in HTML_TAGS:
                raise ApiError(f"Bad Request: can't parse entities: unsupported start tag "
                               f"at byte offset {pos}")
            name = m.group(2).lower()
            if m.group(1):
                if not stack or stack.pop() != name:
                    raise ApiError(f"Bad Request: can't parse entities: unmatched end tag "
                                   f"at byte offset {pos}")
            else:
                stack.append(name)
            pos = m.end()
        elif ch == "&":
            m = _ENTITY.match(text, pos)
            if m is None:
                raise ApiError(f"Bad Request: can't parse entities: bare & at byte offset "
                               f"{pos}")
            pos = m.end()
        else:
            pos += 1
    if stack:
        raise ApiError(f"Bad Request: can't parse entities: can't find end tag for {stack[-1]}")


def visible_length(text: str, parse_mode: str | None) -> int:
    """What Telegram measures against its limits: the text after entity parsing (HTML
    checked first), in UTF-16 code units."""
    if parse_mode == "HTML":
        check_html(text)
        text = re.sub(r"<[^>]+>", "", text)
        text = re.sub(r"&(#\d+|#x[0-9a-fA-F]+|\w+);", "x", text)
    return _utf16_len(text)


def check_caption(p: dict[str, Any]) -> str | None:
    """The caption of sendPhoto/sendDocument (and the like), as Telegram checks it: at most
    1,024 characters after entity parsing. For the fake's file methods to call."""
    caption = p.get("caption")
    if caption is None:
        return None
    caption = str(caption)
    if visible_length(caption, p.get("parse_mode")) > MAX_CAPTION:
        raise ApiError("Bad Request: message caption is too long")
    return caption


def _utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


class FakeRequest(BaseRequest):
    """A ``BaseRequest`` that hands every call to a :class:`FakeBotAPI` in this process."""

    def __init__(self, api: FakeBotAPI) -> None:
        self.api = api

    @property
    def read_timeout(self) -> float | None:
        return 5.0

    async def initialize(self) -> None:
        return None

    async def shutdown(self) -> None:
        return None

    async def do_request(self, url: str, method: str, request_data: RequestData | None = None,
                         read_timeout: Any = None, write_timeout: Any = None,
                         connect_timeout: Any = None, pool_timeout: Any = None
                         ) -> tuple[int, bytes]:
        if "/file/bot" in url:  # a download: <base_file_url><token>/<file_path>
            return self.api.download(url.split("/file/bot", 1)[1].split("/", 1)[1])
        api_method = url.rsplit("/", 1)[-1]
        params: dict[str, Any] = (dict(request_data.parameters) if request_data is not None
                                  else {})
        if request_data is not None and request_data.contains_files:
            for name, (filename, content, mime) in request_data.multipart_data.items():
                data = content if isinstance(content, bytes) else content.read()
                params[name] = Upload(str(filename), bytes(data), mime)
        return await dispatch(self.api, api_method, params)


async def dispatch(api: FakeBotAPI, method: str, params: dict[str, Any]) -> tuple[int, bytes]:
    try:
        result = await api.call(method, params)
    except ApiError as exc:
        body: dict[str, Any] = {"ok": False, "error_code": exc.code,
                                "description": exc.description}
        if exc.retry_after is not None:
            body["parameters"] = {"retry_after": exc.retry_after}
        return exc.code, json.dumps(body).encode()
    return 200, json.dumps({"ok": True, "result": result}).encode()


async def read_call(reader: asyncio.StreamReader) -> tuple[str, dict[str, Any]]:
    """The next HTTP/1.1 request on a connection: the method its path names, and its
    parameters (a JSON body, or a form whose values are read as JSON where they are)."""
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    _verb, path, _ = lines[0].split(" ", 2)
    headers = {k.lower(): v.strip() for k, v in
               (h.split(":", 1) for h in lines[1:] if ":" in h)}
    body = await reader.readexactly(int(headers.get("content-length", "0")))
    params: dict[str, Any] = {}
    if "json" in headers.get("content-type", "") and body:
        params = json.loads(body)
    elif body:
        for k, v in parse_qsl(body.decode()):
            try:
                params[k] = json.loads(v)
            except ValueError:
                params[k] = v
    return path.rsplit("/", 1)[-1], params


async def write_answer(writer: asyncio.StreamWriter, status: int, payload: bytes) -> None:
    """A call's answer, as :func:`dispatch` made it, in HTTP/1.1."""
    writer.write(f"HTTP/1.1 {status} OK\r\nContent-Type: application/json\r\n"
                 f"Content-Length: {len(payload)}\r\n\r\n".encode() + payload)
    await writer.drain()


async def serve_http(api: FakeBotAPI, host: str = "127.0.0.1", port: int = 0
                     ) -> asyncio.base_events.Server:
    """The fake over HTTP/1.1 (JSON and form bodies), e.g. for ``base_url`` tests."""

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                method, params = await read_call(reader)
                status, payload = await dispatch(api, method, params)
                await write_answer(writer, status, payload)
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        except asyncio.CancelledError:  # the loop is closing with a long poll still open
            pass
        finally:
            writer.close()

    return await asyncio.start_server(handle, host, port)
