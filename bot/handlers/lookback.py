"""Looking back: /history (this night by default; ``all``, a day or one night; paged),
/hand N (every event of a hand, who reported and who changed it; ``/hand N 2026-11-20``
for an earlier night) and /stats (rates, best and last hands)."""

from __future__ import annotations

from html import escape
from typing import Any

from telegram import InlineKeyboardMarkup, Update

from bot.dialogs import numbers
from bot.dialogs.grammar import GrammarError
from bot.dialogs.keyboards import edit_data, grid
from bot.handlers import files
from bot.handlers.chat import add_commands, refuse, reply, tokens_of
from bot.handlers.context import TallyApp, TallyContext
from bot.handlers.guards import speaking
from bot.text import render_lookback
from bot.text.i18n import t
from bot.text.script import fold
from engine.errors import clip
from storage.errors import LedgerError
from storage.ledger import Scope
from storage.models import PlayerRef

ALL_WORDS = ("all", "全部", "所有")


@speaking
async def cmd_history(update: Update, context: TallyContext, lang: str) -> None:
    chat, msg = update.effective_chat, update.effective_message
    assert chat is not None and msg is not None
    words = [w.text for w in tokens_of(msg)]
    scope: Scope = "current"
    page = 1
    try:
        if words and fold(words[0]) in ALL_WORDS:
            scope = "all"
            words = words[1:]
        elif words and (day := numbers.night(words[0])) is not None:
            scope = day
            words = words[1:]
    except GrammarError as exc:
        await refuse(update, lang, exc.code, **exc.params)
        return
    if words:
        number = numbers.count(words[0], numbers.MAX_PAGE)
        if number is None or len(words) > 1:  # the word not understood, then how
            unread = words[0] if number is None else words[1]
            await refuse(update, lang, "history_usage", token=escape(clip(unread)))
            return
        page = number
    if scope == "all":
        nights = await context.ledger.lookback.night_list(chat.id, page=page)
        if nights.page > nights.pages:
            await refuse(update, lang, "no_page", pages=nights.pages)
            return
        await reply(update, render_lookback.night_list_text(lang, nights))
        return
    view = await context.ledger.lookback.night_history(chat.id, scope, page=page)
    if not isinstance(scope, str) and not view.nights:
        await refuse(update, lang, "no_night", night=_label(scope))
        return
    if view.page > view.pages:
        await refuse(update, lang, "no_page", pages=view.pages)
        return
    await reply(update, render_lookback.history_text(lang, view, scope))


def _label(scope: Scope) -> str:
    if isinstance(scope, tuple):
        return f"{scope[0].isoformat()}/{scope[1]}"
    return scope if isinstance(scope, str) else scope.isoformat()


@speaking
async def cmd_hand(update: Update, context: TallyContext, lang: str) -> None:
    chat, msg = update.effective_chat, update.effective_message
    assert chat is not None and msg is not None
    words = [w.text for w in tokens_of(msg)]
    number = numbers.count(words[0], numbers.MAX_HAND) if words else None
    unread = words[0] if words and number is None else None  # /hand 一
    scope: Scope = "current"
    try:
        if len(words) == 2 and number is not None:
            day = numbers.night(words[1])
            if day is None:  # /hand 3 昨天
                number, unread = None, words[1]
            else:
                scope = day
    except GrammarError as exc:
        await refuse(update, lang, exc.code, **exc.params)
        return
    if len(words) > 2 and unread is None:
        unread = words[2]
    if unread is not None:  # the word not understood, then how
        await refuse(update, lang, "hand_word", token=escape(clip(unread)))
        return
    if number is None:
        await refuse(update, lang, "hand_usage")
        return
    try:
        detail = await context.ledger.lookback.hand_detail(chat.id, number, scope)
    except LedgerError as exc:
        code = "no_nights" if exc.code == "no_night" and scope == "current" else exc.code
        await refuse(update, lang, code, str(exc), **{"night": _label(scope), **exc.params})
        return
    await reply(update, render_lookback.hand_text(lang, detail),
                reply_markup=edit_keyboard(lang, detail))


def edit_keyboard(lang: str, d: Any) -> InlineKeyboardMarkup | None:
    """Under /hand N of the night being played: a guided edit of each win, one button."""
    if d.night.status != "open" or d.status == "void":
        return None
    wins = [i for i, ev in enumerate(d.report.get("events", [])) if ev.get("type") == "win"]
    if not wins:
        return None
    return grid([(t(lang, "✏️ Event {index}", index=i + 1),
                  edit_data(d.night.id, d.number, i)) for i in wins], 3)


@speaking
async def cmd_stats(update: Update, context: TallyContext, lang: str) -> None:
    chat, msg, user = update.effective_chat, update.effective_message, update.effective_user
    assert chat is not None and msg is not None
    ledger = context.ledger
    words = tokens_of(msg)
    picture = any(fold(w.text) in files.CHART_WORDS for w in words)
    words = [w for w in words if fold(w.text) not in files.CHART_WORDS]
    if len(words) > 1:
        await refuse(update, lang, "stats_usage")
        return
    if words:
        player = await ledger.chats.find_player(chat.id, words[0].text)
        if player is None:
            await refuse(update, lang, "unknown_player", name=escape(words[0].text[:32]))
            return
    else:
        if user is None:
            return
        # The sender's own record: a member the ledger has not seen yet is recorded
        # (first sight of an account, context.registry) with an empty record.
        player = await context.registry.player(chat.id, PlayerRef(
            name=user.username or user.first_name, telegram_id=user.id, username=user.username))
    if picture:
        await files.stats_picture(update, context, lang, player)
        return
    record = await ledger.lookback.player_record(chat.id, player.id)
    standing = next((m for m in await ledger.money.money_standings(chat.id)
                     if m.player.id == player.id), None)
    await reply(update, render_lookback.record_text(lang, record, standing))


COMMANDS = {"history": cmd_history, "hand": cmd_hand, "stats": cmd_stats}


def register(app: TallyApp) -> None:
    add_commands(app, COMMANDS)
