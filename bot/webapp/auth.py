"""Who is asking: Telegram's init data, checked as Telegram documents it, and the chat,
named by a ``startapp`` parameter the bot signed.

Init data (``Authorization: tma <initData>``) is a query string signed by Telegram:
``secret_key = HMAC_SHA256(key="WebAppData", msg=bot_token)``, and its ``hash`` is the hex
``HMAC_SHA256(key=secret_key, msg=data_check_string)``, where the data-check-string is
every other field as ``key=value``, sorted by key, joined by line feeds. It is refused when
the hash differs (compared in constant time) or ``auth_date`` is older than the setting.

A Mini App opened from a direct link (``https://t.me/<bot>/<app>?startapp=<param>``) gets
the parameter back as ``start_param``, inside the signed data; the chat it names is signed
by the bot too (an HMAC with a key derived from the token), so a player cannot point the
app at another chat by editing the link.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl

from bot.handlers.app_link import chat_param

MAX_INIT_DATA = 8192  # bytes; Telegram's init data is well under 2 KB
_PARAM = re.compile(r"^c(n?)([1-9][0-9]{0,15})_([0-9a-f]{24})$")


class AuthError(Exception):
    """Refused: ``status`` 401 (who is asking is not proven) or 403 (not allowed)."""

    def __init__(self, status: int, reason: str, code: str | None = None) -> None:
        super().__init__(reason)
        self.status = status
        self.reason = reason
        self.code = code or {401: "expired", 403: "forbidden"}.get(status, "failed")


@dataclass(frozen=True)
class InitData:
    user_id: int
    user: dict[str, Any]  # as Telegram sent it: id, first_name, username, language_code
    auth_date: int
    start_param: str | None

    @property
    def name(self) -> str:
        return str(self.user.get("username") or self.user.get("first_name") or self.user_id)

    @property
    def language_code(self) -> str | None:
        code = self.user.get("language_code")
        return code if isinstance(code, str) else None


def secret_key(token: str) -> bytes:
    return hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()


def data_check_string(fields: list[tuple[str, str]]) -> str:
    return "\n".join(f"{k}={v}" for k, v in sorted(fields) if k != "hash")


def sign_init_data(token: str, fields: dict[str, str]) -> str:
    """Init data as Telegram would send it (for tests and the docs' screenshots)."""
    from urllib.parse import urlencode

    items = sorted(fields.items())
    digest = hmac.new(secret_key(token), data_check_string(items).encode(),
                      hashlib.sha256).hexdigest()
    return urlencode([*items, ("hash", digest)])


def validate(init_data: str, token: str, max_age: float, now: float | None = None
             ) -> InitData:
    """The init data's user and start parameter, or :class:`AuthError` (401)."""
    if not init_data or len(init_data.encode("utf-8", "surrogateescape")) > MAX_INIT_DATA:
        raise AuthError(401, "no init data, or too long")
    try:
        fields = parse_qsl(init_data, keep_blank_values=True, strict_parsing=True,
                           max_num_fields=64)
    except ValueError:
        raise AuthError(401, "init data is not a query string") from None
    keys = [k for k, _ in fields]
    if len(set(keys)) != len(keys):
        raise AuthError(401, "a field given twice")
    given = dict(fields)
    received = given.get("hash", "")
    expected = hmac.new(secret_key(token), data_check_string(fields).encode(),
                        hashlib.sha256).hexdigest()
    if not hmac.compare_digest(received.encode("utf-8", "surrogateescape"), expected.encode()):
        raise AuthError(401, "init data not signed by Telegram for this bot")
    auth_date = given.get("auth_date", "")
    if not auth_date.isascii() or not auth_date.isdigit() or len(auth_date) > 12:
        raise AuthError(401, "no auth_date")
    age = (time.time() if now is None else now) - int(auth_date)
    if age > max_age or age < -300:  # a few minutes of clock skew either way
        raise AuthError(401, "init data expired", "stale")  # Telegram's, but too old
    try:
        user = json.loads(given.get("user", ""))
    except ValueError:
        raise AuthError(401, "no user in init data") from None
    if not isinstance(user, dict) or not isinstance(user.get("id"), int) \
            or isinstance(user.get("id"), bool) or user.get("is_bot"):
        raise AuthError(401, "no user in init data")
    return InitData(user_id=user["id"], user=user, auth_date=int(auth_date),
                    start_param=given.get("start_param"))


def chat_of(token: str, param: str | None) -> int:
    """The chat a signed ``startapp`` value names, or :class:`AuthError` (403)."""
    m = _PARAM.match(param or "")
    if m is None:  # opened from the menu or a link without the chat
        raise AuthError(403, "the link names no chat", "no_chat")
    chat_id = int(m.group(2)) * (-1 if m.group(1) else 1)
    expected = chat_param(token, chat_id)
    if not hmac.compare_digest(expected.encode(), (param or "").encode()):
        raise AuthError(403, "the link's chat is not signed by this bot")
    return chat_id
