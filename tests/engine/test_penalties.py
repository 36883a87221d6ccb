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
