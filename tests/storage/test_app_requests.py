"""The Mini App's writes by their key: once, and never lost to a worker that died between
its claim and its post."""

from __future__ import annotations

from sqlalchemy import update

from storage.ledger import Ledger
from storage.services.app_requests import ABANDONED
from storage.sql import tables as t
from storage.sql.clock import now

CHAT = -100800


async def test_a_key_goes_through_once_and_an_abandoned_claim_is_taken_over(
        ledger: Ledger) -> None:
    await ledger.chats.chat(CHAT, "en")
    requests = ledger.app_requests
    assert await requests.claim(CHAT, "k1", user_id=1, action="record", text="/hu bob") is None
    again = await requests.claim(CHAT, "k1", user_id=1, action="record", text="/hu bob")
    assert again is not None and again.message_id is None  # in flight: not sent twice
    # The worker died between its claim and its post: past ABANDONED, a retry sends it.
    async with ledger.write() as conn:
        await conn.execute(update(t.app_requests).values(created_at=now() - ABANDONED * 2))
    assert await requests.claim(CHAT, "k1", user_id=1, action="record", text="/hu bob") is None
    await requests.sent(CHAT, "k1", 77)
    # Once its line is in the group, the key answers "already" however old it is.
    async with ledger.write() as conn:
        await conn.execute(update(t.app_requests).values(created_at=now() - ABANDONED * 2))
    done = await requests.claim(CHAT, "k1", user_id=1, action="record", text="/hu bob")
    assert done is not None and done.message_id == 77
