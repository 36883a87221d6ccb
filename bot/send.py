"""Everything a handler says goes through here: messages, edits, files, button answers.

Handlers never call ``context.bot`` to speak. These functions are the one road out, so
that delivery (durability, retries, Telegram's limits) is decided in one place.
"""

from __future__ import annotations

from typing import Any

from telegram import InlineKeyboardMarkup, InputFile, Update
from telegram.error import BadRequest
from telegram.ext import ContextTypes

KEEP: Any = object()  # edit(): leave the message's buttons as they are


async def message(context: ContextTypes.DEFAULT_TYPE, chat_id: int, text: str, *,
                  reply_markup: InlineKeyboardMarkup | None = None,
                  reply_to: int | None = None) -> None:
    """Send ``text`` (HTML) to the chat, optionally as a reply to message ``reply_to``."""
    kw: dict[str, Any] = {"reply_markup": reply_markup}
    if reply_to is not None:
        kw["reply_to_message_id"] = reply_to
        kw["allow_sending_without_reply"] = True
    await context.bot.send_message(chat_id, text, **kw)


async def edit(context: ContextTypes.DEFAULT_TYPE, chat_id: int, message_id: int,
               text: str | None = None, *, reply_markup: Any = KEEP) -> None:
    """Edit a message's text (and buttons), or only its buttons when ``text`` is None.
    An edit that would change nothing is not an error."""
    try:
        if text is None:
            await context.bot.edit_message_reply_markup(
                chat_id, message_id,
                reply_markup=None if reply_markup is KEEP else reply_markup)
        elif reply_markup is KEEP:
            await context.bot.edit_message_text(text, chat_id, message_id)
        else:
            await context.bot.edit_message_text(text, chat_id, message_id,
                                                reply_markup=reply_markup)
    except BadRequest as exc:
        if "not modified" not in str(exc).lower():
            raise


async def photo(context: ContextTypes.DEFAULT_TYPE, chat_id: int, data: bytes, *,
                filename: str, caption: str | None = None) -> None:
    """Send a picture (PNG bytes)."""
    await context.bot.send_photo(chat_id, InputFile(data, filename=filename), caption=caption)


async def document(context: ContextTypes.DEFAULT_TYPE, chat_id: int, data: Any, *,
                   filename: str, caption: str | None = None) -> None:
    """Send a file: bytes or an open binary file object."""
    await context.bot.send_document(chat_id, InputFile(data, filename=filename),
                                    caption=caption)


async def answer(update: Update, text: str | None = None, *, alert: bool = False) -> None:
    """Answer the pressed button (once: Telegram refuses a second answer)."""
    query = update.callback_query
    if query is None:
        return
    await query.answer(text, show_alert=alert)
