"""Golden cases for three-player tables (docs/rules/three-players.md, T1 to T15), each
worked out by hand from the rules and checked here through the public settlement API."""

from __future__ import annotations

from typing import Any

import pytest

from engine.errors import ReportError
from engine.rules import ruleset
from engine.settle import parse_report, settle_hand


def win(how: str, winner: str, from_seat: str | None = None, **hand: Any) -> dict[str, Any]:
    ev: dict[str, Any] = {"type": "win", "how": how, "winner": winner, **hand}
    if from_seat:
        ev["from_seat"] = from_seat
    return ev


def kong(seat: str, kind: str, from_seat: str | None = None) -> dict[str, Any]:
    ev: dict[str, Any] = {"type": "kong", "seat": seat, "kind": kind}
    if from_seat:
        ev["from_seat"] = from_seat
    return ev


def wall_end(**players: dict[str, Any]) -> dict[str, Any]:
    return {"type": "wall_end", "players": players}


def d(e: int = 0, s: int = 0, w: int = 0) -> dict[str, int]:
    return {"E": e, "S": s, "W": w}


# (case, preset, overrides, dealer, events, deltas, closed, still in, next dealer or None)
CASES: list[tuple[str, str, list[str], str, list[dict[str, Any]], dict[str, int], bool,
                  str, str | None]] = [
    ("T1", "liangfang", [], "E", [win("self_draw", "S", patterns=["清一色"])],
     d(-8, 16, -8), False, "EW", "S"),
    ("T2", "liangfang", [], "E", [win("discard", "W", "E", patterns=["平胡"])],
     d(e=-1, w=1), False, "ES", "W"),
    ("T3", "liangfang", [], "E", [win("self_draw", "S", patterns=["平胡"]),
                                  win("discard", "W", "E", patterns=["七对"])],
     d(-6, 4, 2), True, "E", "S"),
    ("T4", "liangfang", [], "E", [{"type": "win", "how": "discard", "from_seat": "E",
                                   "winners": [{"seat": "S", "patterns": ["平胡"]},
                                               {"seat": "W", "patterns": ["对对胡"]}]}],
     d(-3, 1, 2), True, "E", "E"),
    ("T5", "liangfang", [], "E", [kong("S", "concealed"), kong("W", "added"),
                                  kong("E", "direct", "S")],
     d(-1, 1, 0), False, "ESW", None),
    ("T6", "liangfang", [], "E", [wall_end(E={"ready": True, "fan": 2})],
     d(4, -2, -2), True, "ESW", "E"),
    ("T8", "sanfang", [], "E", [wall_end(S={"huazhu": True}, E={"ready": True, "fan": 1})],
     d(65, -128, 63), True, "ESW", "E"),
    ("T9", "liangfang", [], "E", [kong("S", "concealed"),
                                  win("self_draw", "E", patterns=["平胡"]),
                                  wall_end(W={"ready": True, "fan": 1})],
     d(4, -3, -1), True, "SW", "E"),
    ("T10", "sanfang", [], "S", [kong("W", "concealed"),
                                 win("after_kong_discard", "S", "W", patterns=["平胡"])],
     d(-2, 4, -2), False, "EW", "S"),
    ("T11", "changsha", ["birds=0", "players=3"], "E", [win("self_draw", "S")],
     d(-2, 3, -1), True, "ESW", "S"),
    ("T12", "changsha", ["players=3"], "E", [win("discard", "S", "W", birds=[5])],
     d(s=2, w=-2), True, "ESW", "S"),
    ("T12b", "changsha", ["players=3"], "E", [win("discard", "S", "W", birds=[4])],
     d(s=1, w=-1), True, "ESW", "S"),
    ("T13", "chengdu", ["players=3", "draw_dealer=next"], "W", [wall_end()],
     d(), True, "ESW", "E"),
]


# Every case above, and the ones tested by a function of their own below.
TESTED = {c[0] for c in CASES} | {"T7", "T14", "T15"}


@pytest.mark.parametrize(
    ("case", "preset", "overrides", "dealer", "events", "expected", "closed", "still_in",
     "next_dealer"),
    CASES, ids=[c[0] for c in CASES])
def test_golden_three(case: str, preset: str, overrides: list[str], dealer: str,
                      events: list[dict[str, Any]], expected: dict[str, int], closed: bool,
                      still_in: str, next_dealer: str | None) -> None:
    rules = ruleset(preset, overrides)
    assert rules.seats == ("E", "S", "W")
    result = settle_hand(rules, parse_report({"events": events}), dealer)  # type: ignore[arg-type]
    assert result.deltas == expected
    assert sum(result.deltas.values()) == 0
    assert all(sum(ev.deltas.values()) == 0 for ev in result.events)
    assert result.open is not closed
    assert "".join(result.still_in) == still_in
    assert result.next_dealer == next_dealer


def test_T7_no_huazhu_with_two_suits() -> None:
    with pytest.raises(ReportError) as err:
        settle_hand(ruleset("liangfang"), parse_report({"events": [
            wall_end(S={"huazhu": True})]}))
    assert err.value.code == "huazhu_two_suits"


def test_T14_feibao_has_no_three_player_form() -> None:
    with pytest.raises(ReportError) as err:
        ruleset("feibao", ["players=3"])
    assert err.value.code == "bad_option_value"


def test_T15_no_north_at_a_table_of_three() -> None:
    for events in ([win("discard", "N", "E")], [win("discard", "S", "N")],
                   [kong("N", "concealed")], [wall_end(N={"ready": True, "fan": 1})]):
        with pytest.raises(ReportError) as err:
            settle_hand(ruleset("sanfang"), parse_report({"events": events}))
        assert err.value.code == "no_such_seat"
    with pytest.raises(ReportError):
        settle_hand(ruleset("sanfang"), parse_report({"events": []}), "N")


def test_four_player_presets_keep_four_seats() -> None:
    for preset in ("chengdu", "sichuan", "yibin", "changsha", "feibao"):
        assert ruleset(preset).seats == ("E", "S", "W", "N")
