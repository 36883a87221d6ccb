"""No English reaches a zh-Hans chat: every reply of every whole-night transcript, played
in Chinese, and of a set of commands and refusals. Allowed: player names, tile codes
(123m, [555p]), command names and what a player typed, which a refusal may quote."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from bot.console.fake_api import SentMessage
from bot.text.i18n import LOCALES
from bot.text.i18n_extract import template
from engine.mcr.fans import FANS
from engine.rules import get_preset, options_model, presets
from tests.bot.guided_play import find_button, play
from tests.bot.harness import Table, plain, table

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


async def play_in_chinese(t: Table, path: Path) -> int:
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


@pytest.mark.parametrize("path", TRANSCRIPTS, ids=[p.stem for p in TRANSCRIPTS])
async def test_no_english_in_a_chinese_night(path: Path, tmp_path: Path) -> None:
    async with table(tmp_path, lang="zh-hans") as t:
        assert await play_in_chinese(t, path) >= 5
        # Edited messages (Details, the board) are checked as they stand at the end.
        check(t.api.outbox, "", f"{path.name}: final messages")


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


async def test_no_english_in_commands_and_refusals(tmp_path: Path) -> None:
    async with table(tmp_path, lang="zh-hans") as t:
        t.admin("alice")
        for command in [*COMMANDS[:4], *NEW_REFUSED]:  # before any table
            check(await t.say("alice", command), command, command)
        for preset in presets():
            check(await t.say("alice", f"/rules {preset}"), preset, f"/rules {preset}")
            check(await t.say("alice", NEW.format(preset=preset)), preset, f"/new {preset}")
            for command in COMMANDS:
                check(await t.say("alice", command), command, f"{preset}: {command}")
            replies = await t.say("bob", "/hu bob 自摸")
            check(replies, "", f"{preset}: a win")
            check(await t.say("alice", "/table"), "", f"{preset}: /table")
            check(await t.say("alice", "/end"), "", f"{preset}: /end")
        check(t.api.outbox, " ".join([*COMMANDS, *NEW_REFUSED]), "final messages")


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


async def _tap(t: Table, who: str, msg: SentMessage, label: str) -> list[SentMessage]:
    """Press ``msg``'s button ``label`` and check what comes of it: new messages, the
    pressed message as it stands after, and any alert the press answered with."""
    answered = len(t.api.answered)
    data = find_button(msg, label)["callback_data"]
    replies = await t.press(who, msg, data)
    check([*replies, msg], "", f"{label!r} pressed")
    for answer in list(t.api.answered.values())[answered:]:
        text = str(answer.get("text") or "")
        assert not english_words(text), (label, text)
        assert not ascii_punctuation(text), (label, text)
    return replies


async def test_a_chinese_night_by_buttons_and_typed(tmp_path: Path) -> None:
    """Seat buttons, the guided /hu, the board's button, Undo, Details, /kong and /draw by
    buttons, then typed reports, /end and /settle: no English, no ASCII punctuation."""
    async with table(tmp_path, lang="zh-hans") as t:
        t.admin("alice")
        check(await t.say("alice", "/new chengdu"), "", "/new")
        seats = t.last_with_buttons()
        for who, seat in zip(PLAYERS, "东南西北", strict=True):
            await _tap(t, who, seats, seat)
        assert "东 alice" in plain(seats.text)
        # A self-draw with a pattern, by buttons; then its Details, and Undo.
        check(await t.say("bob", "/hu"), "", "/hu")
        draft = t.last_with_buttons()
        for label in ("bob 自摸", "清一色", "根 0", "✅ 记录"):
            await _tap(t, "bob", draft, label)
        answer = t.last_with_buttons()
        await _tap(t, "bob", answer, "详情")
        await _tap(t, "bob", answer, "撤销")
        # The same win from the scoreboard's button, off alice's discard.
        board = next(m for m in t.api.outbox if m.pinned)
        await _tap(t, "carol", board, "carol")
        draft = t.last_with_buttons()
        for label in ("← alice", "七对", "✅ 记录"):
            await _tap(t, "carol", draft, label)
        # A kong and the wall's end by buttons.
        check(await t.say("dave", "/kong"), "", "/kong")
        draft = t.last_with_buttons()
        for label in ("dave", "暗杠"):
            await _tap(t, "dave", draft, label)
        for command in ("/hu bob 自摸 清一色 根1", "/hu alice 点炮 dave 七对",
                        "/draw dave 听 2", "/table", "/history", "/hand 1", "/undo"):
            check(await t.say("alice", command), command, command)
        check(await t.say("bob", "/draw"), "", "/draw")
        draft = t.last_with_buttons()
        await _tap(t, "bob", draft, "✅ 记录")
        for command in ("/end", "/debts", "/standings", "/stats", "/set birds=2",
                        "/set cap_fan=x", "/set", "/rules", "/rules nothing"):
            check(await t.say("alice", command), command, command)
        check(await t.say("alice", "/settle"), "", "/settle")
        await _tap(t, "alice", t.last_with_buttons(), "✅ 已付")
        check(t.api.outbox, "/set birds=2 cap_fan=x /rules nothing", "final messages")


async def test_an_unknown_option_lists_the_presets_own_options_whole(tmp_path: Path) -> None:
    async with table(tmp_path, lang="zh-hans") as t:
        t.admin("alice")
        for preset, other in (("chengdu", "birds"), ("changsha", "hujiao_zhuanyi"),
                              ("feibao", "birds")):
            await t.say("alice", f"/set preset {preset}")
            (reply,) = await t.say("alice", f"/set {other}=2")
            text = plain(reply.text)
            listed = re.findall(r"^  (\w+)=", text, re.MULTILINE)
            assert listed == list(options_model(get_preset(preset).family).model_fields)
            assert other not in listed
            check([reply], f"/set {other}=2", preset)


BUTTON_NIGHTS = [p for p in sorted((Path(__file__).parent / "transcripts" / "buttons")
                                   .glob("*.txt")) if p.stem in ("feibao", "liangfang")]


@pytest.mark.parametrize("path", BUTTON_NIGHTS, ids=[p.stem for p in BUTTON_NIGHTS])
async def test_no_english_in_a_chinese_night_by_buttons(path: Path, tmp_path: Path) -> None:
    """The Chinese nights by buttons (tests/bot/transcripts/buttons): every message as it
    stands at the end, every button and every alert."""
    async with table(tmp_path, lang="zh-hans") as t:
        await play(t, path, typed=False)
        typed = " ".join(m.group(2) for line in path.read_text(encoding="utf-8").splitlines()
                         if (m := _SAY.match(line.strip())))
        check(t.api.outbox, typed, path.name)
        for answer in t.api.answered.values():
            text = str(answer.get("text") or "")
            assert not english_words(text) and not ascii_punctuation(text), text


async def test_house_rules_say_what_changed_in_words(tmp_path: Path) -> None:
    async with table(tmp_path, lang="zh-hans") as t:
        t.admin("alice")
        (reply,) = await t.say("alice", "/set reset")
        assert "本群规则：成都血战（默认规则，无改动）" in plain(reply.text)
        (reply,) = await t.say("alice", "/set fan.清一色=4 cap_fan=none menqing_zhongzhang=on")
        # By the options' Chinese names, as /set takes them (issue 31).
        assert "（fan.清一色=4、封顶=不设、门清断幺九=是）" in plain(reply.text)
