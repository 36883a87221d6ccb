"""A keyboard as the Bot API's JSON (bot.delivery.send.markup_dict): the buttons the bot
uses converted directly, every other one by python-telegram-bot; the same JSON as
``to_dict()`` either way."""

from __future__ import annotations

from telegram import (
    CopyTextButton,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    LoginUrl,
    WebAppInfo,
)

from bot.delivery import send
from bot.dialogs.keyboards import grid, undo_keyboard


def _same(markup: InlineKeyboardMarkup) -> None:
    assert send.markup_dict(markup) == markup.to_dict()


def test_data_and_link_buttons_as_python_telegram_bot_gives_them() -> None:
    _same(InlineKeyboardMarkup([[InlineKeyboardButton("Undo", callback_data="1:u:5:2:0"),
                                 InlineKeyboardButton("Details", callback_data="x")],
                                [InlineKeyboardButton("📱 Open the app",
                                                      url="https://t.me/b/app?s=1")]]))
    _same(grid([("A", "1:d:1"), ("B", "1:d:2"), ("C", "1:d:3")], 2))
    _same(undo_keyboard("Undo", 7, 3, 1))


def test_other_buttons_and_extra_fields_are_left_to_python_telegram_bot() -> None:
    _same(InlineKeyboardMarkup([[InlineKeyboardButton("web", web_app=WebAppInfo(
        "https://example.org/app"))]]))
    _same(InlineKeyboardMarkup([[InlineKeyboardButton("copy", copy_text=CopyTextButton(
        "abc"))], [InlineKeyboardButton("inline", switch_inline_query="q")]]))
    _same(InlineKeyboardMarkup([[InlineKeyboardButton("login", login_url=LoginUrl(
        "https://example.org/login"))]]))
    _same(InlineKeyboardMarkup([[InlineKeyboardButton("x", callback_data="d",
                                                      api_kwargs={"extra": 1})]]))
    _same(InlineKeyboardMarkup([[InlineKeyboardButton("x", callback_data="d")]],
                               api_kwargs={"extra": 1}))
    _same(InlineKeyboardMarkup([]))
    assert send.markup_dict(None) is None
