"""The fake Bot API refuses what Telegram refuses, so a test that passes here would pass
there: text and caption lengths after entity parsing, HTML, callback data, answers."""

from __future__ import annotations

import json
from collections.abc import Awaitable
from typing import Any

import pytest

from bot.console.fake_api import ApiError, FakeBotAPI, FakeUser, SentMessage, check_caption

CHAT = -1


async def send(api: FakeBotAPI, text: str, markup: dict[str, Any] | None = None) -> None:
    params: dict[str, Any] = {"chat_id": CHAT, "text": text, "parse_mode": "HTML"}
    if markup is not None:
        params["reply_markup"] = json.dumps(markup)
    await api.call("sendMessage", params)


async def refused(coro: Awaitable[object], wanted: str) -> None:
    with pytest.raises(ApiError) as err:
        await coro
    assert wanted in err.value.description


async def test_text_length_is_counted_after_entity_parsing() -> None:
    api = FakeBotAPI()
    await send(api, "<b>" + "x" * 4000 + "</b>" + "&amp;" * 96)  # 4,096 visible
    await refused(send(api, "x" * 4097), "too long")
    await refused(send(api, "🀄" * 2049), "too long")  # 4,098 UTF-16 code units
    await refused(send(api, "   "), "empty")


async def test_html_telegram_cannot_parse_is_refused() -> None:
    api = FakeBotAPI()
    await send(api, "<b>1 &lt; 2</b> <i>ok</i> <code>x</code>")
    for bad in ("<b>open", "a < b", "R&D", "<blink>x</blink>", "<b><i>x</b></i>"):
        await refused(send(api, bad), "can't parse entities")


async def test_callback_data_and_button_text_limits() -> None:
    api = FakeBotAPI()

    def keyboard(text: str, data: str) -> dict[str, Any]:
        return {"inline_keyboard": [[{"text": text, "callback_data": data}]]}

    await send(api, "ok", keyboard("Undo", "x" * 64))
    await refused(send(api, "ok", keyboard("Undo", "x" * 65)), "BUTTON_DATA_INVALID")
    await refused(send(api, "ok", keyboard("Undo", "中" * 22)), "BUTTON_DATA_INVALID")
    await refused(send(api, "ok", keyboard("Undo", "")), "BUTTON_DATA_INVALID")
    await refused(send(api, "ok", keyboard(" ", "x")), "BUTTON_TEXT_INVALID")


async def test_one_short_answer_per_callback_query() -> None:
    api = FakeBotAPI()
    user = FakeUser(1, "alice", "alice")
    api.press(user, SentMessage(CHAT, 1, "hi"), "x")
    qid = api.updates[-1]["callback_query"]["id"]
    await refused(api.call("answerCallbackQuery", {"callback_query_id": qid,
                                                   "text": "x" * 201}), "MESSAGE_TOO_LONG")
    await api.call("answerCallbackQuery", {"callback_query_id": qid, "text": "x" * 200})
    await refused(api.call("answerCallbackQuery", {"callback_query_id": qid}), "too old")
    await refused(api.call("answerCallbackQuery", {"callback_query_id": "forged"}), "too old")


def test_captions_are_at_most_1024_characters_after_parsing() -> None:
    assert check_caption({}) is None
    check_caption({"caption": "<b>" + "x" * 1024 + "</b>", "parse_mode": "HTML"})
    with pytest.raises(ApiError, match="caption is too long"):
        check_caption({"caption": "x" * 1025})
    with pytest.raises(ApiError, match="can't parse entities"):
        check_caption({"caption": "<b>x", "parse_mode": "HTML"})
