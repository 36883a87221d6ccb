"""The application's type as the layers under the handlers see it (delivery, ops, the Mini
App's server): python-telegram-bot's ``Application`` with the bot's ``ExtBot`` and plain
dicts for its data, whatever its context type. The handlers' own, with their context,
is :data:`bot.handlers.context.TallyApp` (these layers may not import the handlers)."""

from __future__ import annotations

from typing import Any, TypeAlias

from telegram.ext import Application, ExtBot

AnyApp: TypeAlias = Application[ExtBot[Any], Any, dict[Any, Any], dict[Any, Any],
                                dict[Any, Any], Any]
