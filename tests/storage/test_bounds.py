"""No settlement the bounds allow overflows the ledger's 32-bit point columns, on either
backend (issue 9: on PostgreSQL fan33 used to fail, and fan62 made /end fail for good)."""

from __future__ import annotations

import pytest

from engine.errors import ReportError
from engine.models import MAX_FAN, MAX_HAND_POINTS
from storage.errors import LedgerError
from storage.ledger import Ledger
from storage.models import MAX_TOTAL
from tests.storage.helpers import SEATED, assert_books_balance, win

CHAT = -1009
INT32 = 2**31 - 1


async def test_the_largest_fan_records_and_the_night_ends(ledger: Ledger) -> None:
    await ledger.open_nights.open_night(CHAT, SEATED, preset="sichuan")  # no cap
    out = await ledger.hands.record(CHAT, win("self_draw", "S", fan=MAX_FAN))
    each = 2 ** (MAX_FAN - 1)
    assert out.hand is not None
    assert out.hand.deltas == {"E": -each, "S": 3 * each, "W": -each, "N": -each}
    summary = await ledger.nights.end_night(CHAT)
    assert summary is not None
    await assert_books_balance(ledger, [CHAT])


async def test_a_hand_over_the_limit_is_refused_and_nothing_recorded(ledger: Ledger) -> None:
    await ledger.open_nights.open_night(CHAT, SEATED, preset="sichuan", overrides={"base": 100})
    with pytest.raises(ReportError) as err:
        await ledger.hands.record(CHAT, win("self_draw", "S", fan=MAX_FAN))
    assert err.value.code == "too_many_points"
    night = await ledger.open_nights.current_night(CHAT)
    assert night is not None and night.hands == 0


async def test_running_totals_stop_short_of_the_columns(ledger: Ledger) -> None:
    # 60 x 2^19 from each of three: 94,371,840 a hand, just under the per-hand limit.
    await ledger.open_nights.open_night(CHAT, SEATED, preset="sichuan",
                                       overrides={"base": 60, "blood_battle": False})
    gain = 3 * 60 * 2 ** (MAX_FAN - 1)
    assert gain <= MAX_HAND_POINTS
    recorded = 0
    with pytest.raises(LedgerError) as err:
        for _ in range(MAX_TOTAL // gain + 2):
            await ledger.hands.record(CHAT, win("self_draw", "S", fan=MAX_FAN))
            recorded += 1
    assert err.value.code == "totals_too_large"
    night = await ledger.open_nights.current_night(CHAT)
    assert night is not None and night.totals["S"] == recorded * gain <= INT32
    await ledger.nights.end_night(CHAT)
    await assert_books_balance(ledger, [CHAT])
