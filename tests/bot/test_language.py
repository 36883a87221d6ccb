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
from engine.rules import presets
from tests.bot.harness import Table, plain, table

TRANSCRIPTS = sorted((Path(__file__).parent / "transcripts").glob("*.txt"))
PLAYERS = ["alice", "bob", "carol", "dave"]
NEW = "/new {preset} @alice @bob @carol @dave"

_COMMAND = re.compile(r"/[a-z_]+(?:[ \t]+[\x21-\x7e]+)*")  # a command and its ASCII words
_TILES = re.compile(r"\[?\d+[mpsz](?:\([^)]*\))?\]?")
_WORD = re.compile(r"[A-Za-z]+")


def english_words(text: str, typed: str = "") -> list[str]:
    """ASCII words in ``text`` that are none of the allowed kinds."""
    # Player names (erin joins in a seat change), and what was typed.
    allowed = {*PLAYERS, "zed", "erin"} | {w.lower() for w in _WORD.findall(typed)}
    body = _COMMAND.sub(" ", plain(text))
    body = " ".join(w for w in body.split() if "=" not in w)  # option syntax: cap_fan=5
    body = _TILES.sub(" ", body)
    return [w for w in _WORD.findall(body) if w.lower() not in allowed]


def check(replies: list[SentMessage], typed: str, where: str) -> None:
    for r in replies:
        leaked = english_words(r.text, typed)
        assert not leaked, f"{where}: English {leaked} in {plain(r.text)!r}"
        for button in r.buttons:
            assert not english_words(button["text"], typed), (where, button["text"])


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
]


async def test_no_english_in_commands_and_refusals(tmp_path: Path) -> None:
    async with table(tmp_path, lang="zh-hans") as t:
        t.admin("alice")
        for command in COMMANDS[:4]:  # before any table
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
        check(t.api.outbox, " ".join(COMMANDS), "final messages")


def test_the_chinese_catalog_translates_every_message() -> None:
    with (LOCALES / "zh_Hans" / "LC_MESSAGES" / "tally.po").open("rb") as fh:
        zh = {m.id: m.string for m in read_po(fh) if m.id}
    missing = [m.id for m in template() if m.id and not zh.get(m.id)]
    assert missing == []


def test_the_leak_finder_finds_english() -> None:
    assert english_words("查叫：carol 听牌，值 8 分（max）") == ["max"]
    assert english_words("alice → bob 16 分 · 听 123m [555p] /hu bob from carol") == []
    assert english_words("杠（concealed）") == ["concealed"]
