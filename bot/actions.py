"""What commands and buttons both do: record an event and announce it, undo the last one."""

from __future__ import annotations

import logging
from typing import Any

from telegram import Update
from telegram.ext import ContextTypes

from bot import board, render, send
from bot.chat import (
    chat_lang,
    is_admin,
    refuse,
    remember,
    session_for_action,
)
from bot.i18n import t
from bot.keyboards import undo_keyboard
from engine.errors import ReportError
from storage.delivery import Outgoing
from storage.errors import LedgerError
from storage.models import RecordOutcome, SessionInfo

log = logging.getLogger(__name__)


def announcement(update: Update, lang: str, out: RecordOutcome) -> list[Outgoing]:
    """The answer to a recorded event: its explanation with an Undo button, and the
    scoreboard."""
    assert out.session is not None
    keyboard = undo_keyboard(t(lang, "Undo"), out.session.id, out.hand_number, out.event_index)
    return [send.replying(update, render.outcome_text(lang, out), reply_markup=keyboard),
            board.item(lang, out.session)]


async def record_event(update: Update, context: ContextTypes.DEFAULT_TYPE, lang: str,
                       session: SessionInfo, event: dict[str, Any], indicator: str | None
                       ) -> None:
    """Record the event; its answer is written in the same transaction."""
    user = update.effective_user
    try:
        out = await send.answered(context, lambda out: announcement(update, lang, out)).record(
            session.chat_id, event, reporter=user.id if user else None, indicator=indicator)
    except (LedgerError, ReportError) as exc:
        await refuse(update, lang, exc.code, str(exc), session, **exc.params)
        return
    remember(context, session.chat_id, out.session)


async def announce(update: Update, context: ContextTypes.DEFAULT_TYPE, lang: str,
                   out: RecordOutcome) -> None:
    """Say what ``out`` recorded (for a write made without its answer)."""
    remember(context, out.session.chat_id if out.session else 0, out.session)
    await send.say(context.bot, *announcement(update, lang, out))


async def acting(update: Update, context: ContextTypes.DEFAULT_TYPE
                  ) -> tuple[str, SessionInfo] | None:
    """Language and table for a state-changing command from a player, delivered once."""
    lang = await chat_lang(update, context)
    session = await session_for_action(update, context, lang)
    if session is None:
        return None
    return lang, session



async def undo_last(update: Update, context: ContextTypes.DEFAULT_TYPE, lang: str,
                session: SessionInfo) -> bool:
    user = update.effective_user
    admin = await is_admin(update, context)

    def answer(out: Any) -> list[Outgoing]:
        return [send.to_chat(session.chat_id, render.undo_text(lang, out)),
                board.item(lang, out.session)]

    try:
        out = await send.answered(context, answer).undo(
            session.chat_id, actor=user.id if user else None, allow_others=admin)
    except LedgerError as exc:
        await refuse(update, lang, exc.code, str(exc), **exc.params)
        return False
    remember(context, session.chat_id, out.session)
    return True


