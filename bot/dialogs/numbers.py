"""Bounded readers for the numbers players type after /paid, /history, /hand and
/standings: ASCII digits (full-width ones from a Chinese keyboard too, as every typed word
is read: :func:`bot.dialogs.grammar.half_width`), never more than a
few digits, so no input can overflow a column or make the bot slow. Each raises
:class:`bot.dialogs.grammar.GrammarError` with a code the catalogs translate."""

from __future__ import annotations

import re
from datetime import date

from bot.dialogs.grammar import GrammarError, half_width

MAX_PAGE = 10_000
MAX_HAND = 100_000
MAX_DAYS = 3650
MAX_DEBT = 10**9
TOO_MUCH = 10**14  # cents: more than anyone can owe; the ledger refuses it as too much

_COUNT = re.compile(r"#?([0-9]{1,9})")
_AMOUNT = re.compile(r"(-?)([0-9]+)(?:\.([0-9]*))?")
_DAY = re.compile(r"([0-9]{4}-[0-9]{2}-[0-9]{2})(?:/([0-9]{1,2}))?")
_DAYS = re.compile(r"([0-9]{1,9})(?:d|天|days?)?", re.IGNORECASE)


def _clean(text: str) -> str:
    return half_width(text.strip())


def count(text: str, limit: int) -> int | None:
    """A whole number from 1 to ``limit`` (``#`` allowed before it), or None."""
    m = _COUNT.fullmatch(_clean(text))
    if m is None:
        return None
    n = int(m.group(1))
    return n if 1 <= n <= limit else None


def cents(text: str) -> int:
    """An amount of money (``5``, ``2.5``, ``2.50``, ``¥5``, ``5元``) in cents, more than 0.
    An amount too large to be owed reads as :data:`TOO_MUCH`."""
    raw = _clean(text).lstrip("¥$").removesuffix("元").removesuffix("块")
    m = _AMOUNT.fullmatch(raw)
    if m is None or (m.group(3) is not None and not 1 <= len(m.group(3)) <= 2):
        raise GrammarError("amount_usage", token=text[:20])
    if m.group(1):
        raise GrammarError("amount_negative")
    if len(m.group(2)) > 12:
        return TOO_MUCH
    value = int(m.group(2)) * 100 + int((m.group(3) or "0").ljust(2, "0"))
    if value == 0:
        raise GrammarError("amount_zero")
    return value


def night(text: str) -> date | tuple[date, int] | None:
    """``2026-11-20`` (that day's nights) or ``2026-11-20/2`` (its second night); None when
    the text is no date at all; GrammarError for a date that does not exist."""
    m = _DAY.fullmatch(_clean(text))
    if m is None:
        return None
    try:
        day = date.fromisoformat(m.group(1))
    except ValueError:
        raise GrammarError("bad_date", token=text[:20]) from None
    if m.group(2) is None:
        return day
    k = int(m.group(2))
    if k < 1:
        raise GrammarError("bad_date", token=text[:20])
    return day, k


def days(text: str) -> int | None:
    """``30d``, ``30天`` or ``30``: a number of days from 1 to :data:`MAX_DAYS`, or None."""
    m = _DAYS.fullmatch(_clean(text))
    if m is None:
        return None
    n = int(m.group(1))
    return n if 1 <= n <= MAX_DAYS else None
