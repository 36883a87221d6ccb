"""Inline buttons: the guided /hu report (also started from the scoreboard), the seat
buttons of /new, and Undo. A button of a table that has ended says so.

A press changes its draft (or opens the table, or records) in one write that also queues
its answers (the edited message, the button's answer, the scoreboard) and marks the
update handled: tried again after a failure, a press finds everything as it was."""

from __future__ import annotations

import logging
from html import escape
from typing import Any

from telegram import InlineKeyboardMarkup, Update

from bot.delivery import send
from bot.dialogs import guided_keyboards, guided_state, guided_steps
from bot.dialogs.guided_state import Draft
from bot.dialogs.guided_steps import Record
from bot.dialogs.keyboards import (
    BoardData,
    DraftData,
    EditData,
    UndoData,
    draft_data,
    grid,
    parse_callback,
)
from bot.handlers import board, ending, twice
from bot.handlers.actions import undo_last
from bot.handlers.answers import announcement
from bot.handlers.chat import (
    SEAT_ORDER,
    error_text_plain,
    is_admin,
    link_sender,
    refuse,
    refuse_press,
    remember,
    remember_member,
    session_for_action,
    stale_press,
    table_of,
)
from bot.handlers.context import TallyContext
from bot.text import render
from bot.text.i18n import t
from bot.text.words import colon, preset_name
from engine.errors import ReportError
from engine.rules import get_preset, three_players_allowed
from storage.errors import LedgerError
from storage.models import EditOutcome, PlayerRef, RecordOutcome, SessionInfo
from storage.queues.messages import Outgoing
from storage.services.twice import QUESTION_KIND

log = logging.getLogger(__name__)


async def start_guided(update: Update, context: TallyContext) -> None:
    lang = await context.lang()
    session = await session_for_action(update, context, lang)
    user = update.effective_user
    if session is None or user is None:
        return
    await _open_draft(update, context, lang, session, user.id, None)


async def start_guided_event(update: Update, context: TallyContext,
                             kind: str) -> None:
    """/kong, /draw or /bite alone: the event as buttons."""
    lang = await context.lang()
    session = await session_for_action(update, context, lang)
    user = update.effective_user
    if session is None or user is None:
        return
    if kind == "bite" and not guided_steps.facts_of(session).bites:  # not Singapore
        await refuse(update, lang, "wrong_family", session=session, family="singapore",
                     preset=session.preset)
        return
    draft: Draft = guided_state.KongDraft() if kind == "kong" else \
        guided_state.BiteDraft() if kind == "bite" else \
        guided_state.new_draw(session.still_in or tuple(session.seats))

    def shown(made: tuple[int, int]) -> list[Outgoing]:
        text, keyboard = guided_keyboards.message(lang, session, made[0], made[1], draft)
        return [send.replying(update, text, reply_markup=keyboard)]

    async with context.write(shown) as tx:
        await tx.drafts.create(session.chat_id, user.id, kind, guided_state.dump(draft))


async def _open_draft(update: Update, context: TallyContext, lang: str,
                      session: SessionInfo, owner: int, winner: str | None) -> None:
    """Post a guided report's first question, with what the ledger suggests."""
    drafts = context.drafts
    hints = await drafts.hints(session.chat_id, session.id)
    facts = guided_steps.facts_of(session)
    kongs = hints.kongs if facts.counts else {}  # they add fan
    draft = guided_state.new_hu(hints.recent_winners, kongs, winner, kong_makers=tuple(
        hints.kongs) if facts.kong_events else None)

    def shown(made: tuple[int, int]) -> list[Outgoing]:  # (a press: a message in the chat)
        text, keyboard = guided_keyboards.message(lang, session, made[0], made[1], draft)
        return [send.replying(update, text, reply_markup=keyboard)]

    async with context.write(shown) as tx:
        await tx.drafts.create(session.chat_id, owner, "hu", guided_state.dump(draft))


def join_shape(preset: str) -> tuple[int, bool]:
    """How many seats a preset's table has, and whether four seats may start with three."""
    p = get_preset(preset)
    if p.options.get("players") == 3:
        return 3, False
    return 4, three_players_allowed(p.family)


def join_keyboard(lang: str, draft_id: int, version: int, seats: dict[str, Any],
                  count: int = 4, may_three: bool = False) -> InlineKeyboardMarkup:
    buttons = [(f"{t(lang, render.SEAT_KEYS[s])}{colon(lang)}"
                f"{seats[s]['name'] if s in seats else '—'}",
                draft_data(draft_id, version, "s", s)) for s in SEAT_ORDER[:count]]
    if count == 4 and may_three and set(seats) == {"E", "S", "W"}:
        buttons.append((t(lang, "Start with three"), draft_data(draft_id, version, "go", 3)))
    return grid(buttons, 2)


async def start_join(update: Update, context: TallyContext, lang: str,
                     preset: str | None, stake: int | None) -> None:
    """/new without players: a button per seat (three for a three-player preset); the last
    to sit opens the table, or "Start with three" once East, South and West sit."""
    chat, user = update.effective_chat, update.effective_user
    assert chat is not None and user is not None
    if await context.ledger.sessions.current_session(chat.id) is not None:
        await refuse(update, lang, "session_open")
        return
    count, may_three = join_shape(preset or (await context.chat_info(chat.id, lang)).preset)
    data: dict[str, Any] = {"preset": preset, "stake": stake, "seats": {}, "count": count,
                            "may_three": may_three}

    def shown(made: tuple[int, int]) -> list[Outgoing]:
        return [send.replying(update, t(lang, "Take a seat: East deals first. Press your "
                                              "seat again to stand up."),
                              reply_markup=join_keyboard(lang, made[0], made[1], {}, count,
                                                         may_three))]

    async with context.write(shown) as tx:
        await tx.drafts.create(chat.id, user.id, "join", data)


async def _press_join(update: Update, context: TallyContext, lang: str,
                      data: DraftData, draft: dict[str, Any]) -> None:
    """A seat taken or left; the last seat (or "Start with three") opens the table. The
    draft's change, or the table with the draft gone, commits with the answers."""
    query = update.callback_query
    chat = update.effective_chat
    assert query is not None and chat is not None
    stale = t(lang, error_text_plain("stale_button"))
    seats: dict[str, Any] = dict(draft["seats"])
    user = query.from_user
    mine = next((s for s, p in seats.items() if p["id"] == user.id), None)
    count, may_three = int(draft.get("count", 4)), bool(draft.get("may_three"))
    start_three = data.action == "go" and may_three and set(seats) == {"E", "S", "W"}
    if not start_three and (data.action != "s" or data.arg not in SEAT_ORDER[:count]):
        await send.answer(update, stale, alert=True)
        return
    seat = data.arg or ""
    if start_three:
        pass  # East, South and West sit: the table opens with three
    elif mine == seat:
        del seats[mine]
    elif seat in seats or mine is not None:
        await send.answer(update, t(lang, "That seat is taken, or you already sit."),
                          alert=True)
        return
    else:
        seats[seat] = {"id": user.id, "name": user.username or user.first_name,
                       "username": user.username}
    message = query.message
    await send.answer(update)
    if len(seats) < count and not start_three:
        def seated(version: int) -> list[Outgoing]:
            if message is None:
                return []
            return [send.edit_of(chat.id, message.message_id, reply_markup=join_keyboard(
                lang, data.draft_id, version, seats, count, may_three))]

        try:
            async with context.write(seated) as tx:
                await tx.drafts.advance(chat.id, data.draft_id, data.version,
                                        {**draft, "seats": seats})
        except LedgerError:
            await send.answer(update, stale, alert=True)
        return
    refs = [PlayerRef(name=seats[s]["name"], telegram_id=seats[s]["id"],
                      username=seats[s]["username"]) for s in SEAT_ORDER if s in seats]

    def opened(session: SessionInfo) -> list[Outgoing]:
        said: list[Outgoing] = []
        if message is not None:
            said.append(send.edit_of(chat.id, message.message_id, t(
                lang, "New table: {preset}. Seats: {seats}. {dealer} deals first.",
                preset=preset_name(lang, session.preset),
                seats=render.seats_text(session, lang), dealer=render.name(session, "E")),
                reply_markup=None))
        return [*said, board.item(lang, session)]

    try:
        async with context.write(opened) as tx:
            session = await tx.sessions.open_session(
                chat.id, refs, preset=draft.get("preset"), stake_cents=draft.get("stake"),
                draft=(data.draft_id, data.version))
    except (LedgerError, ReportError) as exc:
        if exc.code == "stale_button":
            await send.answer(update, stale, alert=True)
            return
        await refuse(update, lang, exc.code, str(exc), **exc.params)
        return
    remember(context, chat.id, session)


async def on_button(update: Update, context: TallyContext) -> None:
    query = update.callback_query
    assert query is not None
    lang = await context.lang()
    data = parse_callback(query.data)
    chat = update.effective_chat
    if data is None or chat is None:
        await stale_press(update, lang)
        return
    if isinstance(data, DraftData):
        found = await context.drafts.get(chat.id, data.draft_id)
        if found is not None and found[1] == "join":
            if found[0] != data.version:
                await send.answer(update, t(lang, error_text_plain("stale_button")),
                                  alert=True)
                return
            await _press_join(update, context, lang, data, found[2])
            return
    session = await table_of(context, chat.id)
    if isinstance(data, DraftData) and session is None:
        await stale_press(update, lang)  # a table's drafts went when it ended
        return
    if await _of_ended_table(context, chat.id, session, data):
        await send.answer(update, t(lang, "This table has ended; its buttons no longer "
                                          "work."), alert=True)  # nothing else
        return
    if session is not None:
        session = await link_sender(context, session, query.from_user)
    seated = {p.telegram_id for p in session.seats.values()} if session else set()
    if session is None or (query.from_user.id not in seated and not await is_admin(
            update, context)):
        await send.answer(update, t(lang, error_text_plain(
            "not_player" if session else "no_session")), alert=True)
        return
    remember_member(context, session, query.from_user)
    if isinstance(data, EditData):
        await _press_edit(update, context, lang, session, data)
    elif isinstance(data, UndoData):
        await _press_undo(update, context, lang, session, data)
    elif isinstance(data, BoardData):
        await _press_board(update, context, lang, session, data)
    else:
        await _press_draft(update, context, lang, session, data)


async def _of_ended_table(context: TallyContext, chat_id: int, session: SessionInfo | None,
                          data: UndoData | DraftData | BoardData | EditData) -> bool:
    """Whether ``data`` is a scoreboard, Undo or ✏️ button of a table of this chat that
    has ended (kept from before its scoreboard lost its buttons, or on an answer)."""
    if isinstance(data, DraftData) or (session is not None and data.session_id == session.id):
        return False
    return await context.ledger.sessions.has_ended(chat_id, data.session_id)


async def _press_undo(update: Update, context: TallyContext, lang: str,
                      session: SessionInfo, data: UndoData) -> None:
    query = update.callback_query
    assert query is not None
    last = await context.ledger.sessions.last_event(session.chat_id)
    if last != (data.session_id, data.hand, data.event, last[3] if last else None):
        await send.answer(update, await _why_not_undone(context, lang, session), alert=True)
        return
    await send.answer(update)  # queued with the undo's answer, as the Undo's removal
    message = query.message
    also = [] if message is None else [send.edit_of(message.chat.id, message.message_id,
                                                    reply_markup=None)]
    await undo_last(update, context, lang, session, also)


async def _why_not_undone(context: TallyContext, lang: str, session: SessionInfo) -> str:
    """Why an Undo button does nothing: a correction (/edit, /void) made since is the
    latest change, which /undo takes back first; else a later event was recorded."""
    correction = await context.ledger.sessions.correction_to_undo(session.chat_id)
    if correction is None:
        return t(lang, "Only the latest event can be undone.")
    action, number = correction
    if action == "void":
        return t(lang, "The latest change is the void of hand {number}: /undo takes it "
                       "back first.", number=number)
    return t(lang, "The latest change is the correction of hand {number}: /undo takes it "
                   "back first.", number=number)


async def _press_board(update: Update, context: TallyContext, lang: str,
                       session: SessionInfo, data: BoardData) -> None:
    """A player's button on the scoreboard: a guided report with that winner."""
    query = update.callback_query
    assert query is not None
    if data.session_id != session.id or data.seat not in (session.still_in or session.seats):
        await stale_press(update, lang)
        return
    await send.answer(update)
    await _open_draft(update, context, lang, session, query.from_user.id, data.seat)


async def _edit_table(context: TallyContext, session: SessionInfo, number: int,
                      index: int) -> SessionInfo:
    """The table a guided edit of hand ``number``'s event ``index`` offers: who played that
    hand, and as still in only who was still in before that event (in a blood battle an
    earlier event's winner cannot win or deal in again)."""
    played = await context.ledger.sessions.hand_table(session, number)
    report: dict[str, Any] = {}
    if index > 0:  # (the hand being played: its seats still in now are not event 1's)
        try:
            report, _result = await context.ledger.nights.hand(session.chat_id, number, session.id)
        except LedgerError:
            return played.model_copy(update={"still_in": ()})
    return played.model_copy(update={
        "still_in": guided_steps.still_in_before(played, report, index)})


async def _press_edit(update: Update, context: TallyContext, lang: str,
                      session: SessionInfo, data: EditData) -> None:
    """✏️ under /hand N: a guided report that replaces that event when recorded."""
    query = update.callback_query
    assert query is not None
    if data.session_id != session.id or data.hand > session.hands:
        await stale_press(update, lang)
        return
    await send.answer(update)
    session = await _edit_table(context, session, data.hand, data.event)
    draft = guided_state.new_hu(edit=(data.hand, data.event))
    head = t(lang, "Editing hand {number}, event {index}:", number=data.hand,
             index=data.event + 1)

    def shown(made: tuple[int, int]) -> list[Outgoing]:
        text, keyboard = guided_keyboards.message(lang, session, made[0], made[1], draft)
        return [send.to_chat(session.chat_id, head + "\n" + text, reply_markup=keyboard)]

    async with context.write(shown) as tx:
        await tx.drafts.create(session.chat_id, query.from_user.id, "hu",
                               guided_state.dump(draft))


async def _press_draft(update: Update, context: TallyContext, lang: str,
                       session: SessionInfo, data: DraftData) -> None:
    query = update.callback_query
    assert query is not None and query.message is not None
    drafts = context.drafts
    found = await drafts.get(session.chat_id, data.draft_id)
    if found is not None and found[1] == QUESTION_KIND and found[0] == data.version:
        await twice.press(update, context, lang, session, data, found[2])
        return
    if found is not None and found[1] == ending.END_KIND and found[0] == data.version:
        await ending.press(update, context, lang, session, data, found[2])
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
            return [send.edit_of(session.chat_id, message_id, t(lang, "Cancelled."),
                                 reply_markup=None)]

        async with context.write(cancelled) as tx:
            await tx.drafts.delete(session.chat_id, data.draft_id)
        return
    try:
        draft = guided_state.load(kind, stored)
    except ValueError:  # not a draft this version reads: the press is refused as stale
        log.warning("draft %s of chat %s unreadable", data.draft_id, session.chat_id)
        await stale_press(update, lang)
        return
    if isinstance(draft, guided_state.HuDraft) and draft.edit:
        session = await _edit_table(context, session, *draft.edit)
    new = guided_steps.press(guided_steps.Table.of(session), draft, data.action, data.arg)
    if new is None:
        await stale_press(update, lang)
        return
    if isinstance(new, Record):
        await _record(update, context, lang, session, data, new.draft)
        return
    await send.answer(update)

    def shown(version: int) -> list[Outgoing]:
        text, keyboard = guided_keyboards.message(lang, session, data.draft_id, version, new)
        return [send.edit_of(session.chat_id, message_id, text, reply_markup=keyboard)]

    try:
        async with context.write(shown) as tx:
            await tx.drafts.advance(session.chat_id, data.draft_id, data.version,
                                    guided_state.dump(new))
    except LedgerError:
        await stale_press(update, lang)


async def _record(update: Update, context: TallyContext, lang: str,
                  session: SessionInfo, data: DraftData, draft: Draft) -> None:
    """Confirm: the event is recorded and its draft deleted in one ledger transaction."""
    query = update.callback_query
    assert query is not None and query.message is not None
    indicator = None
    if isinstance(draft, guided_state.HuDraft):
        mcr = get_preset(session.preset).family == "mcr"  # its fans' values, by mixed_kong
        event, indicator = draft.event(int(session.rules.get("options", {}).get(
            "mixed_kong", 5)) if mcr else None)
    else:
        event = draft.event()
    summary = guided_keyboards.describe(lang, session, draft)
    user = update.effective_user
    chat_id, message_id = session.chat_id, query.message.message_id
    if isinstance(draft, guided_state.HuDraft) and draft.edit:
        await _record_edit(update, context, lang, session, data, draft.edit, event, indicator,
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
        await refuse_press(update, lang, exc, session)
        return
    remember(context, chat_id, out.session)


async def _record_edit(update: Update, context: TallyContext, lang: str,
                       session: SessionInfo, data: DraftData, edit: tuple[int, int],
                       event: dict[str, Any], indicator: str | None, summary: str) -> None:
    """A guided edit's Confirm: the event replaced and the draft deleted, in one write."""
    query, user = update.callback_query, update.effective_user
    assert query is not None and query.message is not None
    chat_id, message_id = session.chat_id, query.message.message_id
    number, index = edit

    def answer(out: EditOutcome) -> list[Outgoing]:
        done = send.edit_of(chat_id, message_id, t(lang, "Corrected:") + "\n" + escape(summary),
                            reply_markup=None)
        return [done, send.to_chat(chat_id, render.edit_text(lang, out)),
                board.item(lang, out.session)]

    allow_others = await is_admin(update, context)
    await send.answer(update)
    try:
        async with context.write(answer) as tx:
            out = await tx.corrections.amend(chat_id, number, [event],
                                             actor=user.id if user else None,
                                             indicator=indicator, allow_others=allow_others,
                                             event_index=index, draft_id=data.draft_id)
    except (LedgerError, ReportError) as exc:
        await refuse_press(update, lang, exc, session)
        return
    remember(context, chat_id, out.session)
