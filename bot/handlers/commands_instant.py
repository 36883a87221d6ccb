"""Reports beyond a win that some tables make: ``/bite`` (``/yao``), a Singapore bite or a
complete set of bonus tiles, paid at once and kept through a drawn hand; and ``/jifen``
(``/points``), a points-only hand given as every player's change, which ends the hand."""

from __future__ import annotations

from telegram import Update

from bot.dialogs.bonus_grammar import parse_amounts, parse_bite
from bot.handlers.buttons import start_guided_event
from bot.handlers.chat import tokens_of
from bot.handlers.commands_night import _record
from bot.handlers.context import TallyContext


async def cmd_bite(update: Update, context: TallyContext) -> None:
    msg = update.effective_message
    if msg is not None and not tokens_of(msg):  # alone: the bite or set as buttons
        await start_guided_event(update, context, "bite")
        return
    await _record(update, context, parse_bite, "bite_usage")


async def cmd_jifen(update: Update, context: TallyContext) -> None:
    await _record(update, context, parse_amounts, "amounts_usage")


COMMANDS = {"bite": cmd_bite, "yao": cmd_bite, "jifen": cmd_jifen, "points": cmd_jifen}
