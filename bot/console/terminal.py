"""Console mode: the real Application against the in-process fake Bot API, in a terminal.

You speak as a player of a simulated group; bot messages and their buttons print as text.
``/as NAME`` switches who speaks; ``press N`` presses button N of the last message with
buttons; ``quit`` leaves. It uses the embedded SQLite default unless configured otherwise.
"""

from __future__ import annotations

import asyncio
import html
import json
import os
import re
import sys
import time
from pathlib import Path
from typing import Any, TextIO

from sqlalchemy.engine import make_url

from bot.app import build_application, running
from bot.console.fake_api import FakeBotAPI, FakeRequest, FakeUser, SentMessage
from bot.delivery.intake import pipeline_of
from bot.ops.config import Settings
from bot.text.i18n import t

GROUP_ID = -100123
PLAYERS = ["alice", "bob", "carol", "dave"]
BANNER = """Mahjong Tally — console mode (no Telegram token configured).
You are in a simulated group with alice, bob, carol and dave; you speak as {who}.
Try:  /new chengdu @alice @bob @carol @dave   then   /hu bob 自摸 清一色 根1
      /as carol   switch speaker      press 1   press a button      quit   leave"""


def state_path(url: str) -> Path:
    """Where the console keeps its simulated Telegram's ids: beside an SQLite database,
    else in ``data/`` (named for the database, so two ledgers never share ids)."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:"):
        db = Path(str(parsed.database)).expanduser()
        return db.with_name(db.name + ".console.json")
    name = re.sub(r"[^A-Za-z0-9]+", "-", f"{parsed.host}-{parsed.port}-{parsed.database}")
    return Path("data") / f"console-{name}.json"


class ConsoleState:
    """The simulated Telegram's memory across runs: the next update and message ids and
    each speaker's user id. Telegram never reuses a message id in a chat, and the inbox
    keys a message by it, so a run that started the ids over would have its lines taken
    for ones already handled. Each id is written down before it is handed out, and ids
    never start below the clock's seconds: a database kept from a run without this file
    (or after it was deleted) holds only smaller ones."""

    def __init__(self, path: Path) -> None:
        self.path = path
        data: dict[str, Any] = {}
        if path.is_file():
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                data = {}
        floor = int(time.time())
        self.next_update = max(floor, int(data.get("next_update", 1)))
        self.next_message = max(floor, int(data.get("next_message", 1)))
        users = data.get("users") or {}
        self.users: dict[str, int] = {str(k): int(v) for k, v in users.items()}
        for i, name in enumerate(PLAYERS):
            self.users.setdefault(name, i + 1)

    def user_id(self, name: str) -> int:
        if name not in self.users:
            self.users[name] = max(self.users.values(), default=0) + 1
            self.save(self.next_update, self.next_message)
        return self.users[name]

    def save(self, next_update: int, next_message: int) -> None:
        self.next_update, self.next_message = next_update, next_message
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_name(self.path.name + ".tmp")
        tmp.write_text(json.dumps({"next_update": next_update, "next_message": next_message,
                                   "users": self.users}, indent=1), encoding="utf-8")
        os.replace(tmp, self.path)


def plain(text: str) -> str:
    return html.unescape(re.sub(r"</?(b|i|code|pre)>", "", text))


class Console:
    def __init__(self, settings: Settings, out: TextIO = sys.stdout) -> None:
        self.settings = settings
        self.state = ConsoleState(state_path(settings.storage.url))
        self.api = FakeBotAPI(self.state.next_update, self.state.next_message)
        self.out = out
        self.users: dict[str, FakeUser] = {}
        self.speaker = self.user("alice")
        self.lang = settings.default_language
        self.shown = 0
        self.api.chat(GROUP_ID).admins.add(1)

    def user(self, name: str) -> FakeUser:
        if name not in self.users:
            language = "zh-hans" if self.settings.default_language == "zh-Hans" else "en"
            self.users[name] = FakeUser(self.state.user_id(name), name, name, language)
        return self.users[name]

    def reserve(self) -> None:
        """Write down the ids the next line will take (one update, one message), before
        the bot can see it: a run that stops at any point never hands them out again."""
        self.state.save(self.api.next_update + 1, self.api.next_message + 1)

    def print_new(self) -> None:
        for msg in self.api.outbox[self.shown:]:
            tag = "✎ edited" if msg.edits else "bot"
            self.out.write(f"\n[{tag} #{msg.message_id}] {plain(msg.text)}\n")
            for i, button in enumerate(msg.buttons, 1):
                self.out.write(f"   [{i}] {button['text']}\n")
        self.shown = len(self.api.outbox)
        self.out.flush()

    def last_with_buttons(self) -> SentMessage | None:
        # Not the pinned scoreboard, whose quick-report buttons come back with every edit.
        return next((m for m in reversed(self.api.outbox) if m.buttons and not m.pinned), None)

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
        if line.startswith("/as "):
            who = line[4:].strip().lstrip("@").lower()
            self.speaker = self.user(who)
            self.out.write(t(self.lang, "(you are now {who})", who=who) + "\n")
            return True
        m = re.fullmatch(r"press\s+(\d+)", line)
        if m:
            msg = self.last_with_buttons()
            index = int(m.group(1)) - 1
            if msg is None or not 0 <= index < len(msg.buttons):
                self.out.write(t(self.lang, "(no such button)") + "\n")
                return True
            self.reserve()
            self.api.press(self.speaker, msg, msg.buttons[index]["callback_data"])
        else:
            self.reserve()
            self.api.say(self.speaker, GROUP_ID, line)
        await self.settle(app)
        self.print_new()
        return True

    async def run(self, lines: TextIO = sys.stdin) -> None:
        app = build_application(self.settings, request=FakeRequest(self.api),
                                token="123:console")
        async with running(app):
            self.out.write(t(self.lang, BANNER, who=self.speaker.first_name) + "\n")
            loop = asyncio.get_running_loop()
            while True:
                self.out.write(f"{self.speaker.first_name}> ")
                self.out.flush()
                line = await loop.run_in_executor(None, lines.readline)
                if not line:  # end of input
                    self.out.write("\n")
                    break
                if not await self.handle(app, line):
                    break


def main(settings: Settings) -> None:
    asyncio.run(Console(settings).run())
