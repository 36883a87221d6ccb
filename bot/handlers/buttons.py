"""Every press no feature claims by its own pattern (registered last, it takes the
rest): which button it is, whether its table is still going and whether the presser may
press it, then the feature's press: a seat of ``/new`` (:mod:`bot.handlers.table`), Undo
(:mod:`bot.handlers.corrections`), the scoreboard's players, ✏️ and the guided report's
steps (:mod:`bot.handlers.guided`), the question of a report made twice
(:mod:`bot.handlers.twice`) and the one of ``/end`` (:mod:`bot.handlers.ending`).

A press changes its draft (or opens the table, or records) in one write that also queues
its answers (the edited message, the button's answer, the scoreboard) and marks the
update handled: tried again after a failure, a press finds everything as it was."""

from __future__ import annotations

from telegram import Update
from telegram.ext import CallbackQueryHandler

from bot.delivery import send
from bot.dialogs.keyboards import (
    BoardData,
    DraftData,
    EditData,
    UndoData,
    parse_callback,
)
from bot.handlers import corrections, guided, table
from bot.handlers.chat import (
    admitted,
    error_text_plain,
    night_of,
    stale_press,
)
from bot.handlers.context import TallyApp, TallyContext
from bot.handlers.guards import speaking
from bot.text.i18n import t
from storage.models import NightInfo


@speaking
async def on_button(update: Update, context: TallyContext, lang: str) -> None:
    query = update.callback_query
    assert query is not None
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
            await table.press_join(update, context, lang, data, found[2])
            return
    night = await night_of(context, chat.id)
    if isinstance(data, DraftData) and night is None:
        await stale_press(update, lang)  # a table's drafts went when it ended
        return
    if await _of_ended_night(context, chat.id, night, data):
        await send.answer(update, t(lang, "This table has ended; its buttons no longer "
                                          "work."), alert=True)  # nothing else
        return
    acting = None if night is None else await admitted(update, context, night)
    if night is None or acting is None:
        await send.answer(update, t(lang, error_text_plain(
            "not_player" if night else "no_night_going")), alert=True)
        return
    night = acting
    if isinstance(data, EditData):
        await guided.press_edit(update, context, lang, night, data)
    elif isinstance(data, UndoData):
        await corrections.press_undo(update, context, lang, night, data)
    elif isinstance(data, BoardData):
        await guided.press_board(update, context, lang, night, data)
    else:
        await guided.press_draft(update, context, lang, night, data)


async def _of_ended_night(context: TallyContext, chat_id: int, night: NightInfo | None,
                          data: UndoData | DraftData | BoardData | EditData) -> bool:
    """Whether ``data`` is a scoreboard, Undo or ✏️ button of a table of this chat that
    has ended (kept from before its scoreboard lost its buttons, or on an answer)."""
    if isinstance(data, DraftData) or (night is not None and data.night_id == night.id):
        return False
    return await context.ledger.open_nights.has_ended(chat_id, data.night_id)


def register(app: TallyApp) -> None:
    """Last of all: every button the features' patterns did not take."""
    app.add_handler(CallbackQueryHandler(on_button))
