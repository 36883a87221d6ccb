"""What a pattern is, and the registry a family keeps its patterns in."""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from engine.errors import ReportError
from engine.readings import KONG, PAIR, PUNG, STANDARD, Meld, Reading
from engine.tiles import is_terminal_or_honor, rank_of


@dataclass(frozen=True)
class Facts:
    """What detection looks at: one reading of the winner's tiles and its context."""

    reading: Reading
    declared: tuple[Meld, ...] = ()
    special_kind: int | None = None  # Yibin 本金, for 碰本金

    @property
    def sets(self) -> list[Meld]:
        return [m for m in self.reading.melds if m.shape != PAIR]

    @property
    def all_pungs(self) -> bool:
        return self.reading.form == STANDARD and all(m.shape in (PUNG, KONG) for m in self.sets)

    @property
    def kinds(self) -> list[int]:
        return [k for k, c in enumerate(self.reading.all_counts) if c]

    @property
    def one_suit(self) -> bool:
        return len(self.reading.suits) == 1 and not self.reading.has_honors


@dataclass(frozen=True)
class Pattern:
    """One pattern: its names, what it implies or excludes, and how tiles show it.

    ``detect`` is None for what tiles cannot show (天胡, 海底): only a report names those.
    ``min_gen``/``min_kongs`` are what the pattern needs; ``uses_gen`` the 根 it uses up
    when it is the base pattern (龙七对 uses one).
    """

    name: str
    pinyin: str
    english: str
    summary: str
    aliases: tuple[str, ...] = ()
    implies: tuple[str, ...] = ()
    excludes: tuple[str, ...] = ()
    min_gen: int = 0
    min_kongs: int = 0
    uses_gen: int = 0
    detect: Callable[[Facts], bool] | None = None

    @property
    def names(self) -> tuple[str, ...]:
        return (self.name, self.pinyin, self.english, *self.aliases)


# Traditional characters of pattern names, and the variants players write, folded to one
# form: a name typed in Traditional, Simplified or a mix of them finds its pattern.
_FOLD = str.maketrans("對槓開門風羅漢連環過撈搶無雞發財紅蓮寶燈糊么",
                      "对杠开门风罗汉连环过捞抢无鸡发财红莲宝灯胡幺")


def _norm(text: str) -> str:
    return re.sub(r"[\s_\-']+", "", text).lower().translate(_FOLD)


@dataclass
class PatternSet:
    """A family's patterns, found by any of their names."""

    family: str
    patterns: dict[str, Pattern] = field(default_factory=dict)
    _index: dict[str, str] = field(default_factory=dict)

    def add(self, *patterns: Pattern) -> None:
        for p in patterns:
            self.patterns[p.name] = p
            for n in p.names:
                self._index[_norm(n)] = p.name

    def __iter__(self) -> Iterator[Pattern]:
        return iter(self.patterns.values())

    def knows(self, name: str) -> bool:
        """Whether ``name`` (any language, any spacing) names one of these patterns."""
        return _norm(name) in self._index

    def __getitem__(self, name: str) -> Pattern:
        return self.patterns[name]

    def resolve(self, name: str) -> Pattern:
        hit = self._index.get(_norm(name))
        if hit is not None:
            return self.patterns[hit]
        suggestion = ", ".join(self.closest(name)) or ", ".join(list(self.patterns)[:6])
        raise ReportError(
            "unknown_pattern",
            f"unknown pattern {name!r} in the {self.family} family; did you mean: {suggestion}?",
            name=name,
            suggestions=suggestion,
        )

    def closest(self, name: str, among: Iterable[str] | None = None, n: int = 3
                ) -> list[str]:
        """The patterns (of ``among`` only, when given) with a name closest to ``name``,
        closest first: at most ``n``, maybe none."""
        keep = set(among) if among is not None else set(self.patterns)
        index = [k for k, v in self._index.items() if v in keep]
        names: list[str] = []
        for c in difflib.get_close_matches(_norm(name), index, n=8, cutoff=0.5):
            if self._index[c] not in names:
                names.append(self._index[c])
        return names[:n]

    def expand(self, names: Iterable[str]) -> set[str]:
        """The canonical names, with everything they imply."""
        out: set[str] = set()
        todo = [self.resolve(n).name for n in names]
        while todo:
            n = todo.pop()
            if n not in out:
                out.add(n)
                todo.extend(self.patterns[n].implies)
        return out

    def check_exclusions(self, names: set[str]) -> None:
        for n in sorted(names):
            for x in self.patterns[n].excludes:
                if x in names:
                    raise ReportError(
                        "patterns_exclude",
                        f"{n} and {x} cannot both hold in one hand",
                        first=n,
                        second=x,
                    )

    def detected(self, facts: Facts) -> set[str]:
        return {p.name for p in self.patterns.values() if p.detect is not None and p.detect(facts)}


# Detectors shared by several families.
def all_pungs(f: Facts) -> bool:
    return f.all_pungs


def one_suit(f: Facts) -> bool:
    return f.one_suit


def seven_pairs(f: Facts) -> bool:
    return f.reading.form == "seven_pairs"


def terminals_everywhere(f: Facts) -> bool:
    return f.reading.form == STANDARD and all(
        any(is_terminal_or_honor(k) for k in m.tiles) for m in f.reading.melds
    )


def all_258(f: Facts) -> bool:
    return all(k < 27 and rank_of(k) in (2, 5, 8) for k in f.kinds)


def no_terminals(f: Facts) -> bool:
    return not any(is_terminal_or_honor(k) for k in f.kinds)


def four_declared(f: Facts) -> bool:
    return len(f.declared) == 4


def nothing_declared(f: Facts) -> bool:
    return not f.declared
