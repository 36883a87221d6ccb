"""A chat in Traditional Chinese (zh-Hant, Hong Kong usage), on the handler tier: a zh-Hant
chat reads Traditional characters and punctuation with no English, whether its players type
Traditional or Simplified; /lang and a Telegram user's language_code choose it. (The
catalog, reading both scripts and the Mini App: tests/bot/test_traditional.py.)"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.console.fake_api import SentMessage
from bot.text import i18n_hant
from engine.rules import presets
from tests.bot import guided_play
from tests.bot.guided_play import find_button, play
from tests.bot.harness import end_night, plain
from tests.bot.test_language import (
    _SAY,
    COMMANDS,
    NEW,
    PLAYERS,
    TRANSCRIPTS,
    ascii_punctuation,
    check,
    english_words,
    play_in_chinese,
)
from tests.bot.test_traditional import check_hant, simplified_only
from tests.handlers.harness import HandlerTable, handler_table
from tests.handlers.test_hongkong_night import hong_kong_night_in_traditional

# Choosing the language


@pytest.mark.parametrize("code", ["zh-hk", "zh-tw", "zh-mo", "zh-hant"])
async def test_a_hong_kong_or_taiwan_user_gets_traditional(code: str, tmp_path: Path) -> None:
    async with handler_table(tmp_path, lang=code) as t:
        replies = await t.say("alice", "/new chengdu @alice @bob @carol @dave")
        assert "成都血戰" in plain(replies[0].text)
        check_hant(replies, "", code)


async def test_lang_switches_between_the_scripts(tmp_path: Path) -> None:
    async with handler_table(tmp_path, lang="en") as t:
        t.admin("alice")
        (reply,) = await t.say("alice", "/lang 繁體")
        assert plain(reply.text) == "語言：繁體中文（香港）。"
        (reply,) = await t.say("alice", "/lang")
        assert "/lang 繁體" in plain(reply.text) and "語言" in plain(reply.text)
        (reply,) = await t.say("alice", "/lang 简体")
        assert plain(reply.text) == "语言：简体中文。"
        (reply,) = await t.say("alice", "/set lang 繁体")
        assert "本群規則：成都血戰" in plain(reply.text)
        (reply,) = await t.say("alice", "/lang 廣東話")
        assert plain(reply.text) == "語言：繁體中文（香港）。"
        (reply,) = await t.say("alice", "/lang klingon")
        assert plain(reply.text) == "⚠️ 請選擇語言：/lang en、/lang zh 或 /lang 繁體。"
        (reply,) = await t.say("alice", "/lang en")
        assert plain(reply.text) == "Language: English."


# A night in Traditional Chinese


@pytest.mark.parametrize("path", TRANSCRIPTS, ids=[p.stem for p in TRANSCRIPTS])
async def test_a_night_typed_in_simplified_reads_in_traditional(path: Path,
                                                                 tmp_path: Path) -> None:
    """The Chinese transcripts' words, typed in Simplified in a zh-Hant chat: every reply in
    Traditional characters (the zh-Hans checks, and no Simplified character)."""
    async with handler_table(tmp_path, lang="zh-hk") as t:
        assert await play_in_chinese(t, path) >= 5
        typed = " ".join(m.group(2) for line in path.read_text(encoding="utf-8").splitlines()
                         if (m := _SAY.match(line.strip())))
        check(t.api.outbox, "", path.name)
        for r in t.api.outbox:
            body = plain(r.text)
            for word in typed.split():  # what a refusal quotes as it was typed
                body = body.replace(word, " ")
            assert not simplified_only(body), (path.name, simplified_only(body), body)


async def _tap(t: HandlerTable, who: str, msg: SentMessage, label: str) -> list[SentMessage]:
    answered = len(t.api.answered)
    replies = await t.press(who, msg, find_button(msg, label)["callback_data"])
    check_hant([*replies, msg], "", f"{label!r} pressed")
    for answer in list(t.api.answered.values())[answered:]:
        text = str(answer.get("text") or "")
        assert not english_words(text) and not ascii_punctuation(text), (label, text)
        assert not simplified_only(text), (label, text)
    return replies


async def test_a_hong_kong_night_by_buttons_and_typed_in_traditional(tmp_path: Path) -> None:
    """Seats, the guided /hu, Details and Undo, the board's button, /kong and /draw by
    buttons; then reports typed in Traditional (點炮, 出銃, 槓, 聽, 對對糊), /end and
    /settle: every reply in Traditional characters and punctuation."""
    async with handler_table(tmp_path, lang="zh-hk") as t:
        t.admin("alice")
        check_hant(await t.say("alice", "/new 成都血戰"), "", "/new")
        seats = t.last_with_buttons()
        for who, seat in zip(PLAYERS, "東南西北", strict=True):
            await _tap(t, who, seats, seat)
        assert "東 alice" in plain(seats.text)
        check_hant(await t.say("bob", "/hu"), "", "/hu")
        draft = t.last_with_buttons()
        for label in ("bob 自摸", "清一色", "根 0", "✅ 記錄"):
            await _tap(t, "bob", draft, label)
        answer = t.last_with_buttons()
        assert "食糊" in plain(answer.text) or "自摸" in plain(answer.text)
        await _tap(t, "bob", answer, "詳情")
        await _tap(t, "bob", answer, "撤銷")
        board = next(m for m in t.api.outbox if m.pinned)
        await _tap(t, "carol", board, "carol")
        draft = t.last_with_buttons()
        for label in ("← alice", "七對", "✅ 記錄"):
            await _tap(t, "carol", draft, label)
        check_hant(await t.say("dave", "/kong"), "", "/kong")
        draft = t.last_with_buttons()
        for label in ("dave", "暗槓"):
            await _tap(t, "dave", draft, label)
        typed = ["/hu bob 自摸 清一色 根1", "/hu alice 點炮 dave 七對", "/draw dave 聽 2"]
        for command in typed:
            replies = await t.say("alice", command)
            assert not any("⚠️" in r.text for r in replies), (command, replies)
            check_hant(replies, command, command)
        for command in ("/table", "/history", "/hand 1", "/undo", "/rules", "/help"):
            check_hant(await t.say("alice", command), command, command)
        check_hant(await t.say("bob", "/draw"), "", "/draw")
        await _tap(t, "bob", t.last_with_buttons(), "✅ 記錄")
        # Hand 3: a win off a discard said the Hong Kong way, and a pattern in Traditional.
        replies = await t.say("carol", "/hu carol 出銃 bob 對對糊")
        assert "對對糊" in plain(replies[0].text), [plain(r.text) for r in replies]
        check_hant(replies, "", "出銃")
        replies = await t.say("alice", "/kong dave 直槓 alice")
        assert "⚠️" not in replies[0].text, plain(replies[0].text)
        check_hant(replies, "", "/kong by seat")
        # A hand is still being played: /end asks first, and alice ends the night here.
        check_hant(await end_night(t, "alice"), "/end", "/end")
        for command in ("/debts", "/standings", "/stats", "/set"):
            check_hant(await t.say("alice", command), command, command)
        check_hant(await t.say("alice", "/settle"), "", "/settle")
        await _tap(t, "alice", t.last_with_buttons(), "✅ 已付")
        check_hant(t.api.outbox, "", "final messages")


# A Hong Kong table's words (食糊, 出銃, 番, 莊家, 連莊, 雞糊, 爆棚), and the words it says
# otherwise (胡 is 糊 there, 點炮 出銃, 槓上花 槓上開花, 封頂 爆棚, 麻將 麻雀; no 槓上炮).
HONG_KONG_WORDS = ("食糊", "自摸", "出銃", "番", "莊家", "連莊", "雞糊", "爆棚")
NOT_HONG_KONG = ("胡", "點炮", "放炮", "點的炮", "槓上炮", "槓上花", "封頂", "麻將")


async def test_every_reply_of_a_hong_kong_night_in_traditional(tmp_path: Path) -> None:
    """The whole Hong Kong night (tests/handlers/test_hongkong_night.py), every reply as it
    comes, every message a press edited and every alert: Traditional characters and
    punctuation, no English, and Hong Kong's own words."""
    said: list[str] = []

    def heard(replies: list[SentMessage], typed: str, where: str, alerts: list[str]) -> None:
        check_hant(replies, typed, where)
        for text in alerts:
            assert not english_words(text) and not ascii_punctuation(text), (where, text)
            assert not simplified_only(text), (where, text)
        for r in replies:
            for text in (plain(r.text), *(b["text"] for b in r.buttons)):
                body = text.replace(typed, " ") if typed else text
                assert not [w for w in NOT_HONG_KONG if w in body], (where, body)
                said.append(body)
        said.extend(alerts)

    async with handler_table(tmp_path, lang="zh-hk") as t:
        await hong_kong_night_in_traditional(t, heard)
        check_hant(t.api.outbox, "", "the messages as they end")
    everything = "\n".join(said)
    assert [w for w in HONG_KONG_WORDS if w not in everything] == []


BUTTON_NIGHTS = [p for p in sorted((Path(__file__).parents[1] / "bot" / "transcripts" / "buttons")
                                   .glob("*.txt")) if p.stem in ("feibao", "liangfang")]


@pytest.mark.parametrize("path", BUTTON_NIGHTS, ids=[p.stem for p in BUTTON_NIGHTS])
async def test_a_night_by_buttons_in_traditional(path: Path, tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The Chinese nights by buttons, pressed by their zh-Hant labels (the transcripts
    name them in zh-Hans: each label is converted as the catalog converts it)."""
    convert = i18n_hant.converter()

    def find_hant(msg: SentMessage, label: str) -> dict[str, Any]:
        return find_button(msg, convert(label))

    monkeypatch.setattr(guided_play, "find_button", find_hant)
    async with handler_table(tmp_path, lang="zh-tw") as t:
        await play(t, path, typed=False)
        check(t.api.outbox, "", path.name)
        for r in t.api.outbox:
            assert not simplified_only(plain(r.text)), (path.name, plain(r.text))


async def test_commands_and_refusals_in_traditional(tmp_path: Path) -> None:
    """The zh-Hans language test's commands and refusals, at every preset, in a zh-Hant
    chat: /help, /rules, /set, refusals and their examples in Traditional characters."""
    async with handler_table(tmp_path, lang="zh-hk") as t:
        t.admin("alice")
        for command in COMMANDS[:4]:
            check_hant(await t.say("alice", command), command, command)
        for preset in presets():
            check_hant(await t.say("alice", f"/rules {preset}"), preset, f"/rules {preset}")
            check_hant(await t.say("alice", NEW.format(preset=preset)), preset, f"/new {preset}")
            for command in COMMANDS:
                check_hant(await t.say("alice", command), command, f"{preset}: {command}")
            check_hant(await t.say("bob", "/hu bob 自摸"), "", f"{preset}: a win")
            check_hant(await t.say("alice", "/end"), "", f"{preset}: /end")
