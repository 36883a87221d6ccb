"""Console mode: the real Application against the in-process fake Bot API, in a terminal.

You speak as a player of a simulated group; bot messages and their buttons print as text.
``/as NAME`` switches who speaks; ``press N`` presses button N of the last message with
buttons; ``quit`` leaves. It uses the embedded SQLite default unless configured otherwise.
"""

from __future__ import annotations

import asyncio
import html
import re
import sys
from typing import TextIO

from bot.app import build_application, pipeline, running
from bot.config import Settings
from bot.fake_api import FakeBotAPI, FakeRequest, FakeUser, SentMessage
from bot.i18n import t

GROUP_ID = -100123
PLAYERS = ["alice", "bob", "carol", "dave"]
BANNER = """Mahjong Tally — console mode (no Telegram token configured).
You are in a simulated group with alice, bob, carol and dave; you speak as {who}.
Try:  /new chengdu @alice @bob @carol @dave   then   /hu bob 自摸 清一色 根1
      /as carol   switch speaker      press 1   press a button      quit   leave"""


def plain(text: str) -> str:
    return html.unescape(re.sub(r"</?(b|i|code|pre)>", "", text))


class Console:
    def __init__(self, settings: Settings, out: TextIO = sys.stdout) -> None:
        self.settings = settings
        self.api = FakeBotAPI()
        self.out = out
        self.users = {name: FakeUser(i + 1, name, name, "zh-hans" if settings.default_language
                                     == "zh-Hans" else "en") for i, name in enumerate(PLAYERS)}
        self.speaker = self.users["alice"]
        self.lang = settings.default_language
        self.shown = 0
        self.api.chat(GROUP_ID).admins.add(1)

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
        await pipeline(app).idle()

    async def handle(self, app, line: str) -> bool:  # type: ignore[no-untyped-def]
        line = line.strip()
        if not line:
            return True
        if line in ("quit", "exit", "/quit"):
            return False
        if line.startswith("/as "):
            who = line[4:].strip().lstrip("@").lower()
            if who not in self.users:
                self.users[who] = FakeUser(len(self.users) + 1, who, who)
            self.speaker = self.users[who]
            self.out.write(t(self.lang, "(you are now {who})", who=who) + "\n")
            return True
        m = re.fullmatch(r"press\s+(\d+)", line)
        if m:
            msg = self.last_with_buttons()
            index = int(m.group(1)) - 1
            if msg is None or not 0 <= index < len(msg.buttons):
                self.out.write(t(self.lang, "(no such button)") + "\n")
                return True
            self.api.press(self.speaker, msg, msg.buttons[index]["callback_data"])
        else:
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
