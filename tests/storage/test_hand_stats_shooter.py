"""Who dealt in: at a Singapore table without the shooter rule the two players who did
not discard pay too, yet only the discarder dealt in."""

from __future__ import annotations

import pytest

from engine.rules import ruleset
from engine.settle import parse_report, settle_hand
from storage.services.hand_stats import seat_facts


@pytest.mark.parametrize("shooter", [True, False])
def test_only_the_discarder_dealt_in(shooter: bool) -> None:
    rules = ruleset("singapore", {"shooter": shooter})
    report = parse_report({"events": [{"type": "win", "how": "discard", "from_seat": "W",
                                       "winners": [{"seat": "S", "tai": 2}]}]})
    facts = seat_facts(settle_hand(rules, report, "E"))
    assert {s: f.dealt_in for s, f in facts.items()} == {"E": 0, "S": 0, "W": 1, "N": 0}
    assert facts["S"].won == 1 and facts["S"].win_points == 160


def test_a_self_draw_deals_nobody_in() -> None:
    report = parse_report({"events": [{"type": "win", "how": "self_draw",
                                       "winners": [{"seat": "N", "tai": 3}]}]})
    facts = seat_facts(settle_hand(ruleset("singapore"), report, "E"))
    assert all(f.dealt_in == 0 for f in facts.values()) and facts["N"].self_draws == 1
