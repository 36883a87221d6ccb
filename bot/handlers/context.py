"""What every handler is given: :class:`TallyContext`, python-telegram-bot's
``CallbackContext`` with the bot's own parts (``ContextTypes(context=TallyContext)``, set
in :func:`bot.app.build_application`).

python-telegram-bot makes one context per update (``Application.process_update``), so
what it keeps lives as long as the update's handling::

    async def cmd_x(update: Update, context: TallyContext) -> None:
        lang = await context.lang()               # the chat's language, read once
        async with context.write(answer) as tx:   # the update's one write (bot.delivery.send)
            out = await tx.hands.record(...)

(A handler is given the language, or the language and the table it may act at, by the
guards of :mod:`bot.handlers.guards`.)

``context.ledger`` and ``context.drafts`` are for reads (a write through them is refused);
``context.registry`` is the one kind of write outside it; ``context.turn`` is the update's
:class:`bot.delivery.send.Turn` (None outside the pipeline: start-up, tests calling a
handler). :data:`TallyApp` is the application's type."""

from __future__ import annotations

from collections import OrderedDict
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from typing import Any, TypeAlias, TypeVar

from telegram import Update
from telegram.ext import Application, CallbackContext, ExtBot

from bot.delivery import send
from bot.text.i18n import normalise_language
from storage.delivery import Render
from storage.ledger import Chats, Drafts, Ledger
from storage.models import ChatInfo, NightInfo

K = TypeVar("K")
V = TypeVar("V")
KEPT_CHATS = 10_000  # chats whose settings and table a polling process keeps in memory


class Recent(OrderedDict[K, V]):
    """A dict of the ``limit`` entries stored most recently: a chat's entry is stored again
    with each of its writes, so the chats playing stay and the quiet ones make room (a
    public bot sees far more chats than play at once)."""

    def __init__(self, limit: int = KEPT_CHATS) -> None:
        super().__init__()
        self.limit = limit

    def __setitem__(self, key: K, value: V) -> None:
        super().__setitem__(key, value)
        self.move_to_end(key)
        while len(self) > self.limit:
            self.popitem(last=False)


@dataclass
class Services:
    """What the application holds for every update (``bot_data["services"]``, set at
    start by :func:`bot.app.build_application`'s ``post_init``)."""

    ledger: Ledger  # the one the write scope binds to an answer
    admins: frozenset[int]
    default_language: str
    # What may be kept in memory between updates: the chat's language, answer style and
    # table. Safe when one process owns the pipeline (polling: it makes every write to its
    # chats and refreshes the entries). Several webhook workers share the chats, so there
    # nothing is kept: every update reads them from the ledger.
    cache: bool = True
    chats: Recent[int, ChatInfo] = field(default_factory=Recent)  # language, answer style
    tables: Recent[int, NightInfo | None] = field(default_factory=Recent)  # None: no table

    def __post_init__(self) -> None:
        # What the handlers read through: a write on it is refused before it runs.
        self.reader = self.ledger.reading()


Data: TypeAlias = dict[Any, Any]
TallyBot: TypeAlias = ExtBot[int]  # ExtBot's parameter: what AIORateLimiter takes


class TallyContext(CallbackContext[TallyBot, Data, Data, Data]):
    """The context of one update's handling: the services, the chat's language (read
    once), the update's turn and its write scope."""

    def __init__(self, application: TallyApp, chat_id: int | None = None,
                 user_id: int | None = None) -> None:
        super().__init__(application, chat_id=chat_id, user_id=user_id)
        self.incoming: Update | None = None  # the update being handled
        self._lang: str | None = None

    @classmethod
    def from_update(cls, update: object, application: TallyApp) -> TallyContext:
        context = super().from_update(update, application)
        if isinstance(update, Update):
            context.incoming = update
        return context

    @property
    def services(self) -> Services:
        return self.bot_data["services"]  # type: ignore[no-any-return]

    @property
    def ledger(self) -> Ledger:
        """The ledger for reads: a write on it raises :class:`storage.sql.store.ReadOnly`
        before it runs. An update's change goes through :meth:`write`."""
        return self.services.reader

    @property
    def drafts(self) -> Drafts:
        """The drafts behind buttons, for reads; a change: ``tx.drafts`` in :meth:`write`."""
        return self.services.reader.drafts

    @property
    def registry(self) -> Chats:
        """The one kind of write outside the update's write scope: what the ledger
        records on first sight of a chat or of a player's account. A chat's row is made
        when it is first read (its settings, in the language of whoever spoke first:
        :meth:`chat_info`); a player seated by @username (or a guest of the sender's
        username) is linked to the sender's account when they first act
        (:func:`bot.handlers.chat.link_sender`); a member who asks for their own /stats
        is given a row. Neither changes a score, and both are the
        same however often they run, so they need no answer of their own."""
        return self.services.ledger.chats

    @property
    def turn(self) -> send.Turn | None:
        """The update's handling in the pipeline; None outside it."""
        return send.CURRENT.get()

    def write(self, render: Render
              ) -> AbstractAsyncContextManager[Ledger]:
        """The update's one unit of work (:func:`bot.delivery.send.write`):
        ``async with context.write(render) as tx: out = await tx.hands.record(...)``."""
        return send.write(self.services.ledger, render)

    # -- what is kept of the chat -------------------------------------------------------

    def kept(self, kind: str) -> dict[int, Any]:
        """Where ``kind`` (tables, chats) is kept: in the process when it owns the
        pipeline, else only for the update being handled (see :class:`send.Turn`)."""
        svc = self.services
        if svc.cache:
            return svc.tables if kind == "tables" else svc.chats
        turn = self.turn
        return turn.memo.setdefault(kind, {}) if turn is not None else {}

    async def chat_info(self, chat_id: int, first_language: str) -> ChatInfo:
        """The chat's settings (created on first use, in ``first_language``)."""
        kept, tables = self.kept("chats"), self.kept("tables")
        if chat_id not in kept:
            if not self.services.cache and chat_id not in tables:
                # Nothing is kept between updates (several workers): the chat's table,
                # which most updates read next, comes in the same transaction.
                kept[chat_id], tables[chat_id] = await self.registry.chat_and_night(
                    chat_id, first_language)
            else:
                kept[chat_id] = await self.registry.chat(chat_id, first_language)
        return kept[chat_id]  # type: ignore[no-any-return]

    def remember_chat(self, info: ChatInfo) -> None:
        """The chat's settings as a write left them (its language from now on)."""
        self.kept("chats")[info.id] = info
        chat = self.incoming.effective_chat if self.incoming is not None else None
        if chat is not None and chat.id == info.id:
            self._lang = info.language

    async def lang(self) -> str:
        """The update's chat's language, read once per update: stored with the chat,
        first taken from whoever spoke first."""
        if self._lang is None:
            self._lang = await self._chat_lang()
        return self._lang

    async def _chat_lang(self) -> str:
        default = self.services.default_language
        chat = self.incoming.effective_chat if self.incoming is not None else None
        if chat is None or self.incoming is None:
            return default
        user = self.incoming.effective_user
        first = normalise_language(user.language_code if user else None, default)
        return (await self.chat_info(chat.id, first)).language


# The application: python-telegram-bot's, with this context; no job queue (nothing is
# scheduled: the delivery pipeline runs its own tasks).
TallyApp: TypeAlias = Application[TallyBot, TallyContext, Data, Data, Data, None]
