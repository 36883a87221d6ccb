"""Errors the ledger raises for requests it refuses (the bot translates ``code``)."""

from __future__ import annotations


class LedgerError(Exception):
    def __init__(self, code: str, message: str, **params: str | int) -> None:
        super().__init__(message)
        self.code = code
        self.params = params
