"""The chat grammar, table-driven: what players type and the event it becomes."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.dialogs.grammar import (
    GrammarError,
    Token,
    parse_draw,
    parse_kong,
    parse_stake,
    parse_starting,
    parse_win,
    seat_resolver,
)

RESOLVE = seat_resolver({"alice": "E", "bob": "S", "carol": "W", "dave": "N"}, {77: "N"})


def toks(text: str) -> list[Token]:
    return [Token(w) for w in text.split()]


@pytest.mark.parametrize(("text", "event"), [
    ("bob 自摸 清一色 根2", {"how": "self_draw", "winners": [
        {"seat": "S", "patterns": ["清一色"], "gen": 2}]}),
    ("@bob zimo qingyise", {"how": "self_draw", "winners": [
        {"seat": "S", "patterns": ["qingyise"]}]}),
    ("bob from carol 七对", {"how": "discard", "from_seat": "W", "winners": [
        {"seat": "S", "patterns": ["七对"]}]}),
    ("bob 点炮 carol", {"how": "discard", "from_seat": "W", "winners": [
        {"seat": "S", "patterns": []}]}),
    ("alice rob dave 平胡", {"how": "rob_kong", "from_seat": "N", "winners": [
        {"seat": "E", "patterns": ["平胡"]}]}),
    ("bob 七对, dave 平胡 from carol", {"how": "discard", "from_seat": "W", "winners": [
        {"seat": "S", "patterns": ["七对"]}, {"seat": "N", "patterns": ["平胡"]}]}),
    ("bob 杠上花 from carol 杠1", {"how": "kong_replacement", "from_seat": "W", "winners": [
        {"seat": "S", "patterns": [], "kongs": 1}]}),
    ("bob 杠上炮 carol", {"how": "after_kong_discard", "from_seat": "W", "winners": [
        {"seat": "S", "patterns": []}]}),
    ("bob 自摸 鸟3 bird5", {"how": "self_draw", "birds": [3, 5], "winners": [
        {"seat": "S", "patterns": []}]}),
    # Several birds in one word, with an ASCII or a Chinese comma: not two winners.
    ("bob 点炮 carol 清一色 鸟1,5", {"how": "discard", "from_seat": "W", "birds": [1, 5],
                                "winners": [{"seat": "S", "patterns": ["清一色"]}]}),
    ("bob 自摸 鸟1，5、9", {"how": "self_draw", "birds": [1, 5, 9], "winners": [
        {"seat": "S", "patterns": []}]}),
    ("bob 自摸 1111m 23456789m 55m", {"how": "self_draw", "winners": [
        {"seat": "S", "patterns": [], "tiles": "1111m 23456789m 55m"}]}),
    ("bob 自摸 55p [111m] [2222s]", {"how": "self_draw", "winners": [
        {"seat": "S", "patterns": [], "tiles": "55p", "melds": ["111m", "2222s"]}]}),
    ("bob 自摸 平和 有宝 飞宝2 承包 alice jing=bob:1/0,dave:0/2",
     {"how": "self_draw", "jing": {"S": [1, 0], "N": [0, 2]}, "winners": [
         {"seat": "S", "patterns": ["平和"], "wild_used": True, "feibao": 2, "feeder": "E"}]}),
    ("S 自摸 3番", {"how": "self_draw", "winners": [{"seat": "S", "patterns": [], "fan": 3}]}),
    # What only the buttons could say before: losers' 飞宝, 第四凑, kongs robbed at once.
    ("bob 自摸 飞宝=alice:1,carol:2 承包 alice 第四凑 dave",
     {"how": "self_draw", "loser_feibao": {"E": 1, "W": 2}, "winners": [
         {"seat": "S", "patterns": [], "feeder": "E", "fourth_feeder": "N"}]}),
    ("bob rob carol 连抢2", {"how": "rob_kong", "from_seat": "W", "robbed_kongs": 2,
                            "winners": [{"seat": "S", "patterns": []}]}),
])
def test_win_grammar(text: str, event: dict[str, Any]) -> None:
    parsed, _indicator = parse_win(toks(text), RESOLVE)
    assert parsed == {"type": "win", **event}


def test_indicator_and_text_mentions() -> None:
    event, indicator = parse_win([Token("Dave", 77), Token("自摸"), Token("本金"), Token("5p")],
                                 RESOLVE)
    assert event["winners"][0]["seat"] == "N" and indicator == "5p"


@pytest.mark.parametrize(("text", "code"), [
    ("", "hu_empty"),
    ("zed 自摸", "hu_no_winner"),
    ("bob 清一色", "hu_no_how"),
    ("bob from", "needs_player"),
    ("bob from 七对", "needs_player"),
    ("bob 点炮 清一色 carol", "needs_player"),
    ("bob 杠上炮 5p", "needs_player"),
    # Someone named who is not at the table (left it, or never sat): said as that.
    ("bob rob zed", "hu_not_seated"),
    ("bob 点炮 zed 平胡", "hu_not_seated"),
    ("bob 杠上炮 zed", "hu_not_seated"),
    ("bob 抢杠 @zed", "hu_not_seated"),
    ("bob 海底炮 zed", "hu_not_seated"),
    ("bob 清一色 haidipao zed", "hu_not_seated"),
    ("bob 自摸 承包 zed", "hu_not_seated"),
    ("bob 自摸 jing=zed:1/1", "hu_not_seated"),
    ("bob 自摸 飞宝=zed:1", "hu_not_seated"),
    ("bob 自摸 本金", "needs_tile"),
    ("bob 自摸 jing=zed", "bad_jing"),
    ("bob 自摸 飞宝=:1", "needs_player"),
    ("bob 自摸 承包 alice 第四凑", "needs_player"),
])
def test_win_grammar_mistakes(text: str, code: str) -> None:
    with pytest.raises(GrammarError) as err:
        parse_win(toks(text), RESOLVE)
    assert err.value.code == code


@pytest.mark.parametrize(("text", "event"), [
    # 海底炮 <who>, like 杠上炮 <who>; in any spelling, in any place of the report.
    ("carol 海底炮 bob", {"how": "discard", "from_seat": "S", "winners": [
        {"seat": "W", "patterns": ["海底炮"]}]}),
    ("carol 清一色 haidipao dave", {"how": "discard", "from_seat": "N", "winners": [
        {"seat": "W", "patterns": ["清一色", "haidipao"]}]}),
    ("carol from bob 海底炮", {"how": "discard", "from_seat": "S", "winners": [
        {"seat": "W", "patterns": ["海底炮"]}]}),
    # 海底捞月 is a self-draw by what it is.
    ("bob 海底捞月", {"how": "self_draw", "winners": [{"seat": "S", "patterns": ["海底捞月"]}]}),
    ("bob haidi 清一色", {"how": "self_draw", "winners": [
        {"seat": "S", "patterns": ["haidi", "清一色"]}]}),
    # 无宝 / 有宝 as players say them, also written onto a pattern or in English words.
    ("bob 自摸 wubao 碰对", {"how": "self_draw", "winners": [
        {"seat": "S", "patterns": ["碰对"], "wild_used": False}]}),
    ("bob 自摸 七对无宝", {"how": "self_draw", "winners": [
        {"seat": "S", "patterns": ["七对"], "wild_used": False}]}),
    ("bob 自摸 碰对有宝", {"how": "self_draw", "winners": [
        {"seat": "S", "patterns": ["碰对"], "wild_used": True}]}),
    ("bob seven pairs no bao self draw", {"how": "self_draw", "winners": [
        {"seat": "S", "patterns": ["seven pairs"], "wild_used": False}]}),
    ("bob self draw all pongs with bao", {"how": "self_draw", "winners": [
        {"seat": "S", "patterns": ["all pongs"], "wild_used": True}]}),
    ("bob 自摸 terminals and honors without bao", {"how": "self_draw", "winners": [
        {"seat": "S", "patterns": ["terminals and honors"], "wild_used": False}]}),
    # "no wild" stays Yibin's 无听用 (its English name).
    ("bob 自摸 no wild", {"how": "self_draw", "winners": [
        {"seat": "S", "patterns": ["no wild"]}]}),
])
def test_the_names_players_use(text: str, event: dict[str, Any]) -> None:
    parsed, _indicator = parse_win(toks(text), RESOLVE)
    assert parsed == {"type": "win", **event}


@pytest.mark.parametrize(("word", "kind"), [
    ("巴杠", "added"), ("弯杠", "added"), ("面下杠", "added"), ("bagang", "added"),
    ("补杠", "added"), ("碰杠", "added"), ("暗杠", "concealed"), ("直杠", "direct"),
])
def test_every_name_of_a_kong(word: str, kind: str) -> None:
    assert parse_kong(toks(f"bob {word}"), RESOLVE) == {"type": "kong", "seat": "S",
                                                        "kind": kind}
    assert parse_kong(toks("bob 点杠 carol"), RESOLVE)["kind"] == "direct"


def test_kong_draw_starting_stake() -> None:
    assert parse_kong(toks("bob 直杠 from carol"), RESOLVE) == {
        "type": "kong", "seat": "S", "kind": "direct", "from_seat": "W"}
    assert parse_kong(toks("bob 暗杠"), RESOLVE)["kind"] == "concealed"
    with pytest.raises(GrammarError):
        parse_kong(toks("bob"), RESOLVE)
    assert parse_draw(toks("alice 花猪, bob 听 3, carol 1112345678999m, dave 未听"),
                      RESOLVE) == {"type": "wall_end", "players": {
        "E": {"huazhu": True}, "S": {"ready": True, "fan": 3},
        "W": {"ready": True, "tiles": "1112345678999m"}, "N": {"ready": False}}}
    with pytest.raises(GrammarError):
        parse_draw(toks("alice 飞"), RESOLVE)
    assert parse_starting(toks("bob 板板胡 缺一色"), RESOLVE)["kinds"] == ["板板胡", "缺一色"]
    assert parse_stake("0.5") == 50 and parse_stake("2") == 200 and parse_stake("¥1.25") == 125
    with pytest.raises(GrammarError):
        parse_stake("lots")


words = st.sampled_from(["bob", "alice", "zed", "自摸", "from", "rob", "杠上花", "杠上炮",
                         "七对", "根2", "鸟3", "123m", "[111m]", ",", "本金", "5p", "有宝",
                         "承包", "jing=bob:1/1", "番2", "飞宝1", "x", "@carol", "S",
                         "海底炮", "海底捞月", "no", "bao", "七对无宝", "巴杠", "self", "draw"])


@given(st.lists(words, max_size=10))
def test_any_words_parse_or_raise_a_grammar_error(ws: list[str]) -> None:
    for parser in (parse_win, parse_kong, parse_draw, parse_starting):
        try:
            parser([Token(w) for w in ws], RESOLVE)
        except GrammarError as exc:
            assert exc.code
