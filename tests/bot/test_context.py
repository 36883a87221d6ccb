"""What a handler's context keeps of its chat: bounded in a polling process, and read in
one transaction where nothing is kept (several workers)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.handlers.context import Recent
from tests.bot.harness import plain, table


def test_the_chats_kept_are_the_ones_stored_most_recently() -> None:
    kept: Recent[int, str] = Recent(limit=3)
    for chat in (1, 2, 3):
        kept[chat] = f"chat {chat}"
    kept[1] = "chat 1 again"  # a write of chat 1: it stays
    kept[4] = "chat 4"  # the quietest, chat 2, makes room
    assert list(kept) == [3, 1, 4]
    assert kept[1] == "chat 1 again" and 2 not in kept
    kept.pop(3)
    assert len(kept) == 2


async def test_without_memory_an_update_reads_its_chat_and_table_in_one_transaction(
        tmp_path: Path) -> None:
    """Several workers keep nothing of a chat between updates: a report's handling reads
    the chat's settings and its table together, not in two transactions."""
    async with table(tmp_path) as t:
        await t.say("alice", "/new chengdu alice bob carol dave")
        await t.say("carol", "/hu carol 自摸")  # carol's account meets her seat
        services = t.app.bot_data["services"]
        services.cache = False  # as a webhook worker's
        calls: list[str] = []
        for name in ("chat", "chat_and_night"):
            spy(calls, services.ledger.chats, name)
        spy(calls, services.ledger.open_nights, "current_night")
        said = await t.say("carol", "/hu bob 自摸")
        assert "bob" in plain(said[0].text)
        assert calls == ["chat_and_night"]


def spy(calls: list[str], service: Any, name: str) -> None:
    real = getattr(service, name)

    async def called(*args: Any, **kwargs: Any) -> Any:
        calls.append(name)
        return await real(*args, **kwargs)

    setattr(service, name, called)
