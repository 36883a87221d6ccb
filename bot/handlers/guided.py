"""The guided report, a draft asked step by step as buttons: ``/hu``, ``/kong``,
``/draw`` or ``/bite`` alone, a player's button on the scoreboard (that winner), ✏️
under ``/hand N`` (an event replaced when recorded). A press loads the draft, takes the
step (:func:`bot.dialogs.guided_steps.press`) and writes it back with its message, or
records the event and deletes the draft in one write."""

from __future__ import annotations

import logging
from html import escape
from typing import Any

from telegram import Update

from bot.delivery import send
from bot.dialogs import guided_keyboards, guided_state, guided_steps
from bot.dialogs.guided_state import Draft
from bot.dialogs.guided_steps import Record
from bot.dialogs.keyboards import (
    BoardData,
    DraftData,
    EditData,
)
from bot.handlers import board, ending, twice
from bot.handlers.answers import announcement
from bot.handlers.chat import (
    is_admin,
    refuse,
    refuse_press,
    remember,
    stale_press,
)
from bot.handlers.context import TallyContext
from bot.handlers.guards import at_table
from bot.text import render, render_mcr
from bot.text.i18n import t
from engine.errors import ReportError
from engine.rules import get_preset
from storage.delivery import Outgoing
from storage.errors import LedgerError
from storage.ledger import QUESTION_KIND
from storage.models import EditOutcome, NightInfo, RecordOutcome

log = logging.getLogger(__name__)


@at_table
async def start_guided(update: Update, context: TallyContext, lang: str,
                       night: NightInfo) -> None:
    user = update.effective_user
    if user is None:
        return
    await _open_draft(update, context, lang, night, user.id, None)


@at_table
async def start_guided_event(update: Update, context: TallyContext, lang: str,
                             night: NightInfo, kind: str) -> None:
    """/kong, /draw or /bite alone: the event as buttons."""
    await open_event_draft(update, context, lang, night, kind)


async def open_event_draft(update: Update, context: TallyContext, lang: str,
                           night: NightInfo, kind: str) -> None:
    """The first question of an event asked as buttons: /kong, /draw, /bite, or at an MCR
    table /penalty (who, what for, a foul's fine), at a table the sender may act at."""
    user = update.effective_user
    if user is None:
        return
    if render_mcr.played(night):  # /draw or /penalty alone: refused now, not at the end
        await refuse(update, lang, "mcr_match_over")
        return
    if kind == "bite" and not guided_steps.facts_of(night).bites:  # not Singapore
        await refuse(update, lang, "wrong_family", seated_at=night, family="singapore",
                     preset=night.preset)
        return
    draft: Draft = guided_state.KongDraft() if kind == "kong" else \
        guided_state.BiteDraft() if kind == "bite" else \
        guided_state.PenaltyDraft() if kind == "penalty" else \
        guided_state.new_draw(night.still_in or tuple(night.seats))

    def shown(made: tuple[int, int]) -> list[Outgoing]:
        text, keyboard = guided_keyboards.message(lang, night, made[0], made[1], draft)
        return [send.replying(update, text, reply_markup=keyboard)]

    async with context.write(shown) as tx:
        await tx.drafts.create(night.chat_id, user.id, kind, guided_state.dump(draft))


async def _open_draft(update: Update, context: TallyContext, lang: str,
                      night: NightInfo, owner: int, winner: str | None) -> None:
    """Post a guided report's first question, with what the ledger suggests."""
    if render_mcr.played(night):  # /hu alone after the 16th hand
        await refuse(update, lang, "mcr_match_over")
        return
    drafts = context.drafts
    hints = await drafts.hints(night.chat_id, night.id)
    facts = guided_steps.facts_of(night)
    kongs = hints.kongs if facts.counts else {}  # they add fan
    draft = guided_state.new_hu(hints.recent_winners, kongs, winner, kong_makers=tuple(
        hints.kongs) if facts.kong_events else None)

    def shown(made: tuple[int, int]) -> list[Outgoing]:  # (a press: a message in the chat)
        text, keyboard = guided_keyboards.message(lang, night, made[0], made[1], draft)
        return [send.replying(update, text, reply_markup=keyboard)]

    async with context.write(shown) as tx:
        await tx.drafts.create(night.chat_id, owner, "hu", guided_state.dump(draft))


async def press_board(update: Update, context: TallyContext, lang: str,
                       night: NightInfo, data: BoardData) -> None:
    """A player's button on the scoreboard: a guided report with that winner."""
    query = update.callback_query
    assert query is not None
    if data.night_id != night.id or data.seat not in (night.still_in or night.seats):
        await stale_press(update, lang)
        return
    await send.answer(update)
    await _open_draft(update, context, lang, night, query.from_user.id, data.seat)


async def _edit_table(context: TallyContext, night: NightInfo, number: int,
                      index: int) -> NightInfo:
    """The table a guided edit of hand ``number``'s event ``index`` offers: who played that
    hand, and as still in only who was still in before that event (in a blood battle an
    earlier event's winner cannot win or deal in again)."""
    played = await context.ledger.open_nights.night_at_hand(night, number)
    report: dict[str, Any] = {}
    if index > 0:  # (the hand being played: its seats still in now are not event 1's)
        try:
            report, _result = await context.ledger.nights.hand(night.chat_id, number, night.id)
        except LedgerError:
            return played.model_copy(update={"still_in": ()})
    return played.model_copy(update={
        "still_in": guided_steps.still_in_before(played, report, index)})


async def press_edit(update: Update, context: TallyContext, lang: str,
                      night: NightInfo, data: EditData) -> None:
    """✏️ under /hand N: a guided report that replaces that event when recorded."""
    query = update.callback_query
    assert query is not None
    if data.night_id != night.id or data.hand > night.hands:
        await stale_press(update, lang)
        return
    await send.answer(update)
    night = await _edit_table(context, night, data.hand, data.event)
    draft = guided_state.new_hu(edit=(data.hand, data.event))
    head = t(lang, "Editing hand {number}, event {index}:", number=data.hand,
             index=data.event + 1)

    def shown(made: tuple[int, int]) -> list[Outgoing]:
        text, keyboard = guided_keyboards.message(lang, night, made[0], made[1], draft)
        return [send.to_chat(night.chat_id, head + "\n" + text, reply_markup=keyboard)]

    async with context.write(shown) as tx:
        await tx.drafts.create(night.chat_id, query.from_user.id, "hu",
                               guided_state.dump(draft))


async def press_draft(update: Update, context: TallyContext, lang: str,
                       night: NightInfo, data: DraftData) -> None:
    query = update.callback_query
    assert query is not None and query.message is not None
    drafts = context.drafts
    found = await drafts.get(night.chat_id, data.draft_id)
    if found is not None and found[1] == QUESTION_KIND and found[0] == data.version:
        await twice.press(update, context, lang, night, data, found[2])
        return
    if found is not None and found[1] == ending.END_KIND and found[0] == data.version:
        await ending.press(update, context, lang, night, data, found[2])
        return
    if found is None or found[0] != data.version or found[1] not in guided_state.KINDS:
        await stale_press(update, lang)
        return
    _version, kind, stored, owner = found
    if query.from_user.id != owner and not await is_admin(update, context):
        await send.answer(update, t(lang, "This report belongs to another player."),
                          alert=True)
        return
    message_id = query.message.message_id
    if data.action == "x":
        await send.answer(update)

        def cancelled(_: None) -> list[Outgoing]:
            return [send.edit_of(night.chat_id, message_id, t(lang, "Cancelled."),
                                 reply_markup=None)]

        async with context.write(cancelled) as tx:
            await tx.drafts.delete(night.chat_id, data.draft_id)
        return
    try:
        draft = guided_state.load(kind, stored)
    except ValueError:  # not a draft this version reads: the press is refused as stale
        log.warning("draft %s of chat %s unreadable", data.draft_id, night.chat_id)
        await stale_press(update, lang)
        return
    if isinstance(draft, guided_state.HuDraft) and draft.edit:
        night = await _edit_table(context, night, *draft.edit)
    new = guided_steps.press(guided_steps.Table.of(night), draft, data.action, data.arg)
    if new is None:
        await stale_press(update, lang)
        return
    if isinstance(new, Record):
        await _record(update, context, lang, night, data, new.draft)
        return
    await send.answer(update)

    def shown(version: int) -> list[Outgoing]:
        text, keyboard = guided_keyboards.message(lang, night, data.draft_id, version, new)
        return [send.edit_of(night.chat_id, message_id, text, reply_markup=keyboard)]

    try:
        async with context.write(shown) as tx:
            await tx.drafts.advance(night.chat_id, data.draft_id, data.version,
                                    guided_state.dump(new))
    except LedgerError:
        await stale_press(update, lang)


async def _record(update: Update, context: TallyContext, lang: str,
                  night: NightInfo, data: DraftData, draft: Draft) -> None:
    """Confirm: the event is recorded and its draft deleted in one ledger transaction."""
    query = update.callback_query
    assert query is not None and query.message is not None
    indicator = None
    if isinstance(draft, guided_state.HuDraft):
        mcr = get_preset(night.preset).family == "mcr"  # its fans' values, by mixed_kong
        event, indicator = draft.event(int(night.rules.get("options", {}).get(
            "mixed_kong", 5)) if mcr else None)
    else:
        event = draft.event()
    summary = guided_keyboards.describe(lang, night, draft)
    user = update.effective_user
    chat_id, message_id = night.chat_id, query.message.message_id
    if isinstance(draft, guided_state.HuDraft) and draft.edit:
        await _record_edit(update, context, lang, night, data, draft.edit, event, indicator,
                           summary)
        return

    def answer(out: RecordOutcome) -> list[Outgoing]:
        head = t(lang, "Recorded:") if out.asked is None else t(lang, "Reported:")
        done = send.edit_of(chat_id, message_id, head + "\n" + escape(summary),
                            reply_markup=None)
        return [done, *announcement(update, lang, out)]

    await send.answer(update)
    try:
        async with context.write(answer) as tx:
            out = await tx.hands.record(chat_id, event, reporter=user.id if user else None,
                                        indicator=indicator, draft_id=data.draft_id)
    except (LedgerError, ReportError) as exc:
        await refuse_press(update, lang, exc, night)
        return
    remember(context, chat_id, out.night)


async def _record_edit(update: Update, context: TallyContext, lang: str,
                       night: NightInfo, data: DraftData, edit: tuple[int, int],
                       event: dict[str, Any], indicator: str | None, summary: str) -> None:
    """A guided edit's Confirm: the event replaced and the draft deleted, in one write."""
    query, user = update.callback_query, update.effective_user
    assert query is not None and query.message is not None
    chat_id, message_id = night.chat_id, query.message.message_id
    number, index = edit

    def answer(out: EditOutcome) -> list[Outgoing]:
        done = send.edit_of(chat_id, message_id, t(lang, "Corrected:") + "\n" + escape(summary),
                            reply_markup=None)
        return [done, send.to_chat(chat_id, render.edit_text(lang, out)),
                board.item(lang, out.night)]

    allow_others = await is_admin(update, context)
    await send.answer(update)
    try:
        async with context.write(answer) as tx:
            out = await tx.corrections.amend(chat_id, number, [event],
                                             actor=user.id if user else None,
                                             indicator=indicator, allow_others=allow_others,
                                             event_index=index, draft_id=data.draft_id)
    except (LedgerError, ReportError) as exc:
        await refuse_press(update, lang, exc, night)
        return
    remember(context, chat_id, out.night)
