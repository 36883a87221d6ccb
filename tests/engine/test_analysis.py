"""The table-driven win check and waits, against the mahjong package and brute force."""

from __future__ import annotations

import os
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st
from mahjong.agari import Agari

from engine.analysis import is_win, waits
from engine.tiles import parse, to_counts

AGARI = Agari()
# `make test-fast` explores less (the hypothesis profile `fast`, tests/conftest.py): a fifth
# of the random hands, each bound a fifth as high. `make test` checks them all.
SHARE = 5 if os.environ.get("TALLY_TEST_FAST") else 1


def _random_hand(rng: random.Random, n: int, kinds: int = 27) -> list[int]:
    wall = [k for k in range(kinds) for _ in range(4)]
    return to_counts(rng.sample(wall, n))


def _winning_hand(rng: random.Random) -> list[int]:
    while True:
        counts = [0] * 34
        for _ in range(4):
            if rng.random() < 0.5:
                k = rng.randrange(27)
                counts[k] += 3
            else:
                s = rng.randrange(3) * 9 + rng.randrange(7)
                for j in range(3):
                    counts[s + j] += 1
        counts[rng.randrange(27)] += 2
        if max(counts) <= 4:
            return counts


def _seven_pairs_with_a_four(counts: list[int]) -> bool:
    # Chinese rules read a four as two pairs; the mahjong package (Japanese rules) does not.
    return sum(counts) == 14 and all(c % 2 == 0 for c in counts) and 4 in counts


def expected_win(counts: list[int]) -> bool:
    return AGARI.is_agari(counts) or _seven_pairs_with_a_four(counts)


def test_win_check_agrees_with_agari_on_random_hands() -> None:
    rng = random.Random(2)
    hands = [_random_hand(rng, 14) for _ in range(10_000 // SHARE)]
    hands += [_winning_hand(rng) for _ in range(10_000 // SHARE)]
    wins = 0
    for counts in hands:
        assert is_win(counts) == expected_win(counts), counts
        wins += is_win(counts)
    assert wins > 9_000 // SHARE  # the generated winning hands really are wins


def test_waits_agree_with_agari_trial() -> None:
    rng = random.Random(3)
    ready = 0
    for i in range(10_000 // SHARE):
        if i % 2:
            counts = _random_hand(rng, 13)
        else:  # a winning hand less one tile: mostly ready, often on several tiles
            counts = _winning_hand(rng)
            counts[rng.choice([k for k in range(34) if counts[k]])] -= 1
        expected = set()
        for k in range(27):
            if counts[k] < 4:
                counts[k] += 1
                if expected_win(counts):
                    expected.add(k)
                counts[k] -= 1
        assert waits(counts) == expected, counts
        ready += bool(expected)
    assert ready > 4_500 // SHARE


@pytest.mark.parametrize(
    ("tiles", "wild", "expected"),
    [
        ("1112345678999m", 0, "123456789m"),
        ("1234m", 0, "14m"),
        ("11223344556677m", -1, ""),
    ],
)
def test_known_waits(tiles: str, wild: int, expected: str) -> None:
    counts = to_counts(parse(tiles))
    if wild < 0:
        assert is_win(counts)
        return
    assert waits(counts, wild) == set(parse(expected))


def test_a_kind_held_four_times_is_no_wait() -> None:
    counts = to_counts(parse("1234m"))
    held = to_counts(parse("111m"))  # e.g. a declared pong of 1m
    assert waits(counts) == {0, 3}
    assert waits(counts, held=held) == {3}


def _brute_is_win(counts: list[int], wild: int, first: int = 0) -> bool:
    """Every way the wildcards can stand for kinds: as they are interchangeable, each
    multiset of kinds once (the kinds in non-decreasing order)."""
    if wild == 0:
        return expected_win(counts)
    for k in range(first, 34):
        counts[k] += 1
        ok = _brute_is_win(counts, wild - 1, k)
        counts[k] -= 1
        if ok:
            return True
    return False


def test_wildcards_against_brute_force() -> None:
    rng = random.Random(5)
    checked = wins = 0
    for _ in range(300 // SHARE):
        wild = rng.randint(1, 3)
        counts = _random_hand(rng, 14 - wild)
        # Bias towards near-wins so that both answers are exercised.
        if rng.random() < 0.6:
            full = _winning_hand(rng)
            tiles = [k for k in range(34) for _ in range(full[k])]
            rng.shuffle(tiles)
            counts = to_counts(tiles[wild:])
        got = is_win(counts, wild)
        assert got == _brute_is_win(list(counts), wild), (counts, wild)
        checked += 1
        wins += got
    assert checked == 300 // SHARE and wins > 100 // SHARE


def test_waits_with_wildcards_against_brute_force() -> None:
    rng = random.Random(6)
    for _ in range(75 // SHARE):
        wild = rng.randint(1, 2)
        counts = _random_hand(rng, 13 - wild)
        expected = set()
        for k in range(27):
            if counts[k] < 4:
                counts[k] += 1
                if _brute_is_win(list(counts), wild):
                    expected.add(k)
                counts[k] -= 1
        assert waits(counts, wild, kinds=range(27)) == expected


def test_eight_wildcards() -> None:
    counts = to_counts(parse("19m 5p 7s 3s 1p"))
    assert is_win(counts, 8)
    assert waits(to_counts(parse("19m 5p 7s 3s")), 8, kinds=range(27)) == set(range(27))


hand13 = st.lists(st.integers(0, 26), min_size=13, max_size=13).filter(
    lambda ks: max(ks.count(k) for k in ks) <= 4
)


@given(hand13)
def test_adding_a_wait_wins(kinds: list[int]) -> None:
    counts = to_counts(kinds)
    for k in waits(counts):
        counts[k] += 1
        assert is_win(counts)
        counts[k] -= 1


@given(st.data())
def test_a_win_minus_a_tile_waits_on_it(data: st.DataObject) -> None:
    rng = random.Random(data.draw(st.integers(0, 10**6)))
    counts = _winning_hand(rng)
    for k in range(34):
        if counts[k]:
            counts[k] -= 1
            assert k in waits(counts)
            counts[k] += 1
