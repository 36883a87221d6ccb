"""The table's one live scoreboard message: posted and pinned once, then edited in place.

A scoreboard is an outbox row of its own kind (``board``) that later ones replace: the
sender shows only the newest, edits it at most once every ``board_interval`` seconds, and
posts (and pins) a new one when there is none or it was deleted. So a burst of reports,
undos and corrections costs one edit, and the board survives a restart like any answer.
"""

from __future__ import annotations

from typing import Any

from bot.delivery import send
from bot.dialogs.keyboards import board_keyboard
from bot.handlers import app_link as links
from bot.handlers.chat import remember
from bot.handlers.context import TallyContext
from bot.text import render
from storage.delivery import Outgoing
from storage.models import NightInfo


def item(lang: str, night: NightInfo, *, now: bool = False) -> Outgoing:
    """The scoreboard row showing ``night``; ``now``: without waiting for the
    interval (the night's last). An open table's board carries its quick reports (a
    "… won" button per player still in); an ended one's loses them (the edit that shows
    the night's end drops them), keeping only the Mini App's link, if any. The board's
    message, if the table read says it was posted, rides along: a worker that has not
    shown this table's board yet edits it without asking the database which it is."""
    quick = board_keyboard(lang, night) if night.status == "open" else None
    markup = links.keyboard(lang, night.chat_id, quick)
    params: dict[str, Any] = {"night_id": night.id,
                              "text": render.board_text(lang, night),
                              "reply_markup": send.markup_dict(markup)}
    if now:
        params["now"] = True
    if night.board_message_id is not None:  # the board as this transaction read it
        params["message_id"] = night.board_message_id
    return Outgoing(chat_id=night.chat_id, method="board", params=params,
                    collapse=f"board:{night.chat_id}")


async def update_board(context: TallyContext, lang: str, night: NightInfo
                       ) -> None:
    """Show ``night`` on the chat's scoreboard (queued with the update's answer)."""
    remember(context, night.chat_id, night)
    await send.say(context.bot, item(lang, night))
