"""STUB until issue 12 lands: the hooks a webhook worker calls around its life.

The lead's dispatcher (inbox → handlers, per-chat order) and sender (outbox → Telegram)
start in :func:`start` and stop in :func:`stop`; :func:`backlog` reads the ledger's
``(inbox rows unfinished, outbox rows unsent)``. Replace this module with the real one at
the merge; ``bot.webhook`` and ``bot.admin`` call only these three names.
"""

from __future__ import annotations

from typing import Any

from telegram.ext import Application


async def start(app: Application) -> None:  # type: ignore[type-arg]
    """Start this process's dispatcher and sender (issue 12)."""


async def stop(app: Application) -> None:  # type: ignore[type-arg]
    """Stop them, finishing or releasing what they hold (issue 12)."""


async def backlog(ledger: Any) -> tuple[int, int]:
    """``await ledger.backlog()`` once the ledger has it (issue 12); (0, 0) before."""
    read = getattr(ledger, "backlog", None)
    return (0, 0) if read is None else await read()
