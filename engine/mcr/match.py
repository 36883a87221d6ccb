"""An MCR match (一局): 16 hands in four rounds, the seats the players take each round,
and the rank points (标准分) of a game and of several.

Players are numbered 0-3 in the order they drew the winds E S W N at the start. Seats are
the table's positions E S W N. Within a round the deal moves E S W N whatever happens (no
连庄); the round's wind is the prevalent wind. Between rounds the players change seats as
the Record scorer does (「每圈座位」): player 0 sits E S N W in rounds 1-4, player 1
S E W N, player 2 W N E S, player 3 N W S E.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.models import SEATS, Seat

HANDS = 16
# Rank points of places 1-4, in twelfths (Record.cpp's scale): 4, 2, 1, 0.
RANK_SCALE = 12
PLACE_POINTS = (48, 24, 12, 0)
# The seat each player (by the wind drawn) takes in each round.
_SEATING: tuple[tuple[Seat, Seat, Seat, Seat], ...] = (
    ("E", "S", "W", "N"), ("S", "E", "N", "W"), ("N", "W", "E", "S"), ("W", "N", "S", "E"))


def _check(hand: int) -> None:
    if not 0 <= hand < HANDS:
        raise ValueError(f"a match has hands 0 to {HANDS - 1}, not {hand}")


def prevalent_wind(hand: int) -> Seat:
    """The round's wind for hand ``hand`` (0-15): E for hands 0-3, then S, W, N."""
    _check(hand)
    return SEATS[hand // 4]


def dealer(hand: int) -> Seat:
    """The seat that deals hand ``hand``: E S W N in turn within each round."""
    _check(hand)
    return SEATS[hand % 4]


def seats(hand: int) -> tuple[Seat, Seat, Seat, Seat]:
    """The seat of each player (0-3, by the wind drawn) in hand ``hand``'s round."""
    _check(hand)
    return _SEATING[hand // 4]


def seat_wind(hand: int, player: int) -> Seat:
    """A player's 门风 in hand ``hand``: 东 for the dealer, then 南 西 北 round the table."""
    seat = seats(hand)[player]
    return SEATS[(SEATS.index(seat) - SEATS.index(dealer(hand))) % 4]


def rank_points(table_points: Sequence[int]) -> list[int]:
    """Each player's rank points for one game, in twelfths, from the table points: 4 2 1 0
    by place, tied players sharing the points of the places they cover (two tied first 3
    each, all four 7/4)."""
    if len(table_points) != 4:
        raise ValueError("a game has four players")
    order = sorted(range(4), key=lambda i: -table_points[i])
    out = [0] * 4
    place = 0
    while place < 4:
        tied = [i for i in order if table_points[i] == table_points[order[place]]]
        share = sum(PLACE_POINTS[place:place + len(tied)]) // len(tied)
        for i in tied:
            out[i] = share
        place += len(tied)
    return out


# One seat of a game: the player whose seat it is, and each player who played it with the
# table points they earned there (a substitute plays for the seat).
MatchSeat = tuple[str, Mapping[str, int]]


def standings(games: Sequence[Sequence[MatchSeat]]) -> list[tuple[str, int, int]]:
    """Players over several games, each game its four seats: (player, rank points in
    twelfths, table points), by rank points, then table points. A seat's places come from
    the table points earned in it by whoever played it; its rank points go to the player
    whose seat it is, and each player keeps the table points they earned."""
    rank: dict[str, int] = {}
    table: dict[str, int] = {}
    for game in games:
        ranks = rank_points([sum(by.values()) for _, by in game])
        for (owner, by), points in zip(game, ranks, strict=True):
            rank[owner] = rank.get(owner, 0) + points
            for name, n in by.items():
                rank.setdefault(name, 0)
                table[name] = table.get(name, 0) + n
    return sorted(((n, rank[n], table.get(n, 0)) for n in rank),
                  key=lambda r: (-r[1], -r[2], r[0]))
