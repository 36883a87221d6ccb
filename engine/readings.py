"""Every reading of a winning hand, with the family's shape rules and wildcards.

A :class:`Reading` is one way to see the hand: its form, its melds and, for each meld, the
kinds that wildcards stood for. Scoring evaluates every reading and keeps the best one.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from itertools import combinations_with_replacement

from engine.shapes import DRAGONS, SUIT, WINDS, GroupSolver
from engine.tiles import KINDS, is_terminal_or_honor, rank_of, suit_of

PAIR, PUNG, CHOW, KONG = "pair", "pung", "chow", "kong"
STANDARD, SEVEN_PAIRS, JIUYAO, SHISANLANG, JIANGJIANG = (
    "standard", "seven_pairs", "jiuyao", "shisanlang", "jiangjiang",
)


@dataclass(frozen=True, order=True)
class Meld:
    shape: str
    tiles: tuple[int, ...]
    wild: tuple[int, ...] = ()
    declared: bool = False
    concealed: bool = True

    @property
    def first(self) -> int:
        return self.tiles[0]


@dataclass(frozen=True)
class ShapeRules:
    """Which winning shapes a family accepts."""

    honors: bool = False
    honor_sequences: bool = False
    seven_pairs: bool = True
    max_suits: int | None = None
    jiuyao: bool = False
    shisanlang: bool = False
    jiangjiang: bool = False
    chow: bool = True

    @property
    def kinds(self) -> range:
        return range(KINDS) if self.honors else range(27)


@dataclass(frozen=True)
class Hand:
    """Concealed counts (wildcards excluded), the wildcard count, declared melds and faces."""

    counts: tuple[int, ...]
    wild: int = 0
    melds: tuple[Meld, ...] = ()
    wild_faces: tuple[int, ...] = ()

    @property
    def size(self) -> int:
        return sum(self.counts) + self.wild + 3 * len(self.melds)


@dataclass(frozen=True)
class Reading:
    form: str
    melds: tuple[Meld, ...]
    loose: tuple[int, ...] = ()  # the tiles of a shapeless form (九幺, 十三浪, 将将胡)
    loose_wild: tuple[int, ...] = ()
    wild_faces: tuple[int, ...] = field(default=(), compare=False)

    @cached_property
    def wild_as(self) -> tuple[int, ...]:
        out = [k for m in self.melds for k in m.wild] + list(self.loose_wild)
        return tuple(sorted(out))

    @cached_property
    def all_counts(self) -> tuple[int, ...]:
        c = [0] * KINDS
        for m in self.melds:
            for k in m.tiles:
                c[k] += 1
        for k in (*self.loose, *self.loose_wild):  # the hand as read, wildcards included
            c[k] += 1
        return tuple(c)

    @property
    def wild_used(self) -> int:
        return len(self.wild_as)

    @property
    def restored(self) -> int:
        """Wildcards that stood for their own face (还原)."""
        faces = list(self.wild_faces)
        n = 0
        for k in self.wild_as:
            if k in faces:
                faces.remove(k)
                n += 1
        return n

    @property
    def pair(self) -> Meld | None:
        return next((m for m in self.melds if m.shape == PAIR), None)

    @cached_property
    def suits(self) -> frozenset[int]:
        c = self.all_counts
        return frozenset(s for s in (0, 1, 2) if any(c[9 * s : 9 * s + 9]))

    @cached_property
    def has_honors(self) -> bool:
        return any(self.all_counts[27:])

    @cached_property
    def fours(self) -> int:
        """Kinds held four times, counting a declared kong once as a kong, not as a four."""
        kong_kinds = {m.first for m in self.melds if m.shape == KONG}
        return sum(1 for k, c in enumerate(self.all_counts) if c >= 4 and k not in kong_kinds)

    def describe(self) -> str:
        from engine.tiles import compact

        parts = []
        for m in self.melds:
            text = "".join(str(rank_of(k)) for k in m.tiles) + "mpsz"[suit_of(m.first)]
            if m.wild:
                text += "(" + ",".join(compact(k) for k in m.wild) + "*)"
            parts.append(("[" + text + "]") if m.declared else text)
        if self.loose:
            parts.append(" ".join(compact(k) for k in self.loose))
        return f"{self.form}: " + " ".join(parts)


def _solver_groups(rules: ShapeRules) -> list[tuple[int, GroupSolver, str]]:
    groups: list[tuple[int, GroupSolver, str]] = [(0, SUIT, "s"), (9, SUIT, "s"), (18, SUIT, "s")]
    if rules.honors:
        if rules.honor_sequences:
            groups += [(27, WINDS, "w"), (31, DRAGONS, "d")]
        else:
            groups += [(27 + i, _LONE, "h") for i in range(7)]
    return groups


_LONE = GroupSolver(1, ())


def _decompose(
    solver: GroupSolver, counts: list[int], base: int, want_pair: bool, budget: int
) -> Iterator[tuple[tuple[Meld, ...], int]]:
    """Yield (melds, wildcards used) for one group, pruned by the solver's table."""
    need = solver.need(tuple(counts))[1 if want_pair else 0]
    if need > budget:
        return
    i = next((k for k, c in enumerate(counts) if c), -1)
    if i < 0:
        if not want_pair:
            yield (), 0
        return
    k = base + i
    if want_pair:
        for use in (2, 1):
            if counts[i] >= use:
                counts[i] -= use
                pair = Meld(PAIR, (k, k), (k,) * (2 - use))
                for rest, used in _decompose(solver, counts, base, False, budget - (2 - use)):
                    yield (pair, *rest), used + 2 - use
                counts[i] += use
    # A wildcard never stands in a pung or run where a real tile of that kind is left: the
    # reading where the real tile and the wildcard swap places has the same melds.
    use = min(counts[i], 3)
    counts[i] -= use
    pung = Meld(PUNG, (k, k, k), (k,) * (3 - use))
    for rest, used in _decompose(solver, counts, base, want_pair, budget - (3 - use)):
        yield (pung, *rest), used + 3 - use
    counts[i] += use
    for seq in solver.sequences_with[i]:
        taken = [j for j in seq if j != i and counts[j]]
        wild = tuple(base + j for j in seq if j != i and not counts[j])
        if len(wild) > budget:
            continue
        counts[i] -= 1
        for j in taken:
            counts[j] -= 1
        chow = Meld(CHOW, tuple(base + j for j in seq), wild)
        for rest, used in _decompose(solver, counts, base, want_pair, budget - len(wild)):
            yield (chow, *rest), used + len(wild)
        counts[i] += 1
        for j in taken:
            counts[j] += 1


def _wild_melds(candidates: Sequence[int]) -> list[Meld]:
    """Melds made only of wildcards. They are read as pungs: in every family here a pung
    scores at least as well as a run of the same suit and terminal-ness (对对胡, 将对, 根)."""
    return [Meld(PUNG, (k, k, k), (k, k, k)) for k in candidates]


def _candidates(hand: Hand, rules: ShapeRules, extra: Sequence[int]) -> list[int]:
    """Kinds a pair or pung made only of wildcards may stand for, reduced to those that can
    change a score: kinds in the hand, and per suit a terminal (1) and a 2/5/8 (2). Any other
    kind scores exactly as, or worse than, one of these."""
    present = {k for k, c in enumerate(hand.counts) if c} | {m.first for m in hand.melds}
    suits = {suit_of(k) for k in present if k < 27}
    if rules.max_suits is None or len(suits) < rules.max_suits:
        suits = {0, 1, 2}
    kinds = set(extra) | present
    for s in suits:
        kinds.update((9 * s, 9 * s + 1))
    if rules.honors:
        kinds.update((27, 31))
    return sorted(
        k for k in kinds if (k < 27 and suit_of(k) in suits) or (k >= 27 and rules.honors)
    )


def _standard(hand: Hand, rules: ShapeRules, extra: Sequence[int]) -> Iterator[Reading]:
    counts = list(hand.counts)
    groups = _solver_groups(rules)
    slots = 4 - len(hand.melds)
    if slots < 0:
        return
    wild_meld_options: list[Meld] | None = None

    def walk(g: int, pair_done: bool, budget: int, acc: tuple[Meld, ...]) -> Iterator[Reading]:
        nonlocal wild_meld_options
        if g == len(groups):
            missing = slots - sum(1 for m in acc if m.shape != PAIR)
            need_pair = not pair_done
            if budget != 3 * missing + (2 if need_pair else 0) or missing < 0:
                return
            if wild_meld_options is None:
                cands = _candidates(hand, rules, extra)
                wild_meld_options = _wild_melds(cands)
                walk.pairs = [Meld(PAIR, (k, k), (k, k)) for k in cands]  # type: ignore[attr-defined]
            pairs = walk.pairs if need_pair else [None]  # type: ignore[attr-defined]
            for extra_melds in combinations_with_replacement(wild_meld_options, missing):
                for pair in pairs:
                    melds = acc + extra_melds + ((pair,) if pair else ())
                    yield Reading(STANDARD, tuple(sorted(melds + hand.melds)),
                                  wild_faces=hand.wild_faces)
            return
        base, solver, _ = groups[g]
        size = solver.size
        sub = counts[base : base + size]
        options = [False] if pair_done else [True, False]
        for want_pair in options:
            for melds, used in _decompose(solver, sub, base, want_pair, budget):
                yield from walk(g + 1, pair_done or want_pair, budget - used, acc + melds)

    yield from walk(0, False, hand.wild, ())


def _seven_pairs(hand: Hand, rules: ShapeRules, extra: Sequence[int]) -> Iterator[Reading]:
    if hand.melds or hand.size != 14:
        return
    singles = [k for k, c in enumerate(hand.counts) if c & 1]
    if len(singles) > hand.wild:
        return
    pairs = [Meld(PAIR, (k, k)) for k, c in enumerate(hand.counts) for _ in range(c // 2)]
    pairs += [Meld(PAIR, (k, k), (k,)) for k in singles]
    spare = (hand.wild - len(singles)) // 2
    if spare == 0:
        yield Reading(SEVEN_PAIRS, tuple(sorted(pairs)), wild_faces=hand.wild_faces)
        return
    cands = _candidates(hand, rules, extra)
    for combo in combinations_with_replacement(cands, spare):
        more = [Meld(PAIR, (k, k), (k, k)) for k in combo]
        yield Reading(SEVEN_PAIRS, tuple(sorted(pairs + more)), wild_faces=hand.wild_faces)


def _loose(hand: Hand, allowed: Sequence[int], form: str) -> Reading | None:
    """A shapeless form where every tile must be one of ``allowed`` kinds."""
    if hand.size != 14:
        return None
    ok = set(allowed)
    tiles = [k for k, c in enumerate(hand.counts) for _ in range(c)]
    if any(k not in ok for k in tiles) or any(m.first not in ok for m in hand.melds):
        return None
    if any(m.shape == CHOW and any(k not in ok for k in m.tiles) for m in hand.melds):
        return None
    # Wildcards first complete the seven honors (七字全 doubles), then join the commonest kind.
    missing_honors = [k for k in allowed if k >= 27 and not hand.counts[k]]
    best = max(ok, key=lambda k: hand.counts[k]) if tiles else min(ok)
    wild_as = (missing_honors + [best] * hand.wild)[: hand.wild]
    return Reading(form, hand.melds, tuple(tiles), tuple(sorted(wild_as)), hand.wild_faces)


_LANG_SETS: list[frozenset[int]] = [
    frozenset(r for r in range(9) if mask >> r & 1)
    for mask in range(1, 512)
    if all(b - a >= 3 for a, b in zip(
        [r for r in range(9) if mask >> r & 1], [r for r in range(9) if mask >> r & 1][1:]
    , strict=False))
]


def _shisanlang(hand: Hand) -> Reading | None:
    if hand.melds or hand.size != 14 or any(c > 1 for c in hand.counts):
        return None
    room = 7 - sum(hand.counts[27:])
    filled: list[int] = [k for k in range(27, 34) if not hand.counts[k]]
    extra: list[int] = []
    for s in range(3):
        have = frozenset(r for r in range(9) if hand.counts[9 * s + r])
        fits = [x for x in _LANG_SETS if have <= x]
        if not fits and have:
            return None
        biggest = max(fits, key=len) if fits else frozenset()
        room += len(biggest) - len(have)
        extra += [9 * s + r for r in sorted(biggest - have)]
    if room < hand.wild:
        return None
    pool = filled + extra  # honors first, for 七字全
    tiles = tuple(k for k, c in enumerate(hand.counts) if c)
    return Reading(SHISANLANG, (), tiles, tuple(sorted(pool[: hand.wild])), hand.wild_faces)


def readings(hand: Hand, rules: ShapeRules, extra_kinds: Sequence[int] = ()) -> list[Reading]:
    """All distinct readings of a complete hand (14 tiles counting declared melds as 3)."""
    if hand.size != 14:
        return []
    out: dict[tuple[object, ...], Reading] = {}
    for r in _standard(hand, rules, extra_kinds):
        out.setdefault(("s", r.melds), r)
    if rules.seven_pairs:
        for r in _seven_pairs(hand, rules, extra_kinds):
            out.setdefault(("7", r.melds), r)
    loose: list[Reading | None] = []
    if rules.jiuyao:
        loose.append(_loose(hand, [k for k in rules.kinds if is_terminal_or_honor(k)], JIUYAO))
    if rules.jiangjiang:
        loose.append(_loose(hand, [k for k in rules.kinds if k < 27 and k % 3 == 1], JIANGJIANG))
    if rules.shisanlang:
        loose.append(_shisanlang(hand))
    for one in loose:
        if one is not None:
            out.setdefault((one.form, one.loose, one.loose_wild), one)
    result = list(out.values())
    if rules.max_suits is not None:
        result = [r for r in result if len(r.suits) <= rules.max_suits]
    return result
