"""Everything a handler says goes through here: messages, edits, pictures, files, button
answers, and the one write that carries them.

Handlers never call ``context.bot`` to speak. While the pipeline handles an update (a
:class:`Turn`), what a handler says is queued, not sent: it is written to the outbox with
the update marked handled, in one transaction, and the sender delivers it with retries.

A handler that changes the ledger does it in the update's write scope, :func:`write`
(``context.write`` in the handlers), which it enters at most once per update::

    async with send.write(ledger, lambda out: [to_chat(...), board.item(...)]) as tx:
        out = await tx.corrections.void(...)

Inside the block ``tx`` is the ledger whose one write carries the answer: the change,
``render(result)``, what was said before it and "this update is handled" commit together
or not at all. A second write on ``tx`` is refused before it runs
(:class:`storage.sql.store.SecondWrite`), and a second scope in one update is refused when
entered (:class:`WriteTwice`): both are bugs, never a lost change. A block left without
a write (a refusal before it) leaves the update to the dispatcher, which writes what was
said with "handled" as for any update that changed nothing. Reads go to the plain ledger.
Outside a turn (start-up, the console's scripts, tests calling handlers) the scope still
writes the answer with the change, to the outbox, with no update to mark.

A button's answer (``answerCallbackQuery``) is queued the same way, so that a press is
answered once, with what its write committed; the latest answer said before the write
is the one that goes (a refusal said after a plain "done" replaces it). Only documents
(too large for the outbox) go out at once; a crash before the update is marked handled
sends them again.
"""

from __future__ import annotations

import base64
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, TypeAlias

from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup, InputFile, Update
from telegram.error import TelegramError
from telegram.ext import CallbackContext

from storage.delivery import Answer, Outgoing, Queued, Render
from storage.ledger import Ledger

log = logging.getLogger(__name__)

AnyContext: TypeAlias = CallbackContext[Any, Any, Any, Any]  # a handler's (its bot speaks)
KEEP: Any = object()  # edit(): leave the message's buttons as they are


@dataclass
class Turn:
    """The handling of one update from the inbox."""

    inbox_id: int | None
    chat_id: int
    worker: str | None = None  # several workers: the sender that holds the answers
    claim: str | None = None  # and the token of this worker's claim on the inbox row
    lease: float = 30.0  # seconds (delivery.lease_seconds)
    # What the update's handlers read of the chat (its settings, its table), read once per
    # update where nothing is kept between updates (several workers share the chats).
    memo: dict[str, Any] = field(default_factory=dict)
    buffer: list[Outgoing] = field(default_factory=list)  # said, not yet written
    answer: Answer | None = None  # what its write scope's write carries (see write())
    queued: list[Queued] = field(default_factory=list)  # written to the outbox
    finished: bool = False  # the update is marked handled (with a change, or without)
    query_answer: Outgoing | None = None  # the button's answer, once said
    error: BaseException | None = None


CURRENT: ContextVar[Turn | None] = ContextVar("tally_turn", default=None)


# A button's fields other than its text, its link and its data (as this version of
# python-telegram-bot has them): a button that has one, or extra fields, is converted by
# python-telegram-bot itself.
_OTHER_FIELDS = tuple(f for f in InlineKeyboardButton.__slots__
                      if f not in ("text", "url", "callback_data"))


def _button(button: InlineKeyboardButton) -> dict[str, Any]:
    data = button.callback_data
    if button.api_kwargs or (data is not None and not isinstance(data, str)) or any(
            getattr(button, f, None) is not None for f in _OTHER_FIELDS):
        return button.to_dict()
    out: dict[str, Any] = {"text": button.text}
    if button.url is not None:
        out["url"] = button.url
    if data is not None:
        out["callback_data"] = data
    return out


def markup_dict(markup: InlineKeyboardMarkup | None) -> dict[str, Any] | None:
    """``markup`` as the Bot API's JSON, as ``markup.to_dict()`` gives it: the buttons the
    bot uses (a text with a link or data) converted directly, for python-telegram-bot's
    generic conversion costs more than the rest of an answer's keyboard."""
    if markup is None:
        return None
    if markup.api_kwargs or not markup.inline_keyboard:
        return markup.to_dict()
    return {"inline_keyboard": [[_button(b) for b in row] for row in markup.inline_keyboard]}



def to_chat(chat_id: int, text: str, *, reply_markup: InlineKeyboardMarkup | None = None,
            reply_to: int | None = None) -> Outgoing:
    """A message (HTML) to send, optionally as a reply to message ``reply_to``."""
    params: dict[str, Any] = {"chat_id": chat_id, "text": text, "parse_mode": "HTML"}
    if reply_markup is not None:
        params["reply_markup"] = markup_dict(reply_markup)
    if reply_to is not None:
        params["reply_parameters"] = {"message_id": reply_to,
                                      "allow_sending_without_reply": True}
    return Outgoing(chat_id=chat_id, method="sendMessage", params=params)


def replying(update: Update, text: str, *, reply_markup: InlineKeyboardMarkup | None = None
             ) -> Outgoing:
    """A message answering ``update``: a reply to the command, or (for a button press) a
    message in its chat."""
    chat = update.effective_chat
    assert chat is not None
    reply_to = None
    if update.callback_query is None and update.effective_message is not None:
        reply_to = update.effective_message.message_id
    return to_chat(chat.id, text, reply_markup=reply_markup, reply_to=reply_to)


def edit_of(chat_id: int, message_id: int, text: str | None = None, *,
            reply_markup: Any = KEEP) -> Outgoing:
    if text is None:
        params: dict[str, Any] = {"chat_id": chat_id, "message_id": message_id,
                                  "reply_markup": None if reply_markup is KEEP
                                  else markup_dict(reply_markup)}
        return Outgoing(chat_id=chat_id, method="editMessageReplyMarkup", params=params)
    params = {"chat_id": chat_id, "message_id": message_id, "text": text,
              "parse_mode": "HTML"}
    if reply_markup is not KEEP:
        params["reply_markup"] = markup_dict(reply_markup)
    return Outgoing(chat_id=chat_id, method="editMessageText", params=params)


def photo_of(chat_id: int, data: bytes, *, filename: str, caption: str | None = None
             ) -> Outgoing:
    params: dict[str, Any] = {"chat_id": chat_id, "filename": filename,
                              "photo": base64.b64encode(data).decode("ascii")}
    if caption:
        params["caption"], params["parse_mode"] = caption, "HTML"
    return Outgoing(chat_id=chat_id, method="sendPhoto", params=params)


async def say(bot: Bot, *messages: Outgoing) -> None:
    """Queue ``messages`` with the update being handled; outside a turn (start-up,
    scripts), send them now through ``bot``."""
    turn = CURRENT.get()
    if turn is not None:
        turn.buffer.extend(messages)
        return
    from bot.delivery.sender import deliver_now

    for m in messages:
        await deliver_now(bot, m)


class WriteTwice(RuntimeError):
    """A handler entered its update's write scope a second time (a bug: one update makes
    one write, see :func:`write`)."""


@asynccontextmanager
async def write(ledger: Ledger, render: Render
                ) -> AsyncIterator[Ledger]:
    """The update's one unit of work: inside the block, the ledger whose one write also
    writes ``render(result)``, what was said before the block and "this update is
    handled", in the write's own transaction. Entered twice for one update it raises
    :class:`WriteTwice`; a second write inside it raises
    :class:`storage.sql.store.SecondWrite` before it runs. Left without a write, the
    update is concluded by the dispatcher as one that changed nothing.

    This is the only caller of :meth:`storage.sql.store.Store.answering`."""
    turn = CURRENT.get()
    if turn is None:  # start-up, scripts, tests: the answer is queued with the change
        yield ledger.answering(Answer(None, render))
        return
    if turn.answer is not None:
        raise WriteTwice(f"update {turn.inbox_id} of chat {turn.chat_id} entered its "
                         "write scope twice")
    turn.answer = Answer(turn.inbox_id, render, before=list(turn.buffer),
                         worker=turn.worker, claim=turn.claim, lease=turn.lease)
    try:
        yield ledger.answering(turn.answer)
    finally:
        absorb(turn)


def absorb(turn: Turn) -> None:
    """Take in what the update's write queued, once it committed: the update is handled,
    and what it carried of the buffer is written."""
    answer = turn.answer
    if answer is not None and answer.committed and not answer.absorbed:
        answer.absorbed = True
        turn.finished = True
        turn.queued.extend(answer.queued)
        del turn.buffer[:len(answer.before)]


# -- the handler's verbs ---------------------------------------------------------------

async def message(context: AnyContext, chat_id: int, text: str, *,
                  reply_markup: InlineKeyboardMarkup | None = None,
                  reply_to: int | None = None) -> None:
    """Send ``text`` (HTML) to the chat, optionally as a reply to message ``reply_to``."""
    await say(context.bot, to_chat(chat_id, text, reply_markup=reply_markup, reply_to=reply_to))


async def edit(context: AnyContext, chat_id: int, message_id: int,
               text: str | None = None, *, reply_markup: Any = KEEP) -> None:
    """Edit a message's text (and buttons), or only its buttons when ``text`` is None.
    An edit that would change nothing is not an error."""
    await say(context.bot, edit_of(chat_id, message_id, text, reply_markup=reply_markup))


async def photo(context: AnyContext, chat_id: int, data: bytes, *,
                filename: str, caption: str | None = None) -> None:
    """Send a picture (PNG bytes); it is queued like a message."""
    await say(context.bot, photo_of(chat_id, data, filename=filename, caption=caption))


async def document(context: AnyContext, chat_id: int, data: Any, *,
                   filename: str, caption: str | None = None) -> None:
    """Send a file (bytes or an open binary file) now: files can be large, so they do not
    wait in the outbox; a crash before the update is handled sends it again."""
    await context.bot.send_document(chat_id, InputFile(data, filename=filename),
                                    caption=caption)


def answer_of(chat_id: int, query_id: str, text: str | None = None, *, alert: bool = False
              ) -> Outgoing:
    """The answer to a pressed button (its spinner stops; ``text`` as a toast, or an
    alert)."""
    params: dict[str, Any] = {"callback_query_id": query_id}
    if text:
        params["text"] = text
    if alert:
        params["show_alert"] = True
    return Outgoing(chat_id=chat_id, method="answerCallbackQuery", params=params)


async def answer(update: Update, text: str | None = None, *, alert: bool = False) -> None:
    """Answer the pressed button, once: queued with the update's answers and sent by the
    sender (Telegram refuses a second answer, and one that comes too late: neither is
    worth failing for). Said again before the update's write commits, the newer answer
    replaces the older; after it, it is ignored."""
    query = update.callback_query
    if query is None:
        return
    turn = CURRENT.get()
    if turn is None:
        try:
            await query.answer(text, show_alert=alert)
        except TelegramError as exc:
            log.info("could not answer button press %s: %s", query.id, exc)
        return
    chat = update.effective_chat
    said = answer_of(chat.id if chat is not None else turn.chat_id, query.id, text,
                     alert=alert)
    if turn.query_answer is not None:
        index = next((i for i, m in enumerate(turn.buffer) if m is turn.query_answer), None)
        if index is None:
            return  # committed with a write already
        turn.buffer[index] = said
    else:
        turn.buffer.append(said)
    turn.query_answer = said
