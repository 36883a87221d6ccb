"""Intake: what an update is to the inbox (its kind, its row and the key of that row).
The pipeline (:meth:`bot.delivery.pipeline.Pipeline.accept_many`) makes it durable before
Telegram is told it arrived.

The row's key is what Telegram never reuses (update ids may restart: after a week without
updates, or in console mode on every run): a message is its chat and message id, a button
press its query id, a membership change its chat, time, user and new status.
"""

from __future__ import annotations

from typing import Any

from bot.delivery import kinds
from storage.delivery import Incoming

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
