"""No English reaches a zh-Hans chat (tests/bot/test_language.py holds the checks): every
reply of every whole-night transcript played in Chinese, of a set of commands and refusals,
and of the nights by buttons, with every button and every alert. What the bot says is the
handlers' doing, so these play on the handler tier. The transcripts and the nights by
buttons written in Chinese are checked as test_transcripts_fast.py and test_guided.py play
them (one play for both); the rest are here."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.console.fake_api import SentMessage
from engine.rules import get_preset, options_model, presets
from tests.bot.guided_play import find_button
from tests.bot.harness import plain
from tests.bot.test_language import (
    COMMANDS,
    NEW,
    NEW_REFUSED,
    PLAYERS,
    TRANSCRIPTS,
    ascii_punctuation,
    check,
    english_words,
    play_in_chinese,
)
from tests.bot.test_transcripts import LANGUAGE
from tests.handlers.harness import HandlerTable
from tests.handlers.harness import handler_table as table

# The transcripts written in Chinese are played in Chinese by test_transcripts_fast.py,
# which checks each of their replies as this does.
NOT_CHINESE = [p for p in TRANSCRIPTS if LANGUAGE.get(p.stem) != "zh-hans"]


@pytest.mark.parametrize("path", NOT_CHINESE, ids=[p.stem for p in NOT_CHINESE])
async def test_no_english_in_a_chinese_night(path: Path, tmp_path: Path) -> None:
    async with table(tmp_path, lang="zh-hans") as t:
        assert await play_in_chinese(t, path) >= 5
        # Edited messages (Details, the board) are checked as they stand at the end.
        check(t.api.outbox, "", f"{path.name}: final messages")


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


async def _tap(t: HandlerTable, who: str, msg: SentMessage, label: str) -> list[SentMessage]:
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


# The Chinese nights by buttons (tests/bot/transcripts/buttons: feibao, liangfang) are
# checked as test_guided.py plays them in Chinese.


async def test_house_rules_say_what_changed_in_words(tmp_path: Path) -> None:
    async with table(tmp_path, lang="zh-hans") as t:
        t.admin("alice")
        (reply,) = await t.say("alice", "/set reset")
        assert "本群规则：成都血战（默认规则，无改动）" in plain(reply.text)
        (reply,) = await t.say("alice", "/set fan.清一色=4 cap_fan=none menqing_zhongzhang=on")
        # By the options' Chinese names, as /set takes them (issue 31).
        assert "（fan.清一色=4、封顶=不设、门清断幺九=是）" in plain(reply.text)
