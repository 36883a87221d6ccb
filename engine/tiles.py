"""Tile kinds, and the notations players type.

Kinds are indexed as in the ``mahjong`` package: 0-8 are 1-9 万 (m), 9-17 1-9 筒 (p),
18-26 1-9 条 (s), 27-30 东南西北 and 31-33 白发中 (1z-7z in compact notation).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from engine.errors import clip

KINDS = 34
SUITS = "mps"
SUIT_NAMES_ZH = ("万", "筒", "条")
HONOR_NAMES_ZH = ("东", "南", "西", "北", "白", "发", "中")
RANK_NAMES_ZH = ("一", "二", "三", "四", "五", "六", "七", "八", "九")
WINDS = range(27, 31)
DRAGONS = range(31, 34)
SUIT_KINDS = range(27)


class TileError(ValueError):
    """Bad tile input. ``token`` and ``position`` say what and where; ``code`` names the problem."""

    def __init__(self, code: str, message: str, token: str = "", position: int = -1,
                 **extra: str | int) -> None:
        super().__init__(clip(message, 300))
        self.code = code
        self.token = token
        self.position = position
        # For messages in other languages: the token, its 1-based position, and the rest.
        self.params: dict[str, str | int] = {
            k: clip(v) if isinstance(v, str) else v
            for k, v in {"token": token, "position": position + 1, **extra}.items()}


def suit_of(kind: int) -> int:
    """0, 1, 2 for the suits, 3 for honors."""
    return kind // 9 if kind < 27 else 3


def rank_of(kind: int) -> int:
    """1-9 for suit tiles, 1-7 for honors (1z-7z)."""
    return kind % 9 + 1 if kind < 27 else kind - 26


def is_terminal_or_honor(kind: int) -> bool:
    return kind >= 27 or kind % 9 in (0, 8)


def kind_of(rank: int, suit: str) -> int:
    if suit == "z":
        if not 1 <= rank <= 7:
            raise TileError("bad_rank", f"no honor {rank}z", f"{rank}z")
        return 26 + rank
    if not 1 <= rank <= 9:
        raise TileError("bad_rank", f"no tile {rank}{suit}", f"{rank}{suit}")
    return SUITS.index(suit) * 9 + rank - 1


def compact(kind: int) -> str:
    return f"{rank_of(kind)}{'mpsz'[suit_of(kind)]}"


def chinese(kind: int) -> str:
    if kind >= 27:
        return HONOR_NAMES_ZH[kind - 27]
    return RANK_NAMES_ZH[kind % 9] + SUIT_NAMES_ZH[kind // 9]


_ZH_RANKS = {c: i + 1 for i, c in enumerate(RANK_NAMES_ZH)} | {"两": 2, "幺": 1}
_ZH_SUITS = {"万": "m", "萬": "m", "筒": "p", "饼": "p", "餅": "p", "条": "s", "條": "s", "索": "s"}
_ZH_HONORS = {
    "东风": 27, "南风": 28, "西风": 29, "北风": 30, "白板": 31, "发财": 32, "發財": 32,
    "红中": 33, "紅中": 33, "東": 27, "东": 27, "南": 28, "西": 29, "北": 30,
    "白": 31, "发": 32, "發": 32, "中": 33,
}
_TOKEN = re.compile(
    r"(?P<compact>[0-9]+[mpsz])"
    r"|(?P<zh>(?:[0-9]|[一二三四五六七八九两幺])[万萬筒饼餅条條索])"
    r"|(?P<honor>东风|南风|西风|北风|白板|发财|發財|红中|紅中|[東东南西北白发發中])"
    r"|(?P<sep>[\s,，、;；]+)",
)


@dataclass(frozen=True)
class ParsedTile:
    kind: int
    token: str
    position: int


def parse_tokens(text: str) -> list[ParsedTile]:
    """Parse compact (``123m 456p 11z``), Chinese (``一万 5饼 红中``) or mixed input."""
    out: list[ParsedTile] = []
    pos = 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None:
            end = pos + 1
            while end < len(text) and not text[end].isspace():
                end += 1
            token = text[pos:end]
            raise TileError("bad_token", f"cannot read {token!r} at position {pos + 1}", token, pos)
        if m.group("compact"):
            group = m.group("compact")
            suit = group[-1]
            for offset, digit in enumerate(group[:-1]):
                rank = int(digit)
                if rank == 0 and suit != "z":
                    rank = 5  # red five, as many clients write it
                try:
                    out.append(ParsedTile(kind_of(rank, suit), digit + suit, pos + offset))
                except TileError as exc:
                    raise TileError(
                        "bad_token",
                        f"no tile {digit}{suit} at position {pos + offset + 1}",
                        digit + suit,
                        pos + offset,
                    ) from exc
        elif m.group("zh"):
            token = m.group("zh")
            head = token[0]
            rank = int(head) if head.isdigit() else _ZH_RANKS[head]
            if rank == 0:
                raise TileError("bad_token", f"no tile {token!r} at position {pos + 1}", token, pos)
            out.append(ParsedTile(kind_of(rank, _ZH_SUITS[token[1]]), token, pos))
        elif m.group("honor"):
            token = m.group("honor")
            out.append(ParsedTile(_ZH_HONORS[token], token, pos))
        pos = m.end()
    return out


def parse(
    text: str,
    *,
    expect: int | Sequence[int] | None = None,
    honors: bool = True,
    already: Sequence[int] | None = None,
) -> list[int]:
    """Parse tiles into kinds, checking counts.

    ``expect`` is the tile count (or the allowed counts); ``honors=False`` refuses winds and
    dragons (108-tile families); ``already`` are counts held elsewhere (declared melds) that
    count towards the four copies of each kind.
    """
    tiles = parse_tokens(text)
    counts = list(already) if already is not None else [0] * KINDS
    for tile in tiles:
        if not honors and tile.kind >= 27:
            raise TileError(
                "honor_not_allowed",
                f"{tile.token!r} at position {tile.position + 1}: this family has no honors",
                tile.token,
                tile.position,
            )
        counts[tile.kind] += 1
        if counts[tile.kind] > 4:
            raise TileError(
                "fifth_copy",
                f"{tile.token!r} at position {tile.position + 1} is a fifth {compact(tile.kind)}",
                tile.token,
                tile.position,
            )
    if expect is not None:
        allowed = (expect,) if isinstance(expect, int) else tuple(expect)
        if len(tiles) not in allowed:
            want = " or ".join(str(n) for n in allowed)
            raise TileError("tile_count", f"{len(tiles)} tiles where {want} are expected",
                            count=len(tiles), expected=want)
    return [t.kind for t in tiles]


def to_counts(kinds: Iterable[int]) -> list[int]:
    counts = [0] * KINDS
    for k in kinds:
        counts[k] += 1
    return counts


def format_compact(kinds: Iterable[int]) -> str:
    """``[0, 1, 2, 9]`` -> ``123m1p`` grouped by suit, in kind order."""
    by_suit: dict[int, list[int]] = {}
    for k in sorted(kinds):
        by_suit.setdefault(suit_of(k), []).append(rank_of(k))
    return "".join("".join(map(str, ranks)) + "mpsz"[s] for s, ranks in sorted(by_suit.items()))


def format_chinese(kinds: Iterable[int]) -> str:
    return " ".join(chinese(k) for k in sorted(kinds))
