"""The end of a night: ``/end`` (asking first while a hand is being played), the question's
two buttons, and ``/undo`` right after an ``/end``, which opens the night again.

The question is a draft of kind ``end``: ``v1:d:<draft>:1:eh`` ends the night here,
``v1:d:<draft>:1:go`` lets the hand go on. Any player at the table answers, once."""

from __future__ import annotations

from typing import Any

from telegram import Update

from bot.delivery import send
from bot.dialogs.keyboards import DraftData, draft_data, grid
from bot.handlers import board, files
from bot.handlers.chat import add_commands, is_admin, refuse, refuse_press, remember
from bot.handlers.context import TallyApp, TallyContext
from bot.handlers.guards import at_table, speaking
from bot.text import render, render_mcr
from bot.text.amounts import in_cents
from bot.text.i18n import t
from storage.delivery import Outgoing
from storage.errors import LedgerError
from storage.models import NightInfo

END_KIND = "end"  # the question asked by /end while a hand is being played
END_HERE, GO_ON = "eh", "go"


async def end_or_ask(update: Update, context: TallyContext, lang: str,
                     night: NightInfo) -> None:
    """``/end``: the night ends now, or, while a hand is being played, the table is asked
    first (nothing changes until a player answers)."""
    if night.open_hand is None:
        await _end(update, context, lang, night)
        return
    user = update.effective_user
    text = t(lang, "Hand {number} is still being played. End the night here (the hand "
             "counts as it stands), or go on playing it?", number=night.open_hand)

    def asked(made: tuple[int, int]) -> list[Outgoing]:
        keyboard = grid([(t(lang, "End the night here"), draft_data(made[0], made[1],
                                                                    END_HERE)),
                         (t(lang, "Go on"), draft_data(made[0], made[1], GO_ON))], 2)
        return [send.replying(update, text, reply_markup=keyboard)]

    async with context.write(asked) as tx:
        await tx.drafts.create(night.chat_id, user.id if user else 0, END_KIND,
                               {"session": night.id, "hand": night.open_hand})


async def press(update: Update, context: TallyContext, lang: str, night: NightInfo,
                data: DraftData, kept: dict[str, Any]) -> None:
    """A press on the question: end the night here, or let the hand go on."""
    query = update.callback_query
    assert query is not None and query.message is not None
    chat_id, message_id = night.chat_id, query.message.message_id
    if kept.get("session") != night.id or data.action not in (END_HERE, GO_ON):
        await refuse_press(update, lang, LedgerError("stale_button", "not this table's"),
                           night)
        return
    await send.answer(update)
    if data.action == GO_ON:
        def going(_: None) -> list[Outgoing]:
            return [send.edit_of(chat_id, message_id, t(
                lang, "The hand goes on; the night is not ended."), reply_markup=None)]

        try:
            async with context.write(going) as tx:
                await tx.drafts.delete(chat_id, data.draft_id)
        except LedgerError as exc:
            await refuse_press(update, lang, exc, night)
        return
    done = send.edit_of(chat_id, message_id, t(lang, "The night ends here."),
                        reply_markup=None)
    await _end(update, context, lang, night, also=[done])


async def _end(update: Update, context: TallyContext, lang: str, night: NightInfo,
               also: list[Outgoing] | None = None) -> None:
    user = update.effective_user

    def answer(summary: Any) -> list[Outgoing]:  # the board shows the night is over
        return [*(also or []), board.item(lang, render.ended(night, summary), now=True),
                send.replying(update, render.summary_text(
                    lang, summary, cents=in_cents(night.rules))
                    + render_mcr.rank_text(lang, night, summary))]

    remember(context, night.chat_id, None)
    try:
        async with context.write(answer) as tx:
            summary = await tx.nights.end_night(night.chat_id,
                                                  actor=user.id if user else None)
    except LedgerError as exc:  # a second press, after the night ended
        if update.callback_query is None:
            raise
        await refuse_press(update, lang, exc, night)
        return
    await files.send_end_pictures(update, context, lang, summary)


@speaking
async def undo_end(update: Update, context: TallyContext, lang: str) -> None:
    """``/undo`` with no night going: the chat's last ``/end``, if nothing happened since,
    is taken back (the night, its open hand and its board as they were; its debts gone).
    Refused as before ("no table") otherwise."""
    chat, user = update.effective_chat, update.effective_user
    assert chat is not None
    admin = await is_admin(update, context)

    def answer(night: NightInfo) -> list[Outgoing]:
        head = t(lang, "Undone: the end of the night; the table is open again.")
        if night.open_hand is not None:
            head += ("" if lang == "zh-Hans" else " ") + t(
                lang, "Hand {number} is still being played.", number=night.open_hand)
        return [send.replying(update, head + "\n\n" + render.totals_text(lang, night)),
                board.item(lang, night)]

    try:
        async with context.write(answer) as tx:
            night = await tx.nights.reopen(chat.id, actor=user.id if user else None,
                                             allow_others=admin)
    except LedgerError as exc:
        await refuse(update, lang, exc.code, str(exc), **exc.params)
        return
    remember(context, chat.id, night)


@at_table
async def cmd_end(update: Update, context: TallyContext, lang: str,
                  night: NightInfo) -> None:
    await end_or_ask(update, context, lang, night)


COMMANDS = {"end": cmd_end}


def register(app: TallyApp) -> None:
    add_commands(app, COMMANDS)
