"""Properties over random valid reports in every preset, and over garbage."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.errors import ReportError
from engine.options import SichuanOptions
from engine.rules import presets, ruleset
from engine.settle import parse_report, settle_hand
from tests.reportgen import random_report

PRESETS = sorted(presets())


@pytest.mark.parametrize("preset", [*PRESETS, "changsha:players=3", "yibin:players=3"])
@given(seed=st.integers(0, 2**32))
def test_random_reports_settle_soundly(preset: str, seed: int) -> None:
    name, _, over = preset.partition(":")
    rules = ruleset(name, [over] if over else [])
    dealer = rules.seats[seed % len(rules.seats)]
    report = parse_report(random_report(random.Random(seed), rules, dealer))
    result = settle_hand(rules, report, dealer)
    # zero-sum, per event and per hand; integers
    assert sum(result.deltas.values()) == 0
    for ev in result.events:
        assert sum(ev.deltas.values()) == 0
        assert all(isinstance(v, int) for v in ev.deltas.values())
    # deterministic
    assert settle_hand(rules, report, dealer) == result
    opts = rules.options
    left: set[str] = set()
    for ev in result.events:
        for line in ev.lines:
            if line.code != "pay":
                continue
            payer, payee, reason = line.params["payer"], line.params["payee"], line.params["reason"]
            assert int(line.params["amount"]) > 0
            # a winner never pays for their own win
            if reason == "win":
                assert payer not in {
                    l2.params["seat"] for l2 in ev.lines if l2.code == "win"
                }
            # nobody who has left a blood-battle hand pays or receives again
            # (退税 only returns what they paid while they were still in)
            if reason != "tuishui":
                assert payer not in left and payee not in left, (line, left)
            else:
                assert payee in left or payee not in left  # returned to whoever paid
            # caps respected
            if isinstance(opts, SichuanOptions) and opts.cap_fan and reason == "win":
                most = opts.base * 2 ** (opts.cap_fan - 1) + opts.base
                assert int(line.params["amount"]) <= most
        if isinstance(opts, SichuanOptions) and opts.blood_battle:
            left |= {str(line.params["seat"]) for line in ev.lines if line.code == "win"}
    # a closed hand knows its next dealer
    if not result.open:
        assert result.next_dealer in rules.seats


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 9) | st.sampled_from(
        ["E", "S", "W", "N", "X", "win", "kong", "wall_end", "starting_win", "self_draw",
         "discard", "rob_kong", "清一色", "七对", "平和", "123m", "11p", "direct"]),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(
        st.sampled_from(["type", "how", "winner", "from_seat", "patterns", "gen", "kongs",
                         "winners", "seat", "kind", "players", "ready", "fan", "huazhu",
                         "tiles", "melds", "birds", "events", "kinds", "feibao"]),
        children, max_size=6),
    max_leaves=20,
)


@pytest.mark.parametrize("preset", PRESETS)
@given(data=json_values)
def test_garbage_is_refused_with_a_report_error_only(preset: str, data: object) -> None:
    rules = ruleset(preset)
    payload = data if isinstance(data, dict) and "events" in data else {"events": [data]}
    try:
        report = parse_report(json.loads(json.dumps(payload)))
        settle_hand(rules, report)
    except ReportError as exc:
        assert str(exc)
