"""Reports of the hand being played: ``/hu``, ``/kong``, ``/draw`` and ``/qishou`` (read from
their words, or, alone, asked as buttons: :mod:`bot.handlers.guided`), ``/bite``
(``/yao``, a Singapore bite or set of bonus tiles, paid at once), ``/jifen`` (``/points``,
a points-only hand as every player's change), ``/penalty`` (``/fa``, or ``/hu dave 诈胡``;
at an MCR table also 错和 and a referee's fine, ``/penalty dave 错碰 5``, or ``/penalty``
alone as buttons) and ``/adjust``. Each is recorded with its answer in one write
(:func:`record_event`)."""

from __future__ import annotations

from typing import Any

from telegram import Update

from bot.dialogs.bonus_grammar import parse_amounts, parse_bite
from bot.dialogs.grammar import (
    GrammarError,
    Token,
    for_family,
    parse_draw,
    parse_kong,
    parse_starting,
    parse_win,
    words_for,
)
from bot.dialogs.mcr_grammar import parse_mcr_win
from bot.dialogs.night_grammar import is_false_win, parse_adjust, parse_penalty
from bot.handlers import details
from bot.handlers.answers import announcement
from bot.handlers.chat import (
    add_commands,
    night_of,
    refuse,
    remember,
    resolver_for,
    tokens_of,
    words_and_sender,
)
from bot.handlers.context import TallyApp, TallyContext
from bot.handlers.guards import at_table
from bot.handlers.guided import open_event_draft, start_guided, start_guided_event
from bot.ops import metrics
from bot.text import render_mcr
from bot.text.i18n import is_chinese
from engine.errors import ReportError
from engine.rules import get_preset
from storage.errors import LedgerError
from storage.models import NightInfo


async def record_event(update: Update, context: TallyContext, lang: str,
                       night: NightInfo, event: dict[str, Any], indicator: str | None,
                       tokens: list[Token] | None = None) -> None:
    """Record the event; its answer is written in the same transaction. With the
    ``tokens`` it was read from, a refusal of another family's words names them."""
    user = update.effective_user
    verbose = await details.is_verbose(context, night.chat_id)
    try:
        async with context.write(lambda out: announcement(update, lang, out, verbose)) as tx:
            out = await tx.hands.record(night.chat_id, event,
                                        reporter=user.id if user else None, indicator=indicator)
    except (LedgerError, ReportError) as exc:
        words = words_for(tokens, str(exc.params.get("field"))) \
            if tokens and exc.code == "wrong_family" else []
        if words:  # 无宝 at a Chengdu table: say which words, and whose they are
            await refuse(update, lang, "foreign_words", seated_at=night,
                         words=("、" if is_chinese(lang) else ", ").join(words),
                         family=str(exc.params.get("family")), table=night.preset)
            return
        await refuse(update, lang, exc.code, str(exc), night, **exc.params)
        return
    if out.asked is None:
        metrics.recorded(str(event.get("type", "event")))
    remember(context, night.chat_id, out.night)


@at_table
async def _parse_and_record(update: Update, context: TallyContext, lang: str,
                            night: NightInfo, parser: Any) -> None:
    tokens, actor = words_and_sender(update)
    try:
        result = parser(tokens, resolver_for(night, actor))
    except GrammarError as exc:
        await refuse(update, lang, exc.code, "", night, **exc.params)
        return
    event, indicator = result if isinstance(result, tuple) else (result, None)
    event = for_family(event, str(night.rules.get("family")))
    await record_event(update, context, lang, night, event, indicator, tokens)


async def cmd_hu(update: Update, context: TallyContext) -> None:
    msg = update.effective_message
    if msg is not None and not tokens_of(msg):
        await start_guided(update, context)
        return
    if msg is not None and is_false_win(tokens_of(msg)):  # /hu dave 诈胡: a penalty
        await _parse_and_record(update, context, parse_penalty)
        return
    chat = update.effective_chat
    await context.lang()  # the chat and its table, read together where nothing is kept
    night = await night_of(context, chat.id) if chat is not None else None
    if night is not None and get_preset(night.preset).family == "mcr":
        at = night  # a match's hand: its round's wind and the winner's seat wind

        def parse_mcr(tokens: list[Token], resolve: Any) -> dict[str, Any]:
            return render_mcr.report_winds(at, parse_mcr_win(tokens, resolve))

        await _parse_and_record(update, context, parse_mcr)
        return
    await _parse_and_record(update, context, parse_win)


async def _guided_or_parsed(update: Update, context: TallyContext, kind: str,
                            parser: Any) -> None:
    """/kong or /draw: alone, the event as buttons; with words, read and recorded."""
    msg = update.effective_message
    if msg is not None and not tokens_of(msg):
        await start_guided_event(update, context, kind)
        return
    await _parse_and_record(update, context, parser)


async def cmd_kong(update: Update, context: TallyContext) -> None:
    await _guided_or_parsed(update, context, "kong", parse_kong)


async def cmd_draw(update: Update, context: TallyContext) -> None:
    await _guided_or_parsed(update, context, "draw", parse_draw)


async def cmd_qishou(update: Update, context: TallyContext) -> None:
    await _parse_and_record(update, context, parse_starting)


def _mcr(night: NightInfo) -> bool:
    return get_preset(night.preset).family == "mcr"


@at_table
async def _record(update: Update, context: TallyContext, lang: str, night: NightInfo,
                  parser: Any, usage: str) -> None:
    tokens, actor = words_and_sender(update)
    if not tokens and parser is parse_penalty and _mcr(night):  # MCR: as buttons
        await open_event_draft(update, context, lang, night, "penalty")
        return
    if not tokens:
        await refuse(update, lang, usage)
        return
    try:
        event = parser(tokens, resolver_for(night, actor))
    except GrammarError as exc:
        code = "mcr_penalty_usage" if exc.code == "penalty_usage" and _mcr(night) \
            else exc.code
        await refuse(update, lang, code, seated_at=night, **exc.params)
        return
    await record_event(update, context, lang, night, event, None)


async def cmd_penalty(update: Update, context: TallyContext) -> None:
    await _record(update, context, parse_penalty, "penalty_usage")


async def cmd_adjust(update: Update, context: TallyContext) -> None:
    await _record(update, context, parse_adjust, "adjust_usage")


async def cmd_bite(update: Update, context: TallyContext) -> None:
    msg = update.effective_message
    if msg is not None and not tokens_of(msg):  # alone: the bite or set as buttons
        await start_guided_event(update, context, "bite")
        return
    await _record(update, context, parse_bite, "bite_usage")


async def cmd_jifen(update: Update, context: TallyContext) -> None:
    await _record(update, context, parse_amounts, "amounts_usage")


COMMANDS = {"hu": cmd_hu, "kong": cmd_kong, "draw": cmd_draw, "qishou": cmd_qishou,
            "bite": cmd_bite, "yao": cmd_bite, "jifen": cmd_jifen, "points": cmd_jifen,
            "penalty": cmd_penalty, "fa": cmd_penalty, "adjust": cmd_adjust}


def register(app: TallyApp) -> None:
    add_commands(app, COMMANDS)
