"""Turn typed tiles into a :class:`~engine.readings.Hand`, with wildcards split off."""

from __future__ import annotations

from collections.abc import Sequence

from engine.readings import KONG, Hand, Meld, ShapeRules
from engine.tiles import KINDS, TileError, parse


def parse_wild_kinds(text: str | None) -> tuple[int, ...]:
    if not text:
        return ()
    return tuple(sorted(set(parse(text))))


def build_hand(
    text: str,
    rules: ShapeRules,
    wild_kinds: Sequence[int] = (),
    expect: int | Sequence[int] = (13, 14),
    declared: tuple[Meld, ...] = (),
) -> Hand:
    """Parse concealed tiles; tiles of a wild kind become wildcards remembering their face.
    ``declared`` melds count towards the four copies of each kind."""
    already = [0] * KINDS
    for m in declared:
        for k in (m.tiles * 2)[: 4 if m.shape == KONG else 3]:
            already[k] += 1
    kinds = parse(text, expect=expect, honors=rules.honors, already=already)
    counts = [0] * KINDS
    faces: list[int] = []
    for k in kinds:
        if k in wild_kinds:
            faces.append(k)
        else:
            counts[k] += 1
    if len(faces) > 8:
        raise TileError("too_many_wild", f"{len(faces)} wildcards; a hand holds at most 8",
                        count=len(faces))
    return Hand(tuple(counts), len(faces), declared, tuple(sorted(faces)))
