"""What commands and buttons both do: record an event and announce it, undo the last one."""

from __future__ import annotations

import logging
from typing import Any

from telegram import Update
from telegram.ext import ContextTypes

from bot import render
from bot.board import update_board
from bot.chat import (
    chat_lang,
    fresh_update,
    is_admin,
    refuse,
    services,
    session_for_action,
)
from bot.i18n import t
from bot.keyboards import undo_keyboard
from engine.errors import ReportError
from storage.errors import LedgerError
from storage.models import RecordOutcome, SessionInfo

log = logging.getLogger(__name__)


async def record_event(update: Update, context: ContextTypes.DEFAULT_TYPE, lang: str,
                  session: SessionInfo, event: dict[str, Any], indicator: str | None) -> None:
    user = update.effective_user
    try:
        out = await services(context).ledger.record(
            session.chat_id, event, reporter=user.id if user else None,
            update_id=update.update_id, indicator=indicator)
    except (LedgerError, ReportError) as exc:
        await refuse(update, lang, exc.code, str(exc), session, **exc.params)
        return
    if out.duplicate:
        return
    await announce(update, context, lang, out)


async def announce(update: Update, context: ContextTypes.DEFAULT_TYPE, lang: str,
                    out: RecordOutcome) -> None:
    assert out.session is not None
    keyboard = undo_keyboard(t(lang, "Undo"), out.session.id, out.hand_number, out.event_index)
    msg = update.effective_message
    chat_id = out.session.chat_id
    text = render.outcome_text(lang, out)
    if msg is not None and update.callback_query is None:
        await msg.reply_text(text, reply_markup=keyboard)
    else:
        await context.bot.send_message(chat_id, text, reply_markup=keyboard)
    await update_board(context, lang, out.session)



async def acting(update: Update, context: ContextTypes.DEFAULT_TYPE
                  ) -> tuple[str, SessionInfo] | None:
    """Language and table for a state-changing command from a player, delivered once."""
    lang = await chat_lang(update, context)
    session = await session_for_action(update, context, lang)
    if session is None or not await fresh_update(update, context):
        return None
    return lang, session



async def undo_last(update: Update, context: ContextTypes.DEFAULT_TYPE, lang: str,
                session: SessionInfo) -> bool:
    user = update.effective_user
    try:
        out = await services(context).ledger.undo(
            session.chat_id, actor=user.id if user else None,
            allow_others=await is_admin(update, context))
    except LedgerError as exc:
        await refuse(update, lang, exc.code, str(exc), **exc.params)
        return False
    await context.bot.send_message(session.chat_id, render.undo_text(lang, out))
    await update_board(context, lang, out.session)
    return True


