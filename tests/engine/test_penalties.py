"""Penalties and adjustments in the engine: zero-sum, explained, per family's reading."""

from __future__ import annotations

from typing import Any

import pytest

from engine.errors import ReportError
from engine.models import Seat
from engine.rules import ruleset
from engine.settle import parse_report, settle_hand

FALSE_WIN = {"events": [{"type": "penalty", "seat": "S", "kind": "false_win"}]}


@pytest.mark.parametrize(("preset", "overrides", "dealer", "want"), [
    # Sichuan: the cap, as 花猪 pays it: chengdu caps at 7 fan = 64 points each.
    ("chengdu", {}, "E", {"E": 64, "S": -192, "W": 64, "N": 64}),
    ("sichuan", {"cap_fan": 3}, "E", {"E": 4, "S": -12, "W": 4, "N": 4}),
    ("sichuan", {"cap_fan": 3, "fan_to_points": "linear"}, "E",
     {"E": 3, "S": -9, "W": 3, "N": 3}),
    # Changsha: a big self-draw (3 each), the dealer's premium where the dealer is paid...
    ("changsha", {}, "E", {"E": 4, "S": -10, "W": 3, "N": 3}),
    # ... or pays: the false winner deals, everyone gets 3 + 1.
    ("changsha", {}, "S", {"E": 4, "S": -12, "W": 4, "N": 4}),
    # Jiangxi: the table's top base value (七对无宝 10 in feibao).
    ("feibao", {}, "E", {"E": 10, "S": -30, "W": 10, "N": 10}),
    # The house rule names the points (times base).
    ("changsha", {"false_win": 5, "base": 2}, "E", {"E": 10, "S": -30, "W": 10, "N": 10}),
])
def test_a_false_win_pays_each_other_player(preset: str, overrides: dict[str, Any],
                                            dealer: Seat, want: dict[str, int]) -> None:
    result = settle_hand(ruleset(preset, overrides), parse_report(FALSE_WIN), dealer)
    assert result.deltas == want and sum(result.deltas.values()) == 0
    assert result.open  # play goes on
    lines = result.events[0].lines
    assert lines[0].code == "false_win" and lines[0].params["seat"] == "S"
    pays = [line for line in lines if line.code == "pay"]
    assert {p.params["payee"]: p.params["amount"] for p in pays} == {
        s: v for s, v in want.items() if s != "S"}
    assert all(p.params["reason"] == "false_win" for p in pays)


def test_an_adjustment_moves_what_it_names_and_play_goes_on() -> None:
    report = {"events": [{"type": "adjust", "deltas": {"E": -10, "S": 10},
                          "reason": "side bet"},
                         {"type": "win", "how": "self_draw", "winner": "S"}]}
    result = settle_hand(ruleset("chengdu"), parse_report(report), "E")
    assert result.events[0].deltas == {"E": -10, "S": 10, "W": 0, "N": 0}
    assert result.events[0].lines[0].params == {"note": "side bet"}


@pytest.mark.parametrize("deltas", [{"E": -10, "S": 11}, {"E": 0, "S": 0},
                                    {"E": -2_000_000, "S": 2_000_000}])
def test_a_bad_adjustment_is_refused(deltas: dict[str, Any]) -> None:
    with pytest.raises(ReportError):
        parse_report({"events": [{"type": "adjust", "deltas": deltas}]})


@pytest.mark.parametrize(("kind", "points", "overrides", "want"), [
    # 错和: the table's false_win (10) to each other player.
    ("false_win", None, {}, {"E": 10, "S": -30, "W": 10, "N": 10}),
    ("false_win", None, {"false_win": 5, "base": 2}, {"E": 10, "S": -30, "W": 10, "N": 10}),
    # A referee's fine for a foul: its points to each other player (times base).
    ("wrong_pung", 5, {}, {"E": 5, "S": -15, "W": 5, "N": 5}),
    ("slow_play", 1, {"base": 2}, {"E": 2, "S": -6, "W": 2, "N": 2}),
    ("shown_tiles", 10, {}, {"E": 10, "S": -30, "W": 10, "N": 10}),
])
def test_an_mcr_penalty_is_a_signed_entry_per_player(
        kind: str, points: int | None, overrides: dict[str, Any], want: dict[str, int]
        ) -> None:
    event: dict[str, Any] = {"type": "penalty", "seat": "S", "kind": kind}
    if points is not None:
        event["points"] = points
    result = settle_hand(ruleset("mcr", overrides), parse_report({"events": [event]}), "E")
    assert result.deltas == want and sum(result.deltas.values()) == 0 and result.open
    lines = result.events[0].lines
    assert lines[0].code == "mcr_penalty" and lines[0].params == {
        "seat": "S", "foul": kind, "amount": want["E"]}
    reason = "mcr_false_win" if kind == "false_win" else "mcr_foul"
    assert {(p.params["payee"], p.params["reason"]) for p in lines if p.code == "pay"} == {
        (s, reason) for s in "EWN"}


def test_after_an_mcr_false_win_the_offender_may_not_win_the_hand() -> None:
    win = {"type": "win", "how": "discard", "from_seat": "W",
           "winners": [{"seat": "S", "mcr": {"fan": 8}}]}
    report = {"events": [{"type": "penalty", "seat": "S", "kind": "false_win"}, win]}
    with pytest.raises(ReportError) as err:
        settle_hand(ruleset("mcr"), parse_report(report), "E")
    assert err.value.code == "mcr_barred"
    # A foul's fine does not bar the offender: the win stands.
    report["events"][0] = {"type": "penalty", "seat": "S", "kind": "wrong_chow", "points": 5}
    result = settle_hand(ruleset("mcr"), parse_report(report), "E")
    assert result.deltas == {"E": -3, "S": 17, "W": -11, "N": -3} and not result.open


@pytest.mark.parametrize(("preset", "event", "code"), [
    ("mcr", {"kind": "wrong_pung"}, "mcr_fine_points"),  # a foul names its fine
    ("mcr", {"kind": "false_win", "points": 5}, "mcr_false_win_points"),
    ("chengdu", {"kind": "wrong_pung", "points": 5}, "wrong_family"),  # MCR's fouls only
    ("chengdu", {"kind": "false_win", "points": 5}, "wrong_family"),
])
def test_a_penalty_that_does_not_fit_is_refused(preset: str, event: dict[str, Any],
                                                code: str) -> None:
    report = {"events": [{"type": "penalty", "seat": "S", **event}]}
    with pytest.raises(ReportError) as err:
        settle_hand(ruleset(preset), parse_report(report), "E")
    assert err.value.code == code
