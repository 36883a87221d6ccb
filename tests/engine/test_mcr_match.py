"""An MCR match of 16 hands: winds and seats per hand, rank points with ties shared."""

from __future__ import annotations

import pytest

from engine.mcr import match
from engine.models import SEATS


def test_the_prevalent_wind_moves_each_round_and_the_deal_each_hand() -> None:
    assert [match.prevalent_wind(h) for h in range(16)] == [s for s in SEATS for _ in range(4)]
    assert [match.dealer(h) for h in range(16)] == list(SEATS) * 4


def test_the_players_change_seats_between_rounds() -> None:
    # Players who drew E S W N: A E S N W, B S E W N, C W N E S, D N W S E (rules file).
    by_player = [[match.seats(r * 4)[p] for r in range(4)] for p in range(4)]
    assert by_player == [list("ESNW"), list("SEWN"), list("WNES"), list("NWSE")]
    for h in range(16):
        assert sorted(match.seats(h)) == sorted(SEATS)


def test_the_dealer_has_the_east_wind() -> None:
    for h in range(16):
        winds = [match.seat_wind(h, p) for p in range(4)]
        assert sorted(winds) == sorted(SEATS)
        dealer_player = match.seats(h).index(match.dealer(h))
        assert winds[dealer_player] == "E"
    assert [match.seat_wind(1, p) for p in range(4)] == ["N", "E", "S", "W"]


def test_a_hand_outside_the_match_is_refused() -> None:
    with pytest.raises(ValueError):
        match.dealer(16)


@pytest.mark.parametrize(("points", "ranks"), [
    ([30, 10, -5, -35], [48, 24, 12, 0]),
    ([-35, 30, -5, 10], [0, 48, 12, 24]),
    ([20, 20, -10, -30], [36, 36, 12, 0]),     # two tied first: 3 each
    ([40, 0, 0, 0], [48, 12, 12, 12]),         # three tied second: 1 each
    ([40, 10, -25, -25], [48, 24, 6, 6]),      # tied third: 1/2 each
    ([0, 0, 0, 0], [21, 21, 21, 21]),          # all four: 7/4 each
])
def test_rank_points_share_ties(points: list[int], ranks: list[int]) -> None:
    assert match.rank_points(points) == ranks
    assert sum(match.rank_points(points)) == 84


def test_standings_rank_by_rank_points_then_table_points() -> None:
    games = [[(n, {n: v}) for n, v in game.items()]
             for game in ({"ann": 30, "bob": 10, "cat": -5, "dan": -35},
                          {"ann": -35, "bob": 40, "cat": -5, "dan": 0})]
    # ann 4 + 0, bob 2 + 4, cat 1 + 1, dan 0 + 2: cat and dan tie on rank points
    assert match.standings(games) == [("bob", 72, 50), ("ann", 48, -5), ("cat", 24, -10),
                                      ("dan", 24, -35)]


def test_a_substitute_plays_for_the_seat() -> None:
    # dan's seat: dan -20, then eve +334 (the seat +314, first); eve keeps her table points,
    # the seat's rank points are dan's.
    game = [("ann", {"ann": -100}), ("bob", {"bob": -100}), ("cat", {"cat": -114}),
            ("dan", {"dan": -20, "eve": 334})]
    rows = match.standings([game])
    assert sum(r[2] for r in rows) == 0 and sum(r[1] for r in rows) == 84
    assert dict((n, (r, p)) for n, r, p in rows) == {
        "dan": (48, -20), "eve": (0, 334), "ann": (18, -100), "bob": (18, -100),
        "cat": (0, -114)}
