"""Properties of the Singapore/Malaysia and points-only families: every payment zero-sum
under any options, every doubling stake table exact up to its cap, any winning tiles
scored or refused with a reason."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.errors import ReportError
from engine.families.singapore_stakes import DOUBLING, amounts, stake_table
from engine.options import SingaporeOptions
from engine.rules import ruleset
from engine.settle import parse_report, settle_hand
from engine.tiles import compact
from tests.reportgen import random_report

TABLES = ["10/20", "20/40", "50/1", "1/2", "3-6", "3-6-half"]

options = st.fixed_dictionaries({
    "stake": st.sampled_from(TABLES),
    "shooter": st.booleans(),
    "min_tai": st.integers(1, 3),
    "min_counts_bonus": st.booleans(),
    "animals": st.booleans(),
    "instant_payouts": st.booleans(),
    "draw_dealer": st.sampled_from(["stay", "next"]),
}).flatmap(lambda o: st.integers(5, 10 if o["stake"] in DOUBLING else 5).map(
    lambda cap: {**o, "cap_tai": cap}))


@given(over=options, seed=st.integers(0, 2**32), dealer=st.sampled_from("ESWN"))
def test_every_payment_is_zero_sum_and_within_the_cap(over: dict[str, object], seed: int,
                                                      dealer: str) -> None:
    rules = ruleset("singapore", over)
    opts = rules.options
    assert isinstance(opts, SingaporeOptions)
    report = parse_report(random_report(random.Random(seed), rules, dealer))
    try:
        result = settle_hand(rules, report, dealer)  # type: ignore[arg-type]
    except ReportError as exc:
        # Only what the random hand may honestly lack: the minimum without bonus tiles.
        assert exc.code == "below_min_tai", exc
        return
    assert sum(result.deltas.values()) == 0
    base, zimo = amounts(opts, opts.cap_tai)
    for ev in result.events:
        assert sum(ev.deltas.values()) == 0
        for line in ev.lines:
            if line.code == "pay":
                amount = int(line.params["amount"])
                assert amount > 0
                if line.params["reason"] in ("win", "liable"):
                    assert amount <= max(3 * zimo, 2 * base + zimo)
    assert not result.open or not any(e.lines[0].code == "win" for e in result.events)
    if not result.open:
        assert result.next_dealer is not None
    assert settle_hand(rules, report, dealer) == result  # type: ignore[arg-type]


@pytest.mark.parametrize("table", sorted(DOUBLING))
@pytest.mark.parametrize("cap", range(5, 11))
def test_every_doubling_table_is_exact_up_to_its_cap(table: str, cap: int) -> None:
    rules = ruleset("singapore", [f"stake={table}", f"cap_tai={cap}"])
    opts = rules.options
    assert isinstance(opts, SingaporeOptions)
    rows = stake_table(opts)
    assert [n for n, _, _ in rows] == list(range(1, cap + 1))
    first = DOUBLING[table]
    for n, base, zimo in rows:
        assert base == first * 2 ** (n - 1) and zimo == 2 * base
        if n > 1:
            assert base == 2 * rows[n - 2][1]  # doubles, never 1028 after 512
    for n in range(1, cap + 4):  # over the cap pays the cap
        paid = min(n, cap)
        result = settle_hand(rules, parse_report({"events": [
            {"type": "win", "how": "discard", "winner": "S", "from_seat": "W", "tai": n}]}))
        assert result.deltas["S"] == 4 * first * 2 ** (paid - 1)
    with pytest.raises(ValueError):
        amounts(opts, cap + 1)


@given(seed=st.integers(0, 2**32), players=st.sampled_from([3, 4]))
def test_points_only_hands_are_zero_sum(seed: int, players: int) -> None:
    rules = ruleset("free", {"players": players})
    report = parse_report(random_report(random.Random(seed), rules))
    result = settle_hand(rules, report)
    assert sum(result.deltas.values()) == 0 and not result.open
    assert result.next_dealer in rules.seats


def _winning_tiles(rng: random.Random) -> str:
    """Four random sets and a pair over all 34 kinds, at most four of a kind."""
    for _ in range(100):
        kinds: list[int] = []
        for _ in range(4):
            if rng.random() < 0.5:
                k = rng.randrange(34)
                kinds += [k] * 3
            else:
                suit, rank = rng.randrange(3), rng.randrange(7)
                kinds += [9 * suit + rank + i for i in range(3)]
        k = rng.randrange(34)
        kinds += [k, k]
        if all(kinds.count(k) <= 4 for k in kinds):
            return " ".join(compact(k) for k in kinds)
    return "123m 456m 789m 123p 55p"


@given(seed=st.integers(0, 2**32), how=st.sampled_from(["self_draw", "discard"]),
       prevailing=st.sampled_from("ESWN"),
       bonus=st.sampled_from([None, "none", "f1", "cat rat", "s2 f3 rooster"]))
def test_any_winning_tiles_are_scored_or_refused_below_the_minimum(
        seed: int, how: str, prevailing: str, bonus: str | None) -> None:
    tiles = _winning_tiles(random.Random(seed))
    event: dict[str, object] = {"type": "win", "how": how, "winner": "N", "tiles": tiles,
                                "prevailing": prevailing}
    if bonus is not None:
        event["bonus"] = bonus
    if how == "discard":
        event["from_seat"] = "E"
    try:
        result = settle_hand(ruleset("singapore"), parse_report({"events": [event]}))
    except ReportError as exc:
        assert exc.code == "below_min_tai", (tiles, exc)
        return
    assert sum(result.deltas.values()) == 0 and result.deltas["N"] > 0
