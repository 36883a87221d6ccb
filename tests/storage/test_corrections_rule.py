"""Corrections on every backend: one permission rule for undo, void and amend (and for
asking whether an undo would be taken), and an undo right after an amend puts the hand back
as it was."""

from __future__ import annotations

import pytest

from storage.errors import LedgerError
from storage.ledger import Ledger
from tests.storage.helpers import SEATED, assert_books_balance, going, win

CHAT = -1010
BOB, DAVE = 2, 4  # telegram ids of seated players (see SEATED)


async def test_undo_after_amend_restores_the_hand(ledger: Ledger) -> None:
    await ledger.open_nights.open_night(CHAT, SEATED, preset="sichuan")
    await ledger.hands.record(CHAT, win("self_draw", "S", patterns=["清一色"]), reporter=BOB)
    before = (await going(ledger, CHAT)).totals
    await ledger.corrections.amend(CHAT, 1, [win("self_draw", "S", patterns=["清一色"], gen=2)],
                                   actor=BOB)
    assert (await going(ledger, CHAT)).totals != before
    assert await ledger.open_nights.last_event(CHAT) is None  # the events' Undo buttons are stale
    fix = ledger.corrections
    for refused in (fix.check_undo(CHAT, actor=DAVE), fix.undo(CHAT, actor=DAVE)):
        with pytest.raises(LedgerError) as err:  # asked first (the Mini App), or done
            await refused
        assert err.value.code == "not_reporter"
    await ledger.corrections.check_undo(CHAT, actor=BOB)  # who made the correction, or an admin
    await ledger.corrections.check_undo(CHAT, actor=DAVE, allow_others=True)
    out = await ledger.corrections.undo(CHAT, actor=BOB)
    assert out.night.totals == before
    assert sum(out.deltas.values()) == 0 and any(out.deltas.values())
    assert await ledger.open_nights.last_event(CHAT) is not None
    await ledger.corrections.undo(CHAT, actor=BOB)  # now the report itself
    assert (await going(ledger, CHAT)).totals == dict.fromkeys("ESWN", 0)
    with pytest.raises(LedgerError) as err:
        await ledger.corrections.check_undo(CHAT, actor=BOB)
    assert err.value.code == "nothing_left_to_undo"  # all taken back
    await assert_books_balance(ledger, [CHAT])


async def test_void_and_amend_are_for_the_reporter_or_an_admin(ledger: Ledger) -> None:
    await ledger.open_nights.open_night(CHAT, SEATED, preset="sichuan")
    await ledger.hands.record(CHAT, win("self_draw", "S"), reporter=BOB)
    for change in (ledger.corrections.void(CHAT, 1, actor=DAVE),
                   ledger.corrections.amend(CHAT, 1, [win("self_draw", "N")], actor=DAVE)):
        with pytest.raises(LedgerError) as err:
            await change
        assert err.value.code == "not_reporter_hand"
    out = await ledger.corrections.void(CHAT, 1, actor=DAVE, allow_others=True)
    assert out.action == "void"
