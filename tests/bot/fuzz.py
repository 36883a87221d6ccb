"""Random and mutated input for the running bot, and the rules every answer keeps.

One bot, one group chat per preset (each with a table of four), a private chat, and five
kinds of sender: the four players, an outsider and a chat admin. :func:`random_input`
draws a command line or a button press from a ``random.Random`` (seeded by hypothesis in
``tests/bot/test_fuzz.py``, by ``bench/fuzz_bench.py``). :meth:`World.step` sends it and
checks:

- a known command gets exactly one text reply (pictures and files may come with it, or a
  picture alone), anything else nothing; a press gets exactly one answer; the fake Bot API
  accepted every call (length, HTML, callback data, one answer per query);
- nothing was logged at ERROR (no traceback) and no reply is the crash apology;
- a refusal (a reply starting with ⚠️, or a popup) and a read-only command leave every
  ledger table exactly as it was.
"""

from __future__ import annotations

import logging
import random
import re
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import select

from bot.app import COMMANDS as HANDLED
from bot.console.fake_api import BOT_USERNAME, SentMessage
from storage.sql import tables as tb
from tests.bot.harness import Table, plain, table

PRESETS = ("sichuan", "chengdu", "yibin", "changsha", "feibao")
CHATS = {preset: -100600 - i for i, preset in enumerate(PRESETS)}
PRIVATE = 4242
PLAYERS = ("alice", "bob", "carol", "dave")
SENDERS = (*PLAYERS, "mallory", "root")  # mallory sits nowhere; root is a chat admin
COMMANDS = tuple(sorted(HANDLED))  # every command the bot answers
READ_ONLY = {"table", "history", "standings", "rules", "score", "help", "start", "debts",
             "chart", "export"}
# The tables a refusal must leave as they were (not the update-id or draft bookkeeping).
LEDGER = (tb.chats, tb.players, tb.nights, tb.hands, tb.entries, tb.hand_players,
          tb.totals, tb.audit, tb.debts)
CRASH = ("something went wrong", "出了点问题")

WORDS = [
    # players and seats
    "alice", "bob", "carol", "dave", "@alice", "@bob", "zed", "E", "S", "W", "N", "me", "我",
    # how
    "自摸", "from", "点炮", "rob", "抢杠", "杠上花", "杠上炮", "承包", "本金", "有宝", "无宝",
    # patterns, in every language
    "清一色", "七对", "平胡", "对对胡", "天胡", "地胡", "龙七对", "十八罗汉", "金钩钓",
    "qingyise", "one", "suit", "seven", "pairs", "板板胡", "碰碰胡", "将将胡", "平和", "大七对",
    "门清", "断幺九", "海底捞月", "全求人",
    # counts
    "根1", "根4", "根5", "杠1", "杠2", "fan3", "番7", "fan20", "fan21", "fan62", "飞宝2",
    "连杠1", "鸟3", "bird1,5", "鸟9/9/9/9/9/9/9", "jing=alice:1/0,bob:0/2", "精=E:9/9",
    # kongs and the wall
    "暗杠", "补杠", "直杠", "宝杠", "听", "未听", "花猪", "3", "听牌",
    # tiles
    "1112345678999m", "123m", "456p", "789s", "55p", "[555p]", "[2222m]", "5p", "一万",
    "红中", "1m1m1m1m1m", "0m", "19m19p19s1234567z",
    # numbers
    "0", "1", "2", "#2", "-1", "²", "٣", "99999999999999999999", "1e9", "0.5", "3d", "30天",
    # settings
    "preset", "yibin", "stake", "cap_fan=6", "base=2", "cap_fan=99999999999", "fan.清一色=9",
    "zimo=double", "reset", "lang", "en", "zh", "klingon", "family=changsha", "wild=2m",
    # punctuation and markup
    ",", "，", ";", "|", "<b>", "</b>", "&", "<", ">", "&amp;", '"', "'", "\\", "{lang}",
    "{0}", "%s",
]
# Lines a table really says (docs/usage.md's), so that the fuzzing reaches deep states:
# hands in play, kongs, corrections, ended nights, debts. Names are swapped at random.
LINES = [
    "/hu bob 自摸 清一色 根1", "/hu bob from carol 七对", "/hu bob 七对, dave from carol",
    "/hu alice rob dave 平胡", "/hu bob 自摸 1111m 23456789m 55m",
    "/hu carol from alice 清一色 鸟3",
    "/hu bob 自摸 567m 789m 567p 678p 9p 2m 本金 3m", "/hu carol 自摸 鸟1,5",
    "/hu dave 自摸 平和 有宝 飞宝1 承包 alice jing=dave:1/0,bob:0/2", "/hu bob 自摸",
    "/hu dave 杠上花 from bob 平胡", "/hu carol 杠上炮 alice", "/hu alice 自摸 天胡",
    "/kong bob 暗杠", "/kong bob 直杠 from carol", "/kong carol 补杠",
    "/draw alice 花猪, bob 听 3, carol 听 1112345678999m", "/draw", "/qishou bob 板板胡",
    "/undo", "/void 1", "/void 2", "/edit 1 bob 自摸 清一色", "/history", "/history 2", "/end",
    "/debts", "/paid 1", "/paid 2", "/standings 30d", "/stats @bob", "/stats", "/table",
    "/set cap_fan=5", "/set stake 0.5", "/set reset", "/lang en", "/lang zh", "/rules",
    "/score 1112345678999m", "/score 123m 456m 789p 11p 999s", "/hu", "/new",
    "/new chengdu @alice @bob carol dave",
]
ODD_CHARS = "²٣\u200b\u202e\U0001f004\u0000\t<>&\"'{}|,;#@/\\x中"


def _word(rng: random.Random) -> str:
    roll = rng.random()
    if roll < 0.9:
        return rng.choice(WORDS)
    if roll < 0.97:
        return "".join(rng.choice(ODD_CHARS) for _ in range(rng.randint(1, 8)))
    return rng.choice("x中<&9") * rng.choice((100, 1000, 4000))


def _mutate(rng: random.Random, line: str) -> str:
    roll = rng.random()
    if roll < 0.3:
        pos = rng.randint(0, len(line))
        return line[:pos] + rng.choice(ODD_CHARS) + line[pos:]
    if roll < 0.5 and len(line) > 2:
        a = rng.randint(1, len(line) - 1)
        return line[:a] + line[rng.randint(a, len(line)):]
    if roll < 0.7:
        return re.sub(r"[0-9]+", lambda _: rng.choice(("99999999999999999999", "0", "²")),
                      line)
    words = line.split(" ")
    if len(words) > 1:
        i = rng.randrange(1, len(words))
        words.insert(i, words[i])
    return " ".join(words)


@dataclass
class Input:
    sender: str
    chat_id: int
    text: str | None = None  # a command line, or
    press: tuple[SentMessage, str] | None = None  # a button and the data sent with it

    def __repr__(self) -> str:
        what = repr(self.text[:200]) if self.text is not None else f"press {self.press[1]!r}"  # type: ignore[index]
        return f"Input({self.sender} in {self.chat_id}: {what})"


def random_input(rng: random.Random, world: World) -> Input:
    sender = rng.choice(SENDERS)
    chat_id = PRIVATE if rng.random() < 0.05 else CHATS[rng.choice(PRESETS)]
    if rng.random() < 0.25:
        keyboards = [m for m in world.api.outbox if m.buttons and m.chat_id == chat_id]
        if keyboards:
            message = rng.choice(keyboards[-6:])
            data = rng.choice(message.buttons)["callback_data"]
            if rng.random() < 0.5:
                data = _mutate(rng, data)
                while len(data.encode()) > 64:
                    data = data[:-1]
            if data:
                return Input(sender, chat_id, press=(message, data))
    if rng.random() < 0.4:
        line = rng.choice(LINES)
        for name in PLAYERS:
            if rng.random() < 0.2:
                line = line.replace(name, rng.choice(PLAYERS))
    else:
        command = rng.choice(COMMANDS)
        words = [_word(rng) for _ in range(rng.choice((0, 1, 2, 3, 4, 6, 9)))]
        line = " ".join([f"/{command}", *words])
    if rng.random() < 0.3:
        line = _mutate(rng, line)
    return Input(sender, chat_id, text=line[:4096] or "/")


class _Errors(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@dataclass
class World:
    t: Table
    cm: AbstractAsyncContextManager[Table]
    errors: _Errors = field(default_factory=_Errors)
    steps: int = 0
    refusals: int = 0

    @property
    def api(self) -> Any:
        return self.t.api

    @classmethod
    async def start(cls, tmp_path: Path) -> World:
        cm = table(tmp_path)
        t = await cm.__aenter__()
        world = cls(t, cm)
        logging.getLogger().addHandler(world.errors)
        t.api.chat(PRIVATE, type="private")
        for chat_id in CHATS.values():
            t.api.chat(chat_id).admins.add(t.user("root").id)
        for name in SENDERS:
            t.user(name)
        await t.say("alice", "/help", chat_id=PRIVATE)  # the chat's first contact writes it
        await world.tables()
        return world

    async def stop(self) -> None:
        logging.getLogger().removeHandler(self.errors)
        await self.cm.__aexit__(None, None, None)

    async def tables(self) -> None:
        """Every preset's chat has a night going, its players linked (setup, unchecked)."""
        for preset, chat_id in CHATS.items():
            if await self.t.ledger.open_nights.current_night(chat_id) is None:
                await self.t.say("root", f"/new {preset} @alice @bob @carol @dave",
                                 chat_id=chat_id)
                for name in PLAYERS:  # each acts once, which links their account
                    await self.t.say(name, "/undo", chat_id=chat_id)

    async def dump(self) -> list[list[tuple[Any, ...]]]:
        async with self.t.ledger.read() as conn:
            return [sorted((tuple(r) for r in (await conn.execute(select(table))).all()),
                           key=repr) for table in LEDGER]

    async def step(self, inp: Input) -> None:
        api = self.api
        before_dump = await self.dump()
        known = set(api.messages)
        before, answers, calls = len(api.outbox), len(api.answered), len(api.errors)
        self.errors.records.clear()
        if inp.text is not None:
            await self.t.say(inp.sender, inp.text, chat_id=inp.chat_id)
        else:
            message, data = inp.press  # type: ignore[misc]
            await self.t.press(inp.sender, message, data)
        self.steps += 1
        assert api.errors[calls:] == [], (inp, api.errors[calls:])
        assert not self.errors.records, (inp, [r.getMessage() for r in self.errors.records])
        new = {(m.chat_id, m.message_id): m for m in api.outbox[before:]
               if (m.chat_id, m.message_id) not in known}
        replies = [m for m in new.values() if not m.pinned]
        files = [m for m in replies if m.kind != "text"]
        replies = [m for m in replies if m.kind == "text"]
        texts = [plain(m.text) for m in replies]
        assert not any(c in x for x in texts for c in CRASH), (inp, texts)
        refused = False
        if inp.text is not None:
            m = re.match(r"/(\w+)(?:@(\w+))?", inp.text)
            command = m.group(1).lower() if m else None
            if m and m.group(2) and m.group(2).lower() != BOT_USERNAME:
                command = None  # addressed to another bot: not ours to answer
            if command in COMMANDS:
                assert len(replies) == 1 or (not replies and files), (inp, texts, len(files))
            else:
                assert not replies and not files, (inp, texts)
            refused = bool(texts) and texts[0].startswith("⚠️")
            refused = refused or command in READ_ONLY
        else:
            answered = list(api.answered.values())[answers:]
            assert len(answered) == 1, (inp, answered)
            refused = bool(answered[0].get("show_alert"))
            assert len(replies) <= 1, (inp, texts)
        if refused:
            self.refusals += 1
            assert await self.dump() == before_dump, (inp, texts)
        await self.tables()
