"""What the bot says unasked for a score: ``/help`` (and ``/start``), and its greeting
when it joins a group, in the language of whoever added it."""

from __future__ import annotations

from telegram import Update
from telegram.constants import ChatType
from telegram.ext import ChatMemberHandler

from bot.delivery import send
from bot.handlers.chat import (
    add_commands,
    reply,
)
from bot.handlers.context import TallyApp, TallyContext
from bot.handlers.guards import speaking
from bot.text.help_text import HELP, HELP_NIGHT, HELP_SINGAPORE
from bot.text.i18n import normalise_language, t


@speaking
async def cmd_help(update: Update, context: TallyContext, lang: str) -> None:
    await reply(update, t(lang, HELP) + "\n" + t(lang, HELP_SINGAPORE) + "\n"
                + t(lang, HELP_NIGHT))


async def on_added(update: Update, context: TallyContext) -> None:
    """The bot joined a group: the chat speaks the language of whoever added it."""
    change = update.my_chat_member
    if change is None or change.chat.type == ChatType.PRIVATE:
        return
    joined = change.new_chat_member.status in ("member", "administrator") and \
        change.old_chat_member.status in ("left", "kicked")
    if not joined:
        return
    svc = context.services
    lang = normalise_language(change.from_user.language_code, svc.default_language)
    info = await context.registry.chat(change.chat.id, lang)  # an existing chat keeps its own
    context.remember_chat(info)
    await send.message(context, change.chat.id, t(info.language, HELP))


COMMANDS = {"help": cmd_help, "start": cmd_help}


def register(app: TallyApp) -> None:
    add_commands(app, COMMANDS)
    app.add_handler(ChatMemberHandler(on_added, ChatMemberHandler.MY_CHAT_MEMBER))
