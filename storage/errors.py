"""Errors the ledger raises for requests it refuses (the bot translates ``code``)."""

from __future__ import annotations

from engine.errors import clip


class LedgerError(Exception):
    def __init__(self, code: str, message: str, **params: str | int) -> None:
        super().__init__(clip(message, 300))
        self.code = code
        self.params = {k: clip(v) if isinstance(v, str) else v for k, v in params.items()}


def database_away(exc: BaseException) -> bool:
    """The database was briefly unavailable (busy, restarted, a dropped connection): the
    unit of work rolled back and may be tried again."""
    from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError

    if isinstance(exc, DBAPIError) and exc.connection_invalidated:
        return True
    return isinstance(exc, OperationalError | InterfaceError)
