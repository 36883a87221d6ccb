"""The webhook server under Telegram's way of posting (``tests.fake_webhook``): many chats
over parallel connections, a chat's next update only after a 2xx. Answering 2xx only after
the inbox took an update keeps every chat's inbox in order, even when storing fails now
and then; different chats are taken in parallel. The inbox is a stub here (issue 12)."""

from __future__ import annotations

import asyncio
import random
from collections import defaultdict
from typing import Any

import httpx

from bot import webhook
from bot.console.fake_api import FakeBotAPI, FakeUser
from bot.ops.config import Settings
from tests.fake_webhook import WebhookSender, chat_of

SECRET = "order_secret"
CHATS, EACH = 12, 8


class FlakyInbox:
    """Stores updates, taking a random while, failing about one store in six."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.rows: dict[int, list[int]] = defaultdict(list)  # chat -> update ids, stored
        self.in_chat: set[int] = set()
        self.overlap = False  # two updates of one chat stored at once
        self.in_flight = 0
        self.most_in_flight = 0

    async def __call__(self, app: Any, payload: dict[str, Any]) -> bool:
        chat = chat_of(payload)
        assert chat is not None
        if chat in self.in_chat:
            self.overlap = True
        self.in_chat.add(chat)
        self.in_flight += 1
        self.most_in_flight = max(self.most_in_flight, self.in_flight)
        try:
            await asyncio.sleep(self.rng.random() * 0.01)
            if self.rng.random() < 1 / 6:
                raise RuntimeError("the database blinked")
            if payload["update_id"] in self.rows[chat]:
                return False
            self.rows[chat].append(payload["update_id"])
            return True
        finally:
            self.in_chat.discard(chat)
            self.in_flight -= 1


async def test_each_chat_is_stored_in_order_and_chats_in_parallel() -> None:
    inbox = FlakyInbox(seed=13)
    settings = Settings(telegram={"mode": "webhook", "token": "42:T", "secret_token": SECRET,
                                  "webhook_url": "https://bot.example.org/hook"})
    app = webhook.create_app(settings, object(), accept=inbox)  # type: ignore[arg-type]
    api = FakeBotAPI()
    said: dict[int, list[int]] = defaultdict(list)
    user = FakeUser(1, "alice")
    for n in range(EACH):
        for c in range(CHATS):
            chat = -1000 - c
            said[chat].append(api.say(user, chat, f"/hu bob 自摸 {n}"))
    async with WebhookSender(api, "http://bot/hook", SECRET, max_connections=8,
                             retry_delay=0.001,
                             transport=httpx.ASGITransport(app=app)) as sender:
        await sender.drained(timeout=120)
    assert dict(inbox.rows) == dict(said)  # every update once, each chat in order
    assert not inbox.overlap
    assert sender.failures and all(status == 500 for _, status in sender.failures)
    assert 1 < inbox.most_in_flight <= 8  # chats in parallel, within max_connections
    assert sorted(sender.delivered) == sorted(u for ids in said.values() for u in ids)


async def test_a_wrong_secret_is_refused_every_time_and_stores_nothing() -> None:
    inbox = FlakyInbox(seed=1)
    settings = Settings(telegram={"mode": "webhook", "token": "42:T", "secret_token": SECRET,
                                  "webhook_url": "https://bot.example.org/hook"})
    app = webhook.create_app(settings, object(), accept=inbox)  # type: ignore[arg-type]
    api = FakeBotAPI()
    api.say(FakeUser(1, "alice"), -5, "/table")
    async with WebhookSender(api, "http://bot/hook", "not_the_secret", retry_delay=0.001,
                             transport=httpx.ASGITransport(app=app)) as sender:
        while len(sender.failures) < 3:
            await asyncio.sleep(0.005)
    assert {status for _, status in sender.failures} == {403}
    assert not inbox.rows and sender.delivered == []
