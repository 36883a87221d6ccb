"""The table's own words (docs/usage.md, "Words the bot uses"): every catalog says a night,
a hand, the stake and a deal-in one way, and Changsha's values in its own words. A message
outside the vocabulary fails here, unless the allow-list says why it is different."""

from __future__ import annotations

import re

import pytest
from babel.messages.pofile import read_po

from bot.text.i18n import LOCALES


def _catalog(folder: str) -> dict[str, list[str]]:
    """msgid (its first form) -> the text shown: the msgstrs, or the msgid in English."""
    with (LOCALES / folder / "LC_MESSAGES" / "tally.po").open("rb") as fh:
        cat = read_po(fh)
    out: dict[str, list[str]] = {}
    for m in cat:
        if not m.id:
            continue
        ids = list(m.id) if isinstance(m.id, tuple | list) else [m.id]
        strings = list(m.string) if isinstance(m.string, tuple | list) else [m.string]
        shown = [s for s in strings if s] or ids
        out[ids[0]] = shown
    return out


# (what the word wrongly means, the pattern, msgids where it is legitimately different)
ZH_HANS: list[tuple[str, str, set[str]]] = [
    ("局 for a night or a hand (a night is 场, a hand 盘; 流局 is the wall's end)",
     r"(?<!流)局", set()),
    ("牌局/对局 for a night", r"牌局|对局", set()),
    ("每分 or 注 for the stake (底注; 注码 is a Hong Kong table's tier)",
     r"每分|(?<!底)注(?!码)", set()),
    ("底分 for the stake (only a Jiangxi hand's base value is 底分)", r"底分",
     {"{seat}: {name} ({wild}) base value {value}", "{seat}: {name} counted in the base value",
      "{seat}: {value} x {times} = {points} points", "Points per unit",
      "{seat}: {value} x {times} = {points} point", "one base more from each", "adds one base",
      "Self-draw only; 精/宝 wildcards; base values doubled by each extra; kong points; 精 "
      "reward."}),
    ("副露, a Japanese-mahjong word (吃碰杠)", r"副露", set()),
    ("手 for a hand (最大一手, 这一手: a hand is 盘; 一手牌 is the tiles held)",
     r"[一这]手(?!牌)", set()),
    ("放炮 for a deal-in (点炮; 放炮 is read, never written)", r"放炮", set()),
    ("两清 for square (结清)", r"两清", set()),
    ("a language code in a Chinese answer", r"zh-Hans|zh_Hans", set()),
]


def _offending(catalog: dict[str, list[str]], pattern: str, allowed: set[str]
               ) -> list[tuple[str, str]]:
    found = re.compile(pattern)
    return [(msgid, s) for msgid, shown in catalog.items() for s in shown
            if found.search(s) and msgid not in allowed]


@pytest.mark.parametrize(("what", "pattern", "allowed"), ZH_HANS, ids=[w[1] for w in ZH_HANS])
def test_the_simplified_catalog_keeps_to_the_vocabulary(what: str, pattern: str,
                                                        allowed: set[str]) -> None:
    assert _offending(_catalog("zh_Hans"), pattern, allowed) == [], what


def test_changsha_counts_big_wins_never_fan() -> None:
    """A message about Changsha's big or small wins never counts them in 番."""
    zh = _catalog("zh_Hans")
    says_so = {"Changsha counts big wins, never fan: name them (/hu bob 自摸 清一色 碰碰胡), "
               "or none for a small win. Nothing was recorded."}  # 番 named to refuse it
    wrong = [(k, s) for k, shown in zh.items() for s in shown
             if re.search(r"大胡|小胡", s) and re.search(r"(?<!番型)番(?!型)", s)
             and k not in says_so]
    assert wrong == []
    asked = zh["Big wins for {player}? None is a small win."]
    assert asked == ["{player} 有哪些大胡？不选就是小胡。"]


def test_the_hong_kong_catalog_says_its_own_words() -> None:
    """zh-Hant is made from zh-Hans with Hong Kong's words: the discarder is 出銃, never
    點炮; a night and a hand keep 場 and 盤."""
    hant = _catalog("zh_Hant")
    assert _offending(hant, r"點炮|放炮|副露|每分", set()) == []
    assert hant["From whom"] == ["出銃者"]
    assert hant["Night {number}"] == ["第 {number} 場"]
    assert hant["Stake"] == ["底注"]


ENGLISH: list[tuple[str, str, set[str]]] = [
    ("session or game for a night", r"(?i)\b(sessions?|games?)\b", set()),
    ("a stake said as 'N a point' or a rate", r"(?i)\{stake\} a point|\brate\b", set()),
    ("round for a night (an MCR match's round is its own word)", r"(?i)\brounds?\b",
     {"Match: {round}, hand {hand} of 4 ({number} of 16). Seat winds: {winds}.",
      "East round", "South round", "West round", "North round"}),
]


@pytest.mark.parametrize(("what", "pattern", "allowed"), ENGLISH, ids=[w[1] for w in ENGLISH])
def test_the_english_catalog_keeps_to_the_vocabulary(what: str, pattern: str,
                                                     allowed: set[str]) -> None:
    assert _offending(_catalog("en"), pattern, allowed) == [], what


def test_the_vocabulary_is_written_down() -> None:
    """docs/usage.md lists the words the test holds the catalogs to."""
    usage = (LOCALES.parents[2] / "docs" / "usage.md").read_text(encoding="utf-8")
    table = usage.split("### Words the bot uses", 1)[1].split("\n## ", 1)[0]
    for word in ("场", "盘", "底注", "点炮", "大胡", "小胡", "night", "hand", "stake",
                 "deal-in", "出銃"):
        assert word in table, word


@pytest.mark.parametrize("lang", ["zh-Hans", "zh-Hant"])
def test_the_mini_app_says_the_same_words(lang: str) -> None:
    """The Mini App's words come from the catalogs: a night is 场, melds are no 副露."""
    from bot.webapp.strings import strings

    said = strings(lang)
    wrong = {k: v for k, v in said.items()
             if re.search(r"(?<!流)局|副露|每分|放炮|點炮", v)}
    assert wrong == {}
    assert said["night_n"] in ("第 {n} 场", "第 {n} 場")
    assert said["stake"] == "底注"
