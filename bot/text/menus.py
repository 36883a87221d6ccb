"""The command menus Telegram shows, per scope (groups, private chats) and language.

Apart from bot/app.py so that the parent of webhook workers (bot.serving), which
sets them once, does not import the whole bot.
"""

from __future__ import annotations

from telegram import Bot, BotCommand, BotCommandScopeAllGroupChats, BotCommandScopeAllPrivateChats

from bot.text.i18n import t

GROUP_COMMANDS = [
    ("new", "Start a table: /new chengdu @a @b c d"),
    ("hu", "Report a win"),
    ("kong", "Report a kong"),
    ("draw", "The wall ran out"),
    ("qishou", "A starting-hand win (Changsha)"),
    ("bite", "A bite or a set, paid at once (Singapore)"),
    ("table", "Seats, dealer, totals"),
    ("undo", "Undo the last event"),
    ("void", "Void a hand: /void 3"),
    ("edit", "Correct a hand: /edit 3 ..."),
    ("penalty", "A false win (诈胡): /penalty dave 诈胡"),
    ("adjust", "A correction: /adjust alice -10 bob +10 side bet"),
    ("seat", "Someone leaves, someone joins: /seat dave erin"),
    ("history", "This night's hands: /history all · /history 2026-11-20"),
    ("hand", "Every event of a hand: /hand 3"),
    ("end", "End the night: who pays whom"),
    ("debts", "Unpaid debts from past nights"),
    ("paid", "Mark a debt paid: /paid 4 (or part: /paid 4 2.50)"),
    ("settle", "Clear every debt with the fewest transfers"),
    ("standings", "Standings in this chat"),
    ("stats", "A player's statistics"),
    ("chart", "The night as a chart"),
    ("export", "The ledger as CSV files"),
    ("import", "Import a ledger (admins)"),
    ("rules", "Patterns and options"),
    ("set", "House rules (admins)"),
    ("lang", "Language: en or zh"),
    ("score", "Tile calculator"),
    ("app", "Open the app: scoreboard, chart, hands"),
    ("help", "Examples"),
]
PRIVATE_COMMANDS = ["score", "rules", "help", "lang", "app"]


async def set_menus(bot: Bot) -> None:
    """Command menus per scope (groups, private chats) and language (en default, zh).
    Once per start: by the process that polls, or by the parent of webhook workers."""
    for lang, code in (("en", None), ("zh-Hans", "zh")):
        group = [BotCommand(c, t(lang, d)) for c, d in GROUP_COMMANDS]
        private = [c for c in group if c.command in PRIVATE_COMMANDS]
        await bot.set_my_commands(group, scope=BotCommandScopeAllGroupChats(),
                                  language_code=code)
        await bot.set_my_commands(private, scope=BotCommandScopeAllPrivateChats(),
                                  language_code=code)
        await bot.set_my_commands(group, language_code=code)
