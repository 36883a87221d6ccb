"""The table's one live scoreboard message: posted and pinned once, then edited in place.

A scoreboard is an outbox row of its own kind (``board``) that later ones replace: the
sender shows only the newest, edits it at most once every ``board_interval`` seconds, and
posts (and pins) a new one when there is none or it was deleted. So a burst of reports,
undos and corrections costs one edit, and the board survives a restart like any answer.
"""

from __future__ import annotations

from bot.delivery import send
from bot.dialogs.keyboards import board_keyboard
from bot.handlers import app_link as links
from bot.handlers.chat import remember
from bot.handlers.context import TallyContext
from bot.text import render
from storage.delivery import Outgoing
from storage.models import SessionInfo


def item(lang: str, session: SessionInfo, *, now: bool = False) -> Outgoing:
    """The scoreboard row showing ``session``; ``now``: without waiting for the
    interval (the night's last)."""
    params = {"session_id": session.id, "text": render.board_text(lang, session),
              "reply_markup": board_keyboard(
                  lang, session, links.button(lang, session.chat_id)).to_dict()}  # quick reports
    if now:
        params["now"] = True
    return Outgoing(chat_id=session.chat_id, method="board", params=params,
                    collapse=f"board:{session.chat_id}")


async def update_board(context: TallyContext, lang: str, session: SessionInfo
                       ) -> None:
    """Show ``session`` on the chat's scoreboard (queued with the update's answer)."""
    remember(context, session.chat_id, session)
    await send.say(context.bot, item(lang, session))
