"""From a winner's typed tiles to the facts scoring needs: readings, patterns, 根, kongs."""

from __future__ import annotations

from collections.abc import Sequence

from engine.errors import ReportError
from engine.hand_input import build_hand
from engine.patterns import Facts, PatternSet
from engine.readings import CHOW, KONG, PUNG, Hand, Meld
from engine.shape_rules import FAMILY_SHAPES, family_readings
from engine.tiles import SUIT_NAMES_ZH, TileError, format_compact, parse, suit_of


def parse_meld(text: str, family: str) -> Meld:
    try:
        kinds = sorted(parse(text, expect=(3, 4), honors=FAMILY_SHAPES[family].honors))
    except TileError as exc:
        raise ReportError("bad_meld", f"meld {text!r}: {exc}", meld=text) from None
    if len(set(kinds)) == 1:
        shape = KONG if len(kinds) == 4 else PUNG
    elif len(kinds) == 3 and kinds[0] < 27 and suit_of(kinds[0]) == suit_of(kinds[2]) and (
        kinds[1] == kinds[0] + 1 and kinds[2] == kinds[0] + 2
    ):
        shape = CHOW
    else:
        raise ReportError("bad_meld", f"meld {text!r} is not a pong, kong or chow", meld=text)
    if shape == CHOW and not FAMILY_SHAPES[family].chow:
        raise ReportError("chow_not_allowed", f"meld {text!r}: this family has no chow",
                          meld=text)
    return Meld(shape, tuple(kinds[:3]) if shape == KONG else tuple(kinds), declared=True,
                concealed=False)


def build(
    family: str, tiles: str, melds: Sequence[str], wild_kinds: Sequence[int], size: int = 14
) -> Hand:
    """Concealed tiles (the winning tile included) plus declared melds, checked for count."""
    declared = tuple(parse_meld(m, family) for m in melds)
    try:
        return build_hand(tiles, FAMILY_SHAPES[family], wild_kinds,
                          expect=size - 3 * len(declared), declared=declared)
    except TileError as exc:
        raise ReportError(exc.code, f"tiles: {exc}", **exc.params) from None


def _contradiction(name: str, facts: Facts) -> str:
    reading = facts.reading
    if name == "清一色":
        suits = " and ".join(SUIT_NAMES_ZH[s] for s in sorted(reading.suits))
        return f"清一色 named, but the hand holds {suits}" + (
            " and honors" if reading.has_honors else "")
    if name in ("七对", "七小对"):
        return f"{name} named, but the tiles are not seven pairs"
    return f"{name} named, but the tiles do not show it"


def tile_facts(
    family: str,
    patterns: PatternSet,
    hand: Hand,
    named: set[str],
    wild_kinds: Sequence[int] = (),
    special_kind: int | None = None,
) -> list[tuple[Facts, set[str]]]:
    """Every accepted reading with the patterns its tiles show. Named patterns that tiles can
    show must be shown by at least one reading, or the report contradicts its tiles."""
    extra = [k for k in (special_kind,) if k is not None]
    found = family_readings(family, hand, [*wild_kinds, *extra])
    if not found:
        raise ReportError("tiles_not_a_win", "these tiles do not make a winning hand here")
    checkable = {n for n in named if patterns[n].detect is not None}
    out: list[tuple[Facts, set[str]]] = []
    first_failure: tuple[str, Facts] | None = None
    for reading in found:
        facts = Facts(reading, hand.melds, special_kind)
        shown = patterns.detected(facts)
        missing = sorted(checkable - shown)
        if missing:
            first_failure = first_failure or (missing[0], facts)
            continue
        out.append((facts, shown))
    if not out:
        assert first_failure is not None
        name, facts = first_failure
        if name == "无听用" and hand.wild_faces:  # a 听用 in the hand stands in
            tiles = " ".join(format_compact([k]) for k in sorted(set(hand.wild_faces)))
            raise ReportError("wild_stands_in", f"无听用 named, but the hand needs its 听用 "
                              f"{tiles} as another tile", pattern=name, tiles=tiles)
        raise ReportError("tiles_contradict", _contradiction(name, facts), pattern=name)
    return out
