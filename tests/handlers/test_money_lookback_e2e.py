"""Money across nights and looking back, end to end through the fake Bot API."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import update

from storage.sql import tables as t_
from tests.bot.harness import end_night, plain
from tests.handlers.harness import HandlerTable as Table
from tests.handlers.harness import handler_table as table

NEW = "/new chengdu @alice @bob @carol @dave"


async def _text(t: Table, who: str, line: str) -> str:
    out = await t.say(who, line)
    assert len(out) == 1, [m.text for m in out]
    return plain(out[0].text)


async def _two_nights(t: Table) -> None:
    """Night 1 at 0.50 a point: bob +24. Night 2 at 2.00: alice wins off bob's discard."""
    t.admin("alice")
    await t.say("alice", NEW + " 0.5")
    await t.say("bob", "/hu bob 自摸 清一色")
    await end_night(t, "alice")
    await t.say("alice", "/set stake 2")
    await t.say("alice", NEW)
    await t.say("alice", "/hu alice from bob 七对")
    await end_night(t, "alice")


async def test_standings_and_debts_keep_each_stake_and_net_pairs(tmp_path: Path) -> None:
    async with table(tmp_path) as t:
        await _two_nights(t)
        text = await _text(t, "carol", "/standings")
        bob = next(x for x in text.splitlines() if "bob" in x)
        assert "+24 at 0.50" in bob and "at 2.00" in bob  # never one sum of points
        standings = {m.player.name: m for m in await t.ledger.money.money_standings(t.chat_id)}
        assert "+" + f"{standings['bob'].cents / 100:.2f}" in bob or \
            f"{standings['bob'].cents / 100:.2f}" in bob
        text = await _text(t, "carol", "/debts")
        pairs = re.findall(r"(\w+) → (\w+)", text)
        assert ("alice", "bob") not in pairs or ("bob", "alice") not in pairs
        assert len({frozenset(p) for p in pairs}) == len(pairs)  # one line per two people
        assert "/settle" in text
        for line in ("/standings 999999999", "/standings 99999999999d", "/standings ²",
                     "/standings soon", "/standings 30d 2"):
            text = await _text(t, "carol", line)
            assert text.startswith("⚠️ Examples: /standings"), (line, text)
        assert "Standings for the last 30 days" in await _text(t, "carol", "/standings 30天")


async def test_paid_in_part_and_every_bad_amount_is_refused(tmp_path: Path) -> None:
    async with table(tmp_path) as t:
        await _two_nights(t)
        balances = await t.ledger.money.open_balances(t.chat_id)
        pair = next(b for b in balances if {b.payer.name, b.payee.name} == {"alice", "bob"})
        n, payer, payee, owed = pair.handle, pair.payer.name, pair.payee.name, pair.cents
        refusals = {
            f"/paid {n} abc": "is not an amount",
            f"/paid {n} ²": "is not an amount",
            f"/paid {n} 1.234": "is not an amount",
            f"/paid {n} 0": "more than 0",
            f"/paid {n} -3": "cannot be negative",
            f"/paid {n} 99999999999999999999": "more than",
            f"/paid {n} {owed // 100 + 1}": "more than",
            "/paid ²": "Give the debt's number",
            "/paid 99999999999999999999": "Give the debt's number",
            "/paid 4 5 6": "Give the debt's number",
            "/paid 999": "No debt 999",
        }
        for line, wanted in refusals.items():
            text = await _text(t, payer, line)
            assert wanted in text and text.startswith("⚠️"), (line, text)
        assert await t.ledger.money.open_balances(t.chat_id) == balances  # nothing recorded
        assert "Only the two players" in await _text(t, "mallory", f"/paid {n} 1")
        text = await _text(t, payee, f"/paid {n} 1")
        assert f"{payer} paid {payee} 1.00" in text
        assert f"still owes {payee} {(owed - 100) // 100}." in text
        text = await _text(t, payer, f"/paid {n} ２")  # a Chinese keyboard's digits
        assert f"{payer} paid {payee} 2.00" in text
        text = await _text(t, payer, f"/paid {n}")
        assert "They are square" in text
        assert "already paid" in await _text(t, payer, f"/paid {n}")  # not "no debt"


async def test_settle_proposes_the_fewest_transfers_and_a_party_confirms(tmp_path: Path
                                                                         ) -> None:
    async with table(tmp_path) as t:
        await _two_nights(t)
        plan = await t.ledger.money.settle_plan(t.chat_id)
        out = await t.say("carol", "/settle")
        text = plain(out[0].text)
        assert f"takes {len(plan.transfers)} transfer(s)" in text
        assert len(plan.transfers) <= 3  # four players: never more than three
        proposal = t.last_with_buttons()
        data = proposal.buttons[0]["callback_data"]
        await t.press("mallory", proposal, data)  # not a party, not an admin
        assert "Only players with an open debt" in list(t.api.answered.values())[-1]["text"]
        assert len(await t.ledger.money.open_balances(t.chat_id)) > 0
        out = await t.press("dave", proposal, data)
        assert any("Settled, confirmed by dave" in plain(m.text) for m in out)
        assert await t.ledger.money.open_balances(t.chat_id) == []
        assert "No unpaid debts" in await _text(t, "carol", "/debts")
        await t.press("dave", proposal, data)  # pressed again: nothing left to clear
        assert list(t.api.answered.values())[-1].get("show_alert")
        assert t.api.errors == []


async def _backdate_first_night(t: Table) -> None:
    async with t.ledger.write() as conn:  # (the handler tier's SQLite runs synchronous code)
        await conn.run_sync(lambda c: c.execute(
            update(t_.nights).where(t_.nights.c.chat_id == t.chat_id)
            .values(started_at=datetime(2026, 11, 20, 12, tzinfo=UTC))))


async def test_history_hand_and_stats(tmp_path: Path) -> None:
    async with table(tmp_path) as t:
        await t.say("alice", NEW)
        await t.say("carol", "/hu carol 自摸 七对")
        await end_night(t, "alice")
        await _backdate_first_night(t)
        t.admin("alice")
        await t.say("alice", NEW)
        await t.say("bob", "/hu bob 自摸")
        await t.say("alice", "/edit 1 bob 自摸 清一色")
        text = await _text(t, "dave", "/history")
        assert text.startswith("Night ") and "#1" in text and "bob +24" in text
        assert "carol +" not in text  # tonight only
        text = await _text(t, "dave", "/history all")  # a line a night, latest first
        tonight, first = text.splitlines()[1:3]
        assert tonight.endswith("· Chengdu blood battle · 1 hand · going"), text
        assert first == "2026-11-20 · Chengdu blood battle · 1 hand", text
        text = await _text(t, "dave", "/history 2026-11-20")
        assert "carol +" in text and "bob +24" not in text
        refusals = {
            "/history 2026-02-30": "is not a date",
            "/history 2026-11-21": "No night 2026-11-21",
            "/history 99999999999": "Examples: /history",
            "/history ²": "Examples: /history",
            "/history 5": "only 1 page",
            "/hand": "Examples: /hand 3",
            "/hand x": "Examples: /hand 3",
            "/hand 99999999999999999999": "Examples: /hand 3",
            "/hand 9": "no hand 9",
            "/hand 1 yesterday": "Examples: /hand 3",
            "/stats @nobody": "has not played",
        }
        for line, wanted in refusals.items():
            text = await _text(t, "dave", line)
            assert wanted in text and text.startswith("⚠️"), (line, text)
        text = await _text(t, "dave", "/hand 1")
        assert "Event 1, reported by bob" in text and "清一色" in text
        assert "Corrected by alice" in text and " (UTC)." in text  # English: UTC
        text = await _text(t, "alice", "/set tz +8")
        assert "Days and times are told in UTC+8: it is " in text, text
        assert "(UTC+8)" in await _text(t, "dave", "/hand 1")
        assert "is not a time zone" in await _text(t, "alice", "/set tz Mars/Base")
        text = await _text(t, "alice", "/set tz default")
        assert "UTC, this language's default" in text, text
        text = await _text(t, "dave", "/hand 1 2026-11-20")
        assert "night 2026-11-20" in text and "reported by carol" in text
        text = await _text(t, "dave", "/stats @bob")
        assert "Played 2 hands: 1 win (50%), by self-draw; never dealt in." in text, text
        assert "Best hand: 24 points, hand 1 on " in text and "清一色" in text
        assert "Last hands:" in text and "#1: +24 (self-draw)" in text
        assert t.api.errors == []


async def test_replies_in_chinese(tmp_path: Path) -> None:
    async with table(tmp_path, lang="zh-hans") as t:
        await _two_nights(t)
        await _backdate_first_night(t)
        await t.say("alice", NEW)
        await t.say("bob", "/hu bob 自摸")
        await t.say("alice", "/edit 1 bob 自摸 清一色")
        await t.say("alice", "/void 1")
        n = (await t.ledger.money.open_balances(t.chat_id))[0].handle
        assert "（东八区）" in await _text(t, "alice", "/hand 1")  # by default, Beijing's
        lines = ["/standings", "/debts", "/settle", "/history", "/history all", "/hand 1",
                 "/stats @bob", f"/paid {n} abc", f"/paid {n} 1", "/hand 7", "/history 9",
                 "/set 时区 +9", "/set 时区 火星"]
        for line in lines:
            text = await _text(t, "alice", line)
            words = set(re.findall(r"[A-Za-z]{2,}", text)) - {
                "alice", "bob", "carol", "dave", "paid", "settle", "hand", "history",
                "debts", "all", "abc", "set"}
            assert not words, (line, words, text)
        assert "东九区" in await _text(t, "alice", "/hand 1")  # after /set 时区 +9
