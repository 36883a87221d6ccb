"""A hand, a kong, a bite or a set reported twice (see :mod:`storage.services.twice`): a
press on the question's two buttons (the question itself: :mod:`bot.handlers.answers`).
``v1:d:<question>:1:sm`` says "the same hand" (or kong, bite, set: the second report is
dropped), ``v1:d:<question>:1:nw`` "a new hand" (or "another kong", bite, set: it is
recorded). Any player at the table answers."""

from __future__ import annotations

from html import escape
from typing import Any

from telegram import Update

from bot.delivery import send
from bot.dialogs.keyboards import DraftData
from bot.handlers.answers import NEW, SAME, announcement
from bot.handlers.chat import refuse_press, remember
from bot.handlers.context import TallyContext
from bot.text.i18n import t
from engine.errors import ReportError
from storage.delivery import Outgoing
from storage.errors import LedgerError
from storage.models import NightInfo, RecordOutcome


def _about(kept: dict[str, Any]) -> str:
    """What the kept report is: a win (``hand``), or a ``kong``, ``bite`` or ``bonus_set``."""
    event = kept.get("event")
    kind = event.get("type") if isinstance(event, dict) else None
    return kind if kind in ("kong", "bite", "bonus_set") else "hand"


def _dropped(lang: str, about: str, number: int) -> str:
    if about == "kong":
        return t(lang, "The same kong: the second report of it in hand {number} was dropped.",
                 number=number)
    if about == "bite":
        return t(lang, "The same bite: the second report of it in hand {number} was dropped.",
                 number=number)
    if about == "bonus_set":
        return t(lang, "The same set: the second report of it in hand {number} was dropped.",
                 number=number)
    return t(lang, "The same hand: the second report of hand {number} was dropped.",
             number=number)


def _recorded(lang: str, about: str) -> str:
    if about == "kong":
        return t(lang, "Another kong.")
    if about == "bite":
        return t(lang, "Another bite.")
    if about == "bonus_set":
        return t(lang, "Another set.")
    return t(lang, "A new hand.")


async def press(update: Update, context: TallyContext, lang: str,
                night: NightInfo, data: DraftData, kept: dict[str, Any]) -> None:
    """A press on the question: drop the second report, or record it as a new hand. The
    answer and the question's end commit together."""

    query = update.callback_query
    assert query is not None and query.message is not None
    chat_id, message_id = night.chat_id, query.message.message_id
    await send.answer(update)  # with the write (a refusal's alert replaces it)
    about = _about(kept)
    try:
        if data.action == SAME:
            def dropped(number: int) -> list[Outgoing]:
                return [send.edit_of(chat_id, message_id, _dropped(lang, about, number),
                                     reply_markup=None)]

            async with context.write(dropped) as tx:
                await tx.hands.drop_question(chat_id, data.draft_id)
            return
        if data.action != NEW:
            raise LedgerError("stale_button", "not a button of this question")

        def recorded(out: RecordOutcome) -> list[Outgoing]:
            done = send.edit_of(chat_id, message_id, escape(_recorded(lang, about)),
                                reply_markup=None)
            return [done, *announcement(update, lang, out)]

        reporter = kept.get("reporter")
        # A kong, bite or set joins the hand it was asked about, or nothing.
        hand = kept.get("hand")
        within = hand if about != "hand" and isinstance(hand, int) else None
        async with context.write(recorded) as tx:
            out = await tx.hands.record(
                chat_id, kept["event"],
                reporter=reporter if isinstance(reporter, int) else None,
                indicator=kept.get("indicator"), draft_id=data.draft_id, ask_twice=False,
                within=within)
    except (LedgerError, ReportError) as exc:
        await refuse_press(update, lang, exc, night)
        return
    remember(context, chat_id, out.night)

