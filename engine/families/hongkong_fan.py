"""A Hong Kong win's 番: from the patterns named, or found in the tiles and bonus tiles.

A pattern that includes another counts alone (大三元 and 三元, 槓上開花 and 自摸); a limit
hand counts 13 and nothing else; 花糊 counts 3 and nothing else. The lines say each
pattern's 番, and each named pattern left out and what includes it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from engine.hand_facts import build, tile_facts
from engine.hk_flowers import FLOWER, SEASON, parse_bonus
from engine.models import SEATS, Seat, WinnerHand
from engine.patterns.hongkong import ALONE, FAN, FLOWER_FAN, HONGKONG, LIMIT, MOST, dragon_pungs
from engine.readings import KONG, PUNG, Hand
from engine.tiles import is_terminal_or_honor

Lines = list[tuple[str, dict[str, Any]]]
# What only a report can say: the tiles do not show these.
REPORT_ONLY = ("天糊", "地糊", "海底撈月", "自摸", "搶槓", "槓上開花", "花糊", "雞糊")
BONUS_NAMES = ("正花", "一台花", "無花", "八仙過海")
_ORPHANS = tuple(k for k in range(34) if is_terminal_or_honor(k))


@dataclass
class Fan:
    total: int = 0
    flower: int = 0  # flower 番 within the total
    alone: str | None = None  # the limit hand or 花糊 that counts alone
    lines: Lines = field(default_factory=list)


def seat_wind(seat: Seat, dealer: Seat) -> int:
    """The seat's wind as a tile kind: the dealer sits East."""
    return 27 + (SEATS.index(seat) - SEATS.index(dealer)) % 4


def count(names: Counter[str], said: Iterable[str], seat: Seat) -> Fan:
    """Add up the 番 of the patterns a hand holds; ``said`` are those the player named."""
    included: dict[str, str] = {}
    for n in sorted(names, key=list(FAN).index):
        for x in HONGKONG.expand(HONGKONG[n].implies) - {n}:
            included.setdefault(x, n)
    fan = Fan()
    fan.alone = next((n for n in ALONE if names[n] and n not in included), None)
    if fan.alone is not None:
        fan.total = FAN[fan.alone]
        code = "limit_hand" if fan.total == LIMIT else "pattern"
        fan.lines.append((code, {"seat": seat, "name": fan.alone, "fan": fan.total}))
        included = {n: fan.alone for n in names if n != fan.alone}
    else:
        for n in FAN:
            if names[n] and n not in included and FAN[n]:
                times = min(names[n], MOST.get(n, 1))
                fan.total += FAN[n] * times
                if n in FLOWER_FAN:
                    fan.flower += FAN[n] * times
                params: dict[str, Any] = {"seat": seat, "name": n, "fan": FAN[n] * times}
                if times > 1:
                    params["count"] = times
                fan.lines.append(("pattern", params))
        if not fan.total:
            fan.lines.append(("chicken_hand", {"seat": seat}))
    for n in dict.fromkeys(said):
        if n in included:
            fan.lines.append(("not_counted_included", {"seat": seat, "name": n,
                                                       "by": included[n]}))
    return fan


def bonus_names(text: str, seat_number: int) -> Counter[str]:
    """The bonus-tile patterns of the tiles held: 無花, 一台花 for each full set, 正花 for
    the seat's number in a set not full, 八仙過海 for all eight."""
    held = parse_bonus(text)
    out: Counter[str] = Counter()
    if not held:
        out["無花"] = 1
    elif len(held) == 8:
        out["八仙過海"] = 1
    else:
        for kind in (FLOWER, SEASON):
            numbers = {n for k, n in held if k == kind}
            if len(numbers) == 4:
                out["一台花"] += 1
            elif seat_number in numbers:
                out["正花"] += 1
    return out


def _thirteen_orphans(hand: Hand) -> bool:
    return not hand.melds and sum(hand.counts) == 14 and all(
        hand.counts[k] for k in _ORPHANS) and not any(
        c for k, c in enumerate(hand.counts) if k not in _ORPHANS)


def tile_names(w: WinnerHand, said: set[str], self_drawn: bool, own_wind: int,
               round_wind: int) -> list[Counter[str]]:
    """The patterns each reading of the winner's tiles shows (the report's own names for
    what tiles cannot show are added by the caller)."""
    assert w.tiles is not None
    built = build("hongkong", w.tiles, w.melds, ())
    if _thirteen_orphans(built):
        return [Counter({"十三么": 1, "門前清": 1})]
    shown_by_tiles = {n for n in said if HONGKONG[n].detect is not None}
    out: list[Counter[str]] = []
    for facts, shown in tile_facts("hongkong", HONGKONG, built, shown_by_tiles):
        names: Counter[str] = Counter(shown)
        if dragon_pungs(facts):
            names["三元"] = dragon_pungs(facts)
        pungs = {m.first for m in facts.sets if m.shape in (PUNG, KONG)}
        if own_wind in pungs:
            names["門風"] = 1
        if round_wind in pungs:
            names["圈風"] = 1
        if self_drawn and facts.all_pungs and not facts.declared:
            names["坎坎糊"] = 1
        out.append(names)
    return out


def missing(said: set[str], names: Counter[str], flowers_given: bool) -> str | None:
    """A pattern named with the tiles that this reading of the tiles (or the bonus tiles)
    does not show, if any."""
    for n in sorted(said):
        if n in REPORT_ONLY or names[n] or (n in BONUS_NAMES and not flowers_given):
            continue
        return n
    return None


def round_wind_kind(wind: Seat | None) -> int:
    return 27 + SEATS.index(wind or "E")


def seat_number(seat: Seat, dealer: Seat) -> int:
    """正花's number: East (the dealer) 1, South 2, West 3, North 4."""
    return seat_wind(seat, dealer) - 26


def named_counter(w: WinnerHand) -> tuple[Counter[str], list[str]]:
    """The patterns a winner named, canonical, each as often as named."""
    said = [HONGKONG.resolve(n).name for n in w.patterns]
    return Counter(said), said


def best(options: list[Counter[str]], said: Iterable[str], seat: Seat, cap: int
         ) -> tuple[Counter[str], Fan]:
    """The reading that counts most (capped), and its count."""
    said = list(said)
    scored = [(names, count(names, said, seat)) for names in options]
    return max(scored, key=lambda nf: (min(nf[1].total, cap), nf[1].total - nf[1].flower))
