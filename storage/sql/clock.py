"""The ledger's clock: every stamp it writes is ``now()``, in UTC; a chat's time zone, by
which its days and times are told."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta, timezone, tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError


def now() -> datetime:
    return datetime.now(UTC)


def naive(stamp: datetime) -> datetime:
    """SQLite gives naive UTC datetimes, PostgreSQL aware ones: compare them as naive UTC."""
    return stamp.astimezone(UTC).replace(tzinfo=None) if stamp.tzinfo else stamp


# A chat's time zone when it has set none: by the language it speaks.
DEFAULT_ZONES = {"zh-Hans": "Asia/Shanghai", "zh-Hant": "Asia/Hong_Kong", "en": "UTC"}
_OFFSET = re.compile(r"(?:UTC|GMT)?\s*([+-])\s*(\d{1,2})(?::?(\d{2}))?", re.IGNORECASE)


def zone_name(text: str) -> str | None:
    """A time zone as a player types it, as the ledger keeps it: an IANA name
    (``Asia/Singapore``), ``UTC``, or an offset (``+8``, ``UTC+8``, ``-05:30``, kept as
    ``UTC+08:00``); None when it is none of these."""
    text = text.strip()
    if text.upper() in ("UTC", "GMT", "Z"):
        return "UTC"
    m = _OFFSET.fullmatch(text)
    if m:
        hours, minutes = int(m.group(2)), int(m.group(3) or 0)
        if hours > 14 or minutes >= 60 or (hours == 14 and minutes):
            return None
        return f"UTC{m.group(1)}{hours:02d}:{minutes:02d}"
    if len(text) > 64 or "/" not in text:
        return None
    try:
        ZoneInfo(text)
    except (ZoneInfoNotFoundError, ValueError):
        return None
    return text


def zone(name: str | None, language: str = "en") -> tzinfo:
    """The tzinfo of a chat's time zone (its own, else its language's default)."""
    name = name or DEFAULT_ZONES.get(language, "UTC")
    if name == "UTC":
        return UTC
    if name.startswith("UTC"):
        sign = -1 if name[3] == "-" else 1
        hours, minutes = int(name[4:6]), int(name[7:9])
        return timezone(sign * timedelta(hours=hours, minutes=minutes), name)
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return UTC


def local(stamp: datetime, where: tzinfo) -> datetime:
    """``stamp`` (aware, or naive UTC as SQLite gives it) at ``where``."""
    return (stamp if stamp.tzinfo else stamp.replace(tzinfo=UTC)).astimezone(where)


def utc_offset(stamp: datetime) -> str:
    """``UTC+8``, ``UTC-5:30``, ``UTC`` for an aware local time."""
    offset = stamp.utcoffset() or timedelta()
    minutes = int(offset.total_seconds()) // 60
    if not minutes:
        return "UTC"
    sign, minutes = ("+" if minutes > 0 else "-"), abs(minutes)
    return f"UTC{sign}{minutes // 60}" + (f":{minutes % 60:02d}" if minutes % 60 else "")
