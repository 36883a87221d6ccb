import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from storage.services.transfers import fewest_transfers


def _apply(nets: dict[int, int], transfers: list[tuple[int, int, int]]) -> dict[int, int]:
    left = dict(nets)
    for payer, payee, amount in transfers:
        assert amount > 0 and payer != payee
        left[payer] += amount
        left[payee] -= amount
    return left


def _brute_minimum(nets: dict[int, int]) -> int:
    """n minus the most zero-sum groups, by trying every partition (small n only)."""
    vals = [v for v in nets.values() if v]

    def best(items: list[int]) -> int:
        if not items:
            return 0
        first, rest = items[0], items[1:]
        out = 0
        for mask in range(1 << len(rest)):
            group = [first] + [rest[i] for i in range(len(rest)) if mask >> i & 1]
            if sum(group) == 0:
                others = [rest[i] for i in range(len(rest)) if not mask >> i & 1]
                out = max(out, 1 + best(others))
        return out

    return len(vals) - best(vals)


@given(st.lists(st.integers(-50, 50), min_size=1, max_size=8))
def test_settles_exactly_with_the_fewest_transfers(values: list[int]) -> None:
    nets = {i: v for i, v in enumerate(values)}
    nets[len(values)] = -sum(values)
    transfers = fewest_transfers(nets)
    assert all(v == 0 for v in _apply(nets, transfers).values())
    assert len(transfers) == _brute_minimum(nets)


def test_greedy_beyond_twelve_players_still_settles() -> None:
    rng = random.Random(4)
    values = [rng.randint(-100, 100) for _ in range(20)]
    nets = {i: v for i, v in enumerate(values)}
    nets[99] = -sum(values)
    transfers = fewest_transfers(nets)
    assert all(v == 0 for v in _apply(nets, transfers).values())
    assert len(transfers) <= len([v for v in nets.values() if v]) - 1


def test_refuses_unbalanced() -> None:
    with pytest.raises(ValueError):
        fewest_transfers({1: 5, 2: -4})
