"""Hong Kong bonus tiles (花牌): 花 梅蘭菊竹 and 季 春夏秋冬, numbered 1–4, as players type them.

Compact: ``1f``–``4f`` for the 花 and ``1g``–``4g`` for the 季 (``124f 3g`` groups them);
or the characters, Traditional or Simplified. ``無`` (``无``, ``none``) says there are none.
"""

from __future__ import annotations

import re

from engine.errors import ReportError

FLOWER, SEASON = "f", "g"
BonusTile = tuple[str, int]  # (FLOWER or SEASON, number 1-4)

_CHARS: dict[str, BonusTile] = {
    "梅": (FLOWER, 1), "蘭": (FLOWER, 2), "兰": (FLOWER, 2), "菊": (FLOWER, 3),
    "竹": (FLOWER, 4), "春": (SEASON, 1), "夏": (SEASON, 2), "秋": (SEASON, 3),
    "冬": (SEASON, 4),
}
_NONE = {"無", "无", "none", "no", "-", "0", "無花", "无花"}
_TOKEN = re.compile(r"(?P<compact>[1-4]+[fg])|(?P<char>[梅蘭兰菊竹春夏秋冬])|(?P<sep>[\s,，、]+)")


def parse_bonus(text: str) -> tuple[BonusTile, ...]:
    """The bonus tiles held, sorted; each at most once."""
    if text.strip().lower() in _NONE:
        return ()
    out: list[BonusTile] = []
    pos = 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None:
            token = text[pos:].split()[0] if text[pos:].split() else text[pos:]
            raise ReportError("bad_flowers", f"bonus tiles: cannot read {token!r}; write "
                              "1f-4f (梅蘭菊竹), 1g-4g (春夏秋冬) or 無", token=token)
        if m.group("compact"):
            group = m.group("compact")
            out += [(group[-1], int(d)) for d in group[:-1]]
        elif m.group("char"):
            out.append(_CHARS[m.group("char")])
        pos = m.end()
    if len(set(out)) != len(out):
        raise ReportError("bad_flowers", "each bonus tile is held at most once", token=text)
    return tuple(sorted(out))
