"""The table's one live scoreboard message: posted and pinned once, then edited in place.

Telegram counts edits against a group's limit (about 20 messages a minute), and every
event is already answered with the running totals, so edits are throttled per chat: an
edit goes out at once if the last one is at least ``board_interval`` seconds old;
otherwise the newest table is kept and shown by one edit when the interval is up. At a
real table, where hands are minutes apart, every edit is immediate; a burst of reports,
undos and corrections costs one trailing edit.
"""

from __future__ import annotations

import contextlib
import logging
import time
from dataclasses import dataclass

from telegram.error import BadRequest, TelegramError
from telegram.ext import Application, ContextTypes

from bot import render
from bot.chat import Services, remember, services
from storage.models import SessionInfo

log = logging.getLogger(__name__)


@dataclass
class BoardState:
    last_edit: float = float("-inf")  # time.monotonic() of the last edit
    pending: tuple[str, SessionInfo] | None = None  # the newest table not yet shown
    scheduled: bool = False  # a trailing edit is queued in the job queue


async def update_board(context: ContextTypes.DEFAULT_TYPE, lang: str, session: SessionInfo
                       ) -> None:
    """Show ``session`` on the chat's scoreboard: post and pin it the first time, then
    edit it in place, at most once every ``board_interval`` seconds."""
    remember(context, session.chat_id, session)
    svc = services(context)
    if not session.board_message_id:
        await _post(context, svc, lang, session)
        return
    state = svc.boards.setdefault(session.chat_id, BoardState())
    wait = state.last_edit + svc.board_interval - time.monotonic()
    if wait <= 0 and state.pending is None:
        await _edit(context, svc, state, lang, session)
        return
    state.pending = (lang, session)
    if not state.scheduled and context.job_queue is not None:
        state.scheduled = True
        context.job_queue.run_once(_trailing_edit, max(wait, 0.0), chat_id=session.chat_id,
                                   name=f"board:{session.chat_id}")


async def flush_board(context: ContextTypes.DEFAULT_TYPE, chat_id: int) -> None:
    """Show the chat's pending table now (before the night ends, or at shutdown)."""
    svc = services(context)
    state = svc.boards.get(chat_id)
    if state is None or state.pending is None:
        return
    lang, session = state.pending
    state.pending = None
    await _edit(context, svc, state, lang, session)


async def _trailing_edit(context: ContextTypes.DEFAULT_TYPE) -> None:
    assert context.job is not None and context.job.chat_id is not None
    state = services(context).boards.get(context.job.chat_id)
    if state is not None:
        state.scheduled = False
    await flush_board(context, context.job.chat_id)


async def flush_all(app: Application) -> None:  # type: ignore[type-arg]
    """``post_stop``: show every pending table before the bot goes away."""
    svc: Services | None = app.bot_data.get("services")
    if svc is None:
        return
    for chat_id, state in list(svc.boards.items()):
        if state.pending is None:
            continue
        lang, session = state.pending
        state.pending = None
        with contextlib.suppress(TelegramError):
            await app.bot.edit_message_text(render.board_text(lang, session), chat_id,
                                            session.board_message_id)


async def _edit(context: ContextTypes.DEFAULT_TYPE, svc: Services, state: BoardState,
                lang: str, session: SessionInfo) -> None:
    state.last_edit = time.monotonic()
    try:
        await context.bot.edit_message_text(render.board_text(lang, session),
                                            session.chat_id, session.board_message_id)
    except BadRequest as exc:
        if "not modified" in str(exc).lower():
            return
        log.info("scoreboard %s in chat %s is gone (%s); posting a new one",
                 session.board_message_id, session.chat_id, exc)
        await _post(context, svc, lang, session)


async def _post(context: ContextTypes.DEFAULT_TYPE, svc: Services, lang: str,
                session: SessionInfo) -> None:
    bot = context.bot
    msg = await bot.send_message(session.chat_id, render.board_text(lang, session))
    await svc.ledger.set_board_message(session.chat_id, session.id, msg.message_id)
    remember(context, session.chat_id,
             session.model_copy(update={"board_message_id": msg.message_id}))
    svc.boards[session.chat_id] = BoardState(last_edit=time.monotonic())
    with contextlib.suppress(TelegramError):  # the bot may not pin here; the board works
        await bot.pin_chat_message(session.chat_id, msg.message_id, disable_notification=True)
