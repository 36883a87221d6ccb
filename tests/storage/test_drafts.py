"""Drafts behind the guided report: Confirm records the hand and deletes its draft in one
transaction, and the ledger's hints for the buttons."""

from __future__ import annotations

import pytest

from engine.errors import ReportError
from storage.drafts import Drafts
from storage.errors import LedgerError
from storage.ledger import Ledger
from tests.storage.helpers import SEATED, going, win

CHAT = -1002


async def test_record_with_its_draft_is_one_transaction(ledger: Ledger) -> None:
    drafts = Drafts(ledger)
    await ledger.open_session(CHAT, SEATED, preset="chengdu")
    draft_id, _ = await drafts.create(CHAT, 1, "hu", {"x": 1})
    # The engine refuses the report: nothing recorded, and the draft is still there to fix.
    with pytest.raises(ReportError):
        await ledger.record(CHAT, win("self_draw", "S", gen=9), draft_id=draft_id)
    assert await drafts.get(CHAT, draft_id) is not None
    assert (await going(ledger, CHAT)).hands == 0
    # Recorded: the draft is gone in the same transaction.
    out = await ledger.record(CHAT, win("self_draw", "S", patterns=["清一色"]),
                              draft_id=draft_id)
    assert out.hand_number == 1 and await drafts.get(CHAT, draft_id) is None
    # A second Confirm of the same draft records nothing.
    with pytest.raises(LedgerError) as err:
        await ledger.record(CHAT, win("self_draw", "S", patterns=["清一色"]),
                            draft_id=draft_id)
    assert err.value.code == "stale_button"
    session = await ledger.current_session(CHAT)
    assert session is not None and session.hands == 1
    assert session.totals == {"E": -8, "S": 24, "W": -8, "N": -8}  # 清一色 + 自摸: 4 fan


async def test_hints_recent_winners_and_open_kongs(ledger: Ledger) -> None:
    drafts = Drafts(ledger)
    session = await ledger.open_session(CHAT, SEATED, preset="chengdu")
    assert (await drafts.hints(CHAT, session.id)).recent_winners == ()
    await ledger.record(CHAT, win("self_draw", "W"))
    await ledger.record(CHAT, win("discard", "N", "E"))
    await ledger.record(CHAT, win("self_draw", "S"))  # the blood battle's last win
    await ledger.record(CHAT, {"type": "kong", "seat": "E", "kind": "concealed"})
    await ledger.record(CHAT, {"type": "kong", "seat": "E", "kind": "added"})
    hints = await drafts.hints(CHAT, session.id)
    assert hints.recent_winners == ("S", "N", "W")
    assert hints.kongs == {"E": 2}
