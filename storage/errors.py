"""Errors the ledger raises for requests it refuses (the bot translates ``code``)."""

from __future__ import annotations

from engine.errors import clip


class LedgerError(Exception):
    def __init__(self, code: str, message: str, **params: str | int) -> None:
        super().__init__(clip(message, 300))
        self.code = code
        self.params = {k: clip(v) if isinstance(v, str) else v for k, v in params.items()}
