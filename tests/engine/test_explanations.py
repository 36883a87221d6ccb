"""Every settlement's lines add up to its payments: each premium, doubling, bird, cap and
unit has its line, so a player can check the amount from the Details alone. And a pattern
the player named that the house rules do not count is never dropped without a word."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.models import SEATS, EventResult, Line, Seat
from engine.rules import ruleset
from engine.settle import parse_report, settle_hand
from tests.reportgen import random_report

# Presets with the options that change how an amount is made.
RULES = [
    ("chengdu", []), ("chengdu", ["zimo=add_stake", "base=3", "cap_fan=4"]),
    ("sichuan", ["base=2"]), ("yibin", []),
    ("changsha", []), ("changsha", ["birds=2", "bird_mode=add", "base=2"]),
    ("changsha", ["stack_big_wins=false", "birds=4", "dealer_premium=2"]),
    ("changsha", ["birds=6", "bird_origin=winner", "penalty=8", "penalty_dealer=9"]),
    ("feibao", []), ("feibao", ["base=2", "qianggang_mult=3"]),
    ("mcr", []), ("mcr", ["base=2", "mixed_kong=6", "false_win=5"]),
]


def _p(line: Line, key: str) -> Any:
    return line.params[key]


def check_sichuan(ev: EventResult) -> None:
    value: dict[str, int] = {}
    stake: dict[str, int] = {}
    unit = 1
    for line in ev.lines:
        if line.code == "per_unit":
            unit = _p(line, "unit")
        elif line.code == "pay" and _p(line, "reason") == "kong":
            assert _p(line, "amount") in (unit, 2 * unit)  # 补杠 1, 暗杠 and 直杠 2
        elif line.code in ("value", "huazhu_value"):
            value[_p(line, "seat")] = int(_p(line, "points"))
        elif line.code == "zimo_stake":
            stake[_p(line, "seat")] = int(_p(line, "amount"))
        elif line.code == "pay" and _p(line, "reason") == "win":
            payee = _p(line, "payee")
            assert _p(line, "amount") == value[payee] + stake.get(payee, 0), ev.lines
        elif line.code == "pay" and _p(line, "reason") == "huazhu":
            assert _p(line, "amount") == value[_p(line, "payer")], ev.lines
        elif line.code == "pay" and _p(line, "reason") == "chajiao":
            ready = [x for x in ev.lines if x.code == "chajiao"
                     and _p(x, "seat") == _p(line, "payee")]
            assert _p(line, "amount") == _p(ready[0], "points")


def check_changsha(ev: EventResult) -> None:
    worth: dict[tuple[str, str | None], int] = {}
    step: dict[tuple[str, str], int] = {}
    penalty = 0
    for line in ev.lines:
        if line.code == "worth_each":
            worth[_p(line, "seat"), None] = _p(line, "amount")
        elif line.code == "worth_one":
            worth[_p(line, "seat"), _p(line, "payer")] = _p(line, "amount")
        elif line.code == "penalty":
            penalty = _p(line, "amount")
        elif line.code == "penalty_more":
            penalty = _p(line, "total")
        elif line.code in ("dealer_premium", "bird_double", "bird_add"):
            pair = (_p(line, "payer"), _p(line, "payee"))
            before = step.get(pair) or worth.get((pair[1], pair[0])) or worth.get(
                (pair[1], None)) or penalty
            if line.code == "dealer_premium":
                assert _p(line, "total") == before + _p(line, "amount")
            elif line.code == "bird_double":
                assert _p(line, "total") == before * _p(line, "times")
            else:
                assert _p(line, "total") == before + _p(line, "amount")
            step[pair] = _p(line, "total")
        elif line.code == "pay":
            payer, payee = _p(line, "payer"), _p(line, "payee")
            expected = step.get((payer, payee)) or worth.get((payee, payer)) or worth.get(
                (payee, None)) or penalty
            assert _p(line, "amount") == expected, ev.lines


def check_jiangxi(ev: EventResult, unit: int) -> None:
    points: dict[str, int] = {}
    robbed = 1
    threw: dict[str, int] = {}
    for line in ev.lines:
        if line.code == "doubled_value":
            points[_p(line, "seat")] = _p(line, "points")
        elif line.code == "qianggang":
            robbed = _p(line, "mult") * _p(line, "kongs")
        elif line.code == "loser_feibao":
            threw[_p(line, "seat")] = _p(line, "count")
        elif line.code == "pay" and _p(line, "reason") in ("win", "chengbao"):
            v = points[_p(line, "payee")] * robbed
            assert _p(line, "amount") in {v * 2 ** threw.get(s, 0) for s in SEATS}, ev.lines
        elif line.code == "pay" and _p(line, "reason") == "jing":
            scores = [x for x in ev.lines if x.code == "jing"
                      and _p(x, "seat") == _p(line, "payee")]
            assert _p(line, "amount") == _p(scores[0], "score") * unit
    if unit != 1 and any(x.code == "pay" for x in ev.lines):
        assert any(x.code == "per_unit" for x in ev.lines)


def check_mcr(ev: EventResult, unit: int) -> None:
    """The fans add up to the total; each payer owes 8 + fan (or 8) times the unit; under
    the gate the false winner pays the fine to each other player."""
    fans = sum(int(_p(x, "fan")) for x in ev.lines if x.code == "mcr_fan")
    totals = [x for x in ev.lines if x.code == "mcr_total"]
    if totals and fans:  # counted from the tiles (a total given alone lists no fans)
        assert fans == _p(totals[0], "fan"), ev.lines
    owed = {(_p(x, "payer"), _p(x, "payee")): x for x in ev.lines if x.code == "mcr_owes"}
    gate = [x for x in ev.lines if x.code == "mcr_under_gate"]
    for line in ev.lines:
        if line.code == "mcr_owes":
            assert _p(line, "amount") == (_p(line, "base") + _p(line, "fan")) * unit
            assert _p(line, "fan") in (0, _p(totals[0], "fan"))
        elif line.code == "pay" and _p(line, "reason") == "win":
            assert _p(line, "amount") == _p(owed[(_p(line, "payer"), _p(line, "payee"))],
                                            "amount")
        elif line.code == "pay" and _p(line, "reason") == "false_win" and gate:
            assert _p(line, "amount") == _p(gate[0], "amount")
    if unit != 1 and owed:
        assert any(x.code == "per_unit" for x in ev.lines)


@pytest.mark.parametrize(("preset", "overrides"), RULES,
                         ids=[f"{p}-{'-'.join(o) or 'preset'}" for p, o in RULES])
@given(seed=st.integers(0, 2**32))
def test_the_lines_add_up_to_every_payment(preset: str, overrides: list[str],
                                           seed: int) -> None:
    rules = ruleset(preset, overrides)
    dealer = SEATS[seed % 4]
    result = settle_hand(rules, parse_report(random_report(random.Random(seed), rules,
                                                           dealer)), dealer)
    for ev in result.events:
        if rules.family == "sichuan":
            check_sichuan(ev)
        elif rules.family == "changsha":
            check_changsha(ev)
        elif rules.family == "mcr":
            check_mcr(ev, rules.options.base)
        else:
            check_jiangxi(ev, rules.options.base)


def win(how: str, winner: str, from_seat: str | None = None, **hand: Any) -> dict[str, Any]:
    ev: dict[str, Any] = {"type": "win", "how": how, "winner": winner, **hand}
    if from_seat:
        ev["from_seat"] = from_seat
    return ev


def lines_of(preset: str, overrides: list[str], *events: dict[str, Any],
             dealer: Seat = "E") -> list[Line]:
    return list(settle_hand(ruleset(preset, overrides), parse_report({"events": events}),
                            dealer).lines)


def codes(lines: list[Line]) -> list[str]:
    return [line.code for line in lines]


def test_changsha_details_show_the_dealer_premium_and_the_bird() -> None:
    # W wins 清一色 碰碰胡 off E, the dealer; bird 1 lands on E, the discarder.
    lines = lines_of("changsha", [], win("discard", "W", "E", patterns=["清一色", "碰碰胡"],
                                         birds=[1]))
    steps = [line for line in lines if line.code in ("worth_one", "dealer_premium",
                                                      "bird_double", "pay")]
    assert [(x.code, x.params.get("total", x.params.get("amount"))) for x in steps] == [
        ("worth_one", 12), ("dealer_premium", 13), ("bird_double", 26), ("pay", 26)]


def test_changsha_self_draw_each_payer_has_its_own_steps() -> None:
    # S deals; N self-draws a small win; bird 3 (opposite the dealer) lands on N.
    lines = lines_of("changsha", [], win("self_draw", "N", birds=[3]), dealer="S")
    pays = {x.params["payer"]: x.params["amount"] for x in lines if x.code == "pay"}
    assert pays == {"E": 2, "S": 4, "W": 2}
    premium = [x.params["payer"] for x in lines if x.code == "dealer_premium"]
    birds = [x.params["payer"] for x in lines if x.code == "bird_double"]
    assert premium == ["S"] and birds == ["E", "S", "W"]


def test_changsha_big_wins_that_do_not_add_say_so() -> None:
    lines = lines_of("changsha", ["stack_big_wins=false", "birds=0"],
                     win("discard", "W", "N", patterns=["清一色", "七小对"]))
    assert "big_wins_one" in codes(lines)
    assert [x.params["amount"] for x in lines if x.code == "pay"] == [6]


def test_changsha_penalty_with_more_big_wins_shows_the_rest() -> None:
    lines = lines_of("changsha", ["birds=0"], win("rob_kong", "S", "W", patterns=["清一色"]))
    more = next(x for x in lines if x.code == "penalty_more")
    assert more.params["amount"] == 6 and more.params["total"] == 16
    assert [x.params["amount"] for x in lines if x.code == "pay"] == [16]


def test_a_unit_other_than_one_has_its_line() -> None:
    for preset in ("chengdu", "changsha", "feibao"):
        lines = lines_of(preset, ["base=5"], win("self_draw", "S"))
        assert any(x.code == "per_unit" and x.params["unit"] == 5 for x in lines), preset


def test_self_draw_add_stake_has_its_line() -> None:
    lines = lines_of("chengdu", ["zimo=add_stake"], win("self_draw", "S", patterns=["七对"]))
    assert next(x for x in lines if x.code == "zimo_stake").params["amount"] == 1
    assert {x.params["amount"] for x in lines if x.code == "pay"} == {5}  # 4 + 1


def test_huazhu_value_is_shown() -> None:
    lines = lines_of("chengdu", [], {"type": "wall_end", "players": {"W": {"huazhu": True}}})
    value = next(x for x in lines if x.code == "huazhu_value")
    assert value.params == {"seat": "W", "fan": 7, "points": 64}


# -- patterns named but not counted ----------------------------------------------------


def notes(lines: list[Line]) -> list[tuple[str, dict[str, Any]]]:
    return [(x.code, {k: v for k, v in x.params.items() if k != "seat"}) for x in lines
            if x.code.startswith("not_counted")]


@pytest.mark.parametrize(("preset", "overrides", "event", "expected"), [
    # The case, and the same rule for 门清 and in another seat.
    ("chengdu", [], win("self_draw", "N", patterns=["断幺九"]),
     [("not_counted_option", {"name": "断幺九", "option": "menqing_zhongzhang"})]),
    ("chengdu", [], win("discard", "S", "W", patterns=["menqing", "清一色"]),
     [("not_counted_option", {"name": "门清", "option": "menqing_zhongzhang"})]),
    ("chengdu", ["menqing_zhongzhang=true"], win("self_draw", "N", patterns=["断幺九"]), []),
    ("chengdu", ["tiandi_hu=false"], win("self_draw", "E", patterns=["天胡"]),
     [("not_counted_option", {"name": "天胡", "option": "tiandi_hu"})]),
    ("sichuan", ["yaojiu_jiangdui=false"], win("discard", "S", "W", patterns=["将对"]),
     [("not_counted_option", {"name": "将对", "option": "yaojiu_jiangdui"})]),
    ("chengdu", ["longqidui_bonus=false"], win("discard", "S", "W", patterns=["龙七对"]),
     [("not_counted_option", {"name": "龙七对", "option": "longqidui_bonus"})]),
    ("yibin", ["jingoudiao_duidui=false"],
     win("discard", "S", "W", patterns=["金钩钓", "大对子"]),
     [("not_counted_option", {"name": "对对胡", "option": "jingoudiao_duidui"})]),
    # Only the largest base pattern counts in chengdu (3 fan each: the table's first).
    ("chengdu", [], win("discard", "S", "W", patterns=["七对", "带幺九"]),
     [("not_counted_largest", {"name": "七对", "base": "带幺九"})]),
    # A pattern the preset has no fan for.
    ("chengdu", [], win("discard", "S", "W", patterns=["无听用"]),
     [("not_counted_no_value", {"name": "无听用"})]),
    ("sichuan", [], win("self_draw", "S", patterns=["门清", "清对"]),
     [("not_counted_no_value", {"name": "门清"})]),
    ("sichuan", [], win("discard", "S", "W", patterns=["清一色"], fan=3),
     [("not_counted_fan_given", {"name": "清一色", "fan": 3})]),
    # Changsha: what is no big win here, named or said by how the hand was won.
    ("changsha", ["birds=0"], win("discard", "S", "W", patterns=["门清", "清一色"]),
     [("not_counted_no_value", {"name": "门清"})]),
    ("changsha", ["birds=0"], win("after_kong_discard", "S", "W"),
     [("not_counted_no_value", {"name": "杠上炮"})]),
    # Jiangxi: 宝吊 needs a wildcard; one hand type counts.
    ("feibao", ["jing_bonus=false"], win("self_draw", "S", patterns=["七对", "宝吊"],
                                         wild_used=False),
     [("not_counted_no_wild", {"name": "宝吊"})]),
    ("feibao", ["jing_bonus=false"], win("self_draw", "S", patterns=["九幺", "宝吊"],
                                         wild_used=True),
     [("not_counted_no_value", {"name": "宝吊"})]),
    ("feibao", ["jing_bonus=false"], win("self_draw", "S", patterns=["平和", "碰对"],
                                         wild_used=False),
     [("not_counted_largest", {"name": "平和", "base": "碰对"})]),
])
def test_a_named_pattern_that_does_not_count_says_why(
        preset: str, overrides: list[str], event: dict[str, Any],
        expected: list[tuple[str, dict[str, Any]]]) -> None:
    assert notes(lines_of(preset, overrides, event)) == expected


def test_what_counts_is_never_noted() -> None:
    for preset, names in [("chengdu", ["清一色", "对对胡"]), ("sichuan", ["清对", "带幺九"]),
                          ("yibin", ["大对子", "无听用", "碰本金"]),
                          ("changsha", ["豪华七小对", "七小对", "小胡"]),
                          ("feibao", ["七对", "豪华", "单张"])]:
        assert notes(lines_of(preset, [], win("self_draw", "S", patterns=names))) == [], preset
