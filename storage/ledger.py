"""The ledger: the only API the bot calls. A store that runs units of work, with the
services that build them, each a small class in its own module:

- ``ledger.chats``: a chat's settings and its players (:mod:`storage.services.chats`);
- ``ledger.open_nights``: the night going, its scoreboard message, seat changes
  (:mod:`storage.services.open_nights`);
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
- ``ledger.inbox``, ``ledger.outbox``, ``ledger.queues``: the delivery pipeline
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
from storage.files.chat_files import ChatFiles, ImportPreview
from storage.queues.inbox import Inbox
from storage.queues.leases import Queues
from storage.queues.outbox import Outbox
from storage.services.app_requests import AppRequests, Claimed
from storage.services.chats import Chats
from storage.services.corrections import Corrections
from storage.services.drafts import IMPORT_KIND, Drafts
from storage.services.hand_stats import seat_facts
from storage.services.hands import Hands
from storage.services.lookback import (
    AuditNote,
    HandDetail,
    Lookback,
    NightHistory,
    NightList,
    PlayerRecord,
    Scope,
)
from storage.services.money import Money, MoneyStanding, PairBalance, Payment, SettlePlan
from storage.services.nights import Nights
from storage.services.open_nights import OpenNights
from storage.services.rows import SEAT_COLUMNS
from storage.services.series import HandRow, NightChart, NightNet, Series
from storage.services.twice import QUESTION_KIND
from storage.sql import db, schema
from storage.sql.clock import local, now, utc_offset, zone, zone_name
from storage.sql.store import Store
from storage.sql.unit_of_work import Rollback  # ends a shared transaction uncommitted


class Ledger(Store):
    """Open with ``await Ledger.open(url)``; close with ``await ledger.close()``. Its
    operations are its services' (built once per ledger object, on first use)."""

    @classmethod
    async def migrate(cls, url: str) -> None:
        """Bring the database at ``url`` to the newest schema, without keeping it open
        (what ``open`` does first, done once for several processes)."""
        engine = db.create_engine(url)
        try:
            await db.migrate(engine)
        finally:
            await engine.dispose()

    async def schema_at_head(self) -> bool:
        """Whether the database's schema is the newest migration's."""
        return await schema.schema_at_head(self.engine)

    @cached_property
    def chats(self) -> Chats:
        return Chats(self)

    @cached_property
    def open_nights(self) -> OpenNights:
        return OpenNights(self)

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
    def queues(self) -> Queues:
        return Queues(self)


# What the bot reads besides the ledger itself: the types its services take and return
# (beyond storage.models), the kinds of draft the bot asks for by name, the clock, and the
# per-player facts of a hand as the ledger counts them (the pictures count the same).
__all__ = [
    "IMPORT_KIND", "QUESTION_KIND", "SEAT_COLUMNS", "AuditNote", "Chats", "Claimed",
    "Drafts", "HandDetail", "HandRow", "ImportPreview", "Ledger", "LedgerError",
    "MoneyStanding", "NightChart", "NightHistory", "NightList", "NightNet", "PairBalance",
    "Payment", "PlayerRecord", "Rollback", "Scope", "SettlePlan", "local", "now", "seat_facts",
    "utc_offset", "zone", "zone_name",
]
