"""Bonus tiles as players type them (Singapore/Malaysia): flowers, seasons and animals.

``f1``–``f4`` or 梅兰菊竹 are the flowers, ``s1``–``s4`` or 春夏秋冬 the seasons (numbered
as the seats, E 1 to N 4), and ``cat``/猫, ``rat``/鼠, ``rooster``/鸡, ``centipede``/蜈蚣 the
animals. ``none`` (无) says the winner holds no bonus tile at all.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from engine.errors import ReportError, clip

ANIMALS = ("cat", "rat", "rooster", "centipede")
_NAMES: dict[str, tuple[str, int]] = {
    **{f"f{n}": ("flower", n) for n in range(1, 5)},
    **{f"{n}f": ("flower", n) for n in range(1, 5)},
    **{f"s{n}": ("season", n) for n in range(1, 5)},
    **{c: ("flower", i + 1) for i, c in enumerate("梅兰菊竹")},
    **{c: ("season", i + 1) for i, c in enumerate("春夏秋冬")},
    "蘭": ("flower", 2),
    **{a: ("animal", i + 1) for i, a in enumerate(ANIMALS)},
    "猫": ("animal", 1), "貓": ("animal", 1), "鼠": ("animal", 2), "老鼠": ("animal", 2),
    "mouse": ("animal", 2), "鸡": ("animal", 3), "雞": ("animal", 3), "公鸡": ("animal", 3),
    "公雞": ("animal", 3), "chicken": ("animal", 3), "cock": ("animal", 3),
    "蜈蚣": ("animal", 4),
}
_NONE = {"none", "no", "无", "無", "-"}
_TOKEN = re.compile(r"[a-z]+\d?|\d[a-z]|老鼠|公鸡|公雞|蜈蚣|[^\s,，、;；]")


@dataclass(frozen=True)
class Bonus:
    """A winner's bonus tiles: the flower and season numbers, and the animals (1-4 as in
    ``ANIMALS``)."""

    flowers: frozenset[int] = frozenset()
    seasons: frozenset[int] = frozenset()
    animals: frozenset[int] = frozenset()

    @property
    def count(self) -> int:
        return len(self.flowers) + len(self.seasons) + len(self.animals)


def parse_bonus(text: str) -> Bonus:
    """Read bonus tiles; a tile named twice, or a word that is none, is refused."""
    words = _TOKEN.findall(text.strip().lower())
    if (len(words) == 1 and words[0] in _NONE) or (not words and not text.strip()):
        return Bonus()
    seen: dict[str, set[int]] = {"flower": set(), "season": set(), "animal": set()}
    for word in words:
        if word in _NONE:
            raise ReportError("bad_bonus", "“none” stands alone: no bonus tile at all",
                              token="none")
        hit = _NAMES.get(word)
        if hit is None:
            raise ReportError("bad_bonus", f"cannot read the bonus tile {clip(word)!r}; write "
                              "f1-f4, s1-s4, cat, rat, rooster, centipede (or 梅兰菊竹 春夏秋冬 "
                              "猫 鼠 鸡 蜈蚣)", token=word)
        kind, number = hit
        if number in seen[kind]:
            raise ReportError("bad_bonus", f"{word}: each bonus tile is in the wall once",
                              token=word)
        seen[kind].add(number)
    return Bonus(frozenset(seen["flower"]), frozenset(seen["season"]),
                 frozenset(seen["animal"]))


def names(bonus: Bonus) -> Iterable[str]:
    """The tiles as codes, for explanation lines: f1 s1 cat."""
    yield from (f"f{n}" for n in sorted(bonus.flowers))
    yield from (f"s{n}" for n in sorted(bonus.seasons))
    yield from (ANIMALS[n - 1] for n in sorted(bonus.animals))
