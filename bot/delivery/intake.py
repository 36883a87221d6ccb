"""Intake: an update becomes an inbox row before Telegram is told it arrived.

The row's key is what Telegram never reuses (update ids may restart: after a week without
updates, or in console mode on every run): a message is its chat and message id, a button
press its query id, a membership change its chat, time, user and new status.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from telegram import Update

from bot.delivery import kinds
from bot.ops import metrics
from bot.ops.application import AnyApp
from storage.queues.messages import Incoming

if TYPE_CHECKING:  # bot.delivery.pipeline imports this module (through the poller)
    from bot.delivery.pipeline import Pipeline

log = logging.getLogger(__name__)

ALLOWED_UPDATES = kinds.ALLOWED_UPDATES


def kind_of(payload: dict[str, Any]) -> str:
    return next((k for k in payload if k != "update_id"), "unknown")


def incoming(payload: dict[str, Any]) -> Incoming:
    """The inbox row for an update as Telegram sent it (a JSON object)."""
    update_id = int(payload["update_id"])
    kind = kind_of(payload)
    body = payload.get(kind)
    body = body if isinstance(body, dict) else {}
    chat = body.get("chat") or (body.get("message") or {}).get("chat") or {}
    chat_id = int(chat.get("id", 0) or 0)
    if kind in ("message", "channel_post") and "message_id" in body:
        key = f"m:{chat_id}:{body['message_id']}"
    elif kind in ("edited_message", "edited_channel_post") and "message_id" in body:
        key = f"e:{chat_id}:{body['message_id']}:{body.get('edit_date', 0)}"
    elif kind == "callback_query" and "id" in body:
        key = f"q:{body['id']}"
    elif kind in ("my_chat_member", "chat_member"):
        user = (body.get("from") or {}).get("id", 0)
        status = (body.get("new_chat_member") or {}).get("status", "")
        key = f"c:{chat_id}:{body.get('date', 0)}:{user}:{status}"
    else:
        key = f"u:{update_id}"
    return Incoming(key=key[:96], chat_id=chat_id, update_id=update_id, payload=payload)


def pipeline_of(app: AnyApp) -> Pipeline:
    """The delivery pipeline that ``app``'s post_init put in its bot_data (bot.app)."""
    return app.bot_data["pipeline"]  # type: ignore[no-any-return]


async def accept_many(app: AnyApp, payloads: Sequence[dict[str, Any]],
                      parsed: Sequence[Update] = ()) -> int:
    """Make ``payloads`` durable in one transaction and hand the new ones to this
    process's dispatcher; returns how many were new. Raises if they could not be stored
    (then Telegram must not be told they arrived). ``parsed``, when given, are the same
    updates as python-telegram-bot objects (the poller's), so they are not parsed again."""
    if not payloads:
        return 0
    pipeline = pipeline_of(app)
    items = [incoming(p) for p in payloads]
    for item in items:
        metrics.received(kind_of(item.payload))
    new = await pipeline.ledger.inbox.receive(items, leases=pipeline.dispatcher.shared)
    if len(new) < len(items):
        fresh = {row.key for row in new}
        for item in items:
            if item.key in fresh:
                fresh.discard(item.key)  # a key twice in one batch: the second is refused
            else:
                log.warning("update %s refused by the inbox: key %s was seen before",
                            item.update_id, item.key,
                            extra={"update_id": item.update_id, "chat_id": item.chat_id})
    objects = {i.key: u for i, u in zip(items, parsed, strict=False)}
    pipeline.dispatcher.submit(new, {row.id: objects[row.key] for row in new
                                     if row.key in objects})
    return len(new)


async def accept(app: AnyApp, payload: dict[str, Any]) -> bool:
    """One update (a webhook request): True if new, False if Telegram sent it before."""
    return await accept_many(app, [payload]) == 1
