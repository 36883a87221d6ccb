"""The ledger the handlers read through refuses every write before it runs."""

from __future__ import annotations

import pytest

from storage.ledger import Ledger
from storage.models import PlayerRef
from storage.sql.store import ReadOnly

CHAT = -100700


async def test_a_ledger_for_reads_reads_and_refuses_writes(ledger: Ledger) -> None:
    await ledger.chats.chat(CHAT, "en")
    reader = ledger.reading()
    assert (await reader.chats.find_player(CHAT, "alice")) is None
    with pytest.raises(ReadOnly):
        await reader.chats.player(CHAT, PlayerRef(name="alice"))
    with pytest.raises(ReadOnly):
        await reader.open_nights.open_night(CHAT, [PlayerRef(name=n) for n in "abcd"],
                                           preset="chengdu")
    assert (await ledger.chats.find_player(CHAT, "alice")) is None  # nothing was written
    assert await ledger.open_nights.current_night(CHAT) is None
    # The ledger it came from still writes, and the reader sees what it wrote.
    await ledger.chats.player(CHAT, PlayerRef(name="alice"))
    assert (await reader.chats.find_player(CHAT, "alice")) is not None
