"""The answer to a recorded event (compact by default, full in a chat that set
``/set verbose on``) and its Details button, which edits the message to the full
explanation. Details data is ``v1:x:<night>:<hand>:<event>:<check>`` (see keyboards)."""

from __future__ import annotations

from telegram import InlineKeyboardMarkup, Update
from telegram.ext import CallbackQueryHandler

from bot.delivery import send
from bot.dialogs.keyboards import answer_keyboard, event_check, parse_details, undo_keyboard
from bot.handlers.chat import error_text_plain
from bot.handlers.context import TallyApp, TallyContext
from bot.handlers.guards import speaking
from bot.text import render
from bot.text.i18n import t
from storage.errors import LedgerError
from storage.models import RecordOutcome

PATTERN = r"^v1:x:"


async def is_verbose(context: TallyContext, chat_id: int) -> bool:
    """The chat's answer style (``/set verbose``)."""
    return (await context.chat_info(chat_id, context.services.default_language)).verbose


def answer(lang: str, out: RecordOutcome, verbose: bool) -> tuple[str, InlineKeyboardMarkup]:
    """The text and buttons that answer a recorded event in the chat's style."""
    assert out.night is not None and out.event is not None
    keyboard = answer_keyboard(lang, out.night.id, out.hand_number, out.event,
                               details=not verbose)
    return render.outcome_text(lang, out, verbose=verbose), keyboard


@speaking
async def on_details(update: Update, context: TallyContext, lang: str) -> None:
    """Details: edit the compact answer into the full explanation (Undo stays while the
    table is open)."""
    query, chat = update.callback_query, update.effective_chat
    if query is None or chat is None:
        return
    data = parse_details(query.data)
    message = query.message
    stale = t(lang, error_text_plain("stale_button"))
    if data is None or message is None:
        await send.answer(update, stale, alert=True)
        return
    try:
        night, hand = await context.ledger.nights.hand_view(chat.id, data.night_id,
                                                                 data.hand)
    except LedgerError:
        await send.answer(update, stale, alert=True)
        return
    if data.event >= len(hand.events) or event_check(hand.events[data.event]) != data.check:
        await send.answer(update, stale, alert=True)  # undone or corrected since
        return
    text = render.details_text(lang, night, data.hand, hand, data.event)
    # Undo only while the table is open: after /end it would only say the table ended.
    keyboard = (undo_keyboard(t(lang, "Undo"), data.night_id, data.hand, data.event)
                if night.status == "open" else None)
    await send.edit(context, chat.id, message.message_id, text, reply_markup=keyboard)
    await send.answer(update)


def register(app: TallyApp) -> None:
    app.add_handler(CallbackQueryHandler(on_details, pattern=PATTERN))
