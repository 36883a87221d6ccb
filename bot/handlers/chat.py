"""Chat plumbing shared by commands and buttons: the table, who may act, replies,
refusals, and the one error handler. The services and the chat's language are the
context's (:mod:`bot.handlers.context`)."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Coroutine, Mapping
from typing import Any, TypeAlias

from telegram import Message, MessageEntity, Update
from telegram.constants import ChatType
from telegram.error import BadRequest, NetworkError, TelegramError
from telegram.ext import CommandHandler

from bot.delivery import send
from bot.dialogs.grammar import (
    Resolver,
    Token,
    half_width,
    seat_resolver,
)
from bot.handlers.context import TallyApp, TallyContext
from bot.ops import metrics
from bot.text.errors_text import MESSAGES, error_text
from bot.text.i18n import t
from bot.text.script import fold
from engine.errors import ReportError
from storage.errors import LedgerError
from storage.models import NightInfo, is_named_as

log = logging.getLogger(__name__)

SEAT_ORDER = ("E", "S", "W", "N")

Callback: TypeAlias = Callable[[Update, TallyContext], Coroutine[Any, Any, None]]


def add_commands(app: TallyApp, commands: Mapping[str, Callback]) -> None:
    """Each ``/name`` of ``commands`` taken by its handler (what a feature's ``register``
    does first)."""
    app.add_handlers([CommandHandler(name, callback) for name, callback in commands.items()])


async def night_of(context: TallyContext, chat_id: int) -> NightInfo | None:
    """The chat's open table (None: no table), read once while it is kept."""
    kept = context.kept("tables")
    if chat_id not in kept:
        kept[chat_id] = await context.ledger.open_nights.current_night(chat_id)
    return kept[chat_id]  # type: ignore[no-any-return]


def remember(context: TallyContext, chat_id: int, night: NightInfo | None) -> None:
    context.kept("tables")[chat_id] = night


def tokens_of(message: Message) -> list[Token]:
    """The words after the command, read as typed on any keyboard (full-width ＠ｂｏｂ, ５
    and ．as their ASCII); text mentions keep their user id."""
    text = message.text or ""
    mentions: dict[str, int] = {}
    for entity, value in message.parse_entities([MessageEntity.TEXT_MENTION]).items():
        if entity.user is not None:
            mentions[value] = entity.user.id
    words = text.split()[1:] if text.startswith("/") else text.split()
    return [Token(half_width(w), mentions.get(w)) for w in words]


def words_and_sender(update: Update) -> tuple[list[Token], int | None]:
    """The command's words and the sender's id."""
    msg, user = update.effective_message, update.effective_user
    assert msg is not None
    return tokens_of(msg), user.id if user else None


def resolver_for(night: NightInfo, me: int | None) -> Resolver:
    names: dict[str, str] = {}
    ids: dict[int, str] = {}
    for seat, p in night.seats.items():
        names[fold(p.name)] = seat
        if p.username:
            names[fold(p.username)] = seat
        if p.telegram_id is not None:
            ids[p.telegram_id] = seat
    if me is not None and me in ids:
        names["me"] = names["我"] = ids[me]
    return seat_resolver(names, ids)


async def is_admin(update: Update, context: TallyContext) -> bool:
    user, chat = update.effective_user, update.effective_chat
    if user is None or chat is None:
        return False
    if user.id in context.services.admins or chat.type == ChatType.PRIVATE:
        return True
    try:
        member = await context.bot.get_chat_member(chat.id, user.id)
    except BadRequest:  # a refusal (python-telegram-bot counts it a NetworkError)
        return False
    except NetworkError:
        raise  # passing: the update is tried again, rather than refused for it
    except TelegramError:
        return False
    return member.status in ("administrator", "creator")


async def reply(update: Update, text: str, *, reply_markup: Any = None) -> None:
    """Answer ``update`` in its chat (queued with the update, see :mod:`bot.delivery.send`)."""
    if update.effective_chat is None:
        return
    await send.say(update.get_bot(), send.replying(update, text, reply_markup=reply_markup))


async def refuse(update: Update, lang: str, code: str, fallback: str = "",
                 seated_at: NightInfo | None = None, *, in_event: int | None = None,
                 **params: Any) -> None:
    """Say why ``update`` was refused, in the chat's words; ``in_event``: the place of
    the refused event in an /edit of several (``Event 2: dave has already won this
    hand.``)."""
    seats: dict[str, str] | None = ({s: p.name for s, p in seated_at.seats.items()}
                                     if seated_at else None)
    metrics.refused(code)
    if code == "wrong_family" and seated_at is not None:  # "this table (港式) does not …"
        params.setdefault("preset", seated_at.preset)
    family = str(seated_at.rules.get("family", "")) if seated_at is not None else ""
    if f"{code}_{family}" in MESSAGES:  # the family's own examples (港式: no 七对)
        code = f"{code}_{family}"
    if family:  # /hu's example as this table takes it (points only: an amount)
        params.setdefault("table_family", family)
    text = error_text(lang, code, fallback or code, seats, **params)
    if in_event is not None:
        text = "⚠️ " + t(lang, "Event {index}: {refusal}", index=in_event,
                         refusal=text.removeprefix("⚠️ "))
    await reply(update, text)


async def stale_press(update: Update, lang: str) -> None:
    """An out-of-date button: an alert on the press, nothing else."""
    await send.answer(update, t(lang, error_text_plain("stale_button")), alert=True)


async def refuse_press(update: Update, lang: str, exc: LedgerError | ReportError,
                       night: NightInfo | None) -> None:
    """A press whose write was refused: an out-of-date button is an alert, anything else
    is answered in the chat."""
    if exc.code == "stale_button":
        await stale_press(update, lang)
    else:
        await refuse(update, lang, exc.code, str(exc), night, **exc.params)


async def night_for_action(update: Update, context: TallyContext, lang: str
                              ) -> NightInfo | None:
    """The open table, if the sender may act on it (a player there, or an admin)."""
    chat = update.effective_chat
    assert chat is not None
    if chat.type == ChatType.PRIVATE:
        await refuse(update, lang, "group_only")
        return None
    night = await night_of(context, chat.id)
    if night is None:
        await refuse(update, lang, "no_night_going")
        return None
    acting = await admitted(update, context, night)
    if acting is None:
        await refuse(update, lang, "not_player")
    return acting


async def admitted(update: Update, context: TallyContext, night: NightInfo
                   ) -> NightInfo | None:
    """The table as the sender acts at it (linked to their account if they were seated by
    @username), or None when they are neither a player there nor an admin."""
    user = update.effective_user
    night = await link_sender(context, night, user)
    seated = {p.telegram_id for p in night.seats.values()}
    if user is None or (user.id not in seated and not await is_admin(update, context)):
        return None
    remember_member(context, night, user)
    return night


async def link_sender(context: TallyContext, night: NightInfo,
                      user: Any) -> NightInfo:
    """A player seated by @username, or a guest whose name is the sender's username,
    becomes linked to the sender's account when they first act (never a seat that has
    an account already); when the account already has a row under another name, the
    guest's is merged into it (:meth:`storage.services.chats.Chats.link_member`)."""
    if user is None or not user.username:
        return night
    seated = {p.telegram_id for p in night.seats.values()}
    if user.id in seated:
        return night
    if not any(is_named_as(user.username, p.telegram_id, p.username, p.name)
               for p in night.seats.values()):
        return night
    await context.registry.link_member(night.chat_id, user.id, user.username)
    # Read again whether or not this call linked: the table in hand may be older than
    # the ledger (an earlier try of this update linked the account, then the database
    # went away before its answer).
    fresh = await context.ledger.open_nights.current_night(night.chat_id)
    remember(context, night.chat_id, fresh)
    return fresh or night


def remember_member(context: TallyContext, night: NightInfo,
                          user: Any) -> None:
    """A member allowed to act without a seat (an admin keeping score): the ledger keeps
    their name with what they change, so that /hand names who reported or changed what."""
    if user is None or user.id in {p.telegram_id for p in night.seats.values()}:
        return
    context.ledger.chats.note_member(
        night.chat_id, user.id, user.username or user.first_name or "", user.username)


def error_text_plain(code: str) -> str:
    from bot.text.errors_text import MESSAGES

    return MESSAGES[code]



def suppress_edit_errors() -> contextlib.suppress:
    """Ignore "message is not modified" and similar harmless edit refusals."""
    return contextlib.suppress(BadRequest)


async def on_error(update: object, context: TallyContext) -> None:
    """The one error handler: the dispatcher decides what the chat is told (a retry, or
    "nothing was recorded" only when the update's write did not commit)."""
    turn = send.CURRENT.get()
    if turn is not None:
        turn.error = context.error
    else:
        log.error("while handling an update", exc_info=context.error)
