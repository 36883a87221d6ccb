"""The ledger: the only API the bot calls. A store that runs units of work, with the
services that build them, each a small class in its own module:

- ``ledger.chats``: a chat's settings and its players (:mod:`storage.services.chats`);
- ``ledger.sessions``: the table going, its scoreboard message, seat changes
  (:mod:`storage.services.sessions`);
- ``ledger.hands``: recording events, and reports kept as a question
  (:mod:`storage.services.hands`);
- ``ledger.corrections``: undo, void, amend, the audit trail (:mod:`storage.services.corrections`);
- ``ledger.nights``: the end of the night, its summary, the hands played
  (:mod:`storage.services.nights`);
- ``ledger.lookback``: standings, a player's statistics and record, nights by their label
  (:mod:`storage.services.lookback`);
- ``ledger.money``: debts, payments, settling, standings in money (:mod:`storage.services.money`);
- ``ledger.drafts``: the drafts behind inline buttons (:mod:`storage.services.drafts`);
- ``ledger.app_requests``: the Mini App's writes by their idempotency key
  (:mod:`storage.services.app_requests`);
- ``ledger.inbox``, ``ledger.outbox``, ``ledger.pipeline``: the delivery pipeline
  (:mod:`storage.queues.inbox`, :mod:`storage.queues.outbox`,
  :mod:`storage.queues.leases`), whose answers ride on the ledger's writes
  (:mod:`storage.queues.messages`).

Every write is one transaction (a unit of work, :mod:`storage.sql.store`), and every read and
write is scoped by chat id. A ledger bound to an answer (``tx = ledger.answering(answer)``)
has its own services: ``tx.hands.record(...)`` carries the answer.
"""

from __future__ import annotations

from functools import cached_property

from storage.errors import LedgerError
from storage.files.chat_files import ChatFiles
from storage.queues.inbox import Inbox
from storage.queues.leases import Pipeline
from storage.queues.outbox import Outbox
from storage.services.app_requests import AppRequests
from storage.services.chats import Chats
from storage.services.corrections import Corrections
from storage.services.drafts import Drafts
from storage.services.hands import Hands
from storage.services.lookback import Lookback
from storage.services.money import Money
from storage.services.nights import Nights
from storage.services.rows import SEAT_COLUMNS
from storage.services.series import Series
from storage.services.sessions import Sessions
from storage.sql.clock import local, now, utc_offset, zone, zone_name
from storage.sql.store import Store


class Ledger(Store):
    """Open with ``await Ledger.open(url)``; close with ``await ledger.close()``. Its
    operations are its services' (built once per ledger object, on first use)."""

    @cached_property
    def chats(self) -> Chats:
        return Chats(self)

    @cached_property
    def sessions(self) -> Sessions:
        return Sessions(self)

    @cached_property
    def hands(self) -> Hands:
        return Hands(self)

    @cached_property
    def corrections(self) -> Corrections:
        return Corrections(self)

    @cached_property
    def nights(self) -> Nights:
        return Nights(self)

    @cached_property
    def lookback(self) -> Lookback:
        return Lookback(self)

    @cached_property
    def money(self) -> Money:
        return Money(self)

    @cached_property
    def drafts(self) -> Drafts:
        return Drafts(self)

    @cached_property
    def series(self) -> Series:
        return Series(self)

    @cached_property
    def files(self) -> ChatFiles:
        return ChatFiles(self)

    @cached_property
    def app_requests(self) -> AppRequests:
        return AppRequests(self)

    @cached_property
    def inbox(self) -> Inbox:
        return Inbox(self)

    @cached_property
    def outbox(self) -> Outbox:
        return Outbox(self)

    @cached_property
    def pipeline(self) -> Pipeline:
        return Pipeline(self)


__all__ = ["SEAT_COLUMNS", "Ledger", "LedgerError", "local", "now", "utc_offset", "zone",
           "zone_name"]
