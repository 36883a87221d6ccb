"""A Hong Kong (港式) night on the handler tier, on SQLite and PostgreSQL, in English,
Simplified and Traditional Chinese: money in dollars and cents from the share table
everywhere (answers, Details, the board, /history, /hand, /stats, /end, the card, /debts,
/standings), 包自摸, 搶槓, 截糊 and a hand below the minimum refused with nothing recorded,
typed and by buttons, a limit hand at the cap, and /set of the table's options; in zh-Hant
the settle-up card drawn for real in Traditional characters."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from matplotlib.figure import Figure
from matplotlib.text import Text
from PIL import Image

from bot.console.fake_api import SentMessage
from bot.pictures import drawing, fonts
from tests.bot.guided_play import find_button
from tests.bot.harness import Chat, plain
from tests.bot.layout import kept_figures
from tests.databases import BACKENDS
from tests.handlers.harness import handler_table, handler_table_on

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


async def _say(t: Chat, who: str, text: str) -> str:
    return "\n".join(plain(m.text) for m in await t.say(who, text))


async def _totals(t: Chat) -> dict[str, int]:
    night = await t.ledger.open_nights.current_night(t.chat_id)
    assert night is not None
    return dict(night.totals)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("lang", ["en", "zh-hans"])
async def test_a_hong_kong_night_is_paid_in_dollars_and_cents(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: str, backend: str) -> None:
    async with handler_table_on(backend, tmp_path, lang, "hongkong") as t:
        opened = await _say(t, "alice", NEW if lang == "en" else NEW.replace("hongkong", "港式"))
        night = await t.ledger.open_nights.current_night(t.chat_id)
        assert night is not None and night.stake_cents == 1 and night.preset == "hongkong"
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
        # Looking back: money too, never the cents as points.
        history = await _say(t, "alice", "/history")
        assert "bob +24.00" in history and "dave -24.00" in history and "2400" not in history
        hand = await _say(t, "alice", "/hand 1")
        assert "bob +24.00" in hand and "2400" not in hand
        stats = await _say(t, "alice", "/stats @bob")
        assert "+48.00" in stats and "+24.00" in stats and "4800" not in stats, stats
        assert "0.01" not in stats
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
    async with handler_table(tmp_path, lang="zh-hans") as t:
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
    async with handler_table(tmp_path) as t:
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
    async with handler_table(tmp_path) as t:
        await t.say("alice", NEW)
        hand = "/hu carol 自摸 222z 777z 234m 345m 55m"
        assert "圈風" not in await _say(t, "carol", hand)  # East's round; S, W, N deal next
        for who, source in (("dave", "alice"), ("alice", "bob"), ("bob", "carol")):
            await t.say(who, f"/hu {who} 出銃 {source} 5番")
        night = await t.ledger.open_nights.current_night(t.chat_id)
        assert night is not None and night.dealer == "E"
        assert "圈風" in await _say(t, "carol", hand)  # South's round
        # A report that names the wind keeps it.
        assert "圈風" not in await _say(t, "dave", "/hu dave 自摸 圈風 東 222z 777z 234m 345m 55m")


@pytest.mark.parametrize(("lang", "shot", "won"), [("zh-hans", "出铳", "食糊"),
                                                  ("zh-hk", "出銃", "食糊")])
async def test_a_hong_kong_table_says_its_own_words_for_a_discard(
        tmp_path: Path, lang: str, shot: str, won: str) -> None:
    """A win off a discard is 出銃 and 食糊 at a Hong Kong table (never 点炮), in the compact
    answer and in the guided report's question (which offers no 杠上炮: Hong Kong has none);
    the scoreboard's buttons say 食糊 too."""
    async with handler_table(tmp_path, lang=lang) as t:
        await t.say("alice", NEW.replace("hongkong", "港式"))
        board = next(m for m in t.api.outbox if m.pinned)
        assert board.buttons[0]["text"] == "alice 食糊…"
        said = await _say(t, "bob", "/hu bob 出銃 carol 5番")
        assert f"carol {shot}，bob {won}" in said, said
        assert "点炮" not in said and "點炮" not in said
        (asked,) = await t.say("dave", "/hu")
        assert f"← 谁{shot}" in plain(asked.text) or f"← 誰{shot}" in plain(asked.text)
        assert not any(w in plain(asked.text) for w in ("点的炮", "點的炮", "杠上炮", "槓上炮"))


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "大四喜 (a limit hand), 13 番 (capped: paid as 10)"),
    ("zh-hans", "大四喜（爆棚牌），13 番（爆棚，按 10 番计）"),
    ("zh-hk", "大四喜（爆棚牌），13 番（爆棚，按 10 番計）")])
async def test_a_capped_limit_hand_says_the_limit_and_the_cap(tmp_path: Path, lang: str,
                                                              said: str) -> None:
    """大四喜 counts 13番, and a ten-番 table pays it as 10 (十番爆棚): the headline says
    both, and a 番 count above the cap says it too."""
    async with handler_table(tmp_path, lang=lang) as t:
        await t.say("alice", NEW)
        answer = await _say(t, "carol", "/hu carol 自摸 大四喜")
        assert said in answer.splitlines()[0], answer
        assert "carol +192.00" in answer  # 10番, s = 32.00
        answer = await _say(t, "carol", "/hu carol 自摸 12番")
        assert ("12 fan as reported (capped: paid as 10)", "报 12 番（爆棚，按 10 番计）",
                "報 12 番（爆棚，按 10 番計）")[["en", "zh-hans", "zh-hk"].index(lang)] \
            in answer, answer


@pytest.mark.parametrize("lang", ["zh-hans", "zh-hk"])
async def test_a_tier_value_is_named_once(tmp_path: Path, lang: str) -> None:
    """A wrong stake tier is answered with the tiers, each named once with what it means
    (二五鸡（0 番单份 0.25 元）, not 二五鸡（二五鸡（…））)."""
    async with handler_table(tmp_path, lang=lang) as t:
        t.admin("alice")
        await t.say("alice", "/set preset 港式")
        refused = await _say(t, "alice", "/set 注码 三五")
        assert refused.startswith("⚠️")
        tier = "二五鸡" if lang == "zh-hans" else "二五雞"
        assert f"={tier}（0 番" in refused and f"{tier}（{tier}" not in refused, refused
        assert refused.count(f"={tier}") == 1 and "=五一（" in refused, refused


async def test_the_bao_zimo_feeder_by_buttons(tmp_path: Path) -> None:
    """包自摸 by buttons: a self-draw's 包自摸… asks who fed the fourth exposed meld; that
    player pays the whole self-draw (HK10). Off a discard the button is not offered, and
    a 包自摸 chosen before the way to win changed to a discard is dropped."""
    async with handler_table(tmp_path, lang="zh-hk") as t:
        await t.say("alice", NEW)
        await t.say("dave", "/hu")
        for label in ("dave 自摸", "4 番", "包自摸…", "alice"):
            msg = t.last_with_buttons()
            await t.press("dave", msg, find_button(msg, label)["callback_data"])
        msg = t.last_with_buttons()
        assert "alice 包自摸" in plain(msg.text)
        assert "包自摸：alice" in [b["text"] for b in msg.buttons]
        await t.press("dave", msg, find_button(msg, "✅ 記錄")["callback_data"])
        assert await _totals(t) == {"E": -2400, "S": 0, "W": 0, "N": 2400}
        # Off a discard: no 包自摸 to choose.
        await t.say("bob", "/hu")
        msg = t.last_with_buttons()
        await t.press("bob", msg, find_button(msg, "bob ← carol")["callback_data"])
        assert not any(b["text"].startswith("包自摸") for b in t.last_with_buttons().buttons)
        await t.press("bob", t.last_with_buttons(),
                      find_button(t.last_with_buttons(), "取消")["callback_data"])
        # Chosen on a self-draw, then the way changed to a discard: paid as a discard.
        await t.say("bob", "/hu")
        for label in ("bob 自摸", "5 番", "包自摸…", "carol", "糊法…", "← alice"):
            msg = t.last_with_buttons()
            await t.press("bob", msg, find_button(msg, label)["callback_data"])
        msg = t.last_with_buttons()
        assert "包自摸" not in plain(msg.text)
        await t.press("bob", msg, find_button(msg, "✅ 記錄")["callback_data"])
        assert await _totals(t) == {"E": -3600, "S": 2400, "W": -600, "N": 1800}


# What a night in Traditional Chinese hears: each action's replies (and the messages its
# press edited), what was typed, where in the night, and the alerts its presses answered.
Heard = Callable[[list[SentMessage], str, str, list[str]], None]


async def hong_kong_night_in_traditional(t: Chat, heard: Heard) -> list[SentMessage]:
    """A whole Hong Kong night in a zh-Hant chat (Hong Kong usage), typed and by buttons:
    seats by buttons; 出銃 by buttons; a hand below 三番起糊 refused typed and by buttons;
    包自摸 by buttons and typed; 搶槓 typed and by buttons; Details; a limit hand at the cap
    (爆棚); what looks back; /rules; then /end (its replies are returned), /debts,
    /standings and /settle. ``heard`` is told every reply as it comes."""
    async def say(who: str, text: str) -> list[SentMessage]:
        out = await t.say(who, text)
        heard(out, text, text, [])
        return out

    async def tap(who: str, label: str, msg: SentMessage | None = None) -> list[SentMessage]:
        msg = msg or t.last_with_buttons()
        answered = len(t.api.answered)
        out = await t.press(who, msg, find_button(msg, label)["callback_data"])
        alerts = [str(a.get("text") or "") for a in list(t.api.answered.values())[answered:]]
        heard([*out, msg], "", f"{label!r} pressed", alerts)
        return out

    async def totals() -> dict[str, int]:
        return await _totals(t)

    t.admin("alice")
    await say("alice", "/new 港式")
    seats = t.last_with_buttons()
    for who, seat in zip(("alice", "bob", "carol", "dave"), "東南西北", strict=True):
        await tap(who, seat, seats)
    # Hand 1 (alice deals), by buttons: bob wins 5番 off carol's discard (半銃, s = 6.00).
    await say("bob", "/hu")
    for label in ("bob ← carol", "5 番"):
        await tap("bob", label)
    out = await tap("bob", "✅ 記錄")
    assert any("carol 出銃，bob 食糊，報 5 番" in plain(m.text) for m in out), out
    assert await totals() == {"E": -600, "S": 2400, "W": -1200, "N": -600}
    # Below 三番起糊: refused typed and by buttons, nothing recorded.
    refused = await say("dave", "/hu dave 出銃 alice 2番")
    assert plain(refused[0].text).startswith("⚠️") and "3 番" in plain(refused[0].text)
    await say("dave", "/hu")
    for label in ("dave ← alice", "2 番"):
        await tap("dave", label)
    out = await tap("dave", "✅ 記錄")
    assert any(plain(m.text).startswith("⚠️") and "3 番" in plain(m.text) for m in out), out
    await tap("dave", "取消")
    assert await totals() == {"E": -600, "S": 2400, "W": -1200, "N": -600}
    # Hand 2 (bob deals), by buttons: dave self-draws 4番, alice fed his fourth meld and
    # pays the whole self-draw (包自摸, 6 shares of 4.00).
    await say("dave", "/hu")
    for label in ("dave 自摸", "4 番", "包自摸…", "alice"):
        await tap("dave", label)
    out = await tap("dave", "✅ 記錄")
    assert any("alice 包自摸" in plain(m.text) for m in out), out
    assert await totals() == {"E": -3000, "S": 2400, "W": -1200, "N": 1800}
    # Hand 3 (carol deals), typed: bob robs dave's kong, 對對糊 + 搶槓 = 4番; dave pays.
    out = await say("bob", "/hu bob 搶槓 dave 對對糊")
    assert "bob 搶 dave 的槓" in plain(out[0].text), out
    details = await tap("bob", "詳情", t.last_with_buttons())
    assert any("dave → bob 24.00" in plain(m.text) for m in details), details
    assert await totals() == {"E": -3000, "S": 4800, "W": -1200, "N": -600}
    # Hand 4 (dave deals), by buttons: carol robs bob's kong with 對對糊.
    await say("carol", "/hu")
    for label in ("carol…", "搶槓…", "bob", "對對糊"):
        await tap("carol", label)
    await tap("carol", "✅ 記錄")
    assert await totals() == {"E": -3000, "S": 2400, "W": 1200, "N": -600}
    # Hand 5 (alice deals), typed in Traditional: alice self-draws 對對糊 混一色 (7番,
    # s = 12.00) and carol, who fed her fourth meld, pays it all.
    out = await say("alice", "/hu alice 自摸 包 carol 對對糊 混一色")
    assert "carol 包自摸" in plain(out[0].text), out
    assert await totals() == {"E": 4200, "S": 2400, "W": -6000, "N": -600}
    # Hand 6 (alice deals again: 連莊): dave's 大四喜 is a limit hand, paid at 十番爆棚.
    out = await say("dave", "/hu dave 自摸 大四喜")
    assert "大四喜（爆棚牌），13 番（爆棚，按 10 番計）" in plain(out[0].text), out
    assert await totals() == {"E": -2200, "S": -4000, "W": -12400, "N": 18600}
    for command in ("/table", "/history", "/hand 5", "/stats @dave", "/rules"):
        out = await say("alice", command)
        assert "1860" not in plain(out[0].text), out  # money, never cents as points
    ended = await say("alice", "/end")
    for command in ("/debts", "/standings"):
        await say("alice", command)
    await say("alice", "/settle")
    await tap("alice", "✅ 已付")
    return ended


@pytest.mark.pictures  # the card is rasterized (tests/bot/conftest.py)
@pytest.mark.parametrize("backend", BACKENDS)
async def test_a_hong_kong_night_in_traditional_chinese(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, backend: str) -> None:
    """The night above on SQLite and PostgreSQL; the settle-up card drawn for real, in
    Traditional characters that the pictures' font draws."""
    import opencc

    figures = kept_figures(monkeypatch)
    async with handler_table_on(backend, tmp_path, "zh-hk", "hongkong_hant") as t:
        ended = await hong_kong_night_in_traditional(t, lambda *_: None)
        said = "\n".join(plain(m.text) for m in ended)
        assert "dave：+186.00" in said and "dave 付給" not in said, said
        assert "本場結束：共 6 盤" in said and "結賬：" in said, said
        photos = [m for m in ended if m.kind == "photo"]
        assert len(photos) == 2  # the night's chart, the card
        card = photos[1]
        with Image.open(io.BytesIO(card.data)) as png:
            assert png.size == drawing.CARD_SIZE
            assert len(png.convert("RGB").getcolors(1 << 16) or ()) > 16  # drawn, not blank
        drawn = [x.get_text() for x in figures[-1].findobj(Text) if x.get_text()]
        to_simplified = opencc.OpenCC("t2s")
        assert any(to_simplified.convert(x) != x for x in drawn), drawn  # Traditional
        assert "第 1 場 · 港式 · 6 盤 · 以元計" in drawn, drawn
        assert "麻雀記分" in drawn or "麻將記分" in drawn, drawn
        assert "+186.00" in drawn, drawn
        font = fonts.chosen()
        assert font.cjk and all(font.can_draw(x) for x in drawn), \
            [x for x in drawn if not font.can_draw(x)]
        assert t.api.errors == []



@pytest.mark.parametrize(("lang", "tier", "per_point"), [
    ("en", "stake tier 五一 (x2)", "per point"),
    ("zh-hans", "注码 五一（二五鸡的两倍）", "每分"),
    ("zh-hk", "注碼 五一（二五雞的兩倍）", "每分")])
async def test_set_at_a_hong_kong_chat_says_its_stake_tier(
        tmp_path: Path, lang: str, tier: str, per_point: str) -> None:
    """/set's answer at a Hong Kong chat says its stake tier (二五雞, 五一, 一二蚊), once,
    never a stake per point, which the share table does not use."""
    async with handler_table(tmp_path, lang=lang) as t:
        t.admin("alice")
        said = await _say(t, "alice", "/set preset 港式")
        assert "二五" in said and per_point not in said, said
        said = await _say(t, "alice", "/set stake 五一")
        assert tier in said and per_point not in said and said.count("五一") == 1, said
        await t.say("alice", NEW)
        said = await _say(t, "alice", "/set cap_fan=13")
        assert tier in said and per_point not in said, said
        assert "=13" in said, said
