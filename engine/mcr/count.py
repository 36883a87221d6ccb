"""Count an MCR hand: every reading of its tiles, each one's fans after the exclusions
(不重复, 不拆移, 不得相同, 套算一次), and the best (就高不就低).

The counting follows the consensus reading (《国标麻将规则释义》) as ChineseOfficialMahjongHelper
implements it, fan by fan, so that the differential test against ``pymahjonggb`` can hold
it to zero disagreements; docs/rules/mcr.md says where our options read otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.mcr.divide import (
    ALL_TILES,
    CHOW,
    EAST,
    KONG,
    PAIR,
    PUNG,
    SIZE,
    add_packs,
    divisions,
    dragon,
    green,
    honor,
    melded,
    numbered,
    rank,
    reversible,
    shape_of,
    single_wait,
    suit,
    table_of,
    terminal,
    terminal_or_honor,
    tile_of,
    wind,
)
from engine.mcr.fans import TABLE_SIZE, Fan, value

F = Fan
# The six knitted straights (组合龙): 147, 258, 369 in three different suits.
KNITTED = tuple(
    tuple(sorted((1 << 4 | a + i * 3) for i in range(3)) + sorted((2 << 4 | b + i * 3)
          for i in range(3)) + sorted((3 << 4 | c + i * 3) for i in range(3)))
    for a, b, c in ((1, 2, 3), (1, 3, 2), (2, 1, 3), (2, 3, 1), (3, 1, 2), (3, 2, 1)))
ORPHANS = (0x11, 0x19, 0x21, 0x29, 0x31, 0x39, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47)


@dataclass(frozen=True)
class Tiles:
    """One winning hand, checked (engine.mcr.hand): declared sets as packs (a concealed
    kong has offer 0), the standing tiles without the winning tile, and how it was won."""

    fixed: tuple[int, ...]
    standing: tuple[int, ...]
    win: int
    self_drawn: bool
    last_tile: bool = False  # 和绝张
    kong: bool = False  # 杠上开花 (self-drawn) or 抢杠和 (off a discard)
    wall_last: bool = False  # 妙手回春 (self-drawn) or 海底捞月 (off a discard)
    seat_wind: int = 0  # 0-3: E S W N
    prevalent_wind: int = 0


@dataclass(frozen=True)
class Rules:
    mixed_kong: int = 5
    knitted_straight_waits: bool = False


Table = list[int]


_VALUES = [0, *(value(f) for f in Fan)]


def total(fans: Table, rules: Rules) -> int:
    """The fans' sum (明暗杠 at the option's value)."""
    points = sum(v * n for v, n in zip(_VALUES, fans, strict=True) if n)
    return points + (rules.mixed_kong - _VALUES[F.MIXED_KONG]) * fans[F.MIXED_KONG]


# -- sets of chows and pungs -----------------------------------------------------------

def _mixed(s0: int, s1: int, s2: int) -> bool:
    return s0 != s1 and s0 != s2 and s1 != s2


def _shifted1_any(r0: int, r1: int, r2: int) -> bool:
    """Three ranks one apart, in any order."""
    a, b, c = sorted((r0, r1, r2))
    return a + 1 == b and b + 1 == c


def _four_chows(t0: int, t1: int, t2: int, t3: int) -> F | None:
    if t0 + 2 == t1 and t1 + 2 == t2 and t2 + 2 == t3:
        return F.FOUR_PURE_SHIFTED_CHOWS
    if t0 + 1 == t1 and t1 + 1 == t2 and t2 + 1 == t3:
        return F.FOUR_PURE_SHIFTED_CHOWS
    if t0 == t1 == t2 == t3:
        return F.QUADRUPLE_CHOW
    return None


def _three_chows(t0: int, t1: int, t2: int) -> F | None:
    r0, r1, r2 = rank(t0), rank(t1), rank(t2)
    if _mixed(suit(t0), suit(t1), suit(t2)):
        if _shifted1_any(r0, r1, r2):
            return F.MIXED_SHIFTED_CHOWS
        if r0 == r1 == r2:
            return F.MIXED_TRIPLE_CHOW
        if sorted((r0, r1, r2)) == [2, 5, 8]:
            return F.MIXED_STRAIGHT
    else:
        if t0 + 3 == t1 and t1 + 3 == t2:
            return F.PURE_STRAIGHT
        if (t0 + 2 == t1 and t1 + 2 == t2) or (t0 + 1 == t1 and t1 + 1 == t2):
            return F.PURE_SHIFTED_CHOWS
        if t0 == t1 == t2:
            return F.PURE_TRIPLE_CHOW
    return None


def _two_chows(t0: int, t1: int) -> F | None:
    if suit(t0) != suit(t1):
        return F.MIXED_DOUBLE_CHOW if rank(t0) == rank(t1) else None
    if t0 + 3 == t1 or t1 + 3 == t0:
        return F.SHORT_STRAIGHT
    if {rank(t0), rank(t1)} == {2, 8}:
        return F.TWO_TERMINAL_CHOWS
    if t0 == t1:
        return F.PURE_DOUBLE_CHOW
    return None


def _four_pungs(t0: int, t1: int, t2: int, t3: int) -> F | None:
    if numbered(t0) and t0 + 1 == t1 and t1 + 1 == t2 and t2 + 1 == t3:
        return F.FOUR_PURE_SHIFTED_PUNGS
    if (t0, t1, t2, t3) == (0x41, 0x42, 0x43, 0x44):
        return F.BIG_FOUR_WINDS
    return None


def _three_pungs(t0: int, t1: int, t2: int) -> F | None:
    if numbered(t0) and numbered(t1) and numbered(t2):
        r0, r1, r2 = rank(t0), rank(t1), rank(t2)
        if _mixed(suit(t0), suit(t1), suit(t2)):
            if _shifted1_any(r0, r1, r2):
                return F.MIXED_SHIFTED_PUNGS
            if r0 == r1 == r2:
                return F.TRIPLE_PUNG
        elif t0 + 1 == t1 and t1 + 1 == t2:
            return F.PURE_SHIFTED_PUNGS
    else:
        if (t0, t1, t2) in ((0x41, 0x42, 0x43), (0x41, 0x42, 0x44), (0x41, 0x43, 0x44),
                            (0x42, 0x43, 0x44)):
            return F.BIG_THREE_WINDS
        if (t0, t1, t2) == (0x45, 0x46, 0x47):
            return F.BIG_THREE_DRAGONS
    return None


def _two_pungs(t0: int, t1: int) -> F | None:
    if numbered(t0) and numbered(t1):
        return F.DOUBLE_PUNG if rank(t0) == rank(t1) else None
    if dragon(t0) and dragon(t1):
        return F.TWO_DRAGON_PUNGS
    return None


def _one_pung(t: int) -> F | None:
    if dragon(t):
        return F.DRAGON_PUNG
    if terminal(t) or wind(t):
        return F.PUNG_OF_TERMINALS
    return None


def _extra_chow(t0: int, t1: int, t2: int, extra: int) -> F | None:
    """What a fourth chow adds to three that make a fan: at most one small fan."""
    found = {_two_chows(t, extra) for t in (t0, t1, t2)}
    for fan in (F.PURE_DOUBLE_CHOW, F.MIXED_DOUBLE_CHOW, F.SHORT_STRAIGHT,
                F.TWO_TERMINAL_CHOWS):
        if fan in found:
            return fan
    return None


_PAIRWISE = (F.PURE_DOUBLE_CHOW, F.MIXED_DOUBLE_CHOW, F.SHORT_STRAIGHT, F.TWO_TERMINAL_CHOWS)


def _limit_pairwise(found: list[F | None], limit: int, fans: Table) -> None:
    """套算一次 and 不得相同: of the two-chow fans found, keep at most ``limit``, dropping
    repeats first (from 老少副 up), then the rest in the same order."""
    counts = [sum(1 for f in found if f == p) for p in _PAIRWISE]
    n = sum(counts)
    keep = 1
    while n > limit and keep >= 0:
        idx = 4
        while n > limit and idx > 0:
            idx -= 1
            while counts[idx] > keep and n > limit:
                counts[idx] -= 1
                n -= 1
        keep -= 1
    for p, c in zip(_PAIRWISE, counts, strict=True):
        fans[p] = c


def _three_of_four_chows(a: int, b: int, c: int, extra: int, fans: Table) -> bool:
    fan = _three_chows(a, b, c)
    if fan is None:
        return False
    fans[fan] = 1
    more = _extra_chow(a, b, c, extra)
    if more is not None:
        fans[more] = 1
    return True


def _four_chow_fans(m: list[int], fans: Table) -> None:
    fan = _four_chows(*m)
    if fan is not None:
        fans[fan] = 1
        return
    for a, b, c, x in ((0, 1, 2, 3), (0, 1, 3, 2), (0, 2, 3, 1), (1, 2, 3, 0)):
        if _three_of_four_chows(m[a], m[b], m[c], m[x], fans):
            return
    pairs = ((0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3))
    found = [_two_chows(m[i], m[j]) for i, j in pairs]
    limit = 3
    for k in range(4):
        if all(f is None for (i, j), f in zip(pairs, found, strict=True) if k in (i, j)):
            limit -= 1
    if limit > 0:
        _limit_pairwise(found, limit, fans)


def _three_chow_fans(m: list[int], fans: Table) -> None:
    fan = _three_chows(*m)
    if fan is not None:
        fans[fan] = 1
        return
    found = [_two_chows(m[0], m[1]), _two_chows(m[0], m[2]), _two_chows(m[1], m[2])]
    _limit_pairwise(found, 2, fans)


def _four_pung_fans(m: list[int], fans: Table) -> None:
    fan = _four_pungs(*m)
    if fan is not None:
        fans[fan] = 1
        return
    free = -1
    for a, b, c, x in ((0, 1, 2, 3), (0, 1, 3, 2), (0, 2, 3, 1), (1, 2, 3, 0)):
        fan = _three_pungs(m[a], m[b], m[c])
        if fan is not None:
            fans[fan] = 1
            free = x
            break
    if free >= 0:
        for i in range(4):
            if i != free:
                fan = _two_pungs(m[i], m[free])
                if fan is not None:
                    fans[fan] += 1
                    break
        return
    for i in range(4):
        for j in range(i + 1, 4):
            fan = _two_pungs(m[i], m[j])
            if fan is not None:
                fans[fan] += 1


def _three_pung_fans(m: list[int], fans: Table) -> None:
    fan = _three_pungs(*m)
    if fan is not None:
        fans[fan] = 1
        return
    for i, j in ((0, 1), (0, 2), (1, 2)):
        fan = _two_pungs(m[i], m[j])
        if fan is not None:
            fans[fan] += 1


def _kongs(pungs: int, melded_kongs: int, concealed_kongs: int, fans: Table) -> None:
    """Kongs, and concealed pungs (``pungs``; a concealed kong is a concealed pung too)."""
    kongs = melded_kongs + concealed_kongs
    hidden: dict[int, F] = {2: F.TWO_CONCEALED_PUNGS, 3: F.THREE_CONCEALED_PUNGS,
                            4: F.FOUR_CONCEALED_PUNGS}
    if kongs == 0:
        n = pungs
    elif kongs == 1:
        fans[F.MELDED_KONG if melded_kongs else F.CONCEALED_KONG] = 1
        n = pungs + concealed_kongs
    elif kongs == 2:
        fans[(F.TWO_MELDED_KONGS, F.MIXED_KONG, F.TWO_CONCEALED_KONGS)[concealed_kongs]] = 1
        if concealed_kongs == 0:
            n = 2 if pungs == 2 else 0
        elif concealed_kongs == 1:
            n = pungs + 1
        else:
            n = pungs + 2 if pungs else 0  # 双暗杠 already counts the two kongs
    elif kongs == 3:
        fans[F.THREE_KONGS] = 1
        if concealed_kongs == 0:
            n = 0
        elif concealed_kongs == 1:
            n = 2 if pungs else 0
        else:
            n = concealed_kongs + (1 if pungs else 0)
    else:
        fans[F.FOUR_KONGS] = 1
        n = concealed_kongs
    if n in hidden:
        fans[hidden[n]] = 1


# -- traits of the whole hand ---------------------------------------------------------

def _by_suits(tiles: list[int], fans: Table) -> None:
    suits = {suit(t) for t in tiles}
    if 4 not in suits:
        fans[F.NO_HONORS] = 1
    voided = sum(1 for s in (1, 2, 3) if s not in suits)
    fans[F.ONE_VOIDED_SUIT] += voided
    if fans[F.ONE_VOIDED_SUIT] == 2:
        fans[F.ONE_VOIDED_SUIT] = 0
        if fans[F.NO_HONORS] == 0:
            fans[F.HALF_FLUSH] = 1
        else:
            fans[F.FULL_FLUSH] = 1
            fans[F.NO_HONORS] = 0
    if suits == {1, 2, 3, 4} and any(wind(t) for t in tiles) and any(dragon(t) for t in tiles):
        fans[F.ALL_TYPES] = 1


def _by_rank_range(tiles: list[int], fans: Table) -> None:
    if any(honor(t) for t in tiles):
        return
    ranks = {rank(t) for t in tiles}
    if ranks <= {1, 2, 3, 4}:
        fans[F.LOWER_FOUR if 4 in ranks else F.LOWER_TILES] = 1
    elif ranks <= {6, 7, 8, 9}:
        fans[F.UPPER_FOUR if 6 in ranks else F.UPPER_TILES] = 1
    elif ranks <= {4, 5, 6}:
        fans[F.MIDDLE_TILES] = 1


def _by_pack_traits(packs: tuple[int, ...], fans: Table) -> None:
    outside = fives = evens = 0
    for p in packs:
        t = tile_of(p)
        if honor(t):
            outside += 1
            continue
        r = rank(t)
        if shape_of(p) == CHOW:
            outside += r in (2, 8)
            fives += r in (4, 5, 6)
        else:
            outside += r in (1, 9)
            fives += r == 5
            evens += r in (2, 4, 6, 8)
    if outside == 5:
        fans[F.OUTSIDE_HAND] = 1
    elif fives == 5:
        fans[F.ALL_FIVES] = 1
    elif evens == 5:
        fans[F.ALL_EVEN_PUNGS] = 1


def _by_tile_traits(tiles: list[int], fans: Table) -> None:
    if not any(terminal_or_honor(t) for t in tiles):
        fans[F.ALL_SIMPLES] = 1
    if all(reversible(t) for t in tiles):
        fans[F.REVERSIBLE_TILES] = 1
    if all(green(t) for t in tiles):
        fans[F.ALL_GREEN] = 1
    if fans[F.ALL_SIMPLES]:
        return
    if all(honor(t) for t in tiles):
        fans[F.ALL_HONORS] = 1
    elif all(terminal(t) for t in tiles):
        fans[F.ALL_TERMINALS] = 1
    elif all(terminal_or_honor(t) for t in tiles):
        fans[F.ALL_TERMINALS_AND_HONORS] = 1


def _tile_hog(table: Table, kongs: int, fans: Table) -> None:
    fans[F.TILE_HOG] = sum(1 for t in ALL_TILES if table[t] == 4) - kongs


def _by_wait(concealed: tuple[int, ...], win: int, fans: Table) -> None:
    """边张, 坎张, 单钓将 (the hand waited on one kind): where the winning tile stands."""
    if fans[F.MELDED_HAND] or fans[F.FOUR_KONGS]:
        return
    edge = closed = pair = False
    for p in concealed:
        t = tile_of(p)
        if shape_of(p) == CHOW:
            if t == win:
                closed = True
            elif t + 1 == win or t - 1 == win:
                edge = True
        elif shape_of(p) == PAIR and t == win:
            pair = True
    if edge:
        fans[F.EDGE_WAIT] = 1
    elif closed:
        fans[F.CLOSED_WAIT] = 1
    elif pair:
        fans[F.SINGLE_WAIT] = 1


# 不计: what each fan, once counted, leaves out.
_DROPS: tuple[tuple[F, tuple[F, ...]], ...] = (
    (F.BIG_FOUR_WINDS, (F.ALL_PUNGS, F.PUNG_OF_TERMINALS)),
    (F.BIG_THREE_DRAGONS, (F.DRAGON_PUNG,)),
    (F.ALL_GREEN, (F.HALF_FLUSH, F.ONE_VOIDED_SUIT)),
    (F.FOUR_KONGS, (F.SINGLE_WAIT,)),
    (F.ALL_TERMINALS, (F.ALL_PUNGS, F.OUTSIDE_HAND, F.PUNG_OF_TERMINALS, F.NO_HONORS,
                       F.DOUBLE_PUNG)),
    (F.LITTLE_FOUR_WINDS, (F.PUNG_OF_TERMINALS,)),
    (F.LITTLE_THREE_DRAGONS, (F.DRAGON_PUNG,)),
    (F.ALL_HONORS, (F.ALL_PUNGS, F.OUTSIDE_HAND, F.PUNG_OF_TERMINALS, F.ONE_VOIDED_SUIT)),
)


def _final(fans: Table) -> None:
    """不重复: drop what a counted fan already implies."""
    for fan, drops in _DROPS:
        if fans[fan]:
            for d in drops:
                fans[d] = 0
    if fans[F.FOUR_CONCEALED_PUNGS]:
        fans[F.ALL_PUNGS] = 0
        fans[F.CONCEALED_HAND] = 0
        if fans[F.FULLY_CONCEALED]:
            fans[F.FULLY_CONCEALED] = 0
            fans[F.SELF_DRAWN] = 1
    if fans[F.PURE_TERMINAL_CHOWS]:
        fans[F.FULL_FLUSH] = fans[F.ALL_CHOWS] = fans[F.NO_HONORS] = 0
    if fans[F.FOUR_PURE_SHIFTED_PUNGS]:
        fans[F.ALL_PUNGS] = 0
    if fans[F.ALL_TERMINALS_AND_HONORS]:
        fans[F.ALL_PUNGS] = fans[F.OUTSIDE_HAND] = fans[F.PUNG_OF_TERMINALS] = 0
    if fans[F.ALL_EVEN_PUNGS]:
        fans[F.ALL_PUNGS] = fans[F.ALL_SIMPLES] = fans[F.NO_HONORS] = 0
    for fan in (F.UPPER_TILES, F.LOWER_TILES, F.UPPER_FOUR, F.LOWER_FOUR):
        if fans[fan]:
            fans[F.NO_HONORS] = 0
    for fan in (F.MIDDLE_TILES, F.ALL_FIVES):
        if fans[fan]:
            fans[F.ALL_SIMPLES] = fans[F.NO_HONORS] = 0
    if fans[F.THREE_SUITED_TERMINAL_CHOWS]:
        fans[F.ALL_CHOWS] = fans[F.NO_HONORS] = 0
    if fans[F.BIG_THREE_WINDS] and not (fans[F.ALL_HONORS]
                                        or fans[F.ALL_TERMINALS_AND_HONORS]):
        fans[F.PUNG_OF_TERMINALS] -= 3  # the three winds' own
    if fans[F.REVERSIBLE_TILES]:
        fans[F.ONE_VOIDED_SUIT] = 0
    if fans[F.LAST_TILE_DRAW] or fans[F.OUT_WITH_REPLACEMENT]:
        fans[F.SELF_DRAWN] = 0
    if fans[F.MELDED_HAND]:
        fans[F.SINGLE_WAIT] = 0
    if fans[F.TWO_DRAGON_PUNGS]:
        fans[F.DRAGON_PUNG] = 0
    if fans[F.FULLY_CONCEALED]:
        fans[F.SELF_DRAWN] = 0
    if fans[F.ALL_CHOWS] or fans[F.ALL_SIMPLES]:
        fans[F.NO_HONORS] = 0


def _winds(tile: int, hand: Tiles, fans: Table) -> None:
    """圈风刻 and 门风刻, each instead of that pung's 幺九刻 (where one is still counted)."""
    deducted = bool(fans[F.BIG_THREE_WINDS] or fans[F.ALL_TERMINALS_AND_HONORS]
                    or fans[F.ALL_HONORS] or fans[F.LITTLE_FOUR_WINDS])
    delta = tile - EAST
    if delta == hand.prevalent_wind:
        fans[F.PREVALENT_WIND] = 1
        if not deducted:
            fans[F.PUNG_OF_TERMINALS] -= 1
    if delta == hand.seat_wind:
        fans[F.SEAT_WIND] = 1
        if hand.seat_wind != hand.prevalent_wind and not deducted:
            fans[F.PUNG_OF_TERMINALS] -= 1


def _by_win_flags(hand: Tiles, last_tile: bool, kong: bool, fans: Table) -> None:
    if last_tile:
        fans[F.LAST_TILE] = 1
    if hand.self_drawn:
        fans[F.SELF_DRAWN] = 1
        if hand.wall_last:
            fans[F.LAST_TILE_DRAW] = 1
            fans[F.SELF_DRAWN] = 0
        if kong:
            fans[F.OUT_WITH_REPLACEMENT] = 1
            fans[F.SELF_DRAWN] = 0
    else:
        if hand.wall_last:
            fans[F.LAST_TILE_CLAIM] = 1
        if kong:
            fans[F.ROBBING_THE_KONG] = 1
            fans[F.LAST_TILE] = 0


# -- the shapes -----------------------------------------------------------------------

@dataclass
class _Context:
    hand: Tiles
    rules: Rules
    fixed_table: Table
    standing: Table  # the concealed tiles, the winning tile included
    unique: list[int]  # every kind in the hand, in code order
    last_tile: bool
    kong: bool


def _regular(packs: tuple[int, ...], ctx: _Context, single: bool) -> Table:
    fans = [0] * TABLE_SIZE
    hand = ctx.hand
    chows = [p for p in packs[:4] if shape_of(p) == CHOW]
    pungs = [p for p in packs[:4] if shape_of(p) in (PUNG, KONG)]
    pair = tile_of(packs[4])
    concealed_pungs = sum(1 for p in pungs if shape_of(p) == PUNG and not melded(p))
    melded_kongs = sum(1 for p in pungs if shape_of(p) == KONG and melded(p))
    concealed_kongs = sum(1 for p in pungs if shape_of(p) == KONG and not melded(p))
    win = hand.win
    _by_win_flags(hand, ctx.last_tile, ctx.kong, fans)
    # A tile won off a discard that no concealed chow can hold completes a pung: melded.
    if not hand.self_drawn and not any(
            not melded(c) and tile_of(c) - 1 <= win <= tile_of(c) + 1 for c in chows):
        concealed_pungs -= sum(1 for p in pungs if tile_of(p) == win and shape_of(p) == PUNG
                               and not melded(p))
    if pungs:
        _kongs(concealed_pungs, melded_kongs, concealed_kongs, fans)
        if len(pungs) == 4 and not fans[F.FOUR_KONGS] and not fans[F.FOUR_CONCEALED_PUNGS]:
            fans[F.ALL_PUNGS] = 1
        for p in pungs:
            fan = _one_pung(tile_of(p))
            if fan is not None:
                fans[fan] += 1
    mids = sorted(tile_of(c) for c in chows)
    if len(chows) == 4:
        if _three_suited_terminal_chows(mids, pair):
            fans[F.THREE_SUITED_TERMINAL_CHOWS] = 1
        elif _pure_terminal_chows(mids, pair):
            fans[F.PURE_TERMINAL_CHOWS] = 1
        else:
            _four_chow_fans(mids, fans)
    elif len(chows) == 3:
        _three_chow_fans(mids, fans)
    elif len(chows) == 2:
        fan = _two_chows(mids[0], mids[1])
        if fan is not None:
            fans[fan] += 1
        fan = _two_pungs(tile_of(pungs[0]), tile_of(pungs[1]))
        if fan is not None:
            fans[fan] += 1
    elif len(chows) == 1:
        _three_pung_fans(sorted(tile_of(p) for p in pungs), fans)
    else:
        _four_pung_fans(sorted(tile_of(p) for p in pungs), fans)
    fixed_cnt = len(hand.fixed)
    shown = sum(1 for p in hand.fixed if melded(p))
    if shown == 0:
        fans[F.FULLY_CONCEALED if hand.self_drawn else F.CONCEALED_HAND] = 1
    elif shown == 4:
        fans[F.SELF_DRAWN if hand.self_drawn else F.MELDED_HAND] = 1
    elif hand.self_drawn:
        fans[F.SELF_DRAWN] = 1
    if len(chows) == 4:
        if numbered(pair):
            fans[F.ALL_CHOWS] = 1
    elif fans[F.TWO_DRAGON_PUNGS]:
        if dragon(pair):
            fans[F.LITTLE_THREE_DRAGONS] = 1
            fans[F.TWO_DRAGON_PUNGS] = 0
    elif fans[F.BIG_THREE_WINDS] and wind(pair):
        fans[F.LITTLE_FOUR_WINDS] = 1
        fans[F.BIG_THREE_WINDS] = 0
    _by_pack_traits(packs, fans)
    _by_suits(ctx.unique, fans)
    _by_tile_traits(ctx.unique, fans)
    _by_rank_range(ctx.unique, fans)
    if fans[F.QUADRUPLE_CHOW] == 0:
        standing, fixed = ctx.standing, ctx.fixed_table
        fours = sum(1 for t in ctx.unique if standing[t] + fixed[t] == 4)
        fans[F.TILE_HOG] = fours - melded_kongs - concealed_kongs
    if single:
        _by_wait(packs[fixed_cnt:], win, fans)
    _final(fans)
    if not fans[F.BIG_FOUR_WINDS]:
        for p in pungs:
            if wind(tile_of(p)):
                _winds(tile_of(p), hand, fans)
    if not any(fans):
        fans[F.CHICKEN_HAND] = 1
    return fans


def _pure_terminal_chows(mids: list[int], pair: int) -> bool:
    if honor(pair) or rank(pair) != 5:
        return False
    if any(suit(m) != suit(pair) for m in mids):
        return False
    ranks = sorted(rank(m) for m in mids)
    return ranks == [2, 2, 8, 8]


def _three_suited_terminal_chows(mids: list[int], pair: int) -> bool:
    if honor(pair) or rank(pair) != 5:
        return False
    if any(suit(m) == suit(pair) or rank(m) not in (2, 8) for m in mids):
        return False
    others = {1, 2, 3} - {suit(pair)}
    have = {(suit(m), rank(m)) for m in mids}
    return all((s, r) in have for s in others for r in (2, 8))


def _knitted_straight(ctx: _Context) -> Table | None:
    """组合龙 with one more set and a pair (the set may be declared)."""
    hand, standing = ctx.hand, ctx.standing
    if not any(c > 1 for c in standing):
        return None
    seq = next((s for s in KNITTED if all(standing[t] for t in s)), None)
    if seq is None:
        return None
    rest = list(standing)
    for t in seq:
        rest[t] -= 1
    found = divisions(rest, (), start=3 + len(hand.fixed))
    if len(found) != 1:
        return None
    packs = list(found[0])
    if hand.fixed:
        packs[3] = hand.fixed[0]
    fourth, pair = packs[3], tile_of(packs[4])
    fans = [0] * TABLE_SIZE
    fans[F.KNITTED_STRAIGHT] = 1
    shape, tile = shape_of(fourth), tile_of(fourth)
    if shape == CHOW:
        if numbered(pair):
            fans[F.ALL_CHOWS] = 1
        if ctx.fixed_table[pair] + standing[pair] == 4:
            fans[F.TILE_HOG] = 1
    elif honor(tile):
        if wind(tile):
            fans[F.PUNG_OF_TERMINALS] = 1
            _winds(tile, hand, fans)
            if dragon(pair):
                fans[F.ALL_TYPES] = 1
        else:
            fans[F.DRAGON_PUNG] = 1
            if wind(pair):
                fans[F.ALL_TYPES] = 1
    else:
        if terminal(tile):
            fans[F.PUNG_OF_TERMINALS] = 1
        if not honor(pair):
            fans[F.NO_HONORS] = 1
        if shape != KONG and ctx.fixed_table[tile] + standing[tile] == 4:
            fans[F.TILE_HOG] = 1
    _by_win_flags(hand, ctx.last_tile, ctx.kong, fans)
    if melded(fourth):
        if shape == KONG:
            fans[F.MELDED_KONG] = 1
    else:
        if shape == KONG:
            fans[F.CONCEALED_KONG] = 1
        if hand.self_drawn:
            fans[F.FULLY_CONCEALED] = 1
            fans[F.SELF_DRAWN] = 0
        else:
            fans[F.CONCEALED_HAND] = 1
    win = hand.win
    if ctx.rules.knitted_straight_waits:
        if not hand.fixed:
            if single_wait(rest, 4, win):
                _by_wait(tuple(packs[3:5]), win, fans)
        elif win not in seq or standing[win] == 3:
            fans[F.SINGLE_WAIT] = 1
    elif win not in seq:
        if not hand.fixed:
            if single_wait(rest, 4, win):
                _by_wait(tuple(packs[3:5]), win, fans)
        else:
            fans[F.SINGLE_WAIT] = 1
    _final(fans)
    return fans


def _honors_and_knitted(unique: list[int], fans: Table) -> bool:
    if len(unique) != 14:
        return False
    suited = [t for t in unique if numbered(t)]
    if not 7 <= len(suited) <= 9:
        return False
    if not any(set(suited) <= set(seq) for seq in KNITTED):
        return False
    if len(suited) == 7:  # all seven honors
        fans[F.GREATER_HONORS_AND_KNITTED] = 1
        return True
    fans[F.LESSER_HONORS_AND_KNITTED] = 1
    if len(suited) == 9:
        fans[F.KNITTED_STRAIGHT] = 1
    return True


def _seven_shifted(table: Table, s: int) -> bool:
    if s == 4:
        return False
    t3 = s << 4 | 3
    if all(table[t3 + i] == 2 for i in range(5)):
        if table[t3 - 1] == 2:
            return table[t3 - 2] == 2 or table[t3 + 5] == 2
        return table[t3 + 5] == 2 and table[t3 + 6] == 2
    return False


def _special(ctx: _Context, fans: Table) -> bool:
    hand, table, unique = ctx.hand, ctx.standing, ctx.unique
    if all(table[t] % 2 == 0 for t in ALL_TILES):
        s = suit(hand.win)
        if _seven_shifted(table, s):
            fans[F.SEVEN_SHIFTED_PAIRS] = 1
            if table[s << 4 | 1] == 0 and table[s << 4 | 9] == 0:
                fans[F.ALL_SIMPLES] = 1
            _by_win_flags(hand, ctx.last_tile, ctx.kong, fans)
        else:
            fans[F.SEVEN_PAIRS] = 1
            _by_suits(unique, fans)
            _by_tile_traits(unique, fans)
            _by_rank_range(unique, fans)
            _tile_hog(table, 0, fans)
            _by_win_flags(hand, ctx.last_tile, ctx.kong, fans)
            _final(fans)
        return True
    if _honors_and_knitted(unique, fans):
        _by_win_flags(hand, ctx.last_tile, ctx.kong, fans)
        return True
    if len(unique) == 13 and tuple(unique) == tuple(sorted(ORPHANS)):
        fans[F.THIRTEEN_ORPHANS] = 1
        _by_win_flags(hand, ctx.last_tile, ctx.kong, fans)
        return True
    return False


def _nine_gates(ctx: _Context, fans: Table) -> bool:
    table, win = ctx.standing, ctx.hand.win
    if honor(win):
        return False
    s, r = suit(win), rank(win)
    base = s << 4
    middle = [table[base | i] for i in range(2, 9)]
    if r in (1, 9):
        other = base | (10 - r)
        if table[win] != 4 or table[other] != 3 or any(c != 1 for c in middle):
            return False
    else:
        if table[win] != 2 or table[base | 1] != 3 or table[base | 9] != 3:
            return False
        if any(c != 1 for i, c in zip(range(2, 9), middle, strict=True) if i != r):
            return False
    fans[F.NINE_GATES] = 1
    if r in (1, 9):
        fans[F.PURE_STRAIGHT] = fans[F.TILE_HOG] = 1
    elif r in (2, 8):
        fans[F.TWO_CONCEALED_PUNGS] = fans[F.SHORT_STRAIGHT] = fans[F.PUNG_OF_TERMINALS] = 1
    elif r == 5:
        fans[F.TWO_CONCEALED_PUNGS] = fans[F.PUNG_OF_TERMINALS] = 1
    else:
        fans[F.SHORT_STRAIGHT] = 1
    _by_win_flags(ctx.hand, ctx.last_tile, ctx.kong, fans)
    return True


class NotAWin(ValueError):
    """The tiles do not make a winning hand."""


def count(hand: Tiles, rules: Rules = Rules()) -> Table:
    """The fans of the best reading of ``hand`` (flowers not included): a table of counts
    indexed by :class:`Fan`. Raises :class:`NotAWin` when the tiles make no win."""
    fixed_table = [0] * SIZE
    add_packs(fixed_table, hand.fixed)
    standing = table_of(hand.standing)
    standing[hand.win] += 1
    unique = [t for t in ALL_TILES if fixed_table[t] or standing[t]]
    last_tile = hand.last_tile
    if standing[hand.win] != 1:
        last_tile = False
    if fixed_table[hand.win] == 3:
        last_tile = True  # the other three are in the winner's own melds
    kong = hand.kong
    if kong:
        if hand.self_drawn:
            kong = any(shape_of(p) == KONG for p in hand.fixed)
        else:
            kong = fixed_table[hand.win] == 0 and standing[hand.win] == 1
    ctx = _Context(hand, rules, fixed_table, standing, unique, last_tile, kong)
    best = 0
    chosen = [0] * TABLE_SIZE
    if len(hand.fixed) == 0:
        found = (_special(ctx, chosen) or _nine_gates_or_knitted(ctx, chosen))
        if found:
            best = total(chosen, rules)
    elif len(hand.fixed) == 1:
        knitted = _knitted_straight(ctx)
        if knitted is not None:
            chosen, best = knitted, total(knitted, rules)
    seven_pairs = bool(chosen[F.SEVEN_PAIRS])
    if best == 0 or seven_pairs:
        count_left = len(hand.standing)
        single = single_wait(standing, count_left, hand.win)
        for packs in divisions(list(standing), hand.fixed):
            fans = _regular(packs, ctx, single)
            points = total(fans, rules)
            if points > best or (points == best and (
                    fans[F.PURE_TRIPLE_CHOW] == 1 or seven_pairs or fans[F.TRIPLE_PUNG])):
                best, chosen = points, fans
    if best == 0:
        raise NotAWin("the tiles make no winning hand")
    return chosen


def _nine_gates_or_knitted(ctx: _Context, fans: Table) -> bool:
    knitted = _knitted_straight(ctx)
    if knitted is not None:
        fans[:] = knitted
        return True
    return _nine_gates(ctx, fans)
