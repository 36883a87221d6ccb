"""The ledger's clock: every stamp it writes is ``now()``, in UTC."""

from __future__ import annotations

from datetime import UTC, datetime


def now() -> datetime:
    return datetime.now(UTC)


def naive(stamp: datetime) -> datetime:
    """SQLite gives naive UTC datetimes, PostgreSQL aware ones: compare them as naive UTC."""
    return stamp.astimezone(UTC).replace(tzinfo=None) if stamp.tzinfo else stamp
