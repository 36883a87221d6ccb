"""Run the real Application with real polling against the in-process fake Bot API."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from html import unescape
from pathlib import Path
from typing import Any, Protocol

from bot.app import build_application, running
from bot.console.fake_api import FakeBotAPI, FakeRequest, FakeUser, SentMessage
from bot.delivery.pipeline import pipeline_of
from bot.ops.config import Settings, StorageSettings, TelegramSettings
from tests.databases import postgres_database, sqlite_copy

GROUP = -100500


class Chat(Protocol):
    """A table as a test drives it, on the full stack (:class:`Table`) or on the handler
    tier (:class:`tests.handlers.harness.HandlerTable`)."""

    api: FakeBotAPI
    chat_id: int

    def user(self, name: str) -> FakeUser: ...

    async def settle(self, update_id: int) -> None: ...

    def admin(self, name: str) -> None: ...

    @property
    def ledger(self) -> Any: ...

    async def say(self, who: str, text: str) -> list[SentMessage]: ...

    async def press(self, who: str, message: SentMessage, data: str
                    ) -> list[SentMessage]: ...

    def last_with_buttons(self) -> SentMessage: ...


def plain(text: str) -> str:
    return unescape(re.sub(r"<[^>]+>", "", text))


class Table:
    def __init__(self, api: FakeBotAPI, app: Any, lang: str = "en") -> None:
        self.api = api
        self.app = app
        self.lang = lang
        self.users: dict[str, FakeUser] = {}
        self.chat_id = GROUP
        api.chat(GROUP)

    def user(self, name: str) -> FakeUser:
        key = name.lstrip("@").lower()
        if key not in self.users:
            self.users[key] = FakeUser(100 + len(self.users), key, key, self.lang)
        return self.users[key]

    def admin(self, name: str) -> None:
        self.api.chat(self.chat_id).admins.add(self.user(name).id)

    async def settle(self, update_id: int) -> None:
        """Until the update is durable (polling has confirmed it), handled, and every
        answer sent."""
        for _ in range(2000):  # up to 10 s on a loaded machine; usually a few ms
            if self.api.offset > update_id:
                break
            await asyncio.sleep(0.005)
        else:
            raise TimeoutError(f"update {update_id} was never fetched")
        await pipeline_of(self.app).idle()

    async def say(self, who: str, text: str, chat_id: int | None = None,
                  update_id: int | None = None, **kw: Any) -> list[SentMessage]:
        before = len(self.api.outbox)
        uid = self.api.say(self.user(who), chat_id or self.chat_id, text, update_id, **kw)
        await self.settle(uid)
        return self.api.outbox[before:]

    async def press(self, who: str, message: SentMessage, data: str) -> list[SentMessage]:
        before = len(self.api.outbox)
        uid = self.api.press(self.user(who), message, data)
        await self.settle(uid)
        return self.api.outbox[before:]

    def last_with_buttons(self) -> SentMessage:
        """The newest message with buttons, other than the pinned scoreboard (whose
        quick-report buttons come back with every edit)."""
        return next(m for m in reversed(self.api.outbox) if m.buttons and not m.pinned)

    @property
    def ledger(self) -> Any:
        return self.app.bot_data["services"].ledger


@asynccontextmanager
async def table(tmp_path: Path, lang: str = "en", api: FakeBotAPI | None = None,
                url: str | None = None, **settings: Any) -> AsyncIterator[Table]:
    """The bot on ``tmp_path``'s database (or on ``url``'s); ``api``: the fake Telegram of
    an earlier run (a restart: the same chats, messages and files)."""
    api = api or FakeBotAPI()
    # The fake does not throttle, so the rate limiter's Telegram limits are lifted here,
    # and the scoreboard is edited after every event unless a test asks otherwise.
    telegram = TelegramSettings(overall_max_rate=0, group_max_rate=0,
                                board_interval=settings.pop("board_interval", 0))
    # A copy of a database migrated once (tests/databases.py); the app checks it is at head.
    url = url or await sqlite_copy(tmp_path / "bot.db")
    config = Settings(storage=StorageSettings(url=url),
                      telegram=telegram, **settings)
    app = build_application(config, request=FakeRequest(api), token="42:TEST")
    async with running(app, poll_timeout=1):
        yield Table(api, app, lang)


# -- transcripts ---------------------------------------------------------------------------

_SAY = re.compile(r"^@(\w+):\s*(.+)$")
_PRESS = re.compile(r"^@(\w+) press (\d+)$")


async def play_transcript(t: Chat, path: Path) -> int:
    """Play a scenario file; returns the number of checks made. Lines:
    ``@alice: text`` someone speaks; ``@bob press 2`` presses button 2 of the last keyboard;
    ``< text`` a reply to the last action contains it; ``<! text`` none does;
    ``= E -16 S +48 W -16 N -16`` the table's running totals (or the chat's standings by
    name after /end: ``= alice -10 bob +24``); ``admin alice`` makes alice a chat admin."""
    checks = 0
    replies: list[SentMessage] = []
    for lineno, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        where = f"{path.name}:{lineno}"
        if m := _PRESS.match(line):
            keyboard = t.last_with_buttons()
            index = int(m.group(2)) - 1
            replies = await t.press(m.group(1), keyboard, keyboard.buttons[index]["callback_data"])
        elif m := _SAY.match(line):
            replies = await t.say(m.group(1), m.group(2))
        elif line.startswith("<!"):
            wanted = line[2:].strip()
            assert not any(wanted in plain(r.text) for r in replies), (where, wanted)
            checks += 1
        elif line.startswith("<"):
            wanted = line[1:].strip()
            texts = [plain(r.text) for r in replies]
            assert any(wanted in x for x in texts), f"{where}: {wanted!r} not in {texts}"
            checks += 1
        elif line.startswith("="):
            await _check_totals(t, line[1:].split(), where)
            checks += 1
        elif line.startswith("admin "):
            t.admin(line.split()[1])
        else:
            raise AssertionError(f"{where}: cannot read {line!r}")
    return checks


async def _check_totals(t: Chat, words: list[str], where: str) -> None:
    expected = {words[i]: int(words[i + 1]) for i in range(0, len(words), 2)}
    night = await t.ledger.open_nights.current_night(t.chat_id)
    if night is not None and set(expected) <= {"E", "S", "W", "N"}:
        assert night.totals == expected, (where, night.totals)
        return
    standings = {s.player.name: s.net for s in await t.ledger.lookback.standings(t.chat_id)}
    got = {k: standings.get(k, 0) for k in expected}
    assert got == expected, (where, standings)


@asynccontextmanager
async def table_on(backend: str, tmp_path: Path, lang: str = "en", name: str = "night"
                   ) -> AsyncIterator[Table]:
    """:func:`table` on SQLite, or on a PostgreSQL database of its own (``name``)."""
    if backend == "sqlite":
        async with table(tmp_path, lang=lang) as t:
            yield t
    else:
        async with postgres_database(name) as url, table(tmp_path, lang=lang, url=url) as t:
            yield t


END_HERE = ("End the night here", "就此结束", "就此結束")


async def end_night(t: Chat, who: str) -> list[SentMessage]:
    """``/end`` said by ``who``; while a hand is being played the bot asks first, and
    ``who`` answers "end the night here". Every reply, the question's included."""
    out = await t.say(who, "/end")
    asked = next((m for m in out if any(b["text"] in END_HERE for b in m.buttons)), None)
    if asked is None:
        return out
    data = next(b["callback_data"] for b in asked.buttons if b["text"] in END_HERE)
    return [*out, *await t.press(who, asked, data)]


async def carol_leaves(t: Chat) -> None:
    """A three-player 三人两房 table (alice keeps the score as admin) plays two hands; then
    dave takes carol's seat."""
    t.admin("alice")
    await t.say("alice", "/new 三人两房 @alice @bob @carol")
    for who, text in (("bob", "/hu bob 自摸 清一色"), ("carol", "/hu carol from alice"),
                      ("alice", "/hu alice 自摸 七对"), ("carol", "/hu carol from bob 对对胡"),
                      ("alice", "/seat carol @dave")):
        await t.say(who, text)
