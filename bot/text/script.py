"""Chinese in either script: a word typed in Traditional characters reads as the same word
in Simplified (點炮 as 点炮, 東 as 东, 槓 as 杠), so every keyword, seat and name the bot
reads is understood in both.

The table (``locales/zh_Hant/t2s.txt``, OpenCC's characters, written by ``make i18n``) maps
each Traditional character to its Simplified form; :data:`EXTRA_FOLD` adds what Hong Kong
players write otherwise (糊 for 胡: 食糊, 對對糊).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

TABLE = Path(__file__).resolve().parent / "locales" / "zh_Hant" / "t2s.txt"
EXTRA_FOLD = {"糊": "胡"}


@cache
def _table() -> dict[int, str]:
    traditional, simplified = TABLE.read_text(encoding="utf-8").splitlines()[:2]
    table = {ord(a): b for a, b in zip(traditional, simplified, strict=True)}
    table.update({ord(a): b for a, b in EXTRA_FOLD.items()})
    return table


def simplified(text: str) -> str:
    """``text`` with each Traditional character in its Simplified form."""
    return text.translate(_table())


def fold(text: str) -> str:
    """``text`` as the bot compares words: lower case, Simplified characters."""
    return simplified(text.lower())
