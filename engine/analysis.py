"""Hand analysis over 34 counts: wins, waits and wildcards.

``counts`` are 34 integers in kind order (see :mod:`engine.tiles`) for the concealed tiles,
without the wildcards, which are passed as ``wild``. Declared melds are not in ``counts``;
a hand with k declared melds simply has 3k fewer tiles. The functions here know the
standard shapes only (four melds and a pair, seven pairs, where a four counts as two
pairs); :mod:`engine.readings` adds the family rules and says how each wildcard was used.

Speed comes from per-suit tables (see :mod:`engine.shapes`): a suit's nine counts are a key
mapped once to the fewest wildcards it needs, so a win check is three dict lookups.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from engine.shapes import DRAGONS, INF, SUIT, WINDS, lone_honor

# Keys are the suit's nine counts as bytes (cheap to build from a list and to hash).
# key -> (wildcards for melds, for melds + pair, tiles, kinds held an odd number of times)
_INFO: dict[bytes, tuple[int, int, int, int]] = {}
# key -> for each rank, (melds, melds + pair, odd) after adding one tile of it; None when 4.
_NEXT: dict[bytes, tuple[tuple[int, int, int] | None, ...]] = {}
_NO_HONORS = bytes(7)
# The win check's own tables: (melds, pair - melds, tiles, odd), per suit and per last suit
# plus the seven honor counts (all zero), so that a hand is three lookups and no honor test.
_FAST: dict[bytes, tuple[int, int, int, int]] = {}
_TAIL: dict[bytes, tuple[int, int, int, int]] = {}


def _info(key: bytes) -> tuple[int, int, int, int]:
    info = _INFO.get(key)
    if info is None:
        m, p = SUIT.need(tuple(key))
        info = (m, p, sum(key), sum(c & 1 for c in key))
        _INFO[key] = info
    return info


def _next(key: bytes) -> tuple[tuple[int, int, int] | None, ...]:
    nxt = _NEXT.get(key)
    if nxt is None:
        out: list[tuple[int, int, int] | None] = []
        for i in range(9):
            if key[i] >= 4:
                out.append(None)
                continue
            grown = key[:i] + bytes((key[i] + 1,)) + key[i + 1 :]
            m, p, _, odd = _info(grown)
            out.append((m, p, odd))
        nxt = tuple(out)
        _NEXT[key] = nxt
    return nxt


def _honor_parts(counts: Sequence[int], honor_sequences: bool) -> list[tuple[int, int]]:
    if honor_sequences:
        return [WINDS.need(tuple(counts[27:31])), DRAGONS.need(tuple(counts[31:34]))]
    return [lone_honor(c) for c in counts[27:34] if c]


def _combine(parts: Sequence[tuple[int, int]]) -> int:
    melds = sum(p[0] for p in parts)
    best = melds + 2  # the pair made of two wildcards
    for m, p in parts:
        best = min(best, melds - m + p)
    return best


def standard_need(counts: Sequence[int], honor_sequences: bool = False) -> int:
    """Fewest wildcards that complete the tiles into melds plus one pair (INF if never)."""
    b = bytes(counts)
    parts: list[tuple[int, int]] = [_info(b[s : s + 9])[:2] for s in (0, 9, 18)]
    if any(counts[27:34]):
        parts.extend(_honor_parts(counts, honor_sequences))
    return min(_combine(parts), INF)


def seven_pairs_need(counts: Sequence[int]) -> int:
    """Fewest wildcards for seven pairs; a four counts as two pairs (龙七对)."""
    return sum(c & 1 for c in counts)


class _IsWin(Protocol):
    def __call__(self, counts: Sequence[int], wild: int = 0, *,
                 honor_sequences: bool = False) -> bool: ...


def _make_is_win() -> _IsWin:
    fast, tail = _FAST, _TAIL  # closure cells: faster than globals on the hot path

    def is_win(counts: Sequence[int], wild: int = 0, *, honor_sequences: bool = False) -> bool:
        """Whether the tiles plus ``wild`` wildcards make four melds and a pair, or seven
        pairs. Declared melds are left out of ``counts``; seven pairs needs 14 concealed."""
        b = bytes(bytearray(counts))  # bytearray(list) is the fast converter; bytes hashes
        try:
            ma, da, na, oa = fast[b[0:9]]
            # One suit that can neither be melds (with or without the pair) nor pairs
            # already decides it: most random hands stop here, after one lookup.
            if oa > wild and ma + (da if da < 0 else 0) > wild:
                return False
            mb, db, nb, ob = fast[b[9:18]]
            if ob > wild and mb + (db if db < 0 else 0) > wild:
                return False
            mc, dc, nc, oc = tail[b[18:]]  # the last suit and no honors, in one key
        except KeyError:
            return _is_win_slow(b, counts, wild, honor_sequences)
        total = na + nb + nc + wild
        if total % 3 != 2:
            return False
        d = da if da < db else db
        if dc < d:
            d = dc
        if d > 2:
            d = 2  # the pair made of two wildcards
        if ma + mb + mc + d <= wild:
            return True
        return total == 14 and oa + ob + oc <= wild

    return is_win


is_win = _make_is_win()


def _fast_entry(key: bytes) -> tuple[int, int, int, int]:
    m, p, n, odd = _info(key)
    return (m, p - m, n, odd)


def _is_win_slow(b: bytes, counts: Sequence[int], wild: int, honor_sequences: bool) -> bool:
    """Fill the fast tables on a miss, or take the general path when honors are held."""
    for key in (b[0:9], b[9:18]):
        if key not in _FAST:
            _FAST[key] = _fast_entry(key)
    if b[27:] == _NO_HONORS:
        _TAIL[b[18:]] = _fast_entry(b[18:27])
        return is_win(counts, wild, honor_sequences=honor_sequences)
    return _is_win_general(counts, wild, honor_sequences)


def _is_win_general(counts: Sequence[int], wild: int, honor_sequences: bool) -> bool:
    total = sum(counts) + wild
    if total % 3 != 2:
        return False
    if standard_need(counts, honor_sequences) <= wild:
        return True
    return total == 14 and seven_pairs_need(counts) <= wild


_ALL = range(34)
_SUITS = range(27)
# (suit key, first kind of the suit, pair gain elsewhere, wildcards left) -> winning kinds
_SUIT_WAITS: dict[tuple[bytes, int, int, int], tuple[int, ...]] = {}


def _suit_waits(key: bytes, base: int, gain: int, spare: int) -> tuple[int, ...]:
    """Kinds of one suit that complete the standard shape, given the rest of the hand."""
    memo = (key, base, gain, spare)
    hit = _SUIT_WAITS.get(memo)
    if hit is None:
        nxt = _NEXT.get(key) or _next(key)
        hit = tuple(
            base + r
            for r, grown in enumerate(nxt)
            if grown is not None and min(grown[0] + gain, grown[1]) <= spare
        )
        _SUIT_WAITS[memo] = hit
    return hit


def waits(
    counts: Sequence[int],
    wild: int = 0,
    *,
    held: Sequence[int] | None = None,
    honor_sequences: bool = False,
    kinds: Sequence[int] = range(34),
) -> set[int]:
    """The kinds that would complete the hand. A kind already held four times is no wait.

    ``held`` counts the tiles of that kind held elsewhere (declared melds, wildcard faces);
    ``kinds`` limits the candidates (e.g. ``range(27)`` for a 108-tile family).
    """
    b = bytes(counts)
    keys = (b[0:9], b[9:18], b[18:27])
    infos = [_INFO.get(k) or _info(k) for k in keys]
    if b[27:] == _NO_HONORS:
        honor_parts: list[tuple[int, int]] = []
        honor_tiles = honor_odd = 0
    else:
        honor_parts = _honor_parts(counts, honor_sequences)
        honor_tiles = sum(counts[27:34])
        honor_odd = sum(c & 1 for c in counts[27:34])
    total = infos[0][2] + infos[1][2] + infos[2][2] + honor_tiles + wild
    if total % 3 != 1:
        return set()
    m_all = infos[0][0] + infos[1][0] + infos[2][0]
    for m, _ in honor_parts:
        m_all += m
    gains = [i[1] - i[0] for i in infos]
    honor_gain = min((p - m for m, p in honor_parts), default=2)
    out: set[int] = set()
    for s in (0, 1, 2):
        gain = min(2, honor_gain, *(gains[o] for o in (0, 1, 2) if o != s))
        out.update(_suit_waits(keys[s], 9 * s, gain, wild - m_all + infos[s][0]))
    if total == 13:  # seven pairs: an odd kind pairs up; with spare wildcards, any kind
        odd = infos[0][3] + infos[1][3] + infos[2][3] + honor_odd
        if odd - 1 <= wild:
            out.update(k for k, c in enumerate(counts) if c & 1)
        if odd + 1 <= wild:
            out.update(k for k, c in enumerate(counts) if c < 4)
    if honor_parts or wild:
        c = list(counts)
        lone_win: bool | None = None  # the same answer for every honor not held
        for k in range(27, 34):
            if c[k] >= 4 or k in out or (c[k] == 0 and wild == 0):
                continue
            if c[k] == 0 and not honor_sequences and lone_win is not None:
                if lone_win:
                    out.add(k)
                continue
            c[k] += 1
            won = _is_win_general(c, wild, honor_sequences)
            c[k] -= 1
            if won:
                out.add(k)
            if c[k] == 0:
                lone_win = won
    if held is not None:
        out = {k for k in out if counts[k] + held[k] < 4}
    if kinds is not _ALL and kinds != _ALL:
        out &= set(kinds)
    return out
