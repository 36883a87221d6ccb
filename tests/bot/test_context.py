"""What a polling process keeps of its chats between updates stays bounded."""

from __future__ import annotations

from bot.handlers.context import Recent


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
