"""The Mini App's Hong Kong form: the 番 count (with its flower 番), the patterns by name,
or the tiles with the bonus tiles and the prevailing wind; 出銃 and 自摸, 包自摸 and 搶槓;
the share table of the table's tier and curve; amounts in dollars and cents; and in a
zh-Hant chat, Traditional Chinese. Counted by the chat's own grammar and engine, recorded
through the chat (SQLite and PostgreSQL)."""

from __future__ import annotations

from contextlib import AsyncExitStack
from pathlib import Path

import pytest

from bot.delivery.pipeline import pipeline_of as pipeline
from tests.bot.harness import GROUP, plain
from tests.bot.webapp_browser import browser, launch_url, missing, opened, served
from tests.bot.webapp_harness import app_table, auth, client, init_data, keyed, seated
from tests.databases import BACKENDS, postgres_database

# The golden cases of docs/rules/hongkong.md (二五雞, 半辣上, 半銃): the form, the command
# a zh-Hant chat's player would type, and each seat's change in cents.
CASES = [
    ({"winner": "S", "how": "self_draw", "fan": 3}, "/hu bob 自摸 3番",
     {"E": -400, "S": 1200, "W": -400, "N": -400}),  # HK1
    ({"winner": "W", "how": "discard", "from_seat": "N", "fan": 3}, "/hu carol 出銃 dave 3番",
     {"E": -200, "S": -200, "W": 800, "N": -400}),  # HK2
    ({"winner": "N", "how": "discard", "from_seat": "S", "fan": 5}, "/hu dave 出銃 bob 5番",
     {"E": -600, "S": -1200, "W": -600, "N": 2400}),  # HK5
    ({"winner": "N", "how": "self_draw", "fan": 4, "feeder": "W"}, "/hu dave 自摸 4番 包 carol",
     {"E": 0, "S": 0, "W": -2400, "N": 2400}),  # HK10, 包自摸
    ({"winner": "S", "how": "rob_kong", "from_seat": "E", "fan": 3}, "/hu bob 搶槓 alice 3番",
     {"E": -1200, "S": 1200, "W": 0, "N": 0}),  # HK11, 搶槓
    ({"winner": "S", "how": "self_draw", "patterns": ["對對糊", "混一色"]},
     "/hu bob 自摸 對對糊 混一色", {"E": -2400, "S": 7200, "W": -2400, "N": -2400}),
    # the tiles with the seat flower (bob sits South: 2f) and a season, prevailing South
    ({"winner": "S", "how": "self_draw", "melds": [["1m"] * 3],
      "tiles": ["3m"] * 3 + ["5m"] * 3 + ["7m"] * 3 + ["1z"] * 2, "flowers": ["3g", "2f"],
      "wind": "S"}, "/hu bob 自摸 333555777m 11z [111m] 花 2f3g 圈風 南",
     {"E": -3200, "S": 9600, "W": -3200, "N": -3200}),
]


async def test_each_way_of_saying_a_win_in_a_hong_kong_chat(tmp_path: Path) -> None:
    """A zh-Hant chat: the app speaks Traditional Chinese even to a zh-hans Telegram; each
    form is the chat's own /hu, and counts as the golden cases."""
    async with app_table(tmp_path, "zh-Hant") as t, client(t) as c:
        await seated(t, "hongkong")
        h = auth(init_data(t, "bob", lang="zh-hans"))
        me = (await c.get("/app/api/me", headers=h)).json()
        assert me["lang"] == "zh-Hant" and me["strings"]["fan_count"] == "番數（代替番種或手牌）"
        entry = (await c.get("/app/api/entry", headers=h)).json()
        assert [x["label"] for x in entry["hows"]] == ["自摸", "出銃", "搶槓", "槓上花"]
        assert entry["shares"]["title"] == "單份（按番數，二五雞、半辣上）："
        assert entry["shares"]["rows"][0] == {"fan": 3, "share": "2.00", "self_draw": "4.00",
                                              "discard": "8.00"}
        assert entry["shares"]["rows"][-1]["fan"] == 10 and entry["cents"]
        assert entry["seat_winds"] == {"E": "東", "S": "南", "W": "西", "N": "北"}
        assert "對對糊" in entry["patterns"]
        board = (await c.get("/app/api/board", headers=h)).json()
        assert board["seats"][0]["shown"] == "0.00"
        for form, text, deltas in CASES:
            r = await c.post("/app/api/preview", headers=h, json=form)
            assert r.status_code == 200, (form, r.text)
            assert r.json()["text"] == text and r.json()["deltas"] == deltas, form
        # HK9: 3番 of which one is flower 番: under 三番起糊, refused in the chat's words
        r = await c.post("/app/api/preview", headers=h, json={
            "winner": "W", "how": "discard", "from_seat": "N", "fan": 3, "flower_fan": 1})
        assert r.status_code == 422 and "起糊" in r.json()["message"]
        # 包自摸 is a self-draw's; 番 belong to Hong Kong tables
        r = await c.post("/app/api/preview", headers=h, json={
            "winner": "W", "how": "discard", "from_seat": "N", "fan": 3, "feeder": "S"})
        assert r.status_code == 422 and "包自摸" in r.json()["message"]
        assert (await t.ledger.open_nights.current_night(GROUP)).hands == 0
    async with app_table(tmp_path / "en") as t, client(t) as c:
        await seated(t, "hongkong")
        h = auth(init_data(t, "bob"))
        r = (await c.post("/app/api/preview", headers=h, json=CASES[3][0])).json()
        assert r["text"] == "/hu dave self fan 4 feeder carol"
        assert r["shown"] == {"E": "0.00", "S": "0.00", "W": "-24.00", "N": "+24.00"}
    async with app_table(tmp_path / "cd") as t, client(t) as c:
        await seated(t)
        r = await c.post("/app/api/preview", headers=auth(init_data(t, "bob")),
                         json={"winner": "S", "how": "self_draw", "fan": 3})
        assert r.status_code == 422 and "Hong Kong" in r.json()["message"]


@pytest.mark.parametrize("backend", BACKENDS)
async def test_a_hong_kong_win_recorded_as_the_chat_records_it(tmp_path: Path,
                                                               backend: str) -> None:
    async with AsyncExitStack() as stack:
        url = await stack.enter_async_context(postgres_database("apphk")) \
            if backend == "postgres" else None
        t = await stack.enter_async_context(app_table(tmp_path, "zh-Hant", url=url))
        c = await stack.enter_async_context(client(t))
        await seated(t, "hongkong")
        h = auth(init_data(t, "carol"))
        form, text, deltas = CASES[3]  # 包自摸
        assert isinstance(form, dict) and isinstance(text, str)
        before = len(t.api.outbox)
        body = keyed(form)
        r = await c.post("/app/api/record", headers=h, json=body)
        assert r.status_code == 200 and r.json()["sent"] == text
        again = await c.post("/app/api/record", headers=h, json=body)
        assert again.json()["already"] is True
        await pipeline(t.app).idle()
        night = await t.ledger.open_nights.current_night(GROUP)
        assert night.hands == 1 and night.totals == deltas
        said = t.api.outbox[before:]
        echo = next(m for m in said if m.text.startswith("📱"))
        assert plain(echo.text) == "📱 carol: " + text
        assert sum(m.text.startswith("📱") for m in said) == 1
        answer = next(m for m in said if m.reply_to == echo.message_id)
        assert "包自摸" in plain(answer.text) and "24.00" in plain(answer.text)
        await t.say("carol", "/undo")
        typed = await t.say("carol", text)  # the same report typed: the same answer
        assert plain(typed[0].text) == plain(answer.text)


@pytest.mark.skipif(missing() is not None, reason=str(missing()))
async def test_a_hong_kong_win_by_taps_in_traditional_chinese(tmp_path: Path) -> None:
    """In a real browser, in a zh-Hant chat: the page in Traditional Chinese with the share
    table; bob taps his tiles with a pung, two bonus tiles and the prevailing wind (South),
    previews it in dollars, records it; the group answers and the ledger has it."""
    from playwright.async_api import expect

    async with app_table(tmp_path, "zh-Hant") as t, served(t) as base, browser() as b:
        await seated(t, "hongkong")
        page, errors = await opened(b, launch_url(base, init_data(t, "bob")))
        assert await page.evaluate("document.documentElement.lang") == "zh-Hant"
        assert "0.00" in await page.inner_text('#board tr[data-seat="S"]')
        await page.click('nav button[data-tab="enter"]')
        await expect(page.locator("#hk-shares tbody tr")).to_have_count(8)  # 3 to 10 番
        assert "單份" in await page.inner_text("main")
        assert "東" in await page.inner_text("#hk-seat-winds")
        for tap in ['button[data-winner="S"]', 'button[data-how="self_draw"]',
                    'button[data-target="melds"]', *['#palette button[data-tile="1m"]'] * 3,
                    'button[data-target="tiles"]',
                    *(f'#palette button[data-tile="{x}"]' for x in
                      ["3m"] * 3 + ["5m"] * 3 + ["7m"] * 3 + ["1z"] * 2),
                    '#hk-flowers button[data-flower="2f"]', '#hk-flowers button[data-flower="3g"]',
                    '#hk-wind button[data-wind="S"]']:
            await page.click(tap)
        await page.click("#preview-button")
        await expect(page.locator("#preview .hint")).to_have_text(
            "/hu bob 自摸 333555777m 11z [111m] 花 2f3g 圈風 南")
        assert "null" not in await page.inner_text("main")
        assert await page.locator("#preview .deltas .pair").all_inner_texts() == [
            "alice -32.00", "bob +96.00", "carol -32.00", "dave -32.00"]
        assert "對對糊" in await page.inner_text("#preview-lines")
        # or by its count: 8 番 picked out in the share table
        await page.click('#hk-fan button[data-fan="8"]')
        assert await page.locator('#hk-shares tr.sel[data-fan="8"]').count() == 1
        await page.click('#hk-fan button[data-fan="8"]')  # tapped again: no count
        before = len(t.api.outbox)
        await page.click("#record-button")
        await page.wait_for_selector('#board tr[data-seat="S"] td[data-total="9600"]')
        await pipeline(t.app).idle()
        said = [plain(m.text) for m in t.api.outbox[before:]]
        assert said[0] == "📱 bob: /hu bob 自摸 333555777m 11z [111m] 花 2f3g 圈風 南", said
        assert any(s.startswith("第 1 盤：bob 自摸，對對糊、混一色、自摸、正花，8 番")
                   and "bob +96.00" in s for s in said[1:]), said
        assert "+96.00" in await page.inner_text('#board tr[data-seat="S"]')
        night = await t.ledger.open_nights.current_night(GROUP)
        assert night.totals == {"E": -3200, "S": 9600, "W": -3200, "N": -3200}
        assert errors == []
