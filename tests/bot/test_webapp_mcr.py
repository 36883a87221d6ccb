"""The Mini App's Chinese Official (MCR) form: the standing tiles, melds with the seat each
was claimed from (or concealed), the winning tile, self-draw or discard, the flags and the
flowers, or the fan count alone; the match's round, hand and seat winds; and the 8-fan
gate: a claim under it is offered as a false win (错和), recorded only as one, never as a
win. Counted by the chat's own grammar and engine (SQLite and PostgreSQL)."""

from __future__ import annotations

from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

import pytest

from bot.delivery.pipeline import pipeline_of as pipeline
from bot.webapp import entry_mcr
from tests.bot.harness import GROUP, plain
from tests.bot.webapp_browser import browser, launch_url, missing, opened, served
from tests.bot.webapp_harness import app_table, auth, client, init_data, keyed, seated
from tests.databases import BACKENDS, postgres_database


def hand(winner: str, how: str, standing: str, win: str, melds: list[dict[str, Any]],
         from_seat: str | None = None, **mcr: Any) -> dict[str, Any]:
    """A form: ``standing`` as tile codes (``55m 456p``), the winning tile, the melds."""
    tiles = [f"{r}{w[-1]}" for w in standing.split() for r in w[:-1]]
    return {"winner": winner, "how": how, "from_seat": from_seat, "tiles": tiles,
            "mcr": {"melds": melds, "winning_tile": win, **mcr}}


# GB1: S wins off W, 吃 123m, 55m 456p 23789s + 4s: 花龙 8, 平和 2
GB1 = hand("S", "discard", "55m 456p 23789s", "4s",
           [{"kind": "chow", "tiles": ["1m", "2m", "3m"]}], "W")
# GB6: S wins off N: 碰 中中中 from E, 碰 发发发 from N; 234m 55p 白白 + 白: 大三元 88, 缺一门 1
GB6 = hand("S", "discard", "234m 55p 55z", "5z",
           [{"kind": "pung", "tiles": ["7z"] * 3, "from_seat": "E"},
            {"kind": "pung", "tiles": ["6z"] * 3, "from_seat": "N"}], "N")
# GB8: E claims a win off S, 4 flowers: 10 fan, 6 without flowers: under the gate
GB8 = hand("E", "discard", "567m 456p 2267s", "5s",
           [{"kind": "chow", "tiles": ["2m", "3m", "4m"]}], "S", flowers=4)


async def test_the_form_offers_the_match_and_counts_as_the_chat(tmp_path: Path) -> None:
    async with app_table(tmp_path) as t, client(t) as c:
        await seated(t, "mcr")
        h = auth(init_data(t, "bob"))
        entry = (await c.get("/app/api/entry", headers=h)).json()
        assert entry["family"] == "mcr" and entry["kongs"] == [] and entry["bites"] == []
        assert entry["tiles"][-7:] == [f"{n}z" for n in range(1, 8)]  # winds and dragons
        assert entry["match"] == {"round": "East round", "hand": 1, "number": 1, "gate": 8,
                                  "winds": {"E": "East", "S": "South", "W": "West",
                                            "N": "North"}, "dealer": "E"}
        assert (await c.get("/app/api/board", headers=h)).json()["match"] == entry["match"]
        r = (await c.post("/app/api/preview", headers=h, json=GB1)).json()
        assert r["text"] == "/hu bob from carol chow123m 55m 456p 23789s +4s"
        assert r["deltas"] == {"E": -8, "S": 34, "W": -18, "N": -8} and not r["false_win"]
        assert any("花龙 Mixed Straight" in line for line in r["lines"])
        r = (await c.post("/app/api/preview", headers=h, json=GB6)).json()
        assert r["text"] == "/hu bob from dave pung777z@alice pung666z@dave 234m 55p 55z +5z"
        assert r["deltas"] == {"E": -8, "S": 113, "W": -8, "N": -97}
        # the fan count alone, with flowers; flags
        r = (await c.post("/app/api/preview", headers=h, json={
            "winner": "S", "how": "self_draw", "mcr": {"fan": 12, "flowers": 2}})).json()
        assert r["text"] == "/hu bob self fan 12 flowers 2"
        assert r["deltas"] == {"E": -20, "S": 60, "W": -20, "N": -20}
        r = (await c.post("/app/api/preview", headers=h, json={
            **GB1, "mcr": {**GB1["mcr"], "last_tile": True}})).json()
        # 和绝张 4 fan: off a discard, the discarder alone pays the fan
        assert r["text"].endswith("+4s last-tile") and r["deltas"]["S"] == 34 + 4
        # a pung without its source, a chow that is no run, a fifth tile: said, not sent
        bad = [{**GB6, "mcr": {**GB6["mcr"], "melds": [{"kind": "pung", "tiles": ["7z"] * 3}]}},
               {**GB1, "mcr": {**GB1["mcr"], "melds": [{"kind": "chow",
                                                       "tiles": ["1m", "2m", "4m"]}]}},
               {**GB1, "mcr": {**GB1["mcr"], "winning_tile": None}},
               {**GB1, "tiles": ["1m"] * 4}]
        for form in bad:
            r = await c.post("/app/api/preview", headers=h, json=form)
            assert r.status_code == 422 and r.json()["message"], form
        assert (await t.ledger.open_nights.current_night(GROUP)).hands == 0


async def test_the_form_in_chinese(tmp_path: Path) -> None:
    async with app_table(tmp_path, "zh-Hans") as t, client(t) as c:
        await seated(t, "mcr")
        h = auth(init_data(t, "bob", lang="zh-hans"))
        r = (await c.post("/app/api/preview", headers=h, json={
            **GB6, "mcr": {**GB6["mcr"], "flowers": 1, "last_of_wall": True}})).json()
        assert r["text"] == ("/hu bob 点炮 dave 碰777z@alice 碰666z@dave 234m 55p 55z +5z 花1 "
                             "海底捞月")
        assert any("海底捞月" in line for line in r["lines"])
        entry = (await c.get("/app/api/entry", headers=h)).json()
        assert entry["match"]["round"] == "东风圈" and entry["match"]["winds"]["S"] == "南"
        r = await c.post("/app/api/preview", headers=h, json={"winner": "S", "how": "self_draw"})
        assert r.status_code == 422 and r.json()["message"] == "请点出手牌，或直接填番数。"


@pytest.mark.parametrize("backend", BACKENDS)
async def test_under_the_gate_a_false_win_never_a_win(tmp_path: Path, backend: str) -> None:
    """GB8 from the app: Record alone is refused (the gate said), nothing written; recorded
    as 错和 it is the chat's false win (−30/+10/+10/+10), the hand goes on and alice may
    not win in it; bob's win from the app then ends it."""
    async with AsyncExitStack() as stack:
        url = await stack.enter_async_context(postgres_database("appmcr")) \
            if backend == "postgres" else None
        t = await stack.enter_async_context(app_table(tmp_path, url=url))
        c = await stack.enter_async_context(client(t))
        await seated(t, "mcr")
        h = auth(init_data(t, "alice"))
        r = (await c.post("/app/api/preview", headers=h, json=GB8)).json()
        assert r["false_win"] and r["deltas"] == {"E": -30, "S": 10, "W": 10, "N": 10}
        before = len(t.api.outbox)
        r = await c.post("/app/api/record", headers=h, json=keyed(GB8))
        assert r.status_code == 422 and r.json()["error"] == "under_gate"
        await pipeline(t.app).idle()
        assert len(t.api.outbox) == before
        assert (await t.ledger.open_nights.current_night(GROUP)).totals == dict.fromkeys("ESWN", 0)
        confirmed = {**GB8, "mcr": {**GB8["mcr"], "false_win": True}}
        r = await c.post("/app/api/record", headers=h, json=keyed(confirmed))
        assert r.status_code == 200, r.text
        await pipeline(t.app).idle()
        said = [plain(m.text) for m in t.api.outbox[before:]]
        assert said[0] == "📱 alice: /hu alice from bob chow234m 567m 456p 2267s +5s flowers 4"
        assert "false win (错和)" in said[1] and "claims a win" in said[1], said
        night = await t.ledger.open_nights.current_night(GROUP)
        assert night.open_hand == 1 and night.hands == 1  # the hand goes on
        assert night.totals == {"E": -30, "S": 10, "W": 10, "N": 10}
        # alice may not win in this hand: the chat's refusal, in the app
        r = await c.post("/app/api/preview", headers=h, json={
            "winner": "E", "how": "self_draw", "mcr": {"fan": 20}})
        assert r.status_code == 422 and "may not win" in r.json()["message"]
        r = await c.post("/app/api/record", headers=auth(init_data(t, "bob")), json=keyed(GB1))
        assert r.status_code == 200
        await pipeline(t.app).idle()
        night = await t.ledger.open_nights.current_night(GROUP)
        assert not night.open_hand and night.hands == 1
        assert night.totals == {"E": -38, "S": 44, "W": -8, "N": 2}


@pytest.mark.skipif(missing() is not None, reason=str(missing()))
async def test_a_match_played_partly_from_the_app(tmp_path: Path) -> None:
    """In a real browser: hand 1 typed in the chat; in hand 2 alice taps a claim under the
    gate (the app says so, and Record becomes "Record as a false win"), records it as 错和,
    then taps bob's win with a chow; hand 3 is typed again. The ledger, the group's answers
    and the board's match line follow."""
    from playwright.async_api import expect

    async with app_table(tmp_path) as t, served(t) as base, browser() as b:
        await seated(t, "mcr")
        await t.say("bob", "/hu bob from carol 12番")
        page, errors = await opened(b, launch_url(base, init_data(t, "alice")))
        assert "hand 2 of 4 (2 of 16)" in await page.inner_text("#match")
        night = await t.ledger.open_nights.current_night(GROUP)
        match = entry_mcr.match_view("en", night)
        assert match is not None
        dealer = next(s for s, w in match["winds"].items() if w == "East")
        assert dealer != "E"  # the deal has moved on: the board's badge follows the match
        assert "dealer" in await page.inner_text(f'#board tr[data-seat="{dealer}"]')
        assert "dealer" not in await page.inner_text('#board tr[data-seat="E"]')

        async def tap(*selectors: str) -> None:
            for selector in selectors:
                await page.click(selector)

        def tiles(words: str) -> list[str]:
            return [f'#palette button[data-tile="{r}{w[-1]}"]' for w in words.split()
                    for r in w[:-1]]

        # alice's claim: 10 fan with 4 flowers, 6 without: under the gate
        await tap('nav button[data-tab="enter"]')
        assert "hand 2 of 4" in await page.inner_text("#mcr-match")
        assert await page.locator('#palette .tile[data-tile$="z"]').count() == 7
        await tap('button[data-winner="E"]', 'button[data-how="discard"]',
                  'button[data-from-seat="S"]', 'button[data-target="meld"]',
                  'button[data-meld-kind="chow"]', '#palette button[data-tile="2m"]',
                  'button[data-target="standing"]', *tiles("567m 456p 2267s"),
                  'button[data-target="winning"]', '#palette button[data-tile="5s"]',
                  *(f'button[data-flower="{f}"]' for f in ("f1", "f2", "f3", "f4")))
        assert await page.locator("#melds .meld .tile").count() == 3
        await page.click("#preview-button")
        await expect(page.locator("#preview .hint")).to_have_text(
            "/hu alice from bob chow234m 567m 456p 2267s +5s flowers 4")
        await expect(page.locator("#preview-gate")).to_be_visible()
        await expect(page.locator("#record-button")).to_have_text("Record as a false win (错和)")
        assert "null" not in await page.inner_text("main")
        before = len(t.api.outbox)
        await page.click("#record-button")
        await page.wait_for_selector('#board tr[data-seat="E"] td[data-total="-38"]')
        await pipeline(t.app).idle()
        said = [plain(m.text) for m in t.api.outbox[before:]]
        assert said[0].startswith("📱 alice: /hu alice from bob"), said
        assert any("alice claims a win" in s and "错和" in s for s in said[1:]), said
        night = await t.ledger.open_nights.current_night(GROUP)
        assert night.open_hand == 2 and night.totals == {"E": -38, "S": 46, "W": -10,
                                                             "N": 2}
        # bob's win in the same hand, by taps: chow 123m, 55m 456p 23789s + 4s off carol
        await tap('nav button[data-tab="enter"]', 'button[data-winner="S"]',
                  'button[data-how="discard"]', 'button[data-from-seat="W"]',
                  'button[data-target="meld"]', 'button[data-meld-kind="chow"]',
                  '#palette button[data-tile="1m"]', 'button[data-target="standing"]',
                  *tiles("55m 456p 23789s"), 'button[data-target="winning"]',
                  '#palette button[data-tile="4s"]')
        await page.click("#preview-button")
        await expect(page.locator("#preview .hint")).to_have_text(
            "/hu bob from carol chow123m 55m 456p 23789s +4s")
        await expect(page.locator("#record-button")).to_have_text("Record")
        await page.click("#record-button")
        await page.wait_for_selector('#board tr[data-seat="S"] td[data-total="80"]')
        await pipeline(t.app).idle()
        night = await t.ledger.open_nights.current_night(GROUP)
        assert night.hands == 2 and not night.open_hand
        assert night.totals == {"E": -46, "S": 80, "W": -28, "N": -6}
        await expect(page.locator("#match")).to_contain_text("hand 3 of 4 (3 of 16)")
        await t.say("dave", "/hu dave 自摸 8番")  # and the chat goes on
        await expect(page.locator("#match")).to_contain_text("hand 4 of 4 (4 of 16)")
        assert errors == []
