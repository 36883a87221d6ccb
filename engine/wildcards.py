"""Which kinds are wild, from the turned-up indicator tile."""

from __future__ import annotations

from engine.errors import ReportError
from engine.tiles import TileError, parse

_DRAGON_NEXT = {33: 32, 32: 31, 31: 33}  # 中 → 发 → 白 → 中


def parse_indicator(text: str | None) -> int | None:
    if text is None:
        return None
    try:
        kinds = parse(text, expect=1)
    except TileError as exc:
        raise ReportError("bad_indicator", f"indicator tile: {exc}", text=text) from None
    return kinds[0]


def next_in_suit(kind: int, step: int = 1) -> int:
    if kind < 27:
        return kind // 9 * 9 + (kind % 9 + step) % 9
    if kind < 31:
        return 27 + (kind - 27 + step) % 4
    out = kind
    for _ in range(step % 3):
        out = _DRAGON_NEXT[out]
    return out


def tingyong_kinds(benjin: int, scope: str = "same_suit") -> tuple[int, ...]:
    """Yibin 听用: one rank below and one above 本金, wrapping 9↔1."""
    if benjin >= 27:
        raise ReportError("bad_indicator", "本金 must be a suit tile", text=str(benjin))
    below, above = next_in_suit(benjin, -1), next_in_suit(benjin, 1)
    if scope == "same_suit":
        return tuple(sorted({below, above}))
    return tuple(sorted({s * 9 + k % 9 for s in range(3) for k in (below, above)}))


def jing_kinds(flipped: int, mode: str = "flipped_and_next") -> tuple[int, int | None]:
    """Jiangxi 精: (正精, 副精). With ``mode="next"`` only the next rank is wild (宝)."""
    nxt = next_in_suit(flipped, 1)
    return (flipped, nxt) if mode == "flipped_and_next" else (nxt, None)
