"""The golden cases of docs/rules/hongkong.md by their numbers (amounts in HK$, the engine's
points are cents), and the share table of that file, row by row."""

from __future__ import annotations

from typing import Any

import pytest

from engine.errors import ReportError
from engine.models import HandResult, Seat
from engine.rules import ruleset
from engine.settle import parse_report, settle_hand
from engine.share_table import share, share_rows


def win(how: str, winner: str, from_seat: str | None = None, **hand: Any) -> dict[str, Any]:
    ev: dict[str, Any] = {"type": "win", "how": how, "winner": winner, **hand}
    if from_seat:
        ev["from_seat"] = from_seat
    return ev


def dollars(e: float = 0, s: float = 0, w: float = 0, n: float = 0) -> dict[str, int]:
    """Deltas in HK$, as the engine's cents."""
    return {k: round(v * 100) for k, v in {"E": e, "S": s, "W": w, "N": n}.items()}


def settle(overrides: list[str], *events: dict[str, Any], dealer: Seat = "E") -> HandResult:
    return settle_hand(ruleset("hongkong", overrides), parse_report({"events": events}),
                       dealer)


# (case, overrides, events, expected deltas in HK$, next dealer)
CASES: list[tuple[str, list[str], list[dict[str, Any]], dict[str, int], str]] = [
    ("HK1", [], [win("self_draw", "S", fan=3)], dollars(-4, 12, -4, -4), "S"),
    ("HK2", [], [win("discard", "W", "N", fan=3)], dollars(-2, -2, 8, -4), "S"),
    ("HK3", ["payment=full"], [win("discard", "W", "N", fan=3)], dollars(w=8, n=-8), "S"),
    ("HK3-self-draw", ["payment=full"], [win("self_draw", "S", fan=3)],
     dollars(-4, 12, -4, -4), "S"),
    ("HK4", [], [win("self_draw", "E", patterns=["混一色", "對對糊"])],
     dollars(72, -24, -24, -24), "E"),
    ("HK5", [], [win("discard", "N", "S", fan=5)], dollars(-6, -12, -6, 24), "S"),
    ("HK6", ["curve=full_spicy"], [win("discard", "N", "S", fan=5)],
     dollars(-8, -16, -8, 32), "S"),
    ("HK7", ["stake=yierwen", "payment=full", "curve=full_spicy"],
     [win("discard", "W", "E", fan=8)], dollars(e=-1024, w=1024), "S"),
    ("HK8", [], [win("self_draw", "S", patterns=["大四喜"])], dollars(-64, 192, -64, -64), "S"),
    ("HK9-flowers-count", ["flowers_count_min=true"],
     [win("discard", "W", "N", fan=3, flower_fan=1)], dollars(-2, -2, 8, -4), "S"),
    ("HK10", [], [win("self_draw", "N", fan=4, fourth_feeder="W")], dollars(w=-24, n=24), "S"),
    ("HK11", [], [win("rob_kong", "S", "E", fan=3)], dollars(e=-12, s=12), "S"),
    ("HK11-no-bao", ["rob_kong_bao=false"], [win("rob_kong", "S", "E", fan=3)],
     dollars(-4, 8, -2, -2), "S"),
    ("HK12", [], [{"type": "wall_end"}], dollars(), "E"),
    ("HK12-next", ["draw_dealer=next"], [{"type": "wall_end"}], dollars(), "S"),
]
TESTED = {c[0] for c in CASES} | {"HK9"}


@pytest.mark.parametrize(("case", "overrides", "events", "expected", "dealer"), CASES,
                         ids=[c[0] for c in CASES])
def test_golden_hongkong(case: str, overrides: list[str], events: list[dict[str, Any]],
                         expected: dict[str, int], dealer: str) -> None:
    result = settle(overrides, *events)
    assert result.deltas == expected
    assert sum(result.deltas.values()) == 0
    assert result.next_dealer == dealer


def test_HK4_lines_say_each_pattern_the_share_and_each_payment() -> None:
    result = settle([], win("self_draw", "E", patterns=["混一色", "對對糊"]))
    fans = {str(x.params["name"]): x.params["fan"] for x in result.lines if x.code == "pattern"}
    assert fans == {"混一色": 3, "對對糊": 3, "自摸": 1}
    [total] = [x for x in result.lines if x.code == "fan_total"]
    assert total.params["fan"] == 7
    [s] = [x for x in result.lines if x.code == "share"]
    assert s.params == {"seat": "E", "fan": 7, "share": 1200, "stake": "二五雞",
                        "curve": "半辣上"}
    pays = [(x.params["payer"], x.params["amount"], x.params["reason"])
            for x in result.lines if x.code == "pay"]
    assert pays == [("S", 2400, "self_draw"), ("W", 2400, "self_draw"),
                    ("N", 2400, "self_draw")]


def test_HK8_limit_hand_pays_the_cap() -> None:
    result = settle([], win("self_draw", "S", patterns=["big four winds"]))
    codes = [x.code for x in result.lines]
    assert "limit_hand" in codes
    [cap] = [x for x in result.lines if x.code == "cap"]
    assert cap.params == {"seat": "S", "fan": 13, "cap": 10}
    # With the cap at 13 the limit is 13番: 一二蚊's 384 a share is 二五雞's 96.
    result = settle(["cap_fan=13"], win("self_draw", "S", patterns=["大四喜"]))
    assert result.deltas == dollars(-192, 576, -192, -192)


def test_HK9_below_the_minimum_is_refused_and_the_dealer_stays() -> None:
    with pytest.raises(ReportError) as exc:
        settle([], win("discard", "W", "N", fan=2))
    assert exc.value.code == "below_minimum"
    assert exc.value.params["fan"] == 2 and exc.value.params["min"] == 3
    with pytest.raises(ReportError) as exc:
        settle([], win("discard", "W", "N", fan=3, flower_fan=1))
    assert exc.value.code == "below_minimum"
    assert exc.value.params["fan"] == 2 and exc.value.params["flower_fan"] == 1
    # The same hand said by its patterns: 對對糊 off a discard is 3, with no flower 番.
    assert settle([], win("discard", "W", "N", patterns=["對對糊"])).deltas == \
        dollars(-2, -2, 8, -4)
    with pytest.raises(ReportError, match="wins from 3"):
        settle([], win("discard", "W", "N", patterns=["平糊", "門前清"]))
    # Nothing recorded: a refused report has no result; the next hand is still E's deal.
    assert settle([], {"type": "wall_end"}).next_dealer == "E"


def test_HK9_flower_patterns_do_not_count_toward_the_minimum() -> None:
    with pytest.raises(ReportError) as exc:
        settle([], win("discard", "W", "N", patterns=["三元", "門風", "正花"]))
    assert exc.value.params == {"fan": 2, "flower_fan": 1, "min": 3, "seat": "W",
                                "event": 1}
    result = settle(["flowers_count_min=true"],
                    win("discard", "W", "N", patterns=["三元", "門風", "正花"]))
    assert result.deltas == dollars(-2, -2, 8, -4)


# The share table of docs/rules/hongkong.md, HK$, 二五雞 (五一 ×2, 一二蚊 ×4), rows 0–13.
HALF_SPICY = [0.25, 0.5, 1, 2, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96]
FULL_SPICY = [0.25, 0.5, 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048]
TIERS = {"erwuji": 1, "wuyi": 2, "yierwen": 4}
ROWS = [(fan, stake, curve, row[fan] * times)
        for curve, row in (("half_spicy", HALF_SPICY), ("full_spicy", FULL_SPICY))
        for stake, times in TIERS.items() for fan in range(14)]


@pytest.mark.parametrize(("fan", "stake", "curve", "dollars_"), ROWS,
                         ids=[f"{c}-{s}-{f}" for f, s, c, _ in ROWS])
def test_share_table(fan: int, stake: str, curve: str, dollars_: float) -> None:
    assert share(fan, stake, curve) == round(dollars_ * 100)  # type: ignore[arg-type]


@pytest.mark.parametrize(("fan", "stake", "curve", "dollars_"),
                         [r for r in ROWS if r[0] >= 3], ids=[
                             f"{c}-{s}-{f}" for f, s, c, _ in ROWS if f >= 3])
@pytest.mark.parametrize("payment", ["half", "full"])
def test_the_share_table_paid_by_every_scheme(fan: int, stake: str, curve: str,
                                              dollars_: float, payment: str) -> None:
    """Each row settled at cap 13: a self-draw 2 shares from each, a discard 4 in all,
    the discarder's part by the scheme."""
    over = [f"stake={stake}", f"curve={curve}", f"payment={payment}", "cap_fan=13"]
    s = round(dollars_ * 100)
    assert settle(over, win("self_draw", "S", fan=fan)).deltas == \
        {"E": -2 * s, "S": 6 * s, "W": -2 * s, "N": -2 * s}
    off = settle(over, win("discard", "W", "N", fan=fan)).deltas
    if payment == "half":
        assert off == {"E": -s, "S": -s, "W": 4 * s, "N": -2 * s}
    else:
        assert off == {"E": 0, "S": 0, "W": 4 * s, "N": -4 * s}


def test_the_rows_a_table_plays() -> None:
    assert share_rows("erwuji", "half_spicy", 3, 10) == [
        (3, 200), (4, 400), (5, 600), (6, 800), (7, 1200), (8, 1600), (9, 2400), (10, 3200)]
