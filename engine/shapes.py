"""Fewest wildcards a group of tiles needs to become melds (and melds plus one pair).

A *group* is a run of kinds that can form melds together: a suit (sequences of three
consecutive ranks), or, in the Jiangxi family, the winds (any three different) and the
dragons (中发白). Lone honors form triplets only. Results are memoised per group shape,
keyed by the tuple of counts: each key is solved once per process, then a dict lookup.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

INF = 99

# A meld pattern is a tuple of offsets inside the group; a triplet repeats one offset.
SUIT_SEQUENCES: tuple[tuple[int, ...], ...] = tuple((s, s + 1, s + 2) for s in range(7))
WIND_SEQUENCES: tuple[tuple[int, ...], ...] = ((0, 1, 2), (0, 1, 3), (0, 2, 3), (1, 2, 3))
DRAGON_SEQUENCES: tuple[tuple[int, ...], ...] = ((0, 1, 2),)


class GroupSolver:
    """Memoised solver for one group shape (its size and its sequence patterns)."""

    def __init__(self, size: int, sequences: Sequence[tuple[int, ...]]) -> None:
        self.size = size
        self.sequences_with: list[list[tuple[int, ...]]] = [
            [seq for seq in sequences if i in seq] for i in range(size)
        ]
        self.table: dict[tuple[int, ...], tuple[int, int]] = {}

    def need(self, counts: tuple[int, ...]) -> tuple[int, int]:
        """(wildcards for melds only, wildcards for melds plus exactly one pair)."""
        hit = self.table.get(counts)
        if hit is None:
            hit = self._solve(counts)
            self.table[counts] = hit
        return hit

    def _solve(self, counts: tuple[int, ...]) -> tuple[int, int]:
        i = next((k for k, c in enumerate(counts) if c), -1)
        if i < 0:
            return (0, 2)
        best_m = best_p = INF
        c = list(counts)
        # The lowest tile present is in the pair ...
        for use in (1, 2):
            if c[i] >= use:
                c[i] -= use
                m, _ = self.need(tuple(c))
                best_p = min(best_p, m + 2 - use)
                c[i] += use
        # ... or in a triplet, using one, two or three real copies ...
        for use in (1, 2, 3):
            if c[i] >= use:
                c[i] -= use
                m, p = self.need(tuple(c))
                best_m = min(best_m, m + 3 - use)
                best_p = min(best_p, p + 3 - use)
                c[i] += use
        # ... or in a sequence, each other slot real (when present) or wild.
        for seq in self.sequences_with[i]:
            others = [k for k in seq if k != i]
            for mask in range(1 << len(others)):
                cost = 0
                taken = []
                ok = True
                for bit, k in enumerate(others):
                    if mask >> bit & 1:
                        if c[k] == 0:
                            ok = False
                            break
                        taken.append(k)
                    else:
                        cost += 1
                if not ok:
                    continue
                c[i] -= 1
                for k in taken:
                    c[k] -= 1
                m, p = self.need(tuple(c))
                best_m = min(best_m, m + cost)
                best_p = min(best_p, p + cost)
                c[i] += 1
                for k in taken:
                    c[k] += 1
        return (min(best_m, INF), min(best_p, INF))


SUIT = GroupSolver(9, SUIT_SEQUENCES)
WINDS = GroupSolver(4, WIND_SEQUENCES)
DRAGONS = GroupSolver(3, DRAGON_SEQUENCES)


@cache
def lone_honor(count: int) -> tuple[int, int]:
    """A single honor kind that forms triplets only."""
    return ((0, 2, 1, 0, 2)[count], (2, 1, 0, 2, 1)[count])
