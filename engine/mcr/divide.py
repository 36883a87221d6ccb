"""Tiles as sets: every way to split a hand into four sets and a pair, and its waits.

Tiles here are MCR codes, ``suit << 4 | rank``: suits 1 万 (m), 2 条 (s), 3 筒 (p), 4 honors
(东南西北 1-4, 中发白 5-7), so that ranks in a suit are consecutive codes and ``t + 3`` is
the same suit's tile three higher. A set ("pack") is ``offer << 12 | shape << 8 | tile``
(a chow by its middle tile); ``offer`` 0 is concealed, 1-3 the seat it was claimed from.
Divisions come in one fixed order (tiles in code order, a pung before a chow) and each
once, so that ties between readings are broken the same way every time.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

CHOW, PUNG, KONG, PAIR = 1, 2, 3, 4
SIZE = 0x48
SUIT_TILES = tuple(s << 4 | r for s in (1, 2, 3) for r in range(1, 10))
HONOR_TILES = tuple(0x40 | r for r in range(1, 8))
ALL_TILES = SUIT_TILES + HONOR_TILES
EAST, WHITE = 0x41, 0x47


def make_pack(offer: int, shape: int, tile: int) -> int:
    return offer << 12 | shape << 8 | tile


def shape_of(pack: int) -> int:
    return pack >> 8 & 0xF


def tile_of(pack: int) -> int:
    return pack & 0xFF


def melded(pack: int) -> bool:
    return bool(pack & 0x3000)


def suit(tile: int) -> int:
    return tile >> 4


def rank(tile: int) -> int:
    return tile & 0xF


def numbered(tile: int) -> bool:
    return tile < 0x40


def honor(tile: int) -> bool:
    return tile >= 0x40


def wind(tile: int) -> bool:
    return 0x41 <= tile <= 0x44


def dragon(tile: int) -> bool:
    return 0x45 <= tile <= 0x47


def terminal(tile: int) -> bool:
    return tile < 0x40 and rank(tile) in (1, 9)


def terminal_or_honor(tile: int) -> bool:
    return tile >= 0x40 or rank(tile) in (1, 9)


_GREEN = frozenset({0x22, 0x23, 0x24, 0x26, 0x28, 0x46})
_REVERSIBLE = frozenset({0x22, 0x24, 0x25, 0x26, 0x28, 0x29, 0x31, 0x32, 0x33, 0x34, 0x35,
                         0x38, 0x39, WHITE})


def green(tile: int) -> bool:
    return tile in _GREEN


def reversible(tile: int) -> bool:
    return tile in _REVERSIBLE


def table_of(tiles: Iterable[int]) -> list[int]:
    table = [0] * SIZE
    for t in tiles:
        table[t] += 1
    return table


def add_packs(table: list[int], packs: Iterable[int]) -> None:
    """Count the tiles of ``packs`` into ``table``."""
    for p in packs:
        t, s = tile_of(p), shape_of(p)
        if s == CHOW:
            table[t - 1] += 1
            table[t] += 1
            table[t + 1] += 1
        else:
            table[t] += {PUNG: 3, KONG: 4, PAIR: 2}[s]


# A set's "eigen" (its three tiles as one number) orders the sets of a division: each set's
# is never below the last one's, so that each split is found once.


def divisions(table: list[int], fixed: Sequence[int], start: int | None = None
              ) -> list[tuple[int, ...]]:
    """Every split of the concealed ``table`` into sets and a pair completing ``fixed``
    (declared sets) into five packs: sets first (declared ones as given, concealed ones
    sorted), the pair last. ``start`` is the index of the first set to find (the knitted
    straight stands for three sets)."""
    found: list[tuple[int, ...]] = []
    if max(table) < 2:
        return found
    work = [0] * 5
    work[:len(fixed)] = list(fixed)
    first = len(fixed) if start is None else start
    fixed_cnt = len(fixed)

    def tail() -> None:
        for t in ALL_TILES:
            if table[t] < 2:
                continue
            table[t] -= 2
            done = not any(table)
            table[t] += 2
            if done:
                work[4] = make_pack(0, PAIR, t)
                division = list(work)
                if fixed_cnt < 4:
                    division[fixed_cnt:4] = sorted(division[fixed_cnt:4])
                key = tuple(division[fixed_cnt:4])
                if all(tuple(d[fixed_cnt:4]) != key for d in found):
                    found.append(tuple(division))
                return

    def walk(idx: int, prev: int, begin: int) -> None:
        if idx == 4:
            tail()
            return
        # Sets come in order (a set's eigen never below the last one's): no tile before
        # the last set's first tile can start the next.
        for i in range(begin, len(ALL_TILES)):
            t = ALL_TILES[i]
            if table[t] < 1:
                continue
            if table[t] > 2:
                eigen = t << 16 | t << 8 | t
                if eigen > prev:
                    work[idx] = PUNG << 8 | t
                    table[t] -= 3
                    walk(idx + 1, eigen, i)
                    table[t] += 3
            if t < 0x40 and t & 15 < 8 and table[t + 1] and table[t + 2]:
                eigen = t << 16 | (t + 1) << 8 | (t + 2)
                if eigen >= prev:
                    work[idx] = CHOW << 8 | (t + 1)
                    table[t] -= 1
                    table[t + 1] -= 1
                    table[t + 2] -= 1
                    walk(idx + 1, eigen, i)
                    table[t] += 1
                    table[t + 1] += 1
                    table[t + 2] += 1

    walk(first, 0, 0)
    return found


def _seven_pairs_waits(table: list[int], waits: set[int]) -> None:
    pairs = sum(2 if table[t] == 4 else 1 if table[t] in (2, 3) else 0 for t in ALL_TILES)
    if pairs == 6:
        for t in ALL_TILES:
            if table[t] in (1, 3):
                waits.add(t)
                break


def _partial_set_waits(table: list[int], waits: set[int]) -> None:
    """The waits of two tiles left over (a pair, or two of a chow)."""
    for t in ALL_TILES:
        if table[t] < 1:
            continue
        if table[t] > 1:
            waits.add(t)
            return
        if numbered(t):
            r = rank(t)
            if r > 1 and table[t - 1]:
                if r < 9:
                    waits.add(t + 1)
                if r > 2:
                    waits.add(t - 2)
                return
            if r > 2 and table[t - 2]:
                waits.add(t - 1)
                return


def _regular_waits(table: list[int], count: int, prev: int, waits: set[int],
                   begin: int = 0) -> None:
    if count == 1:
        for t in ALL_TILES:
            if table[t] == 1:
                waits.add(t)
                break
        return
    if count == 4:
        for t in ALL_TILES:
            if table[t] < 2:
                continue
            table[t] -= 2
            _partial_set_waits(table, waits)
            table[t] += 2
    for i in range(begin, len(ALL_TILES)):
        t = ALL_TILES[i]
        if table[t] < 1:
            continue
        if table[t] > 2:
            eigen = t << 16 | t << 8 | t
            if eigen > prev:
                table[t] -= 3
                _regular_waits(table, count - 3, eigen, waits, i)
                table[t] += 3
        if t < 0x40 and t & 15 < 8 and table[t + 1] and table[t + 2]:
            eigen = t << 16 | (t + 1) << 8 | (t + 2)
            if eigen >= prev:
                table[t] -= 1
                table[t + 1] -= 1
                table[t + 2] -= 1
                _regular_waits(table, count - 3, eigen, waits, i)
                table[t] += 1
                table[t + 1] += 1
                table[t + 2] += 1


def single_wait(table: list[int], count: int, win: int) -> bool:
    """Whether the hand waited on ``win`` alone: the concealed ``table`` (the winning tile
    in it) less the winning tile (``count`` tiles left) waits on one kind, in the standard
    shape or seven pairs. A kind the hand already holds four of still counts as a wait."""
    waits: set[int] = set()
    table[win] -= 1
    if count == 13:
        _seven_pairs_waits(table, waits)
    _regular_waits(table, count, 0, waits)
    table[win] += 1
    return len(waits) == 1
