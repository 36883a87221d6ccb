"""The two questions most handlers ask before anything else, each asked in one place:

- :func:`speaking`: the chat's language. The handler is given it (read once per update,
  :meth:`bot.handlers.context.TallyContext.lang`).
- :func:`at_table`: whether the sender may act at the chat's open table: in a group, a
  table open, and the sender a player there or an admin
  (:func:`bot.handlers.chat.night_for_action`, which says why not in the chat). The
  handler is given the language and the table, and does not run when the answer is no.

A guarded handler takes ``(update, context, lang[, night], …)`` and becomes one that
python-telegram-bot calls with ``(update, context, …)``::

    @at_table
    async def cmd_void(update: Update, context: TallyContext, lang: str,
                       night: NightInfo) -> None: ..."""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, Concatenate, ParamSpec

from telegram import Update

from bot.handlers.chat import night_for_action
from bot.handlers.context import TallyContext
from storage.models import NightInfo

P = ParamSpec("P")


def speaking(handler: Callable[Concatenate[Update, TallyContext, str, P], Awaitable[object]]
             ) -> Callable[Concatenate[Update, TallyContext, P], Coroutine[Any, Any, None]]:
    """``handler`` given the chat's language."""

    @functools.wraps(handler)
    async def guarded(update: Update, context: TallyContext, /, *args: P.args,
                      **kwargs: P.kwargs) -> None:
        await handler(update, context, await context.lang(), *args, **kwargs)

    return guarded


def at_table(handler: Callable[Concatenate[Update, TallyContext, str, NightInfo, P],
                               Awaitable[object]]
             ) -> Callable[Concatenate[Update, TallyContext, P], Coroutine[Any, Any, None]]:
    """``handler`` given the chat's language and its open table, run only when the sender
    may act there (a player at it, or an admin); otherwise the chat is told why not."""

    @functools.wraps(handler)
    async def guarded(update: Update, context: TallyContext, /, *args: P.args,
                      **kwargs: P.kwargs) -> None:
        lang = await context.lang()
        night = await night_for_action(update, context, lang)
        if night is not None:
            await handler(update, context, lang, night, *args, **kwargs)

    return guarded
