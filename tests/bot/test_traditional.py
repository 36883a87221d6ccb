"""Traditional Chinese (zh-Hant, Hong Kong usage): the catalog is what ``make i18n`` makes
from the zh-Hans one; both scripts read alike; a language's names and codes choose it; the
Mini App speaks it. (A chat in Traditional Chinese: tests/handlers/test_traditional_chats.py.)"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

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
from tests.bot.harness import plain
from tests.bot.test_language import check, english_words
from tests.bot.webapp_harness import app_table, auth, client, init_data, keyed, seated

_TO_HK, _TO_TW = opencc.OpenCC("s2hk"), opencc.OpenCC("s2tw")


def simplified_only(text: str) -> list[str]:
    """Characters of ``text`` that Traditional Chinese writes otherwise (each with the words
    around it): those that OpenCC converts to Hong Kong's standard and to Taiwan's alike
    (群 and 台 stay: Taiwan writes them)."""
    return [text[max(0, i - 4):i + 5] for i, c in enumerate(text) if _simplified(c)]


@cache
def _simplified(c: str) -> bool:  # (the nights' replies repeat their few hundred characters)
    return bool(_TO_HK.convert(c) != c and _TO_TW.convert(c) != c)


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


def test_the_mini_app_speaks_traditional() -> None:
    words = strings("zh-Hant")
    assert words["seat_E"] == "東" and words["honors"] == "東南西北白發中"
    assert words["suits"] == "萬筒條" and words["wall_ready"] == "聽"
    assert words["colon"] == "：" and words["lp"] == "（"
    for key, value in words.items():
        assert not simplified_only(value), (key, value)
        assert not english_words(re.sub(r"\{\w+\}", "", value), "Telegram"), (key, value)


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
