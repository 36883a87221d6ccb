"""The points-only preset free (docs/rules/free.md): its examples, and what it refuses."""

from __future__ import annotations

from typing import Any

import pytest

from engine.errors import ReportError
from engine.models import HandResult
from engine.rules import ruleset
from engine.settle import parse_report, settle_hand


def d(e: int = 0, s: int = 0, w: int = 0, n: int = 0) -> dict[str, int]:
    return {"E": e, "S": s, "W": w, "N": n}


def settle(events: list[dict[str, Any]], *overrides: str, dealer: str = "E") -> HandResult:
    result = settle_hand(ruleset("free", list(overrides)), parse_report({"events": events}),
                         dealer)  # type: ignore[arg-type]
    assert sum(result.deltas.values()) == 0
    return result


def refused(events: list[dict[str, Any]], *overrides: str) -> ReportError:
    with pytest.raises(ReportError) as info:
        settle(events, *overrides)
    return info.value


def test_a_win_off_a_discard_the_discarder_pays_the_amount() -> None:
    result = settle([{"type": "win", "how": "discard", "winner": "S", "from_seat": "W",
                      "amount": 8}])
    assert result.deltas == d(s=8, w=-8) and result.next_dealer == "S"
    assert [line.code for line in result.lines] == ["win", "worth_one", "pay"]


def test_a_self_draw_each_pays_the_amount() -> None:
    result = settle([{"type": "win", "how": "self_draw", "winner": "N", "amount": 5}])
    assert result.deltas == d(-5, -5, -5, 15) and result.next_dealer == "S"
    dealer = settle([{"type": "win", "how": "self_draw", "winner": "E", "amount": 4}])
    assert dealer.deltas == d(12, -4, -4, -4) and dealer.next_dealer == "E"


def test_several_winners_off_one_discard() -> None:
    event = {"type": "win", "how": "discard", "from_seat": "E",
             "winners": [{"seat": "S", "amount": 3}, {"seat": "N", "amount": 7}]}
    result = settle([event])
    assert result.deltas == d(e=-10, s=3, n=7) and result.next_dealer == "S"


def test_a_hand_as_amounts() -> None:
    result = settle([{"type": "amounts", "deltas": {"E": 35, "S": -20, "W": -15}}])
    assert result.deltas == d(35, -20, -15, 0) and result.next_dealer == "E"
    assert [line.code for line in result.lines] == ["amounts", "adjusted", "adjusted",
                                                    "adjusted"]
    lost = settle([{"type": "amounts", "deltas": {"E": -35, "S": 20, "W": 15}}])
    assert lost.next_dealer == "S"


def test_amounts_that_do_not_sum_to_zero_are_refused() -> None:
    for deltas in ({"E": 35, "S": -20, "W": -10}, {"E": 0, "S": 0}):
        with pytest.raises(ReportError) as info:
            parse_report({"events": [{"type": "amounts", "deltas": deltas}]})
        assert info.value.code == "bad_report"


def test_numbers_are_bounded() -> None:
    for bad in (0, -3, 1_000_001):
        with pytest.raises(ReportError):
            parse_report({"events": [{"type": "win", "how": "self_draw", "winner": "S",
                                      "amount": bad}]})
    with pytest.raises(ReportError):
        parse_report({"events": [{"type": "amounts", "deltas": {"E": 3_000_001,
                                                                "S": -3_000_001}}]})


def test_what_free_refuses() -> None:
    assert refused([{"type": "win", "how": "self_draw", "winner": "S"}]).code == \
        "needs_amount"
    assert refused([{"type": "win", "how": "self_draw", "winner": "S", "amount": 2,
                     "patterns": ["清一色"]}]).code == "free_amount_only"
    assert refused([{"type": "win", "how": "discard", "winner": "S", "amount": 2}]).code == \
        "needs_from"
    assert refused([{"type": "kong", "seat": "S", "kind": "concealed"}]).code == \
        "kongs_not_paid"
    assert refused([{"type": "penalty", "seat": "S"}]).code == "false_win_unset"
    assert settle([{"type": "penalty", "seat": "S"}], "false_win=5").deltas == d(5, -15, 5, 5)
    # An amount is free's alone: elsewhere it names the family it belongs to.
    with pytest.raises(ReportError) as info:
        settle_hand(ruleset("singapore"), parse_report({"events": [
            {"type": "win", "how": "self_draw", "winner": "S", "amount": 2}]}))
    assert info.value.code == "wrong_family" and info.value.params["family"] == "free"
    with pytest.raises(ReportError) as info:
        settle_hand(ruleset("chengdu"), parse_report({"events": [
            {"type": "amounts", "deltas": {"E": 1, "S": -1}}]}))
    assert info.value.code == "wrong_family"


def test_a_draw_and_three_players() -> None:
    assert settle([{"type": "wall_end"}]).next_dealer == "E"
    assert settle([{"type": "wall_end"}], "draw_dealer=next").next_dealer == "S"
    three = settle_hand(ruleset("free", ["players=3"]), parse_report({"events": [
        {"type": "win", "how": "self_draw", "winner": "W", "amount": 6}]}))
    assert three.deltas == {"E": -6, "S": -6, "W": 12} and three.next_dealer == "S"


@pytest.mark.parametrize(("preset", "field", "value", "family"), [
    ("chengdu", "amount", 8, "free"), ("changsha", "tai", 3, "singapore"),
    ("feibao", "bonus", "cat", "singapore"), ("free", "tai", 2, "singapore"),
])
def test_a_field_of_another_family_is_refused_not_ignored(preset: str, field: str,
                                                           value: Any, family: str) -> None:
    event = {"type": "win", "how": "self_draw", "winner": "S", field: value}
    with pytest.raises(ReportError) as info:
        settle_hand(ruleset(preset), parse_report({"events": [event]}))
    assert info.value.code == "wrong_family"
    assert info.value.params == {"field": field, "family": family, "event": 1}
