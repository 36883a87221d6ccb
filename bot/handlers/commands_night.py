"""What a table does during a night besides hands: a penalty for a false win
(``/penalty dave 诈胡``, also ``/fa``, or ``/hu dave 诈胡``) and a zero-sum adjustment
(``/adjust alice -10 bob +10 side bet``). Both are events of the hand being played (or
of the next one): on the scoreboard, in /history, undoable, exported."""

from __future__ import annotations

from typing import Any

from telegram import Update
from telegram.ext import ContextTypes

from bot.dialogs.grammar import GrammarError
from bot.dialogs.night_grammar import parse_adjust, parse_penalty
from bot.handlers.actions import record_event
from bot.handlers.chat import (
    chat_lang,
    refuse,
    resolver_for,
    session_for_action,
    tokens_of,
)


async def _record(update: Update, context: ContextTypes.DEFAULT_TYPE, parser: Any,
                  usage: str) -> None:
    lang = await chat_lang(update, context)
    session = await session_for_action(update, context, lang)
    if session is None:
        return
    msg, user = update.effective_message, update.effective_user
    assert msg is not None
    tokens = tokens_of(msg)
    if not tokens:
        await refuse(update, lang, usage)
        return
    try:
        event = parser(tokens, resolver_for(session, user.id if user else None))
    except GrammarError as exc:
        await refuse(update, lang, exc.code, session=session, **exc.params)
        return
    await record_event(update, context, lang, session, event, None)


async def cmd_penalty(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    await _record(update, context, parse_penalty, "penalty_usage")


async def cmd_adjust(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    await _record(update, context, parse_adjust, "adjust_usage")


COMMANDS = {"penalty": cmd_penalty, "fa": cmd_penalty, "adjust": cmd_adjust}
