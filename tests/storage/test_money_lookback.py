"""Money across nights and looking back, on every backend."""

from __future__ import annotations

import asyncio
from datetime import UTC, date, datetime
from typing import Any

import pytest
from sqlalchemy import select, update

from storage.errors import LedgerError
from storage.ledger import Ledger
from storage.sql import tables as t
from tests.storage.helpers import SEATED, going, win

CHAT = -2001


async def _night(ledger: Ledger, stake: int, *events: dict[str, Any]) -> int:
    night = await ledger.open_nights.open_night(CHAT, SEATED, preset="chengdu", stake_cents=stake)
    for ev in events:
        await ledger.hands.record(CHAT, ev)
    await ledger.nights.end_night(CHAT)
    return night.id


async def _debt_ids(ledger: Ledger, night_id: int) -> dict[tuple[str, str], int]:
    async with ledger.read() as conn:
        rows = (await conn.execute(select(t.debts).where(
            t.debts.c.night_id == night_id))).all()
        names = dict((await conn.execute(select(t.players.c.id, t.players.c.name))).tuples().all())
    return {(names[r.payer_id], names[r.payee_id]): r.id for r in rows}


async def test_standings_keep_each_night_at_its_own_stake(ledger: Ledger) -> None:
    await _night(ledger, 50, win("self_draw", "S", patterns=["清一色"]))  # bob +24 at 0.50
    await _night(ledger, 200, win("self_draw", "E"))  # alice +6 at 2.00 (dealer)
    rows = {m.player.name: m for m in await ledger.money.money_standings(CHAT)}
    assert rows["bob"].points == ((50, 24), (200, -2))
    assert rows["bob"].cents == 24 * 50 - 2 * 200
    assert rows["alice"].cents == -8 * 50 + 6 * 200
    assert sum(m.cents for m in rows.values()) == 0
    assert rows["bob"].hands == 2 and rows["bob"].wins == 1
    ranged = {m.player.name: m for m in await ledger.money.money_standings(
        CHAT, since=datetime(2000, 1, 1, tzinfo=UTC))}
    assert {k: (v.cents, v.points, v.hands, v.wins) for k, v in ranged.items()} == \
        {k: (v.cents, v.points, v.hands, v.wins) for k, v in rows.items()}
    assert await ledger.money.money_standings(CHAT, since=datetime(2999, 1, 1, tzinfo=UTC)) == []


async def test_debts_net_between_two_people_and_pay_in_parts(ledger: Ledger) -> None:
    first = await _night(ledger, 100, win("discard", "S", "E", patterns=["清一色"]))
    second = await _night(ledger, 100, win("discard", "E", "S", patterns=["七对"],
                                           gen=1))
    a_b = (await _debt_ids(ledger, first))[("alice", "bob")]
    b_a = (await _debt_ids(ledger, second))[("bob", "alice")]
    balances = await ledger.money.open_balances(CHAT)
    assert len(balances) == 1  # never both "alice → bob" and "bob → alice"
    only = balances[0]
    assert (only.payer.name, only.payee.name) == ("bob", "alice")
    owed = only.cents
    assert owed > 0 and only.handle == min(a_b, b_a)
    with pytest.raises(LedgerError) as exc:
        await ledger.money.pay(CHAT, a_b, owed + 1)
    assert exc.value.code == "pay_too_much" and exc.value.params["owed"] == owed
    part = await ledger.money.pay(CHAT, a_b, 100, actor=2)
    assert (part.payer.name, part.payee.name, part.cents) == ("bob", "alice", 100)
    assert part.remaining == owed - 100
    left = await ledger.money.open_balances(CHAT)
    assert [(b.payer.name, b.cents) for b in left] == [("bob", owed - 100)]
    rest = await ledger.money.pay(CHAT, a_b)  # set off already, but it still names the pair
    assert rest.cents == owed - 100 and rest.remaining == 0
    assert await ledger.money.open_balances(CHAT) == []
    with pytest.raises(LedgerError) as exc:
        await ledger.money.pay(CHAT, b_a)
    assert exc.value.code == "debt_paid"
    with pytest.raises(LedgerError) as exc:
        await ledger.money.pay(CHAT + 1, b_a)  # another chat's debt does not exist here
    assert exc.value.code == "no_debt"
    trail = await ledger.corrections.audit_trail(CHAT)
    assert [a["action"] for a in trail[:2]] == ["paid", "paid"]


async def test_settle_clears_every_open_debt_with_the_fewest_transfers(ledger: Ledger) -> None:
    await _night(ledger, 100, win("self_draw", "S", patterns=["清一色"]))
    await _night(ledger, 50, win("discard", "W", "N", patterns=["七对"]))
    plan = await ledger.money.settle_plan(CHAT)
    assert plan.debts == 4 and len(plan.transfers) <= 3
    nets: dict[str, int] = {}
    for tr in plan.transfers:
        nets[tr.payer.name] = nets.get(tr.payer.name, 0) - tr.cents
        nets[tr.payee.name] = nets.get(tr.payee.name, 0) + tr.cents
    owed: dict[str, int] = {}
    for b in await ledger.money.open_balances(CHAT):
        owed[b.payer.name] = owed.get(b.payer.name, 0) - b.cents
        owed[b.payee.name] = owed.get(b.payee.name, 0) + b.cents
    assert {k: v for k, v in nets.items() if v} == {k: v for k, v in owed.items() if v}
    with pytest.raises(LedgerError) as exc:
        await ledger.money.settle(CHAT, "0" * 12)
    assert exc.value.code == "settle_stale"
    done = await ledger.money.settle(CHAT, plan.token, actor=1)
    assert done.transfers == plan.transfers
    assert await ledger.money.open_balances(CHAT) == []
    with pytest.raises(LedgerError) as exc:
        await ledger.money.settle(CHAT, plan.token)
    assert exc.value.code == "no_debts"


async def test_history_by_night_and_one_hand_with_its_changes(ledger: Ledger) -> None:
    first = await _night(ledger, 100, win("self_draw", "S"), win("discard", "W", "E"))
    async with ledger.write() as conn:  # the first night was played on an earlier day
        await conn.execute(update(t.nights).where(t.nights.c.id == first).values(
            started_at=datetime(2026, 11, 20, 12, tzinfo=UTC)))
    await ledger.open_nights.open_night(CHAT, SEATED, preset="chengdu")
    await ledger.hands.record(CHAT, win("self_draw", "N"), reporter=4)
    await ledger.corrections.amend(CHAT, 1, [win("self_draw", "N", patterns=["清一色"])], actor=1,
                                   allow_others=True)  # an admin corrects it
    current = await ledger.lookback.night_history(CHAT)
    assert current.total == 1 and current.items[0].deltas["N"] == 24
    every = await ledger.lookback.night_history(CHAT, "all", page=1, page_size=1)
    assert every.total == 2 and every.pages == 2 and every.several
    assert list(every.labels.values()) == [every.labels[every.items[0].night_id]]
    assert every.items[0].night_id != first  # latest first
    day = await ledger.lookback.night_history(CHAT, date(2026, 11, 20))
    assert day.total == 1 and day.items[0].night_id == first
    assert day.items[0].events == 2  # 血战: one hand, two wins so far
    assert (await ledger.lookback.night_history(CHAT, (date(2026, 11, 20), 2))).total == 0
    beyond = await ledger.lookback.night_history(CHAT, "all", page=99)
    assert beyond.items == () and beyond.pages == 1
    detail = await ledger.lookback.hand_detail(CHAT, 1)
    assert detail.reporters == ("dave",)
    assert [(c.action, c.actor) for c in detail.changes] == [("amend", "alice")]
    assert detail.result.deltas["N"] == 24
    old = await ledger.lookback.hand_detail(CHAT, 1, date(2026, 11, 20))
    assert old.entry.label == "2026-11-20" and old.result.events[1].deltas["W"] > 0
    assert len(old.result.events) == 2 and old.status == "closed"
    with pytest.raises(LedgerError) as exc:
        await ledger.lookback.hand_detail(CHAT, 2, date(2026, 11, 20))
    assert exc.value.code == "no_hand_here"
    with pytest.raises(LedgerError) as exc:
        await ledger.lookback.hand_detail(CHAT, 1, date(2026, 1, 1))
    assert exc.value.code == "no_night"


async def test_player_record(ledger: Ledger) -> None:
    await ledger.open_nights.open_night(CHAT, SEATED, preset="chengdu")
    await ledger.hands.record(CHAT, win("self_draw", "S", patterns=["清一色"], gen=1))
    await ledger.hands.record(CHAT, win("discard", "W", "E"))
    await ledger.hands.record(CHAT, win("discard", "N", "E"))  # three have won: hand 1 is over
    await ledger.hands.record(CHAT, win("discard", "E", "S"))
    bob = next(p for p in (await going(ledger, CHAT)).seats.values()
               if p.name == "bob")
    rec = await ledger.lookback.player_record(CHAT, bob.id, last=2)
    assert rec.stats.hands == 2 and rec.stats.wins == 1 and rec.stats.dealt_in == 1
    assert [h.number for h in rec.last] == [2, 1]
    assert rec.best is not None and rec.best.number == 1
    assert "清一色" in rec.best.names and rec.best.win_points == rec.stats.biggest


async def test_two_payments_at_once_never_pay_more_than_is_owed(ledger: Ledger) -> None:
    await _night(ledger, 100, win("self_draw", "S", patterns=["清一色"]))
    balance = (await ledger.money.open_balances(CHAT))[0]
    results = await asyncio.gather(
        ledger.money.pay(CHAT, balance.handle, balance.cents - 100),
        ledger.money.pay(CHAT, balance.handle, balance.cents - 100), return_exceptions=True)
    paid = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, LedgerError)]
    assert len(paid) == 1 and len(refused) == 1 and refused[0].code == "pay_too_much"
    left = next(b for b in await ledger.money.open_balances(CHAT) if b.handle == balance.handle)
    assert left.cents == 100


async def test_two_nights_on_one_day_are_told_apart(ledger: Ledger) -> None:
    first = await _night(ledger, 100, win("self_draw", "S"))
    second = await _night(ledger, 100, win("self_draw", "W"))
    async with ledger.write() as conn:
        for sid, hour in ((first, 12), (second, 15)):
            await conn.execute(update(t.nights).where(t.nights.c.id == sid).values(
                started_at=datetime(2026, 11, 20, hour, tzinfo=UTC)))
    day = date(2026, 11, 20)
    both = await ledger.lookback.night_history(CHAT, day)
    assert [n.label for n in both.nights] == ["2026-11-20/2", "2026-11-20"]
    assert both.several and both.labels == {first: "2026-11-20", second: "2026-11-20/2"}
    # A day names its first night, as /history labels it (2026-11-20, then 2026-11-20/2).
    assert (await ledger.lookback.hand_detail(CHAT, 1, day)).entry.label == "2026-11-20"
    listed = await ledger.lookback.night_list(CHAT)
    assert [(x.night.label, x.night.hands, x.void) for x in listed.lines] == [
        ("2026-11-20/2", 1, 0), ("2026-11-20", 1, 0)]
    assert listed.total == 2 and listed.pages == 1
    assert (await ledger.lookback.hand_detail(CHAT, 1, (day, 2))).result.deltas["W"] > 0
    assert (await ledger.lookback.hand_detail(CHAT, 1, (day, 1))).result.deltas["S"] > 0
    assert (await ledger.lookback.night_history(CHAT, (day, 3))).nights == ()
    latest = await ledger.lookback.night_history(CHAT)  # no night going: the latest night
    assert latest.nights[0].label == "2026-11-20/2"
    bob = await ledger.chats.player(CHAT, SEATED[1])
    rec = await ledger.lookback.player_record(CHAT, bob.id)
    assert [h.night for h in rec.last] == ["2026-11-20/2", "2026-11-20"]
    await ledger.open_nights.open_night(CHAT, SEATED, preset="chengdu")
    await ledger.hands.record(CHAT, win("self_draw", "N"))
    await ledger.corrections.void(CHAT, 1, allow_others=True)
    tonight = (await ledger.lookback.night_list(CHAT, page_size=1)).lines
    assert [(x.night.hands, x.void) for x in tonight] == [(1, 1)]


async def test_a_night_is_named_by_the_day_in_the_chat_s_time_zone(ledger: Ledger) -> None:
    """A night started at 17:30 UTC is the next day's in Beijing (the default of a Chinese
    chat) and that day's in an English chat (UTC), or wherever the chat says it is."""
    await ledger.chats.chat(CHAT, "zh-Hans")
    night = await _night(ledger, 100, win("self_draw", "S"))
    async with ledger.write() as conn:
        await conn.execute(update(t.nights).where(t.nights.c.id == night).values(
            started_at=datetime(2026, 11, 20, 17, 30, tzinfo=UTC)))
    for time_zone, language, label in ((None, "zh-Hans", "2026-11-21"),
                                       (None, "en", "2026-11-20"),
                                       ("UTC-05:00", "zh-Hans", "2026-11-20"),
                                       ("Asia/Singapore", "en", "2026-11-21")):
        async with ledger.write() as conn:
            await conn.execute(update(t.chats).where(t.chats.c.id == CHAT).values(
                language=language, time_zone=time_zone))
        listed = await ledger.lookback.night_list(CHAT)
        assert [x.night.label for x in listed.lines] == [label], (time_zone, language)
        day = date.fromisoformat(label)
        detail = await ledger.lookback.hand_detail(CHAT, 1, day)
        assert detail.entry.label == label and detail.time_zone == time_zone
