"""Console mode: the real Application against the in-process fake Bot API, in a terminal.

You speak as a player of a simulated group; bot messages and their buttons print as text,
alerts from button presses as ``(alert) …``, and photos and files are saved under the data
folder with their path printed, all labelled in the chat's language. ``/as NAME`` switches
who speaks; ``press N`` presses button N of the last message with buttons, ``press M N``
button N of message #M (the scoreboard's too, and a message of an earlier run: the
buttons of the last :data:`KEPT_MESSAGES` are kept with the ids); ``/import PATH`` sends a
file with the caption ``/import``; ``quit`` (or the end of input) leaves. It uses the
embedded SQLite default unless configured otherwise.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
import logging
import os
import re
import sys
import threading
import time
from pathlib import Path
from typing import Any, TextIO

from sqlalchemy.engine import make_url

from bot.app import build_application, running
from bot.console.fake_api import FakeBotAPI, FakeRequest, FakeUser, SentMessage
from bot.delivery.pipeline import pipeline_of
from bot.ops.config import Settings
from bot.text.help_text import BANNER, CONSOLE_GOING, CONSOLE_NEW
from bot.text.i18n import t

GROUP_ID = -100123
PLAYERS = ["alice", "bob", "carol", "dave"]
MAX_IMPORT_BYTES = 20 << 20  # what Telegram lets a bot download
KEPT_MESSAGES = 300  # bot messages with buttons whose buttons a later run can press
def state_path(url: str) -> Path:
    """Where the console keeps its simulated Telegram's ids: beside an SQLite database,
    else in ``data/`` (named for the database, so two ledgers never share ids)."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:"):
        db = Path(str(parsed.database)).expanduser()
        return db.with_name(db.name + ".console.json")
    name = re.sub(r"[^A-Za-z0-9]+", "-", f"{parsed.host}-{parsed.port}-{parsed.database}")
    return Path("data") / f"console-{name}.json"


def database_exists(url: str) -> bool:
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        return True  # a server's database: assume it holds earlier runs
    return parsed.database not in (None, "", ":memory:") and \
        Path(str(parsed.database)).expanduser().is_file()


class ConsoleState:
    """The simulated Telegram's memory across runs: the next update and message ids, each
    speaker's user id, and the last bot messages with buttons (to press after a
    restart). Telegram never reuses a message id in a chat, and the inbox keys a message
    by it, so a run that started the ids over would have its lines taken for ones already
    handled. Each id is written down before it is handed out. A database kept from a run
    without this file (or after it was deleted) holds ids the file does not know: then
    they start at the clock's seconds, above any such run's."""

    def __init__(self, path: Path, database_existed: bool) -> None:
        self.path = path
        data: dict[str, Any] = {}
        if path.is_file():
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                data = {}
        floor = int(time.time()) if database_existed and not data else 1
        self.next_update = max(floor, int(data.get("next_update", 1)))
        self.next_message = max(floor, int(data.get("next_message", 1)))
        users = data.get("users") or {}
        self.users: dict[str, int] = {str(k): int(v) for k, v in users.items()}
        for i, name in enumerate(PLAYERS):
            self.users.setdefault(name, i + 1)
        kept = data.get("messages")
        self.messages: list[dict[str, Any]] = kept if isinstance(kept, list) else []

    def user_id(self, name: str) -> int:
        if name not in self.users:
            self.users[name] = max(self.users.values(), default=0) + 1
            self.save(self.next_update, self.next_message)
        return self.users[name]

    def save(self, next_update: int, next_message: int,
             messages: list[dict[str, Any]] | None = None) -> None:
        """Write the state down; the ids never go back (one handed out stays used)."""
        self.next_update = max(self.next_update, next_update)
        self.next_message = max(self.next_message, next_message)
        if messages is not None:
            self.messages = messages
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_name(self.path.name + ".tmp")
        tmp.write_text(json.dumps({"next_update": self.next_update,
                                   "next_message": self.next_message, "users": self.users,
                                   "messages": self.messages}, indent=1, ensure_ascii=False),
                       encoding="utf-8")
        os.replace(tmp, self.path)


def kept_message(msg: SentMessage) -> dict[str, Any]:
    return {"chat_id": msg.chat_id, "message_id": msg.message_id, "text": msg.text,
            "reply_markup": msg.reply_markup, "pinned": msg.pinned}


def restored_message(data: dict[str, Any]) -> SentMessage | None:
    try:
        return SentMessage(int(data["chat_id"]), int(data["message_id"]), str(data["text"]),
                           data.get("reply_markup") or None, pinned=bool(data.get("pinned")))
    except (KeyError, TypeError, ValueError):
        return None


class Refusals(logging.Handler):
    """The update ids the inbox refused as already handled (bot.delivery.pipeline logs each
    with its ``update_id``): a line of this run taken for one of an earlier run."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.update_ids: set[int] = set()

    def emit(self, record: logging.LogRecord) -> None:
        update_id = getattr(record, "update_id", None)
        if isinstance(update_id, int):
            self.update_ids.add(update_id)


async def read_line(lines: TextIO) -> str:
    """The next line of input ("" at its end), read in a daemon thread: Ctrl-C ends the run
    at once, where a read in the loop's executor would hold the exit until Enter."""
    loop = asyncio.get_running_loop()
    future: asyncio.Future[str] = loop.create_future()

    def deliver(line: str) -> None:
        if not future.done():
            future.set_result(line)

    def read() -> None:
        try:
            line = lines.readline()
        except (OSError, ValueError):
            line = ""
        with contextlib.suppress(RuntimeError):  # the run has ended meanwhile
            loop.call_soon_threadsafe(deliver, line)

    threading.Thread(target=read, name="console-input", daemon=True).start()
    return await future


def plain(text: str) -> str:
    return html.unescape(re.sub(r"</?(b|i|code|pre)>", "", text))


class Console:
    def __init__(self, settings: Settings, out: TextIO = sys.stdout) -> None:
        self.settings = settings
        url = settings.storage.url
        self.state = ConsoleState(state_path(url), database_exists(url))
        self.api = FakeBotAPI(self.state.next_update, self.state.next_message)
        self.out = out
        self.users: dict[str, FakeUser] = {}
        self.speaker = self.user("alice")
        self.lang = settings.default_language  # the chat's, once the bot has read it
        for data in self.state.messages:  # an earlier run's, whose buttons still work
            msg = restored_message(data)
            if msg is not None:
                self.api.messages[(msg.chat_id, msg.message_id)] = msg
                self.api.outbox.append(msg)
        self.shown = len(self.api.outbox)
        # How often each message had been edited when it was last printed: an edit of its
        # buttons alone (a seat taken) is shown as an edit too.
        self.printed_edits: dict[tuple[int, int], int] = {}
        self.api.chat(GROUP_ID).admins.add(1)
        self.refusals = Refusals()

    def user(self, name: str) -> FakeUser:
        if name not in self.users:
            language = self.settings.default_language.lower()  # zh-hans, zh-hant or en
            self.users[name] = FakeUser(self.state.user_id(name), name, name, language)
        return self.users[name]

    def reserve(self) -> None:
        """Write down the ids the next line will take (one update, one message), before
        the bot can see it: a run that stops at any point never hands them out again."""
        self.state.save(self.api.next_update + 1, self.api.next_message + 1,
                        self.kept_messages())

    def save(self) -> None:
        """Write down the ids handed out so far and the buttons to press after a restart."""
        self.state.save(self.api.next_update, self.api.next_message, self.kept_messages())

    def kept_messages(self) -> list[dict[str, Any]]:
        """The last :data:`KEPT_MESSAGES` bot messages with buttons, oldest first."""
        seen: set[tuple[int, int]] = set()
        kept: list[dict[str, Any]] = []
        for msg in reversed(self.api.outbox):
            key = (msg.chat_id, msg.message_id)
            if key in seen:
                continue
            seen.add(key)
            if msg.buttons:
                kept.append(kept_message(msg))
                if len(kept) == KEPT_MESSAGES:
                    break
        return kept[::-1]

    async def read_language(self, app) -> None:  # type: ignore[no-untyped-def]
        """The chat's language, as the bot keeps it (set by /lang), for the console's own
        labels."""
        services = app.bot_data["services"]  # bot.handlers.context.Services
        info = services.chats.get(GROUP_ID) if services.cache else None
        if info is None:
            info = await services.ledger.chats.chat(GROUP_ID, self.settings.default_language)
        self.lang = info.language

    def refused(self, update_id: int) -> bool:
        """Whether the inbox took the update for one already handled (the state file was
        behind the ledger): say so, and move the ids past any an earlier run handed out."""
        if update_id not in self.refusals.update_ids:
            return False
        self.out.write(t(self.lang, "(the bot took this for a message it had already "
                                    "handled, and ignored it; the console's ids have "
                                    "moved on: send it again)") + "\n")
        floor = int(time.time())
        self.api.next_update = max(self.api.next_update, floor)
        self.api.next_message = max(self.api.next_message, floor)
        self.save()
        return True

    def print_new(self) -> None:
        new = self.api.outbox[self.shown:]
        # An edit of a message's buttons alone is not a new line of the fake's outbox.
        touched = [m for key, m in self.api.messages.items()
                   if m.edits > self.printed_edits.get(key, 0) and m not in new]
        for msg in [*touched, *new]:
            self.print_message(msg)
        self.shown = len(self.api.outbox)
        self.out.flush()

    def print_message(self, msg: SentMessage) -> None:
        self.printed_edits[(msg.chat_id, msg.message_id)] = msg.edits
        tag = (t(self.lang, "[✎ edited #{id}]", id=msg.message_id) if msg.edits
               else t(self.lang, "[bot #{id}]", id=msg.message_id))
        text = plain(msg.text)
        if msg.kind != "text":
            saved = self.save_file(msg)
            kind = t(self.lang, "photo") if msg.kind == "photo" else t(self.lang, "file")
            text = t(self.lang, "({kind} saved to {path})", kind=kind, path=str(saved)) \
                + (f"\n{text}" if text else "")
        self.out.write(f"\n{tag} {text}\n")
        for i, button in enumerate(msg.buttons, 1):
            self.out.write(f"   [{i}] {button['text']}\n")

    def print_board(self) -> None:
        """``board``: the pinned scoreboard as the group sees it now (Telegram shows its
        edits at most every ``board_interval`` seconds, and so does the console)."""
        pinned = [m for (chat, _), m in self.api.messages.items()
                  if chat == GROUP_ID and m.pinned]
        if not pinned:
            self.out.write(t(self.lang, "(no scoreboard yet: /new opens a table)") + "\n")
            return
        self.print_message(max(pinned, key=lambda m: m.message_id))
        self.out.write(t(self.lang, "(the bot edits the pinned scoreboard at most every {n} s, "
                                    "as Telegram shows it; /table shows the table now)",
                         n=round(self.settings.telegram.board_interval)) + "\n")
        self.out.flush()

    async def banner(self, app) -> str:  # type: ignore[no-untyped-def]
        """The banner, its first suggestion fitting the moment: a night going or not."""
        ledger = app.bot_data["services"].ledger
        night = await ledger.open_nights.current_night(GROUP_ID)
        tip = t(self.lang, CONSOLE_NEW) if night is None else \
            t(self.lang, CONSOLE_GOING)
        return t(self.lang, BANNER, who=self.speaker.first_name, next=tip)

    def save_file(self, msg: SentMessage) -> Path:
        """A photo or file the bot sent, written under the data folder for you to open."""
        name = re.sub(r"[^\w.-]+", "_", msg.filename or msg.kind)[-80:]
        path = self.state.path.parent / "console-files" / f"{msg.message_id}-{name}"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(msg.data)
        return path

    def print_alert(self, query_id: str) -> None:
        answer = self.api.answered.get(query_id) or {}
        if answer.get("text"):
            text = plain(str(answer["text"]))
            shown = (t(self.lang, "(alert) {text}", text=text) if answer.get("show_alert")
                     else t(self.lang, "(notice) {text}", text=text))
            self.out.write(shown + "\n")

    def button_message(self, message_id: int | None) -> SentMessage | None:
        """Message #message_id, or the last with buttons other than the pinned scoreboard
        (whose quick-report buttons come back with every edit)."""
        if message_id is not None:
            return self.api.messages.get((GROUP_ID, message_id))
        return next((m for m in reversed(self.api.outbox) if m.buttons and not m.pinned), None)

    def send_import(self, raw: str) -> int | None:
        """``/import PATH``: the file as a document with the caption ``/import``; its
        update id, or None when there is no file to send."""
        path = Path(raw.strip().strip("'\"")).expanduser()
        try:
            if path.stat().st_size > MAX_IMPORT_BYTES:
                self.out.write(t(self.lang, "({path} is larger than {n} MB)", path=str(path),
                                 n=MAX_IMPORT_BYTES >> 20) + "\n")
                return None
            data = path.read_bytes()
        except FileNotFoundError:
            self.out.write(t(self.lang, "(no file at {path})", path=str(path)) + "\n")
            return None
        except OSError:
            self.out.write(t(self.lang, "(cannot read {path})", path=str(path)) + "\n")
            return None
        self.reserve()
        return self.api.send_file(self.speaker, GROUP_ID, data, path.name, caption="/import")

    async def settle(self, app) -> None:  # type: ignore[no-untyped-def]
        """Wait until the bot has fetched and processed everything sent so far."""
        for _ in range(200):
            if not self.api.updates:
                break
            await asyncio.sleep(0.01)
        await pipeline_of(app).idle()

    async def handle(self, app, line: str) -> bool:  # type: ignore[no-untyped-def]
        line = line.strip()
        if not line:
            return True
        if line in ("quit", "exit", "/quit"):
            return False
        if line == "board":
            self.print_board()
            return True
        if line.startswith("/as "):
            who = line[4:].strip().lstrip("@").lower()
            self.speaker = self.user(who)
            self.out.write(t(self.lang, "(you are now {who})", who=who) + "\n")
            return True
        query = None
        m = re.fullmatch(r"press\s+(\d{1,12})(?:\s+(\d{1,3}))?", line)
        imported = re.fullmatch(r"/import(?:@\w+)?\s+(.+)", line)
        if m:
            second = m.group(2)
            msg = self.button_message(int(m.group(1)) if second else None)
            index = int(second or m.group(1)) - 1
            if msg is None or not 0 <= index < len(msg.buttons) or \
                    "callback_data" not in msg.buttons[index]:
                self.out.write(t(self.lang, "(no such button)") + "\n")
                return True
            self.reserve()
            update_id = self.api.press(self.speaker, msg, msg.buttons[index]["callback_data"])
            query = f"q{update_id}"
        elif imported:
            sent = self.send_import(imported.group(1))
            if sent is None:
                return True
            update_id = sent
        else:
            self.reserve()
            update_id = self.api.say(self.speaker, GROUP_ID, line)
        await self.settle(app)
        await self.read_language(app)
        if not self.refused(update_id):
            if query is not None:
                self.print_alert(query)
            self.print_new()
        self.save()
        return True

    async def run(self, lines: TextIO = sys.stdin) -> None:
        app = build_application(self.settings, request=FakeRequest(self.api),
                                token="123:console")
        intake = logging.getLogger("bot.delivery.pipeline")
        intake.addHandler(self.refusals)
        try:
            async with running(app):
                await self.read_language(app)
                self.out.write(await self.banner(app) + "\n")
                while True:
                    self.out.write(f"{self.speaker.first_name}> ")
                    self.out.flush()
                    line = await read_line(lines)
                    if not line:  # end of input
                        self.out.write("\n")
                        break
                    if not await self.handle(app, line):
                        break
        finally:  # however the run ends (quit, end of input, Ctrl-C, an error)
            intake.removeHandler(self.refusals)
            self.save()


def main(settings: Settings) -> None:
    try:
        asyncio.run(Console(settings).run())
    except KeyboardInterrupt:  # Ctrl-C: the run has saved its state on the way out
        print()
