"""A Hong Kong (港式) night through the real bot, on SQLite and PostgreSQL, in English and
Chinese: money in dollars and cents from the share table everywhere (answers, Details, the
board, /end, the card, /debts, /standings), 包自摸, 搶槓, 截糊 and a hand below the minimum
refused with nothing recorded, the 番 count by buttons, and /set of the table's options."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from matplotlib.figure import Figure

from tests.bot.guided_play import find_button
from tests.bot.harness import Table, plain, table, table_on
from tests.databases import BACKENDS

NEW = "/new hongkong @alice @bob @carol @dave"


def _drawn(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every text the pictures draw from now on (the card's words and figures)."""
    texts: list[str] = []
    text = Figure.text

    def recorded(self: Figure, x: float, y: float, s: str, *args: Any, **kw: Any) -> Any:
        texts.append(s)
        return text(self, x, y, s, *args, **kw)

    monkeypatch.setattr(Figure, "text", recorded)
    return texts


async def _say(t: Table, who: str, text: str) -> str:
    return "\n".join(plain(m.text) for m in await t.say(who, text))


async def _totals(t: Table) -> dict[str, int]:
    session = await t.ledger.sessions.current_session(t.chat_id)
    assert session is not None
    return dict(session.totals)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("lang", ["en", "zh-hans"])
async def test_a_hong_kong_night_is_paid_in_dollars_and_cents(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: str, backend: str) -> None:
    async with table_on(backend, tmp_path, lang, "hongkong") as t:
        opened = await _say(t, "alice", NEW if lang == "en" else NEW.replace("hongkong", "港式"))
        session = await t.ledger.sessions.current_session(t.chat_id)
        assert session is not None and session.stake_cents == 1 and session.preset == "hongkong"
        assert "0.00" in opened
        # 5番 off carol (半銃, s = 6.00): carol 2 shares, alice and dave 1 each.
        said = await _say(t, "bob", "/hu bob 出銃 carol 5番")
        assert "bob +24.00" in said and "carol -12.00" in said and "alice -6.00" in said
        assert await _totals(t) == {"E": -600, "S": 2400, "W": -1200, "N": -600}
        # Below 三番起糊: refused, nothing recorded.
        refused = await _say(t, "dave", "/hu dave 出銃 alice 2番")
        assert refused.startswith("⚠️") and ("3 番" in refused)
        # 截糊: two winners on one discard.
        refused = await _say(t, "alice", "/hu alice 3番, bob 3番 出銃 dave")
        assert ("截糊" if lang == "en" else "截胡") in refused
        assert await _totals(t) == {"E": -600, "S": 2400, "W": -1200, "N": -600}
        # 包自摸: alice fed dave's fourth exposed meld; she pays 6 shares of 4.00.
        said = await _say(t, "dave", "/hu dave 自摸 包 alice 4番")
        assert "dave +24.00" in said and "alice -24.00" in said
        # 搶槓: bob robs dave's kong, 對對糊 + 搶槓 = 4番; dave pays for all.
        said = await _say(t, "bob", "/hu bob 搶槓 dave 對對糊")
        assert "bob +24.00" in said and "dave -24.00" in said
        answer = t.last_with_buttons()
        details = "\n".join(plain(m.text) for m in await t.press(
            "bob", answer, find_button(answer, "Details" if lang == "en" else "详情")
            ["callback_data"]))
        assert "dave → bob 24.00" in details
        assert ("4 番 = a share of 4.00" if lang == "en" else "4 番，单份 4.00") in details
        assert await _totals(t) == {"E": -3000, "S": 4800, "W": -1200, "N": -600}
        drawn = _drawn(monkeypatch)
        out = await t.say("alice", "/end")
        ended = "\n".join(plain(m.text) for m in out)
        assert [m.kind for m in out].count("photo") == 2  # the night's chart, the card
        assert "bob: +48.00" in ended.replace("bob：", "bob: ")
        assert "alice → bob: 30.00" in ended.replace("：", ": ")
        assert "4800" not in ended  # never points beside the money
        if lang == "en":
            assert "Night 1 · Hong Kong old style (廣東牌) · 3 hands · in dollars and cents" \
                in drawn, drawn
            assert "alice pays bob 30.00" in drawn and "+48.00" in drawn
            assert not any(x.endswith((" points", " a point")) for x in drawn), drawn
        else:
            assert "第 1 场 · 港式 · 3 盘 · 以元计" in drawn, drawn
            assert "alice 付给 bob 30.00" in drawn and "+48.00" in drawn
            assert not any(x.endswith(" 分") for x in drawn), drawn
        debts = await _say(t, "alice", "/debts")
        assert "30.00" in debts and "3000" not in debts
        standings = await _say(t, "alice", "/standings")
        assert "+48.00" in standings and "0.01" not in standings and "4800" not in standings


async def test_hong_kong_options_by_name_and_the_stake_is_its_tier(tmp_path: Path) -> None:
    async with table(tmp_path, lang="zh-hans") as t:
        t.admin("alice")
        await t.say("alice", "/set preset 广东牌")
        await t.say("alice", "/set 注码 一二蚊")
        await t.say("alice", "/set 出铳 全铳")
        await t.say("alice", "/set curve=full_spicy")
        rules = await _say(t, "alice", "/rules")
        assert "单份（按番数，一二蚊、辣辣上）：" in rules and "5 番 32.00" in rules
        await t.say("alice", NEW)
        refused = await _say(t, "alice", "/set stake 0.5")
        assert refused.startswith("⚠️") and "注码" in refused
        # 一二蚊 辣辣上 5番: s = 32.00; 全銃: the discarder pays all 4 shares.
        said = await _say(t, "bob", "/hu bob 放铳 carol 5番")
        assert "bob +128.00" in said and "carol -128.00" in said


async def test_the_fan_count_by_buttons_and_three_dragons_named_twice(tmp_path: Path) -> None:
    async with table(tmp_path) as t:
        await t.say("alice", NEW)
        await t.say("bob", "/hu")
        for label in ("bob self-draw", "4 番", "✅ Record"):
            msg = t.last_with_buttons()
            assert "+ Winner" not in [b["text"] for b in msg.buttons]  # 截糊: one winner
            await t.press("bob", msg, find_button(msg, label)["callback_data"])
        assert await _totals(t) == {"E": -800, "S": 2400, "W": -800, "N": -800}
        # 三元 twice (two dragon pongs) + 對對糊 = 5番, off alice (s = 6.00); 三元 four
        # times is one too many.
        said = await _say(t, "carol", "/hu carol 食糊 alice 出銃 三元 三元 對對糊")
        assert "carol +24.00" in said and "alice -12.00" in said
        refused = await _say(t, "dave", "/hu dave 自摸 三元 三元 三元 三元")
        assert refused.startswith("⚠️") and "三元" in refused


async def test_the_prevailing_wind_follows_the_deal_round_the_table(tmp_path: Path) -> None:
    """East's round until the deal comes back to the first dealer, then South's: a pong of
    南 is 圈風 for carol (West) only then."""
    async with table(tmp_path) as t:
        await t.say("alice", NEW)
        hand = "/hu carol 自摸 222z 777z 234m 345m 55m"
        assert "圈風" not in await _say(t, "carol", hand)  # East's round; S, W, N deal next
        for who, source in (("dave", "alice"), ("alice", "bob"), ("bob", "carol")):
            await t.say(who, f"/hu {who} 出銃 {source} 5番")
        session = await t.ledger.sessions.current_session(t.chat_id)
        assert session is not None and session.dealer == "E"
        assert "圈風" in await _say(t, "carol", hand)  # South's round
        # A report that names the wind keeps it.
        assert "圈風" not in await _say(t, "dave", "/hu dave 自摸 圈風 東 222z 777z 234m 345m 55m")
