"""MCR properties over random legal winning hands: zero-sum, the payments of the rules,
and the 8-fan gate (flowers never carry a hand over it)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.models import SEATS
from engine.rules import ruleset
from engine.settle import parse_report, settle_hand
from tests.mcr_hands import random_win

RULES = ruleset("mcr")


# 150 examples; fewer where the loaded profile explores less (`make test-fast`).
@settings(max_examples=min(150, settings().max_examples))
@given(seed=st.integers(0, 2**32), dealer=st.sampled_from(SEATS))
def test_a_hand_pays_its_fans_or_is_a_false_win(seed: int, dealer: str) -> None:
    ev = random_win(random.Random(seed))
    result = settle_hand(RULES, parse_report({"events": [ev]}), dealer)  # type: ignore[arg-type]
    assert sum(result.deltas.values()) == 0
    total = next(x for x in result.lines if x.code == "mcr_total").params
    fan, bare = int(total["fan"]), int(total["without_flowers"])
    assert fan - bare == ev["mcr"]["flowers"]
    winner = ev["winner"]
    others = [s for s in SEATS if s != winner]
    if bare < 8:  # 错和: 10 to each other player, the hand goes on, nothing is won
        assert result.deltas == {winner: -30, **dict.fromkeys(others, 10)}
        assert result.open and not any(x.code == "mcr_owes" for x in result.lines)
        return
    assert not result.open and result.next_dealer == SEATS[(SEATS.index(dealer) + 1) % 4]
    if ev["how"] in ("self_draw", "kong_replacement"):
        assert result.deltas == {winner: 3 * (8 + fan), **dict.fromkeys(others, -(8 + fan))}
    else:
        payer = ev["from_seat"]
        assert result.deltas[payer] == -(8 + fan)
        assert all(result.deltas[s] == -8 for s in others if s != payer)
        assert result.deltas[winner] == 24 + fan


@given(fan=st.integers(0, 400), flowers=st.integers(0, 8), self_draw=st.booleans())
def test_the_gate_counts_no_flowers(fan: int, flowers: int, self_draw: bool) -> None:
    if flowers > fan:
        flowers = fan
    ev = {"type": "win", "winner": "S", "how": "self_draw" if self_draw else "discard",
          "mcr": {"fan": fan, "flowers": flowers}}
    if not self_draw:
        ev["from_seat"] = "N"
    result = settle_hand(RULES, parse_report({"events": [ev]}))
    assert sum(result.deltas.values()) == 0
    assert (result.deltas["S"] > 0) == (fan - flowers >= 8)
