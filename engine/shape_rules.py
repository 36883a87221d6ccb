"""The winning shapes of each family, as the rules files define them."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine.analysis import waits
from engine.readings import (
    JIANGJIANG,
    KONG,
    PUNG,
    SEVEN_PAIRS,
    Hand,
    Reading,
    ShapeRules,
    readings,
)
from engine.tiles import rank_of, to_counts

FAMILY_SHAPES: dict[str, ShapeRules] = {
    # 108 tiles, pong and kong only, lack-a-suit (缺一门).
    "sichuan": ShapeRules(honors=False, chow=False, max_suits=2),
    # 108 tiles, chow; small wins need 2-5-8 eyes, big wins take any pair; 将将胡 any shape.
    "changsha": ShapeRules(honors=False, chow=True, jiangjiang=True),
    # 136 tiles; winds (any three different) and 中发白 are sequences; 九幺 and 十三浪.
    "jiangxi": ShapeRules(
        honors=True, honor_sequences=True, chow=True, jiuyao=True, shisanlang=True
    ),
    # 148 tiles (bonus tiles set aside), chow; four sets and a pair (十三幺 is read by the
    # family), no seven pairs.
    "singapore": ShapeRules(honors=True, seven_pairs=False),
    # 144 tiles; chow; MCR's own shapes are engine.mcr's (this is for the tile palette).
    "mcr": ShapeRules(honors=True, chow=True),
    # 144 tiles (bonus tiles aside); chow; honours only in pongs; no seven pairs.
    "hongkong": ShapeRules(honors=True, seven_pairs=False),
    # No family: the standard shapes over all 34 kinds.
    "standard": ShapeRules(honors=True),
}


def changsha_accepts(reading: Reading) -> bool:
    """A Changsha small win needs a 2-5-8 pair; big-win shapes take any pair."""
    if reading.form in (SEVEN_PAIRS, JIANGJIANG):
        return True
    if len(reading.suits) == 1:
        return True  # 清一色
    if all(m.shape in (PUNG, KONG) for m in reading.melds if m.shape != "pair"):
        return True  # 碰碰胡
    pair = reading.pair
    return pair is not None and rank_of(pair.first) in (2, 5, 8)


def accepts(family: str, reading: Reading) -> bool:
    if family == "changsha":
        return changsha_accepts(reading)
    return True


def family_readings(family: str, hand: Hand, extra_kinds: Sequence[int] = ()) -> list[Reading]:
    """Every reading of a complete hand that the family accepts as a win."""
    rules = FAMILY_SHAPES[family]
    return [r for r in readings(hand, rules, extra_kinds) if accepts(family, r)]


def with_tile(hand: Hand, kind: int) -> Hand:
    counts = list(hand.counts)
    counts[kind] += 1
    return Hand(tuple(counts), hand.wild, hand.melds, hand.wild_faces)


def family_waits(family: str, hand: Hand, extra_kinds: Sequence[int] = ()) -> list[int]:
    """The winning tiles of a 13-tile hand under the family's rules.

    The fast table-driven :func:`engine.analysis.waits` proposes candidates for the standard
    shapes; families with shapeless forms (九幺, 十三浪, 将将胡) try every kind. Each
    candidate is confirmed by a reading the family accepts.
    """
    rules = FAMILY_SHAPES[family]
    held = [a + b for a, b in zip(hand.counts, held_counts(hand), strict=True)]
    if rules.jiuyao or rules.shisanlang or rules.jiangjiang:
        candidates: Iterable[int] = rules.kinds
    else:
        candidates = waits(
            hand.counts, hand.wild, honor_sequences=rules.honor_sequences, kinds=rules.kinds
        )
    return sorted(
        k for k in candidates
        if held[k] < 4 and family_readings(family, with_tile(hand, k), extra_kinds)
    )


def held_counts(hand: Hand) -> list[int]:
    """Tiles held outside ``counts``: wildcards by their face and declared melds."""
    held = to_counts(hand.wild_faces)
    for m in hand.melds:
        for k in m.tiles:
            held[k] += 1
    return held
