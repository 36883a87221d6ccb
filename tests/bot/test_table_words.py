"""Issue 31, items 1 and 6: the chat grammar reads reports in the order and the words
players use, and its refusals name the real mistake (the transcripts players_words*.txt
and hints*.txt play the same through the real bot)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.dialogs.grammar import (
    GrammarError,
    Token,
    half_width,
    parse_draw,
    parse_win,
    seat_resolver,
    set_words,
)
from bot.text.words import option_key, value_list

RESOLVE = seat_resolver({"alice": "E", "bob": "S", "carol": "W", "dave": "N", "老王": "W"},
                        {})


def win(text: str) -> dict[str, Any]:
    return parse_win([Token(w) for w in half_width(text).split()], RESOLVE)[0]


def refusal(text: str, parser: Any = parse_win) -> GrammarError:
    with pytest.raises(GrammarError) as err:
        parser([Token(w) for w in half_width(text).split()], RESOLVE)
    return err.value


@pytest.mark.parametrize("text", [
    "bob 七对 alice 点炮", "bob 七对 alice 放炮", "bob 点炮 alice 七对", "bob 接炮 alice 七对",
    "bob 接炮 七对，alice 点炮", "bob 七对，alice 点炮", "点炮 alice bob 七对",
    "点炮 alice，bob 七对", "南 七对 东 点炮", "South 七对 from East", "bob 七对 东家 放炮",
])
def test_the_discarder_before_or_after_the_winner(text: str) -> None:
    event = win(text)
    assert event["how"] == "discard" and event["from_seat"] == "E"
    assert event["winners"] == [{"seat": "S", "patterns": ["七对"]}]


def test_several_winners_then_who_discarded() -> None:
    event = win("bob 七对，老王 平胡，alice 点炮")
    assert event["from_seat"] == "E"
    assert [w["seat"] for w in event["winners"]] == ["S", "W"]


def test_full_width_input_reads_as_ascii() -> None:
    assert half_width("＠ｂｏｂ　根１ ０．５") == "@bob 根1 0.5"
    event = win("＠bob 自摸 平胡 根１")
    assert event["winners"] == [{"seat": "S", "patterns": ["平胡"], "gen": 1}]


@pytest.mark.parametrize(("text", "code"), [
    ("自摸", "hu_winner_first"), ("自摸 bob", "hu_winner_first"),
    ("点炮 alice", "hu_winner_first"), ("zed 自摸", "hu_no_winner"),
    ("bob 点炮", "needs_player"), ("bob 接炮 七对", "needs_player"),
    ("bob 点炮 zed", "hu_not_seated"),
])
def test_who_won_comes_first(text: str, code: str) -> None:
    assert refusal(text).code == code


@pytest.mark.parametrize(("text", "params"), [
    ("bob 自摸 根 一", {"word": "根", "least": 0, "most": 4}),
    ("bob 自摸 根", {"word": "根", "least": 0, "most": 4}),
    ("bob 自摸 番 x", {"word": "番", "least": 1}),
])
def test_a_count_word_alone_says_what_it_takes(text: str, params: dict[str, Any]) -> None:
    err = refusal(text)
    assert err.code == "count_usage" and params.items() <= err.params.items()


def test_a_count_word_apart_from_its_number_is_read_or_bounded() -> None:
    assert win("bob 自摸 根 2")["winners"][0]["gen"] == 2
    err = refusal("bob 自摸 gen 9")
    assert err.code == "number_out_of_range" and err.params["most"] == 4


def test_more_hints_name_the_mistake() -> None:
    err = refusal("bob 自摸 平和 精 alice:1/0")
    assert err.code == "jing_joined" and err.params["example"] == "精=alice:1/0"
    err = refusal("bob 自摸 平胡 本金 0m")
    assert err.code == "no_tile_zero" and err.params["token"] == "0m"
    err = refusal("bob 听 清一色", parse_draw)
    assert err.code == "ready_takes_fan" and err.params["token"] == "清一色"
    assert refusal("bob 清一色", parse_draw).code == "draw_usage"


@pytest.mark.parametrize(("words", "read"), [
    (["封顶", "5"], ["cap_fan=5"]), (["cap_fan", "5"], ["cap_fan=5"]),
    (["底注", "0.5"], ["stake", "0.5"]), (["注", "2"], ["stake", "2"]),
    (["查花猪=否", "fan.清一色=4"], ["huazhu=false", "fan.清一色=4"]),
    (["门清断幺九", "是"], ["menqing_zhongzhang=true"]),
    (["血战到底", "关"], ["blood_battle=false"]),
    (["preset", "yibin"], ["preset", "yibin"]), (["verbose", "on"], ["verbose", "on"]),
])
def test_set_takes_options_by_their_chinese_names(words: list[str], read: list[str]) -> None:
    assert set_words(words) == read


def test_option_names_and_the_range_of_a_number() -> None:
    assert option_key("封顶") == "cap_fan" and option_key("nothing") is None
    assert value_list("zh-Hans", "cap_fan", "a whole number from 1 to 20 or none") \
        .startswith("1 到 20 的整数")
