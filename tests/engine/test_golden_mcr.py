"""The golden cases of docs/rules/mcr.md (GB1 to GB12), through the public settlement
API: the fans listed, the total, and every seat's change (dealer E)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.errors import ReportError
from engine.rules import ruleset
from engine.settle import parse_report, settle_hand


def meld(tiles: str, from_seat: str | None = None, added: bool = False) -> dict[str, Any]:
    m: dict[str, Any] = {"tiles": tiles, "from_seat": from_seat}
    if added:
        m["added"] = True
    return m


def win(how: str, winner: str, from_seat: str | None, standing: str, tile: str,
        melds: list[dict[str, Any]] | None = None, **extra: Any) -> dict[str, Any]:
    ev: dict[str, Any] = {"type": "win", "how": how, "winner": winner,
                          "mcr": {"standing": standing, "winning_tile": tile,
                                  "melds": melds or [], **extra}}
    if from_seat:
        ev["from_seat"] = from_seat
    return ev


def d(e: int, s: int, w: int, n: int) -> dict[str, int]:
    return {"E": e, "S": s, "W": w, "N": n}


# (case, overrides, event, fans listed as name -> fan, expected deltas)
CASES: list[tuple[str, list[str], dict[str, Any], dict[str, int], dict[str, int]]] = [
    ("GB1", [], win("discard", "S", "W", "55m 456p 23789s", "4s", [meld("123m", "E")]),
     {"花龙": 8, "平和": 2}, d(-8, 34, -18, -8)),
    ("GB2", [], win("self_draw", "E", None, "1234556677899p", "9p"),
     {"清一色": 24, "清龙": 16, "不求人": 4, "平和": 2}, d(162, -54, -54, -54)),
    ("GB3", [], win("discard", "N", "E", "1199m 5577p 33s 东东白", "白"),
     {"七对": 24, "五门齐": 6}, d(-38, -8, -8, 54)),
    ("GB4", [], win("self_draw", "W", None, "19m 19p 19s 东南西北白发中", "1m"),
     {"十三幺": 88, "自摸": 1}, d(-97, -97, 291, -97)),
    ("GB5", [], win("discard", "E", "S", "147m 258p 369s 东南西发", "中"),
     {"全不靠": 12, "组合龙": 12}, d(48, -32, -8, -8)),
    ("GB6", [], win("discard", "S", "N", "234m 55p 白白", "白",
                    [meld("中中中", "E"), meld("发发发", "N")]),
     {"大三元": 88, "缺一门": 1}, d(-8, 113, -8, -97)),
    ("GB7", [], win("discard", "N", "W", "33m 44p 555s", "3m",
                    [meld("222m", "E"), meld("888p", "S")], flowers=4),
     {"碰碰和": 6, "断幺": 2, "花牌": 4}, d(-8, -8, -20, 36)),
    ("GB9", [], win("self_draw", "W", None, "999m 234p 东", "东",
                    [meld("5555s"), meld("1111p", "S")]),
     {"明暗杠": 5, "双暗刻": 2, "幺九刻": 2, "单钓将": 1, "自摸": 1}, d(-19, -19, 57, -19)),
    ("GB9-6", ["mixed_kong=6"], win("self_draw", "W", None, "999m 234p 东", "东",
                                    [meld("5555s"), meld("1111p", "S")]),
     {"明暗杠": 6, "双暗刻": 2, "幺九刻": 2, "单钓将": 1, "自摸": 1}, d(-20, -20, 60, -20)),
    ("GB10", [], win("discard", "E", "N", "12345678p 55s", "9p", [meld("东东东", "S")]),
     {"清龙": 16, "圈风刻": 2, "门风刻": 2, "缺一门": 1}, d(45, -8, -8, -29)),
    ("GB11", [], win("rob_kong", "S", "W", "567m 78p 33999s", "6p", [meld("234m", "E")]),
     {"抢杠和": 8, "连六": 1, "幺九刻": 1, "无字": 1}, d(-8, 35, -19, -8)),
    ("GB12", [], win("kong_replacement", "N", None, "678m 7899s", "9s",
                     [meld("2222p", "W"), meld("456m", "W")]),
     {"杠上开花": 8, "明杠": 1, "无字": 1}, d(-18, -18, -18, 54)),
]


def _fans(lines: tuple[Any, ...]) -> dict[str, int]:
    return {str(x.params["zh"]): int(x.params["fan"]) for x in lines if x.code == "mcr_fan"}


@pytest.mark.parametrize(("case", "overrides", "event", "fans", "deltas"), CASES,
                         ids=[c[0] for c in CASES])
def test_golden_case(case: str, overrides: list[str], event: dict[str, Any],
                     fans: dict[str, int], deltas: dict[str, int]) -> None:
    result = settle_hand(ruleset("mcr", overrides), parse_report({"events": [event]}))
    assert _fans(result.lines) == fans, case
    assert result.deltas == deltas, case
    assert sum(result.deltas.values()) == 0
    assert not result.open and result.next_dealer == "S"  # no 连庄


def test_GB8_under_the_gate_is_a_false_win() -> None:
    """平和 断幺 喜相逢 连六 = 6 without flowers (10 with 4): a 错和, never a win."""
    event = win("discard", "E", "S", "567m 456p 2267s", "5s", [meld("234m", "N")], flowers=4)
    result = settle_hand(ruleset("mcr"), parse_report({"events": [event]}))
    assert result.deltas == d(-30, 10, 10, 10)
    assert _fans(result.lines) == {"平和": 2, "断幺": 2, "喜相逢": 1, "连六": 1, "花牌": 4}
    gate = [x for x in result.lines if x.code == "mcr_under_gate"]
    assert gate and gate[0].params["fan"] == 6 and gate[0].params["gate"] == 8
    assert result.open  # the hand goes on ...
    again = parse_report({"events": [event, {**event, "mcr": {**event["mcr"], "flowers": 0}}]})
    with pytest.raises(ReportError) as err:  # ... and the offender may not win in it
        settle_hand(ruleset("mcr"), again)
    assert err.value.code == "mcr_barred"


def test_GB8_false_win_fine_is_the_option() -> None:
    event = win("discard", "E", "S", "567m 456p 2267s", "5s", [meld("234m", "N")], flowers=4)
    result = settle_hand(ruleset("mcr", ["false_win=5"]), parse_report({"events": [event]}))
    assert result.deltas == d(-15, 5, 5, 5)


def test_fan_count_alone_pays_and_keeps_the_gate() -> None:
    counted = {"type": "win", "how": "discard", "winner": "S", "from_seat": "W",
               "mcr": {"fan": 12, "flowers": 4}}
    result = settle_hand(ruleset("mcr"), parse_report({"events": [counted]}))
    assert result.deltas == d(-8, 36, -20, -8)
    under = {**counted, "mcr": {"fan": 11, "flowers": 4}}
    result = settle_hand(ruleset("mcr"), parse_report({"events": [under]}))
    assert result.deltas == d(10, -30, 10, 10)


def test_claimed_total_is_checked_against_the_tiles() -> None:
    event = win("discard", "S", "W", "55m 456p 23789s", "4s", [meld("123m", "E")], fan=11)
    with pytest.raises(ReportError) as err:
        settle_hand(ruleset("mcr"), parse_report({"events": [event]}))
    assert err.value.code == "mcr_fan_mismatch"


@pytest.mark.parametrize(("event", "code"), [
    (win("discard", "S", "W", "55m 456p 23789s", "4s", [meld("123m", "W")]), "mcr_chow_from"),
    (win("discard", "N", "W", "33m 44p 555s", "3m", [meld("222m"), meld("888p", "S")]),
     "mcr_pung_from"),
    (win("self_draw", "N", None, "33m 44p 555s", "3m", [meld("222m", "E"),
                                                        meld("888p", "S")], last_tile=True),
     "mcr_last_tile_held"),
    (win("kong_replacement", "N", None, "33m 44p 555s", "3m",
         [meld("222m", "E"), meld("888p", "S")]), "mcr_replacement_without_kong"),
    (win("rob_kong", "N", "W", "33m 44p 555s", "3m", [meld("222m", "E"), meld("888p", "S")]),
     "mcr_rob_held_tile"),
    (win("discard", "S", "W", "55m 456p 2378s", "4s", [meld("123m", "E")]), "mcr_tile_count"),
    (win("discard", "S", "W", "55m 456p 23788s", "4s", [meld("123m", "E")]), "mcr_not_a_win"),
])
def test_contradictions_are_refused(event: dict[str, Any], code: str) -> None:
    with pytest.raises(ReportError) as err:
        settle_hand(ruleset("mcr"), parse_report({"events": [event]}))
    assert err.value.code == code


TESTED = {c[0] for c in CASES} | {"GB8"}


def test_knitted_straight_waits_option() -> None:
    """7m closes 789m and also stands in the 组合龙 147m 258p 369s: 边张 only with
    ``knitted_straight_waits = true`` (pymahjonggb's build), not by default."""
    event = win("discard", "S", "W", "147m 258p 369s 89m 55s", "7m")
    plain = settle_hand(ruleset("mcr"), parse_report({"events": [event]}))
    ecs = settle_hand(ruleset("mcr", ["knitted_straight_waits=true"]),
                      parse_report({"events": [event]}))
    assert _fans(ecs.lines) == {**_fans(plain.lines), "边张": 1}
    assert "组合龙" in _fans(plain.lines) and "边张" not in _fans(plain.lines)


def test_a_penalty_event_is_the_false_win_fine() -> None:
    report = parse_report({"events": [{"type": "penalty", "seat": "W"}]})
    assert settle_hand(ruleset("mcr"), report).deltas == d(10, 10, -30, 10)
    assert settle_hand(ruleset("mcr", ["false_win=20", "base=2"]), report).deltas == \
        d(40, 40, -120, 40)


def _count(fan: int, patterns: list[str], flowers: int = 0) -> dict[str, Any]:
    return {"events": [{"type": "win", "how": "discard", "from_seat": "W", "winners": [
        {"seat": "S", "patterns": patterns, "mcr": {"fan": fan, "flowers": flowers}}]}]}


def test_a_fan_count_lists_the_fans_it_names_by_both_names() -> None:
    result = settle_hand(ruleset("mcr"), parse_report(_count(16, ["花龙", "all pungs"], 2)),
                         "E")
    fans = [(line.params["zh"], line.params["en"], line.params["fan"])
            for line in result.events[0].lines if line.code == "mcr_fan"]
    assert fans == [("花龙", "Mixed Straight", 8), ("碰碰和", "All Pungs", 6)]
    assert result.deltas == {"E": -8, "S": 40, "W": -24, "N": -8}


def test_a_fan_count_may_not_name_more_fan_than_it_counts() -> None:
    with pytest.raises(ReportError) as err:  # 清一色 24 in a count of 12
        settle_hand(ruleset("mcr"), parse_report(_count(12, ["清一色"])), "E")
    assert err.value.code == "mcr_named_over_fan"
    assert err.value.params["named"] == 24 and err.value.params["fan"] == 12
