"""What commands and buttons both do: record an event and announce it, undo the last one."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from telegram import Update

from bot.delivery import send
from bot.dialogs.grammar import Token, words_for
from bot.handlers import board, details
from bot.handlers.answers import announcement
from bot.handlers.chat import (
    is_admin,
    refuse,
    remember,
)
from bot.handlers.context import TallyContext
from bot.ops import metrics
from bot.text import render
from bot.text.i18n import is_chinese
from engine.errors import ReportError
from storage.errors import LedgerError
from storage.models import SessionInfo
from storage.queues.messages import Outgoing

log = logging.getLogger(__name__)


async def record_event(update: Update, context: TallyContext, lang: str,
                       session: SessionInfo, event: dict[str, Any], indicator: str | None,
                       tokens: list[Token] | None = None) -> None:
    """Record the event; its answer is written in the same transaction. With the
    ``tokens`` it was read from, a refusal of another family's words names them."""
    user = update.effective_user
    verbose = await details.is_verbose(context, session.chat_id)
    try:
        async with context.write(lambda out: announcement(update, lang, out, verbose)) as tx:
            out = await tx.hands.record(session.chat_id, event,
                                        reporter=user.id if user else None, indicator=indicator)
    except (LedgerError, ReportError) as exc:
        words = words_for(tokens, str(exc.params.get("field"))) \
            if tokens and exc.code == "wrong_family" else []
        if words:  # 无宝 at a Chengdu table: say which words, and whose they are
            await refuse(update, lang, "foreign_words", session=session,
                         words=("、" if is_chinese(lang) else ", ").join(words),
                         family=str(exc.params.get("family")), table=session.preset)
            return
        await refuse(update, lang, exc.code, str(exc), session, **exc.params)
        return
    if out.asked is None:
        metrics.recorded(str(event.get("type", "event")))
    remember(context, session.chat_id, out.session)


async def undo_last(update: Update, context: TallyContext, lang: str,
                session: SessionInfo, also: Sequence[Outgoing] = ()) -> bool:
    """Undo the last event; ``also``: more to say with the undo's answer (the Undo
    button's removal), only if it happens."""
    user = update.effective_user
    admin = await is_admin(update, context)

    def answer(out: Any) -> list[Outgoing]:
        return [*also, send.to_chat(session.chat_id, render.undo_text(lang, out)),
                board.item(lang, out.session)]

    try:
        async with context.write(answer) as tx:
            out = await tx.corrections.undo(session.chat_id, actor=user.id if user else None,
                                            allow_others=admin)
    except LedgerError as exc:
        await refuse(update, lang, exc.code, str(exc), **exc.params)
        return False
    remember(context, session.chat_id, out.session)
    return True


