"""Money across nights: /standings in money, /debts netted, /paid (in part), /settle and
its confirm button (callback data ``v1:s:<token>``, the token naming the open debts the
proposal was made from, so a press after they changed is refused)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update, User
from telegram.ext import CallbackQueryHandler

from bot.delivery import send
from bot.dialogs import numbers
from bot.dialogs.grammar import GrammarError
from bot.handlers import files
from bot.handlers.chat import (
    add_commands,
    is_admin,
    refuse,
    reply,
    tokens_of,
)
from bot.handlers.context import TallyApp, TallyContext
from bot.handlers.guards import speaking
from bot.text import render_mcr, render_money
from bot.text.errors_text import error_text
from bot.text.i18n import money
from bot.text.script import fold
from storage.delivery import Outgoing
from storage.errors import LedgerError
from storage.ledger import Payment, SettlePlan
from storage.models import PlayerInfo

SETTLE_DATA = re.compile(r"^v1:s:([0-9a-f]{12})$")
SETTLE_PATTERN = r"^v1:s:"


@speaking
async def cmd_standings(update: Update, context: TallyContext, lang: str) -> None:
    """Standings in money and in points, each night at its own stake; ``30d``: lately."""
    chat, msg = update.effective_chat, update.effective_message
    assert chat is not None and msg is not None
    words = tokens_of(msg)
    if words and fold(words[0].text) in files.CHART_WORDS:
        await files.standings_picture(update, context, lang)
        return
    days = None
    if words:
        days = numbers.days(words[0].text)
        if days is None or len(words) > 1:
            await refuse(update, lang, "standings_usage", max=numbers.MAX_DAYS)
            return
    since = datetime.now(UTC) - timedelta(days=days) if days else None
    rows = await context.ledger.money.money_standings(chat.id, since=since)
    games = [] if days else await context.ledger.lookback.match_games(
        chat.id, render_mcr.mcr_presets())  # MCR matches: by rank points
    await reply(update, render_money.standings_text(lang, rows, days)
                + render_mcr.standings_text(lang, games))


@speaking
async def cmd_debts(update: Update, context: TallyContext, lang: str) -> None:
    """Open debts from ended nights, netted: one line per two players."""
    chat = update.effective_chat
    assert chat is not None
    balances = await context.ledger.money.open_balances(chat.id)
    await reply(update, render_money.balances_text(lang, balances))


@speaking
async def cmd_paid(update: Update, context: TallyContext, lang: str) -> None:
    """``/paid N``: the debt N's two players are square; ``/paid N 2.50``: part of it.
    Its payer, its payee or an admin."""
    chat, msg, user = update.effective_chat, update.effective_message, update.effective_user
    assert chat is not None and msg is not None
    words = tokens_of(msg)
    number = numbers.count(words[0].text, numbers.MAX_DEBT) if words else None
    if number is None or len(words) > 2:
        await refuse(update, lang, "paid_usage")
        return
    amount = None
    if len(words) == 2:
        try:
            amount = numbers.cents(words[1].text)
        except GrammarError as exc:
            await refuse(update, lang, exc.code, **exc.params)
            return
    ledger = context.ledger
    parties = await ledger.money.debt_parties(chat.id, number)
    if parties is None:
        await refuse(update, lang, "no_debt", id=number)
        return
    if user is None or (not _is_party(user, parties) and not await is_admin(update, context)):
        await refuse(update, lang, "not_party")
        return

    def answer(payment: Payment) -> list[Outgoing]:
        return [send.replying(update, render_money.payment_text(lang, payment))]

    try:
        async with context.write(answer) as tx:
            await tx.money.pay(chat.id, number, amount, actor=user.id)
    except LedgerError as exc:
        params = {**exc.params, "id": number}
        if "owed" in params:
            params["owed"] = money(int(params["owed"]))
        await refuse(update, lang, exc.code, str(exc), **params)


def _is_party(user: User, players: Iterable[PlayerInfo]) -> bool:
    """The user is one of ``players``: by account, or by the @username they were seated by
    (a player seated as @dave who has not spoken since is linked only by that name)."""
    name = (user.username or "").lower()
    return any(p.telegram_id == user.id or (p.telegram_id is None and name
                                            and (p.username or "").lower() == name)
               for p in players)


def _confirm(lang: str, token: str) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup([[InlineKeyboardButton(
        render_money.confirm_label(lang), callback_data=f"v1:s:{token}")]])


@speaking
async def cmd_settle(update: Update, context: TallyContext, lang: str) -> None:
    """Propose the fewest transfers that clear every open debt, with a confirm button."""
    chat = update.effective_chat
    assert chat is not None
    plan = await context.ledger.money.settle_plan(chat.id)
    if not plan.debts:
        await reply(update, render_money.balances_text(lang, []))
        return
    await reply(update, render_money.settle_plan_text(lang, plan),
                reply_markup=_confirm(lang, plan.token))


@speaking
async def on_settle_button(update: Update, context: TallyContext, lang: str) -> None:
    """The confirm button of /settle: a player with an open debt, or an admin."""
    query, chat = update.callback_query, update.effective_chat
    assert query is not None
    m = SETTLE_DATA.match(query.data or "")
    if m is None or chat is None or query.message is None:
        await send.answer(update, error_text(lang, "stale_button", ""), alert=True)
        return
    ledger = context.ledger
    plan = await ledger.money.settle_plan(chat.id)
    if plan.token != m.group(1) or not plan.debts:
        await send.answer(update, error_text(lang, "settle_stale", ""), alert=True)
        return
    user = query.from_user
    if not _is_party(user, plan.parties) and not await is_admin(update, context):
        await send.answer(update, error_text(lang, "not_party_settle", ""), alert=True)
        return
    by = next((p.name for p in plan.parties if _is_party(user, [p])),
              user.username or user.first_name)
    message_id = query.message.message_id

    def answer(done: SettlePlan) -> list[Outgoing]:  # the proposal loses its button
        return [send.edit_of(chat.id, message_id, None, reply_markup=None),
                send.replying(update, render_money.settled_text(lang, done, by))]

    await send.answer(update)  # with the write (a refusal's alert replaces it)
    try:
        async with context.write(answer) as tx:
            await tx.money.settle(chat.id, m.group(1), actor=user.id)
    except LedgerError as exc:
        await send.answer(update, error_text(lang, exc.code, str(exc)), alert=True)


COMMANDS = {"standings": cmd_standings, "debts": cmd_debts, "paid": cmd_paid,
            "settle": cmd_settle}


def register(app: TallyApp) -> None:
    add_commands(app, COMMANDS)
    app.add_handler(CallbackQueryHandler(on_settle_button, pattern=SETTLE_PATTERN))
