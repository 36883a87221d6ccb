"""What the pipeline counts, for the operator (placeholder hooks; exported by the
instruments module when metrics are enabled)."""

from __future__ import annotations


class _Counter:
    def __init__(self) -> None:
        self.value = 0

    def inc(self, amount: int = 1) -> None:
        self.value += amount


RETRIES = _Counter()
_COUNTS: dict[str, int] = {}


def _count(name: str) -> None:
    _COUNTS[name] = _COUNTS.get(name, 0) + 1


def telegram_error(code: str) -> None:
    _count(f"telegram_error:{code}")


def received(kind: str) -> None:
    _count(f"received:{kind}")


def handled(kind: str, seconds: float) -> None:
    _count(f"handled:{kind}")
