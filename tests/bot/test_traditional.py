"""Traditional Chinese (zh-Hant, Hong Kong usage): the catalog is what ``make i18n`` makes
from the zh-Hans one; a zh-Hant chat reads Traditional characters and punctuation with no
English, whether its players type Traditional or Simplified; /lang and a Telegram user's
language_code choose it; the Mini App speaks it."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import opencc
import pytest
from babel.messages.pofile import read_po

from bot.console.fake_api import SentMessage
from bot.delivery.pipeline import pipeline_of as pipeline
from bot.dialogs.grammar import Token, parse_draw, parse_kong, parse_win, seat_resolver
from bot.text import i18n_hant
from bot.text.i18n import normalise_language, t
from bot.text.script import TABLE, fold
from bot.text.words import pattern_name, said
from bot.webapp.strings import strings
from engine.rules import presets
from tests.bot import guided_play
from tests.bot.guided_play import find_button, play
from tests.bot.harness import Table, end_night, plain, table
from tests.bot.test_hongkong_night import hong_kong_night_in_traditional
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
from tests.bot.webapp_harness import app_table, auth, client, init_data, keyed, seated

_TO_HK, _TO_TW = opencc.OpenCC("s2hk"), opencc.OpenCC("s2tw")


def simplified_only(text: str) -> list[str]:
    """Characters of ``text`` that Traditional Chinese writes otherwise (each with the words
    around it): those that OpenCC converts to Hong Kong's standard and to Taiwan's alike
    (群 and 台 stay: Taiwan writes them)."""
    return [text[max(0, i - 4):i + 5] for i, c in enumerate(text)
            if _TO_HK.convert(c) != c and _TO_TW.convert(c) != c]


def check_hant(replies: list[SentMessage], typed: str, where: str) -> None:
    """No English, no ASCII punctuation, no Simplified character (but what was typed)."""
    check(replies, typed, where)
    for r in replies:
        body = plain(r.text).replace(typed, " ") if typed else plain(r.text)
        assert not simplified_only(body), f"{where}: Simplified {simplified_only(body)} in {body!r}"
        for button in r.buttons:
            assert not simplified_only(button["text"]), (where, button["text"])


# The catalog


def test_the_zh_hant_catalog_is_what_make_i18n_makes() -> None:
    """Never edited by hand: a zh-Hans message changed without `make i18n` fails here."""
    assert i18n_hant.TARGET.read_bytes() == i18n_hant.rendered()
    assert Path(TABLE).read_text(encoding="utf-8") == i18n_hant.fold_table()


def test_every_message_has_a_traditional_form_in_hong_kong_usage() -> None:
    with i18n_hant.SOURCE.open("rb") as fh:
        hans = {(m.id, m.context) for m in read_po(fh) if m.id}
    with i18n_hant.TARGET.open("rb") as fh:
        hant = {(m.id, m.context): m.string for m in read_po(fh) if m.id}
    assert hans <= set(hant)
    for key, string in hant.items():
        for s in string if isinstance(string, tuple | list) else (string,):
            assert isinstance(s, str) and s, key
            assert not simplified_only(s), (key, s)
            assert "胡" not in s and "點炮" not in s, (key, s)  # 糊, 出銃 at a Hong Kong table
    assert t("zh-Hant", "Language: {lang}.") == "語言：繁體中文（香港）。"


def test_hong_kong_words() -> None:
    convert = i18n_hant.converter()
    assert convert("bob 胡牌，alice 点炮") == "bob 食糊，alice 出銃"
    assert convert("庄家连庄，杠上开花，鸡胡") == "莊家連莊，槓上開花，雞糊"
    assert convert("封顶 8 番") == "爆棚 8 番"
    assert convert("板板胡，“门清”未开启") == "板板糊，「門清」未開啟"
    assert pattern_name("chengdu", "对对胡 七对", "zh-Hant") == "對對糊 七對"
    assert pattern_name("yibin", "对对胡", "zh-Hant") == "大對子"
    assert pattern_name("chengdu", "对对胡", "zh-Hans") == "对对胡"
    assert said("zh-Hant", "暗杠") == "暗槓" and said("zh-Hans", "暗杠") == "暗杠"


# Reading both scripts


def test_a_word_reads_the_same_in_either_script() -> None:
    assert fold("點炮 槓 聽牌 東南西北 對對糊 出銃 ZiMo") == \
        "点炮 杠 听牌 东南西北 对对胡 出铳 zimo"
    names = {fold(n): seat for n, seat in (("陳大文", "E"), ("bob", "S"), ("carol", "W"),
                                             ("李小龙", "N"))}
    resolve = seat_resolver(names, {})
    assert resolve(Token("陈大文")) == "E" and resolve(Token("李小龍")) == "N"
    win = parse_win([Token(w) for w in ["bob", "出銃", "陳大文", "對對糊", "根1"]], resolve)[0]
    assert win["how"] == "discard" and win["from_seat"] == "E"
    assert win["winners"][0]["patterns"] == ["对对胡"]
    win = parse_win([Token(w) for w in ["carol", "點炮", "bob", "七對", "槓2"]], resolve)[0]
    assert win["from_seat"] == "S" and win["winners"][0]["kongs"] == 2
    assert parse_kong([Token("carol"), Token("暗槓")], resolve)["kind"] == "concealed"
    draw = parse_draw([Token(w) for w in ["bob", "聽", "2,", "carol", "未聽"]], resolve)
    assert draw["players"] == {"S": {"ready": True, "fan": 2}, "W": {"ready": False}}


# Choosing the language


@pytest.mark.parametrize("code", ["zh-hk", "zh-tw", "zh-mo", "zh-hant", "zh-Hant-HK", "zh_TW",
                                  "繁體", "繁体", "廣東話", "广东话", "hk"])
def test_traditional_by_code_or_name(code: str) -> None:
    assert normalise_language(code) == "zh-Hant"


@pytest.mark.parametrize("code", ["zh", "zh-cn", "zh-hans", "zh-sg", "zh-Hans-HK", "简体", "中文"])
def test_simplified_by_code_or_name(code: str) -> None:
    assert normalise_language(code) == "zh-Hans"


@pytest.mark.parametrize("code", ["zh-hk", "zh-tw", "zh-mo", "zh-hant"])
async def test_a_hong_kong_or_taiwan_user_gets_traditional(code: str, tmp_path: Path) -> None:
    async with table(tmp_path, lang=code) as t:
        replies = await t.say("alice", "/new chengdu @alice @bob @carol @dave")
        assert "成都血戰" in plain(replies[0].text)
        check_hant(replies, "", code)


async def test_lang_switches_between_the_scripts(tmp_path: Path) -> None:
    async with table(tmp_path, lang="en") as t:
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


def test_the_mini_app_speaks_traditional() -> None:
    words = strings("zh-Hant")
    assert words["seat_E"] == "東" and words["honors"] == "東南西北白發中"
    assert words["suits"] == "萬筒條" and words["wall_ready"] == "聽"
    assert words["colon"] == "：" and words["lp"] == "（"
    for key, value in words.items():
        assert not simplified_only(value), (key, value)
        assert not english_words(re.sub(r"\{\w+\}", "", value), "Telegram"), (key, value)


# A night in Traditional Chinese


@pytest.mark.parametrize("path", TRANSCRIPTS, ids=[p.stem for p in TRANSCRIPTS])
async def test_a_night_typed_in_simplified_reads_in_traditional(path: Path,
                                                                 tmp_path: Path) -> None:
    """The Chinese transcripts' words, typed in Simplified in a zh-Hant chat: every reply in
    Traditional characters (the zh-Hans checks, and no Simplified character)."""
    async with table(tmp_path, lang="zh-hk") as t:
        assert await play_in_chinese(t, path) >= 5
        typed = " ".join(m.group(2) for line in path.read_text(encoding="utf-8").splitlines()
                         if (m := _SAY.match(line.strip())))
        check(t.api.outbox, "", path.name)
        for r in t.api.outbox:
            body = plain(r.text)
            for word in typed.split():  # what a refusal quotes as it was typed
                body = body.replace(word, " ")
            assert not simplified_only(body), (path.name, simplified_only(body), body)


async def _tap(t: Table, who: str, msg: SentMessage, label: str) -> list[SentMessage]:
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
    async with table(tmp_path, lang="zh-hk") as t:
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
    """The whole Hong Kong night (tests/bot/test_hongkong_night.py), every reply as it
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

    async with table(tmp_path, lang="zh-hk") as t:
        await hong_kong_night_in_traditional(t, heard)
        check_hant(t.api.outbox, "", "the messages as they end")
    everything = "\n".join(said)
    assert [w for w in HONG_KONG_WORDS if w not in everything] == []


BUTTON_NIGHTS = [p for p in sorted((Path(__file__).parent / "transcripts" / "buttons")
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
    async with table(tmp_path, lang="zh-tw") as t:
        await play(t, path, typed=False)
        check(t.api.outbox, "", path.name)
        for r in t.api.outbox:
            assert not simplified_only(plain(r.text)), (path.name, plain(r.text))


async def test_commands_and_refusals_in_traditional(tmp_path: Path) -> None:
    """The zh-Hans language test's commands and refusals, at every preset, in a zh-Hant
    chat: /help, /rules, /set, refusals and their examples in Traditional characters."""
    async with table(tmp_path, lang="zh-hk") as t:
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


async def test_the_mini_app_in_traditional_for_a_hong_kong_user(tmp_path: Path) -> None:
    """The app's words, its form's patterns and kongs, and the win it records, in
    Traditional characters for a zh-hk user; the report it writes is read back."""
    async with app_table(tmp_path, lang="zh-hk") as t, client(t) as c:
        await seated(t)
        h = auth(init_data(t, "bob"))
        me = (await c.get("/app/api/me", headers=h)).json()
        assert me["lang"] == "zh-Hant" and me["strings"]["seat_E"] == "東"
        entry = (await c.get("/app/api/entry", headers=h)).json()
        assert entry["pattern_labels"]["对对胡"] == "對對糊"
        assert "暗槓" in [k["label"] for k in entry["kongs"]]
        form = {"winner": "S", "how": "discard", "from_seat": "E", "patterns": ["七对"]}
        r = await c.post("/app/api/record", headers=h, json=keyed(form))
        assert r.status_code == 200, r.text
        await pipeline(t.app).idle()
        answer = next(plain(m.text) for m in reversed(t.api.outbox) if "七對" in m.text)
        assert "bob" in answer and "alice" in answer, answer
        echo = next(plain(m.text) for m in t.api.outbox if m.text.startswith("📱"))
        assert echo == "📱 bob: /hu bob 出銃 alice 七對"  # the report, as typed
        check_hant([m for m in t.api.outbox if not m.text.startswith("📱")], "", "the app")
