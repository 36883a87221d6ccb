"""The buttons that open the Mini App, and ``/app``.

In a group an inline keyboard may not carry a ``web_app`` button, so the button is a URL
button to the bot's direct Mini App link, ``https://t.me/<bot>/<short name>?startapp=<p>``,
where ``p`` names the chat and is signed by the bot (:func:`chat_param`; the Mini App's
server checks it with :func:`bot.webapp.auth.chat_of`).
The link is known once the bot knows its own username (after ``getMe``), so it is set up
in ``post_init`` (:func:`configure`) and cleared on shutdown; without ``webapp.public_url``
there is no button.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update

from bot.handlers.chat import add_commands, reply
from bot.handlers.context import TallyApp, TallyContext
from bot.handlers.guards import speaking
from bot.ops.config import WebAppSettings
from bot.text.i18n import t

_MAC_LENGTH = 24  # hex digits of the chat's signature: 96 bits (bot.webapp.auth reads 24)


def _chat_key(token: str) -> bytes:
    return hmac.new(b"MahjongTallyChat", token.encode(), hashlib.sha256).digest()


def chat_param(token: str, chat_id: int) -> str:
    """The ``startapp`` value naming ``chat_id`` (at most 43 characters of A-Za-z0-9_)."""
    mac = hmac.new(_chat_key(token), str(chat_id).encode(), hashlib.sha256).hexdigest()
    return f"c{'n' if chat_id < 0 else ''}{abs(chat_id)}_{mac[:_MAC_LENGTH]}"


@dataclass(frozen=True)
class Links:
    username: str
    short_name: str
    token: str

    def url(self, chat_id: int) -> str:
        return (f"https://t.me/{self.username}/{self.short_name}"
                f"?startapp={chat_param(self.token, chat_id)}")


_current: dict[str, Links] = {}  # this process's bot, while it runs with a Mini App


def configure(username: str | None, token: str, settings: WebAppSettings) -> None:
    _current.pop("links", None)
    if settings.public_url and username:
        _current["links"] = Links(username, settings.short_name, token)


def clear() -> None:
    _current.pop("links", None)


def url_for(chat_id: int) -> str | None:
    """The chat's Mini App link, or None when the Mini App is not enabled."""
    links = _current.get("links")
    return links.url(chat_id) if links is not None else None


def button(lang: str, chat_id: int) -> InlineKeyboardButton | None:
    url = url_for(chat_id)
    return InlineKeyboardButton("📱 " + t(lang, "Open the app"), url=url) if url else None


def keyboard(lang: str, chat_id: int, above: InlineKeyboardMarkup | None = None
             ) -> InlineKeyboardMarkup | None:
    """``above`` (if any) with, as its last row, the button opening the chat's Mini App
    when it is enabled: the /app answer's keyboard, and the scoreboard's."""
    b = button(lang, chat_id)
    if b is None:
        return above
    return InlineKeyboardMarkup([*(above.inline_keyboard if above else ()), [b]])


@speaking
async def cmd_app(update: Update, context: TallyContext, lang: str) -> None:
    """``/app``: the button that opens the Mini App for this chat, or why there is none."""
    chat = update.effective_chat
    assert chat is not None
    markup = keyboard(lang, chat.id)
    if markup is None:
        await reply(update, t(lang, "The app is not enabled for this bot: its operator has "
                                    "not set it up."))
        return
    await reply(update, t(lang, "The app shows this chat's live scoreboard, the night's chart "
                                "and hands, standings and debts, and takes a hand by its "
                                "tiles. It opens inside Telegram:"), reply_markup=markup)


COMMANDS = {"app": cmd_app}


def register(app: TallyApp) -> None:
    add_commands(app, COMMANDS)
