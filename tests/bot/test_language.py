"""No English reaches a zh-Hans chat: the checks, and the catalog's completeness. Allowed:
player names, tile codes (123m, [555p]), command names and what a player typed, which a
refusal may quote. The bot's replies are held to them on the handler tier
(tests/handlers/test_chinese_words.py: every whole-night transcript played in Chinese, a set
of commands and refusals, the nights by buttons) and in the tests of other features."""

from __future__ import annotations

import re
from pathlib import Path

from babel.messages.pofile import read_po

from bot.console.fake_api import SentMessage
from bot.text.i18n import LOCALES
from bot.text.i18n_extract import template
from engine.mcr.fans import FANS
from tests.bot.harness import Chat, plain

TRANSCRIPTS = sorted((Path(__file__).parent / "transcripts").glob("*.txt"))
PLAYERS = ["alice", "bob", "carol", "dave"]
NEW = "/new {preset} @alice @bob @carol @dave"

_COMMAND = re.compile(r"/[a-z_]+(?:[ \t]+[\x21-\x7e]+)*")  # a command and its ASCII words
_TILES = re.compile(r"\[?\d+[mpsz](?:\([^)]*\))?\]?")
_WORD = re.compile(r"[A-Za-z]+")


# MCR's fans go by both their names, Chinese and English, as its players read them: an
# English fan name, whole, is a name.
MCR_FAN_NAMES = sorted((f.en for f in FANS.values()), key=len, reverse=True)


def english_words(text: str, typed: str = "") -> list[str]:
    """ASCII words in ``text`` that are none of the allowed kinds."""
    # Player names (erin joins in a seat change), and what was typed.
    allowed = {*PLAYERS, "zed", "erin"} | {w.lower() for w in _WORD.findall(typed)}
    body = _COMMAND.sub(" ", plain(text))
    for name in MCR_FAN_NAMES:
        body = body.replace(name, " ")
    body = " ".join(w for w in body.split() if "=" not in w)  # option syntax: cap_fan=5
    body = _TILES.sub(" ", body)
    return [w for w in _WORD.findall(body) if w.lower() not in allowed]


_CJK = re.compile(r"[\u3000-\u30ff\u3400-\u9fff\uff00-\uffef]")
_ASCII_MARK = re.compile(r"[,:;()!?]")
_CLOCK = re.compile(r"\d:\d")
_DOUBLED = re.compile(r"[。，；：、][ \t]*[·。，；：、]")  # 没有分数变动。 · 下一盘


def ascii_punctuation(text: str, typed: str = "") -> list[str]:
    """ASCII , : ; ( ) ! ? in a line of Chinese (outside commands, tiles, option syntax,
    clock times and what was typed), each with the words around it."""
    found = []
    for line in plain(text).splitlines():
        if not _CJK.search(line):
            continue
        body = line.replace(typed, " ") if typed else line
        body = _COMMAND.sub(" ", body)
        body = " ".join(w for w in body.split() if "=" not in w)
        body = _CLOCK.sub(" ", _TILES.sub(" ", body))
        found += [body[max(0, m.start() - 8):m.end() + 8] for m in _ASCII_MARK.finditer(body)]
        found += [line[max(0, m.start() - 8):m.end() + 8] for m in _DOUBLED.finditer(line)]
    return found


def check(replies: list[SentMessage], typed: str, where: str) -> None:
    for r in replies:
        leaked = english_words(r.text, typed)
        assert not leaked, f"{where}: English {leaked} in {plain(r.text)!r}"
        marks = ascii_punctuation(r.text, typed)
        assert not marks, f"{where}: ASCII punctuation {marks} in {plain(r.text)!r}"
        for button in r.buttons:
            assert not english_words(button["text"], typed), (where, button["text"])
            assert not ascii_punctuation(button["text"], typed), (where, button["text"])


_SAY = re.compile(r"^@(\w+):\s*(.+)$")
_PRESS = re.compile(r"^@(\w+) press (\d+)$")


async def play_in_chinese(t: Chat, path: Path) -> int:
    """Play a transcript's actions (its expected texts are in its own language) and check
    every reply; returns the number of replies checked."""
    seen = 0
    for lineno, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line, where = raw.strip(), f"{path.name}:{lineno}"
        if m := _PRESS.match(line):
            keyboard = t.last_with_buttons()
            data = keyboard.buttons[int(m.group(2)) - 1]["callback_data"]
            replies, typed = await t.press(m.group(1), keyboard, data), ""
        elif m := _SAY.match(line):
            replies, typed = await t.say(m.group(1), m.group(2)), m.group(2)
        elif line.startswith("admin "):
            t.admin(line.split()[1])
            continue
        else:
            continue
        check(replies, typed, where)
        seen += len(replies)
    return seen


COMMANDS = [
    "/help", "/table", "/score", "/score 1112345678999m", "/score 123m 456m 789m 123p 55p",
    "/score 12m", "/score family=jiangxi 13579m 2468p 1357s", "/score zz", "/rules",
    "/rules nothing", "/set", "/set verbose on", "/set verbose off", "/set cap_fan=5",
    "/set stake 2", "/set nonsense=1", "/hu", "/hu zed 自摸", "/hu bob", "/kong bob",
    "/draw bob 听", "/qishou bob", "/void", "/void 9", "/edit 9 bob 自摸", "/undo",
    "/history", "/debts", "/paid", "/paid 4", "/standings", "/stats", "/stats zed",
    "/new", "/new chengdu a b", "/hu bob 自摸 fan99", "/hu bob 自摸 根9", "/hu bob 自摸 清一吃",
    "/hu bob 自摸 七对 对对胡", "/hu bob from bob", "/hu bob 自摸 from carol",
    "/chart", "/chart 9", "/export 9", "/hand 1", "/hand 9", "/history all", "/seat",
    "/seat zed erin", "/penalty", "/penalty zed 诈胡", "/adjust", "/adjust alice -10 bob +5",
    "/adjust alice -10 zed +10", "/edit 1.9 bob 自摸", "/paid 1 x", "/standings 30d",
    "/standings x", "/stats @zed", "/set preset nothing", "/set stake x", "/lang x",
    "/set zimo=x", "/import", "/export",
]


# /new's first word mistyped: one letter from a preset, or unknown before @mentions only.
NEW_REFUSED = ["/new chengdou alice bob carol", "/new chengdou @alice @bob @carol @dave",
               "/new sichaun alice bob carol dave", "/new foo alice bob carol dave",
               "/new 麻麻 @alice @bob @carol", "/new changsa"]


def test_the_chinese_catalog_translates_every_message() -> None:
    """Each message, in each context ("Players": a head count, or the app's tab), every
    plural form."""
    with (LOCALES / "zh_Hans" / "LC_MESSAGES" / "tally.po").open("rb") as fh:
        zh = {(m.id, m.context): m.string for m in read_po(fh) if m.id}
    strings = {key: value if isinstance(value, tuple) else (value,)
               for key, value in zh.items()}
    missing = [(m.id, m.context) for m in template()
               if m.id and not all(strings.get((m.id, m.context), ("",)))]
    assert missing == []


def test_the_catalog_holds_only_what_the_extractor_finds() -> None:
    """A message translated in the catalog but unknown to ``make i18n`` (a text the code
    builds in a way the extractor does not see) would lose its translation at the next
    refresh."""
    with (LOCALES / "zh_Hans" / "LC_MESSAGES" / "tally.po").open("rb") as fh:
        zh = {(m.id, m.context) for m in read_po(fh) if m.id}
    assert sorted(map(str, zh - {(m.id, m.context) for m in template() if m.id})) == []


def test_the_leak_finder_finds_english() -> None:
    assert english_words("查叫：carol 听牌，值 8 分（max）") == ["max"]
    assert english_words("alice → bob 16 分 · 听 123m [555p] /hu bob from carol") == []
    assert english_words("杠（concealed）") == ["concealed"]


def test_the_punctuation_finder_finds_ascii_marks() -> None:
    assert ascii_punctuation("#1 alice → carol: 107.00") == []  # no Chinese on the line
    assert ascii_punctuation("#1 alice → carol: 107.00（由 #1 抵消）") != []
    assert ascii_punctuation("你是说：清一色, 清幺九？") != []
    assert ascii_punctuation("没有分数变动。 · 下一盘庄家：bob。") != []
    assert ascii_punctuation("例如：/adjust alice -10 bob +10") == []  # a command
    assert ascii_punctuation("听 123m(4m) 于 20:15，cap_fan=5（封顶）") == []
