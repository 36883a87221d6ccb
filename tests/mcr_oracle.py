"""The differential check of MCR scoring against ``pymahjonggb`` (ChineseOfficialMahjongHelper's
calculator), for tests/engine/test_mcr_oracle.py and bench/mcr_bench.py.

Each hand is checked by our engine first (the oracle does not refuse contradictory flags,
and reads a pung or chow given no seat as concealed); the oracle then gets the same tiles
with every meld's seat, and its fan names are mapped to ours (its wait fans are named
``独听・边张`` and so on). Flowers are in both totals. Our options are set as the oracle's
build is: ``knitted_straight_waits = true``, ``mixed_kong = 5``.
"""

from __future__ import annotations

from typing import Any

from engine.mcr.count import Rules
from engine.mcr.divide import CHOW, KONG, melded, rank, shape_of, suit, tile_of
from engine.mcr.hand import Scored, score, tiles_of
from engine.models import How, McrHand

ORACLE_RULES = Rules(mixed_kong=5, knitted_straight_waits=True)
_NAMES = {"独听・边张": "边张", "独听・嵌张": "坎张", "独听・单钓": "单钓将"}
_SELF = (How.SELF_DRAW, How.KONG_REPLACEMENT)
_KONG = (How.ROB_KONG, How.KONG_REPLACEMENT)


def oracle_code(tile: int) -> str:
    if suit(tile) == 4:
        r = rank(tile)
        return f"F{r}" if r <= 4 else f"J{r - 4}"
    return "WTB"[suit(tile) - 1] + str(rank(tile))


def ours(ev: dict[str, Any]) -> tuple[Scored, dict[str, Any]]:
    """Our score of a Win event's hand (dealer E), and the oracle's arguments for it."""
    hand = McrHand.model_validate(ev["mcr"])
    how = How(ev["how"])
    s = score(hand, ev["winner"], "E", how in _SELF, how in _KONG, ORACLE_RULES)
    t = tiles_of(hand, ev["winner"], "E", how in _SELF, how in _KONG)
    packs = tuple(({CHOW: "CHI", KONG: "GANG"}.get(shape_of(p), "PENG"),
                   oracle_code(tile_of(p)), (p >> 12) if melded(p) else 0) for p in t.fixed)
    args = {"pack": packs, "hand": tuple(oracle_code(x) for x in t.standing),
            "winTile": oracle_code(t.win), "flowerCount": hand.flowers,
            "isSelfDrawn": t.self_drawn, "is4thTile": t.last_tile, "isAboutKong": t.kong,
            "isWallLast": t.wall_last, "seatWind": t.seat_wind,
            "prevalentWind": t.prevalent_wind}
    return s, args


def oracle(args: dict[str, Any]) -> tuple[int, dict[str, int]]:
    from MahjongGB import MahjongFanCalculator  # type: ignore[import-not-found]

    fans = MahjongFanCalculator(verbose=True, **args)
    named = {_NAMES.get(zh, zh): n for _v, n, zh, _en in fans}
    return sum(v * n for v, n, _zh, _en in fans), named


def disagreement(ev: dict[str, Any]) -> str | None:
    """Why our count and the oracle's differ for this hand, or None."""
    s, args = ours(ev)
    total, named = oracle(args)
    mine = {f.zh: f.times for f in s.fans}
    if total != s.total or named != mine:
        return f"{ev}: ours {s.total} {mine}, oracle {total} {named}"
    return None
