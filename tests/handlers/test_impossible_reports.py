"""Reports the hand so far or the tiles make impossible are refused through the real bot,
with the reason in the chat's language, and nothing is recorded (engine/report_checks.py);
the guided 杠上炮 offers only who made a kong."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.console.fake_api import SentMessage
from tests.bot.guided_play import find_button
from tests.bot.harness import plain
from tests.databases import BACKENDS
from tests.handlers.harness import HandlerTable as Table
from tests.handlers.harness import handler_table_on as table_on

NEW = "/new chengdu @alice @bob @carol @dave"


async def _refused(t: Table, who: str, text: str, reason: str) -> None:
    before = await t.ledger.open_nights.current_night(t.chat_id)
    out = await t.say(who, text)
    texts = [plain(m.text) for m in out]
    assert any(reason in x for x in texts), (text, texts)
    after = await t.ledger.open_nights.current_night(t.chat_id)
    assert (after.totals, after.hands, after.open_hand) == (
        before.totals, before.hands, before.open_hand), text


@pytest.mark.parametrize("backend", BACKENDS)
async def test_impossible_reports_are_refused_with_the_reason(tmp_path: Path,
                                                              backend: str) -> None:
    async with table_on(backend, tmp_path, "en", "impossible") as t:
        await t.say("alice", NEW)
        await _refused(t, "carol", "/hu carol 抢杠 dave 七对",
                       "七对 holds every tile at least twice, so it cannot rob a kong")
        await _refused(t, "carol", "/hu carol 抢杠 dave 对对胡", "cannot rob a kong")
        await _refused(t, "bob", "/hu bob 杠上炮 alice 平胡",
                       "alice made no kong in this hand, so this is not 杠上炮")
        await _refused(t, "carol", "/hu carol 自摸 清一色 根4",
                       "4 根 beside 0 kong(s): the tiles leave room for at most 3 根.")
        await t.say("carol", "/kong carol 暗杠")
        await t.say("carol", "/kong carol 暗杠")
        await _refused(t, "carol", "/hu carol 自摸 清一色 根2", "at most 1 根")
        # Possible: alice's kong, then her discard.
        await t.say("alice", "/kong alice 暗杠")
        await t.say("bob", "/hu bob 杠上炮 alice 平胡")
        night = await t.ledger.open_nights.current_night(t.chat_id)
        assert night.still_in == ("E", "W", "N"), night.still_in
        assert t.api.errors == []


@pytest.mark.parametrize("backend", BACKENDS)
async def test_refusals_in_chinese(tmp_path: Path, backend: str) -> None:
    async with table_on(backend, tmp_path, "zh-hans", "impossible_zh") as t:
        await t.say("alice", NEW)
        await _refused(t, "carol", "/hu carol 抢杠 dave 七对", "七对 每种牌都至少两张，抢不了杠")
        await _refused(t, "bob", "/hu bob 杠上炮 alice 平胡", "alice 这盘没有杠过，不算杠上炮")
        await _refused(t, "carol", "/hu carol 自摸 清一色 根4", "牌里最多只容得下 3 个根")
        assert t.api.errors == []


async def _tap(t: Table, who: str, label: str) -> list[SentMessage]:
    msg = t.last_with_buttons()
    return await t.press(who, msg, find_button(msg, label)["callback_data"])


@pytest.mark.parametrize("backend", BACKENDS)
async def test_the_guided_kong_discard_offers_who_made_a_kong(tmp_path: Path,
                                                              backend: str) -> None:
    async with table_on(backend, tmp_path, "en", "impossible_guided") as t:
        await t.say("alice", NEW)
        await t.say("bob", "/hu")
        await _tap(t, "bob", "bob…")
        labels = [b["text"] for b in t.last_with_buttons().buttons]
        assert "Robbed kong…" in labels and "Kong discard…" not in labels, labels
        await _tap(t, "bob", "Cancel")
        await t.say("alice", "/kong alice 暗杠")
        await t.say("bob", "/hu")
        await _tap(t, "bob", "bob…")
        await _tap(t, "bob", "Kong discard…")
        offered = [b["text"] for b in t.last_with_buttons().buttons]
        assert offered == ["alice", "Cancel"], offered
        await _tap(t, "bob", "alice")
        out = await _tap(t, "bob", "✅ Record")
        assert any("Recorded:" in plain(m.text) for m in out), [plain(m.text) for m in out]
        assert (await t.ledger.open_nights.current_night(t.chat_id)).still_in == ("E", "W", "N")
        assert t.api.errors == []
