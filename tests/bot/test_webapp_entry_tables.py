"""The Mini App's entry form at a Singapore table (a tai count, bonus tiles) and at a
points-only table (the amount): the form becomes the report a player would type."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot.delivery.pipeline import pipeline_of as pipeline
from tests.bot.harness import GROUP
from tests.bot.webapp_browser import PHONE, browser, launch_url, missing, served
from tests.bot.webapp_harness import app_table, auth, client, init_data, keyed, seated


async def test_a_singapore_win_by_its_tai_count(tmp_path: Path) -> None:
    async with app_table(tmp_path) as t, client(t) as c:
        await seated(t, "singapore")
        h = auth(init_data(t, "bob"))
        entry = (await c.get("/app/api/entry", headers=h)).json()
        assert entry["tai"] == [1, 5] and "cat" in entry["bonus"] and not entry["amount"]
        form = {"winner": "S", "how": "discard", "from_seat": "W", "tai": 2}
        preview = (await c.post("/app/api/preview", headers=h, json=form)).json()
        assert preview["text"] == "/hu bob from carol 2 tai"
        assert preview["deltas"] == {"E": 0, "S": 160, "W": -160, "N": 0}  # cents: 2×0.40+0.80
        # patterns with bonus tiles: 对对胡 (2) and a cat (1), self-drawn: 1.60 from each
        form = {"winner": "S", "how": "self_draw", "patterns": ["对对胡"], "bonus": ["cat"]}
        preview = (await c.post("/app/api/preview", headers=h, json=form)).json()
        assert preview["deltas"] == {"E": -160, "S": 480, "W": -160, "N": -160}
        bad = await c.post("/app/api/preview", headers=h, json={**form, "bonus": ["dog"]})
        assert bad.status_code == 400  # not a bonus tile: the form itself is refused
        r = await c.post("/app/api/record", headers=h,
                         json=keyed({"winner": "S", "how": "discard", "from_seat": "W",
                                     "tai": 2}))
        assert r.status_code == 200, r.text
        await pipeline(t.app).idle()
        night = await t.ledger.open_nights.current_night(GROUP)
        assert night.totals == {"E": 0, "S": 160, "W": -160, "N": 0}


async def test_a_points_only_win_by_its_amount(tmp_path: Path) -> None:
    async with app_table(tmp_path) as t, client(t) as c:
        await seated(t, "free")
        h = auth(init_data(t, "bob"))
        entry = (await c.get("/app/api/entry", headers=h)).json()
        assert entry["amount"] and entry["tai"] is None and entry["patterns"] == []
        form = {"winner": "S", "how": "self_draw", "amount": 8}
        preview = (await c.post("/app/api/preview", headers=h, json=form)).json()
        assert preview["deltas"] == {"E": -8, "S": 24, "W": -8, "N": -8}
        assert (await c.post("/app/api/preview", headers=h,
                             json={**form, "amount": 0})).status_code == 400
        # a tai count belongs to Singapore tables: refused in the app's words
        r = await c.post("/app/api/preview", headers=h, json={**form, "tai": 2})
        assert r.status_code == 422 and "Singapore" in r.json()["message"]


def _collect(errors: list[str]) -> Callable[[Any], None]:
    """A page's error handler that keeps what it says."""
    return lambda e: errors.append(str(e))


@pytest.mark.skipif(missing() is not None, reason=str(missing()))
async def test_the_form_by_taps_at_both_tables(tmp_path: Path) -> None:
    """In a real browser: Singapore's tai and bonus-tile buttons, then a points-only
    table's amount box, each previewed as the report the chat would read."""
    from playwright.async_api import expect

    for preset, taps, expected in (
            ("singapore", ['button[data-winner="S"]', 'button[data-how="discard"]',
                           'button[data-from-seat="W"]', '#tai button[data-tai="3"]'],
             "/hu bob from carol 3 tai"),
            ("free", ['button[data-winner="S"]', 'button[data-how="self_draw"]'],
             "/hu bob self 8")):
        async with app_table(tmp_path / preset) as t, served(t) as base, browser() as b:
            await seated(t, preset)
            page = await b.new_page(viewport=PHONE)
            errors: list[str] = []
            page.on("pageerror", _collect(errors))
            await page.goto(launch_url(base, init_data(t, "bob")))
            await page.wait_for_selector("#board")
            await page.click('nav button[data-tab="enter"]')
            for tap in taps:
                await page.click(tap)
            if preset == "free":
                await page.fill("#amount", "8")
            await page.click("#preview-button")
            await expect(page.locator("#preview .hint")).to_have_text(expected)
            if preset == "singapore":  # patterns with a bonus tile instead of the count
                for tap in ('#tai button[data-tai="3"]', '#patterns button[data-pattern="对对胡"]',
                            '#bonus button[data-bonus="cat"]', "#preview-button"):
                    await page.click(tap)
                await expect(page.locator("#preview .hint")).to_have_text(
                    "/hu bob from carol 对对胡 cat")
            assert errors == []
