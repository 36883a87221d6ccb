"""The answer to a recorded event: compact with Undo and Details, or the full explanation,
and the scoreboard; a report kept as a question (a hand, a kong, a bite or a set reported
twice) is answered with the question and its two buttons. Said by commands, buttons and the
question's own press (:mod:`bot.handlers.twice`)."""

from __future__ import annotations

from html import escape

from telegram import InlineKeyboardMarkup, Update

from bot.delivery import send
from bot.dialogs.keyboards import draft_data, grid
from bot.handlers import board, details
from bot.text.i18n import nt, t
from storage.delivery import Outgoing
from storage.models import RecordOutcome

SAME, NEW = "sm", "nw"


def question(update: Update, lang: str, out: RecordOutcome) -> list[Outgoing]:
    """The answer to a report kept as a question: who reported it first and how long ago,
    two buttons, and nothing recorded."""
    assert out.night is not None and out.asked is not None
    who = escape(out.asked_by) if out.asked_by else t(lang, "another player")
    seconds = out.asked_seconds or 0
    ago = t(lang, "less than a minute ago") if seconds < 60 else \
        nt(lang, "{minutes} minute ago", "{minutes} minutes ago", seconds // 60,
           minutes=seconds // 60)
    text = asking(lang, out.asked_about, number=out.hand_number, who=who, ago=ago)
    return [send.replying(update, text,
                          reply_markup=keyboard(lang, out.asked, out.asked_about))]


def asking(lang: str, about: str, **params: object) -> str:
    """The question's text: what the report repeats (``about``: hand, kong, bite or
    bonus_set), who reported it first and when."""
    if about == "kong":
        return t(lang, "Hand {number} already has this kong: {who} reported it {ago}. Is "
                 "this the same kong, or another one? Nothing is recorded until you choose.",
                 **params)
    if about == "bite":
        return t(lang, "Hand {number} already has this bite: {who} reported it {ago}. Is "
                 "this the same bite, or another one? Nothing is recorded until you choose.",
                 **params)
    if about == "bonus_set":
        return t(lang, "Hand {number} already has this set: {who} reported it {ago}. Is "
                 "this the same set, or another one? Nothing is recorded until you choose.",
                 **params)
    return t(lang, "Hand {number} just ended with this win: {who} reported it {ago}. Is "
             "this the same hand, or a new one? Nothing is recorded until you choose.",
             **params)


def choices(lang: str, about: str) -> tuple[str, str]:
    """The question's two buttons: the same one (dropped), another (recorded)."""
    if about == "kong":
        return t(lang, "The same kong"), t(lang, "Another kong")
    if about == "bite":
        return t(lang, "The same bite"), t(lang, "Another bite")
    if about == "bonus_set":
        return t(lang, "The same set"), t(lang, "Another set")
    return t(lang, "The same hand"), t(lang, "A new hand")


def keyboard(lang: str, question_id: int, about: str = "hand") -> InlineKeyboardMarkup:
    same, new = choices(lang, about)
    return grid([(same, draft_data(question_id, 1, SAME)),
                 (new, draft_data(question_id, 1, NEW))], 2)


def announcement(update: Update, lang: str, out: RecordOutcome, verbose: bool = False
                 ) -> list[Outgoing]:
    """The answer to a recorded event: compact with Undo and Details buttons (or, for a
    verbose chat, the full explanation with Undo), and the scoreboard. A report kept as
    a question (a hand, kong, bite or set reported twice) is answered with the question."""
    if out.asked is not None:
        return question(update, lang, out)
    assert out.night is not None
    text, keyboard = details.answer(lang, out, verbose)
    return [send.replying(update, text, reply_markup=keyboard),
            board.item(lang, out.night)]
