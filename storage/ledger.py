"""The ledger's operations: the only API the bot calls.

Every write is one transaction (a unit of work): on SQLite it starts with BEGIN IMMEDIATE,
on PostgreSQL it locks the session row first, so two writers on one table queue instead of
interleaving. Every read and write is scoped by chat id. The operations live in modules
named for what they do; :class:`Ledger` puts them together, with the delivery pipeline's
inbox and outbox (:mod:`storage.delivery`), whose answers ride on the ledger's writes.
"""

from __future__ import annotations

from storage.corrections import Corrections
from storage.delivery import Delivery
from storage.errors import LedgerError
from storage.ledger_base import SEAT_COLUMNS, now
from storage.lookback import Lookback
from storage.money import Money
from storage.reading import Reading
from storage.recording import Recording
from storage.seating import Seating


class Ledger(Delivery, Recording, Corrections, Seating, Reading, Money, Lookback):
    """Open with ``await Ledger.open(url)``; close with ``await ledger.close()``."""


__all__ = ["SEAT_COLUMNS", "Ledger", "LedgerError", "now"]
