"""Taking back and correcting: ``/undo`` (the last event; right after ``/end``, the end:
:func:`bot.handlers.ending.undo_end`) and the Undo button, ``/void`` (a hand) and
``/edit`` (a hand, or one of its events: ``/edit 2.1 …``)."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any

from telegram import Update
from telegram.constants import ChatType

from bot.delivery import send
from bot.dialogs.grammar import (
    GrammarError,
    Resolver,
    Token,
    for_family,
    number,
    parse_edit_event,
)
from bot.dialogs.keyboards import (
    UndoData,
)
from bot.handlers import board, ending
from bot.handlers.chat import (
    add_commands,
    is_admin,
    night_of,
    refuse,
    remember,
    reply,
    resolver_for,
    tokens_of,
)
from bot.handlers.context import TallyApp, TallyContext
from bot.handlers.guards import at_table
from bot.text import render
from bot.text.errors_text import error_text
from bot.text.i18n import t
from engine.errors import ReportError, clip
from storage.delivery import Outgoing
from storage.errors import LedgerError
from storage.models import NightInfo


async def undo_last(update: Update, context: TallyContext, lang: str,
                night: NightInfo, also: Sequence[Outgoing] = ()) -> bool:
    """Undo the last event; ``also``: more to say with the undo's answer (the Undo
    button's removal), only if it happens."""
    user = update.effective_user
    admin = await is_admin(update, context)

    def answer(out: Any) -> list[Outgoing]:
        return [*also, send.to_chat(night.chat_id, render.undo_text(lang, out)),
                board.item(lang, out.night)]

    try:
        async with context.write(answer) as tx:
            out = await tx.corrections.undo(night.chat_id, actor=user.id if user else None,
                                            allow_others=admin)
    except LedgerError as exc:
        await refuse(update, lang, exc.code, str(exc), **exc.params)
        return False
    remember(context, night.chat_id, out.night)
    return True


async def cmd_undo(update: Update, context: TallyContext) -> None:
    chat = update.effective_chat
    if chat is not None and chat.type != ChatType.PRIVATE \
            and await night_of(context, chat.id) is None:
        await ending.undo_end(update, context)  # right after /end
        return
    await _undo(update, context)


@at_table
async def _undo(update: Update, context: TallyContext, lang: str,
                night: NightInfo) -> None:
    msg = update.effective_message
    said = tokens_of(msg) if msg is not None else []
    if said:  # /undo 5 would take back the last event, whatever the 5 meant
        await refuse(update, lang, "undo_usage", token=escape(clip(said[0].text)))
        return
    await undo_last(update, context, lang, night)


async def press_undo(update: Update, context: TallyContext, lang: str,
                      night: NightInfo, data: UndoData) -> None:
    query = update.callback_query
    assert query is not None
    last = await context.ledger.open_nights.last_event(night.chat_id)
    if last != (data.night_id, data.hand, data.event, last[3] if last else None):
        await send.answer(update, await _why_not_undone(context, lang, night), alert=True)
        return
    await send.answer(update)  # queued with the undo's answer, as the Undo's removal
    message = query.message
    also = [] if message is None else [send.edit_of(message.chat.id, message.message_id,
                                                    reply_markup=None)]
    await undo_last(update, context, lang, night, also)


async def _why_not_undone(context: TallyContext, lang: str, night: NightInfo) -> str:
    """Why an Undo button does nothing: a correction (/edit, /void) made since is the
    latest change, which /undo takes back first; else a later event was recorded."""
    correction = await context.ledger.open_nights.correction_to_undo(night.chat_id)
    if correction is None:
        return t(lang, "Only the latest event can be undone.")
    action, number = correction
    if action == "void":
        return t(lang, "The latest change is the void of hand {number}: /undo takes it "
                       "back first.", number=number)
    return t(lang, "The latest change is the correction of hand {number}: /undo takes it "
                   "back first.", number=number)


MAX_HAND_NUMBER = 100_000  # hands in one night, far beyond any table


def _number(update: Update, most: int = MAX_HAND_NUMBER) -> tuple[int | None, list[Token]]:
    """The number the command starts with (ASCII digits, from 1 to ``most``) and the rest;
    None when it starts with none. A number out of range is a GrammarError."""
    msg = update.effective_message
    words = tokens_of(msg) if msg else []
    if not words:
        return None, words
    value = number(words[0].text, most, 1)
    return (value, words[1:]) if value is not None else (None, words)


MAX_EVENT_NUMBER = 64  # events in one hand (the engine's bound)


def _hand_and_event(update: Update) -> tuple[int | None, int | None, list[Token]]:
    """``/edit 2.1 …``: hand 2, its event 1 (returned 0-based); ``/edit 2 …``: the whole
    hand (event None). Numbers out of range are a GrammarError."""
    msg = update.effective_message
    words = tokens_of(msg) if msg else []
    if words and "." in words[0].text:
        hand, _, event = words[0].text.partition(".")
        n, e = number(hand, MAX_HAND_NUMBER, 1), number(event, MAX_EVENT_NUMBER, 1)
        if n is None or e is None:
            return None, None, words
        return n, e - 1, words[1:]
    n, rest = _number(update)
    return n, None, rest


@at_table
async def cmd_void(update: Update, context: TallyContext, lang: str,
                   night: NightInfo) -> None:
    try:
        number, _ = _number(update)
    except GrammarError as exc:
        await refuse(update, lang, exc.code, **exc.params)
        return
    if number is None:
        await refuse(update, lang, "number_usage")
        return
    user = update.effective_user
    admin = await is_admin(update, context)
    try:
        async with context.write(_corrected(update, lang)) as tx:
            out = await tx.corrections.void(night.chat_id, number,
                                            actor=user.id if user else None,
                                            allow_others=admin)
    except LedgerError as exc:
        await refuse(update, lang, exc.code, str(exc), **exc.params)
        return
    remember(context, night.chat_id, out.night)


def _corrected(update: Update, lang: str) -> Any:
    """The answer to a void or an edit: what changed, and the scoreboard."""

    def answer(out: Any) -> list[Outgoing]:
        return [send.replying(update, render.edit_text(lang, out)),
                board.item(lang, out.night)]

    return answer


def _not_in_hand(words: list[Token], now: NightInfo, played: NightInfo,
                 me: int | None) -> str | None:
    """The first name in an edit that sits at the table now but did not play the hand
    (a seat changed after it), if any."""
    if played.seats == now.seats:
        return None
    at_now, at_hand = resolver_for(now, me), resolver_for(played, me)
    return next((w.text for w in words if at_now(w) is not None and at_hand(w) is None),
                None)


@at_table
async def cmd_edit(update: Update, context: TallyContext, lang: str,
                   night: NightInfo) -> None:
    user = update.effective_user
    me = user.id if user else None
    try:
        number, event_index, rest = _hand_and_event(update)
    except GrammarError as exc:
        await refuse(update, lang, exc.code, **exc.params)
        return
    if number is None or not rest:
        await refuse(update, lang, "edit_usage")
        return
    # Names are read against who played that hand (a seat may have changed since).
    played = await context.ledger.open_nights.night_at_hand(night, number)
    count = len([c for c in " ".join(tok.text for tok in rest).split("|") if c.strip()])
    try:
        events, indicator = _parse_events(rest, resolver_for(played, me),
                                          str(night.rules.get("family")))
    except _Unread as bad:
        absent = _not_in_hand(rest, night, played, me)
        if absent is not None:  # at the table now, but that hand was played before them
            await refuse(update, lang, "edit_not_in_hand", token=absent, number=number)
        else:
            await refuse(update, lang, bad.error.code, in_event=_place(bad.position, count),
                         **bad.error.params)
        return
    if event_index is not None and len(events) != 1:
        await refuse(update, lang, "edit_event_usage", number=number, event=event_index + 1)
        return
    admin = await is_admin(update, context)
    try:
        async with context.write(_corrected(update, lang)) as tx:
            out = await tx.corrections.amend(night.chat_id, number, events,
                                             actor=me, indicator=indicator,
                                             allow_others=admin, event_index=event_index)
    except (LedgerError, ReportError) as exc:
        await _edit_refused(update, lang, exc, number, event_index, played, count)
        return
    remember(context, night.chat_id, out.night)


class _Unread(Exception):
    """An event of an /edit the grammar refused, and its place among the edit's events
    (from 1)."""

    def __init__(self, error: GrammarError, position: int) -> None:
        super().__init__(error.code)
        self.error, self.position = error, position


def _parse_events(words: list[Token], resolve: Resolver, family: str
                  ) -> tuple[list[dict[str, Any]], str | None]:
    """An edit's events (``a | b | c``), each read as the family plays it, and the
    indicator tile the first to name one names."""
    events: list[dict[str, Any]] = []
    indicator = None
    chunk: list[Token] = []
    for tok in [*words, Token("|")]:
        if tok.text != "|":
            chunk.append(tok)
            continue
        if not chunk:
            continue
        try:
            event, ind = parse_edit_event(chunk, resolve)
        except GrammarError as exc:
            raise _Unread(exc, len(events) + 1) from exc
        events.append(for_family(event, family))
        indicator = indicator or ind
        chunk = []
    return events, indicator


async def _edit_refused(update: Update, lang: str, exc: LedgerError | ReportError,
                        number: int, event_index: int | None, played: NightInfo,
                        count: int) -> None:
    """Why the ledger refused an edit; one that would reopen a hand already played past
    says how to change a single event instead."""
    if exc.code == "amend_reopens" and event_index is None:  # say how to name one event
        await reply(update, error_text(lang, exc.code, str(exc)) + "\n" + t(
            lang, "To change one event, name it: /edit {number}.1 alice 自摸 七对 "
            "(hand {number}, event 1; see /hand {number}).", number=number))
        return
    position = exc.params.get("event") if event_index is None else None
    await refuse(update, lang, exc.code, str(exc), played,
                 in_event=_place(position if isinstance(position, int) else None, count),
                 **exc.params)


def _place(position: int | None, count: int) -> int | None:
    """Which event of an /edit a refusal names: only when the edit has several."""
    return position if count >= 2 else None


COMMANDS = {"undo": cmd_undo, "void": cmd_void, "edit": cmd_edit}


def register(app: TallyApp) -> None:
    add_commands(app, COMMANDS)
