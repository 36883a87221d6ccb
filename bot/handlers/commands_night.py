"""What a table does during a night besides hands: a penalty for a false win
(``/penalty dave 诈胡``, also ``/fa``, or ``/hu dave 诈胡``; at an MCR table also 错和 and a
referee's fine for a foul, ``/penalty dave 错碰 5``, or ``/penalty`` alone as buttons) and
a zero-sum adjustment (``/adjust alice -10 bob +10 side bet``), both events of the hand
being played (or of the next one): on the scoreboard, in /history, undoable, exported. And
a seat change between hands (``/seat dave erin``, also ``/huanren``)."""

from __future__ import annotations

from html import escape
from typing import Any

from telegram import Update

from bot.delivery import send
from bot.dialogs import guided_keyboards, guided_state
from bot.dialogs.grammar import GrammarError
from bot.dialogs.night_grammar import parse_adjust, parse_penalty
from bot.handlers import board
from bot.handlers.actions import acting_with_words, record_event
from bot.handlers.chat import refuse, remember, resolver_for
from bot.handlers.context import TallyContext
from bot.text.i18n import t
from bot.text.render import SEAT_KEYS
from bot.text.script import fold
from engine.rules import get_preset
from storage.errors import LedgerError
from storage.models import PlayerRef, SessionInfo
from storage.queues.messages import Outgoing


def _mcr(session: SessionInfo) -> bool:
    return get_preset(session.preset).family == "mcr"


async def _record(update: Update, context: TallyContext, parser: Any,
                  usage: str) -> None:
    act = await acting_with_words(update, context)
    if act is None:
        return
    lang, session, tokens, actor = act
    if not tokens and parser is parse_penalty and _mcr(session):
        await _guided_penalty(update, context, lang, session)
        return
    if not tokens:
        await refuse(update, lang, usage)
        return
    try:
        event = parser(tokens, resolver_for(session, actor))
    except GrammarError as exc:
        code = "mcr_penalty_usage" if exc.code == "penalty_usage" and _mcr(session) \
            else exc.code
        await refuse(update, lang, code, session=session, **exc.params)
        return
    await record_event(update, context, lang, session, event, None)


async def _guided_penalty(update: Update, context: TallyContext, lang: str,
                          session: SessionInfo) -> None:
    """/penalty alone at an MCR table: who, what for, and a foul's fine, as buttons."""
    user = update.effective_user
    if user is None:
        return
    draft = guided_state.PenaltyDraft()

    def shown(made: tuple[int, int]) -> list[Outgoing]:
        text, keyboard = guided_keyboards.message(lang, session, made[0], made[1], draft)
        return [send.replying(update, text, reply_markup=keyboard)]

    async with context.write(shown) as tx:
        await tx.drafts.create(session.chat_id, user.id, "penalty", guided_state.dump(draft))


async def cmd_penalty(update: Update, context: TallyContext) -> None:
    await _record(update, context, parse_penalty, "penalty_usage")


async def cmd_adjust(update: Update, context: TallyContext) -> None:
    await _record(update, context, parse_adjust, "adjust_usage")


# Words a player may put between the two names: /seat dave 换 erin.
SEAT_FILLERS = {"换", "换人", "换成", "->", "→", "for", "with", "by"}


async def cmd_seat(update: Update, context: TallyContext) -> None:
    """``/seat dave erin``: erin takes dave's seat between hands."""
    act = await acting_with_words(update, context)
    if act is None:
        return
    lang, session, tokens, actor = act
    words = [w for w in tokens if fold(w.text) not in SEAT_FILLERS]
    if len(words) != 2:
        await refuse(update, lang, "seat_usage")
        return
    leaving, joining = words
    if joining.user_id is not None:
        ref = PlayerRef(name=joining.text.lstrip("@"), telegram_id=joining.user_id)
    elif joining.text.startswith("@"):
        ref = PlayerRef(name=joining.text[1:], username=joining.text[1:])
    else:
        ref = PlayerRef(name=joining.text)
    before = session

    def answer(after: SessionInfo) -> list[Outgoing]:
        seat = next(s for s in after.seats if after.seats[s].id != before.seats[s].id)
        text = t(lang, "{joining} takes {leaving}'s seat ({seat}); {leaving}'s results stay "
                 "theirs and count at /end.", joining=escape(after.seats[seat].name),
                 leaving=escape(before.seats[seat].name), seat=t(lang, SEAT_KEYS[seat]))
        return [send.replying(update, text), board.item(lang, after)]

    try:
        async with context.write(answer) as tx:
            after = await tx.sessions.change_seat(session.chat_id, leaving.text, ref,
                                                  actor=actor)
    except LedgerError as exc:
        await refuse(update, lang, exc.code, str(exc), session, **exc.params)
        return
    remember(context, session.chat_id, after)


COMMANDS = {"penalty": cmd_penalty, "fa": cmd_penalty, "adjust": cmd_adjust,
            "seat": cmd_seat, "huanren": cmd_seat}
