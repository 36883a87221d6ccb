"""Drafts behind the guided report: Confirm records the hand and deletes its draft in one
transaction, and the ledger's hints for the buttons."""

from __future__ import annotations

import pytest

from engine.errors import ReportError
from storage.errors import LedgerError
from storage.ledger import Ledger
from tests.storage.helpers import SEATED, going, win

CHAT = -1002


async def test_record_with_its_draft_is_one_transaction(ledger: Ledger) -> None:
    drafts = ledger.drafts
    await ledger.open_nights.open_night(CHAT, SEATED, preset="chengdu")
    draft_id, _ = await drafts.create(CHAT, 1, "hu", {"x": 1})
    # The engine refuses the report: nothing recorded, and the draft is still there to fix.
    with pytest.raises(ReportError):
        await ledger.hands.record(CHAT, win("self_draw", "S", gen=9), draft_id=draft_id)
    assert await drafts.get(CHAT, draft_id) is not None
    assert (await going(ledger, CHAT)).hands == 0
    # Recorded: the draft is gone in the same transaction.
    out = await ledger.hands.record(CHAT, win("self_draw", "S", patterns=["清一色"]),
                                    draft_id=draft_id)
    assert out.hand_number == 1 and await drafts.get(CHAT, draft_id) is None
    # A second Confirm of the same draft records nothing.
    with pytest.raises(LedgerError) as err:
        await ledger.hands.record(CHAT, win("self_draw", "S", patterns=["清一色"]),
                                  draft_id=draft_id)
    assert err.value.code == "stale_button"
    night = await ledger.open_nights.current_night(CHAT)
    assert night is not None and night.hands == 1
    assert night.totals == {"E": -8, "S": 24, "W": -8, "N": -8}  # 清一色 + 自摸: 4 fan



async def test_an_edit_with_its_draft_takes_it_whatever_its_version(ledger: Ledger) -> None:
    """A guided edit's Confirm names its draft by id alone: the edit takes the draft at
    any version, in its own transaction; a second Confirm changes nothing."""
    drafts = ledger.drafts
    await ledger.open_nights.open_night(CHAT, SEATED, preset="chengdu")
    await ledger.hands.record(CHAT, win("self_draw", "S", patterns=["清一色"]))
    draft_id, version = await drafts.create(CHAT, 1, "edit", {"x": 1})
    await drafts.advance(CHAT, draft_id, version, {"x": 2})
    with pytest.raises(ReportError):
        await ledger.corrections.amend(CHAT, 1, [win("self_draw", "S", gen=9)],
                                       allow_others=True, draft_id=draft_id)
    assert await drafts.get(CHAT, draft_id) is not None
    await ledger.corrections.amend(CHAT, 1, [win("self_draw", "W")], allow_others=True,
                                   draft_id=draft_id)
    assert await drafts.get(CHAT, draft_id) is None
    with pytest.raises(LedgerError) as err:
        await ledger.corrections.amend(CHAT, 1, [win("self_draw", "N")], allow_others=True,
                                       draft_id=draft_id)
    assert err.value.code == "stale_button"
    night = await ledger.open_nights.current_night(CHAT)
    assert night is not None and night.totals["W"] > 0 and night.totals["N"] < 0

async def test_hints_recent_winners_and_open_kongs(ledger: Ledger) -> None:
    drafts = ledger.drafts
    night = await ledger.open_nights.open_night(CHAT, SEATED, preset="chengdu")
    assert (await drafts.hints(CHAT, night.id)).recent_winners == ()
    await ledger.hands.record(CHAT, win("self_draw", "W"))
    await ledger.hands.record(CHAT, win("discard", "N", "E"))
    await ledger.hands.record(CHAT, win("self_draw", "S"))  # the blood battle's last win
    await ledger.hands.record(CHAT, {"type": "kong", "seat": "E", "kind": "concealed"})
    await ledger.hands.record(CHAT, {"type": "kong", "seat": "E", "kind": "added"})
    hints = await drafts.hints(CHAT, night.id)
    assert hints.recent_winners == ("S", "N", "W")
    assert hints.kongs == {"E": 2}


async def test_a_draft_changes_with_its_answer_or_not_at_all(ledger: Ledger) -> None:
    """A press's change rides on the update's write: a stale version raises, so the
    answer riding on it rolls back too; the table opened by the seat buttons takes their
    draft in its own transaction."""
    drafts = ledger.drafts
    draft_id, version = await drafts.create(CHAT, 1, "join", {"seats": {}})
    assert await drafts.advance(CHAT, draft_id, version, {"seats": {"E": 1}}) == 2
    with pytest.raises(LedgerError) as err:  # the same press again: its version is gone
        await drafts.advance(CHAT, draft_id, version, {"seats": {"E": 1}})
    assert err.value.code == "stale_button"
    with pytest.raises(LedgerError) as err:
        await ledger.open_nights.open_night(CHAT, SEATED, draft=(draft_id, version))
    assert err.value.code == "stale_button" and await ledger.open_nights.current_night(CHAT) is None
    await ledger.open_nights.open_night(CHAT, SEATED, draft=(draft_id, 2))
    assert await drafts.get(CHAT, draft_id) is None


async def test_pending_imports_are_bounded_and_expire(ledger: Ledger) -> None:
    from datetime import timedelta

    drafts = ledger.drafts
    made = [(await drafts.create_bounded(CHAT, 1, "import", {"n": n}, keep=3,
                                         ttl=timedelta(minutes=15)))[0] for n in range(5)]
    kept = [d for d in made if await drafts.get(CHAT, d) is not None]
    assert kept == made[-3:]  # a chat keeps its newest three
    other = (await drafts.create_bounded(CHAT - 1, 1, "import", {}, keep=3,
                                         ttl=timedelta(0)))[0]
    # A ttl of nothing: every older import (of every chat) is gone; this one stays.
    assert [await drafts.get(CHAT, d) for d in kept] == [None, None, None]
    assert await drafts.get(CHAT - 1, other) is not None


# -- abandoned drafts go ---------------------------------------------------------------

async def _drafts_of(ledger: Ledger) -> list[tuple[int, str]]:
    from sqlalchemy import select

    from storage.sql import tables as t

    async with ledger.read() as conn:
        return [(r.chat_id, r.kind) for r in (await conn.execute(
            select(t.drafts).order_by(t.drafts.c.id))).all()]


async def test_a_tables_drafts_go_when_it_ends(ledger: Ledger) -> None:
    """/end drops every draft the table's dialogs left (a guided report, the seat
    buttons, a report kept as a question); a pending /import stays, and so do other
    chats' drafts."""
    from datetime import timedelta

    from storage.services.drafts import IMPORT_KIND

    drafts = ledger.drafts
    await ledger.open_nights.open_night(CHAT, SEATED, preset="changsha")
    hu, _ = await drafts.create(CHAT, 1, "hu", {"x": 1})
    await drafts.create(CHAT, 1, "kong", {})
    await drafts.create(CHAT, 2, "join", {"seats": {}})
    await ledger.hands.record(CHAT, win("self_draw", "S", birds=[2]), reporter=2)
    asked = (await ledger.hands.record(CHAT, win("self_draw", "S", birds=[2]), reporter=4)).asked
    assert asked is not None  # kept as a question: a draft
    pending, _ = await drafts.create_bounded(CHAT, 1, IMPORT_KIND, {}, keep=3,
                                             ttl=timedelta(minutes=15))
    other, _ = await drafts.create(CHAT - 1, 1, "hu", {})
    assert len(await _drafts_of(ledger)) == 6
    await ledger.nights.end_night(CHAT)
    assert await _drafts_of(ledger) == [(CHAT, IMPORT_KIND), (CHAT - 1, "hu")]
    assert await drafts.get(CHAT, hu) is None and await ledger.hands.question(CHAT, asked) is None
    with pytest.raises(LedgerError) as err:  # its Confirm is out of date
        await drafts.advance(CHAT, hu, 1, {"x": 2})
    assert err.value.code == "stale_button"
    assert await drafts.get(CHAT, pending) is not None
    assert await drafts.get(CHAT - 1, other) is not None


async def test_drafts_untouched_for_long_are_pruned_in_batches(ledger: Ledger) -> None:
    """Drafts untouched since a time go, at most a batch a call, oldest first; a press
    (``advance``, ``update``) touches its draft, so one in use stays however old it is;
    a draft from before revision 0009 (no touched_at) goes by when it was created."""
    from datetime import timedelta

    from sqlalchemy import update

    from storage.ledger import now
    from storage.sql import tables as t

    drafts = ledger.drafts
    ids = [(await drafts.create(CHAT, 1, "hu", {"n": n}))[0] for n in range(6)]
    d = t.drafts.c
    long_ago = now() - timedelta(days=3)
    async with ledger.write() as conn:  # all but the last abandoned three days ago
        await conn.execute(update(t.drafts).where(d.id.in_(ids[:5])).values(
            created_at=long_ago, touched_at=long_ago))
        await conn.execute(update(t.drafts).where(d.id == ids[4]).values(touched_at=None))
    assert await drafts.advance(CHAT, ids[0], 1, {"n": 0, "pressed": True}) == 2
    assert await drafts.update(CHAT, ids[1], 1, {"n": 1, "pressed": True}) == 2
    before = now() - timedelta(hours=48)
    assert await drafts.prune(before, batch=2) == 2
    assert await drafts.prune(before, batch=2) == 1
    assert await drafts.prune(before, batch=2) == 0
    left = [i for i in ids if await drafts.get(CHAT, i) is not None]
    assert left == [ids[0], ids[1], ids[5]]
    # A press on a pruned draft's button: out of date, as on any draft that is gone.
    with pytest.raises(LedgerError) as err:
        await drafts.advance(CHAT, ids[2], 1, {})
    assert err.value.code == "stale_button"
    assert await drafts.update(CHAT, ids[3], 1, {}) is None
