"""The Mini App in a real browser (headless Debian chromium, Playwright's driver) against
the bot and the fake Bot API: forged init data sees nothing; valid init data reads the
board, which follows a report made in the chat; a hand entered by its tiles is answered
in the group, and undone. Few tests, each bounded by Playwright's timeouts."""

from __future__ import annotations

import asyncio
import time
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

import pytest

from bot.delivery.pipeline import pipeline_of as pipeline
from bot.webapp import auth
from tests.bot.harness import GROUP, plain
from tests.bot.webapp_browser import (
    DARK,
    LIGHT,
    PHONE,
    browser,
    launch_url,
    missing,
    opened,
    served,
)
from tests.bot.webapp_harness import app_table, init_data, seat_change_night, seated
from tests.databases import BACKENDS, postgres_database

pytestmark = pytest.mark.skipif(missing() is not None, reason=str(missing()))
TIMEOUT_MS = 15_000


async def test_forged_init_data_sees_nothing(tmp_path: Path) -> None:
    async with app_table(tmp_path) as t, served(t) as base, browser() as b:
        await seated(t)
        page = await b.new_page(viewport=PHONE)
        page.set_default_timeout(TIMEOUT_MS)
        forged = init_data(t, "alice").replace("alice", "mallory")
        await page.goto(launch_url(base, forged))
        await page.wait_for_selector("#fatal")
        assert "Telegram" in await page.inner_text("#fatal")
        assert await page.query_selector("#board") is None
        assert await page.is_hidden("nav")  # no strip of tabs over a refusal
        await page.goto(base + "/app/")  # no launch parameters at all
        await page.wait_for_selector("#fatal")


async def test_board_entry_by_tiles_and_undo(tmp_path: Path) -> None:
    async with app_table(tmp_path, "zh-Hans") as t, served(t) as base, browser() as b:
        await seated(t)
        page = await b.new_page(viewport=PHONE)
        page.set_default_timeout(TIMEOUT_MS)
        requested: list[str] = []
        page.on("request", lambda r: requested.append(r.url))
        # Telegram's mobile clients listen here: the page tells them it is ready
        await page.add_init_script("window.posted = []; window.TelegramWebviewProxy = "
                                   "{postEvent: (type, data) => window.posted.push(type)};")
        await page.goto(launch_url(base, init_data(t, "alice"), DARK))
        await page.wait_for_selector("#board tbody tr")
        assert "web_app_ready" in await page.evaluate("window.posted")
        names = await page.locator("#board tbody tr td:nth-child(2)").all_inner_texts()
        assert [n.split("庄")[0].strip() for n in names] == ["alice", "bob", "carol", "dave"]
        assert await page.evaluate("document.documentElement.classList.contains('dark')")
        assert await page.inner_text("nav") and "记分板" in await page.inner_text("nav")
        assert "玩家" in await page.inner_text("nav") and "人数" not in await page.inner_text("nav")
        assert await page.evaluate("(n => n.scrollWidth <= n.clientWidth)"  # all six tabs fit
                                   "(document.querySelector('nav'))")
        await page.evaluate("theme => window.Telegram.WebView.receiveEvent("
                            "'theme_changed', {theme_params: theme})", LIGHT)
        assert not await page.evaluate("document.documentElement.classList.contains('dark')")

        # a report made in the chat reaches the open board (it polls)
        await t.say("carol", "/hu carol 自摸 清一色")
        await page.wait_for_selector('#board tr[data-seat="W"] td[data-total="24"]')

        # a hand entered by its tiles: bob, off alice's discard, 七对 by its tiles
        await page.click('nav button[data-tab="enter"]')
        await page.click('button[data-winner="S"]')
        await page.click('button[data-how="discard"]')
        await page.click('button[data-from-seat="E"]')
        for tile in ["1p", "1p", "3p", "3p", "5p", "5p", "7p", "7p", "9p", "9p", "2s", "2s",
                     "4s", "4s"]:
            await page.click(f'#palette button[data-tile="{tile}"]')
        assert await page.locator("#picked .tile").count() == 14
        assert await page.locator("h3", has_text="手牌（14）").count() == 1  # full-width
        # Chengdu plays the three suits: no winds or dragons to tap
        assert await page.locator("#palette .tile").count() == 27
        assert await page.locator('#palette .tile[data-tile$="z"]').count() == 0
        assert "null" not in await page.inner_text("main")
        await page.click("#preview-button")
        await page.wait_for_selector("#preview-lines")
        assert "七对" in await page.inner_text("#preview-lines")
        assert (await t.ledger.open_nights.current_night(GROUP)).hands == 1  # nothing written yet
        before = len(t.api.outbox)
        await page.click("#record-button")
        await page.wait_for_selector("#board")  # back on the board once sent
        await pipeline(t.app).idle()
        said = [plain(m.text) for m in t.api.outbox[before:]]
        assert any(s.startswith("📱 alice: /hu bob 点炮 alice") for s in said), said
        assert any(s.startswith("第 1 盘：alice 点炮，bob 胡，七对") for s in said), said
        night = await t.ledger.open_nights.current_night(GROUP)
        assert night.totals["S"] == -8 + 4
        await page.wait_for_selector('#board tr[data-seat="S"] td[data-total="-4"]')

        # Undo from the app: the chat's /undo; the board comes back
        await page.click("#undo")
        await page.wait_for_selector('#board tr[data-seat="S"] td[data-total="-8"]')
        await pipeline(t.app).idle()
        assert (await t.ledger.open_nights.current_night(GROUP)).totals["S"] == -8

        # the night's hands, each with its explanation
        await page.click('nav button[data-tab="hands"]')
        await page.click('.hand[data-hand="1"]')
        assert "清一色" in await page.inner_text('.hand[data-hand="1"] .lines')
        pairs = page.locator('.hand[data-hand="1"] .deltas .pair')  # a name and its score
        assert await pairs.all_inner_texts() == ["alice -8", "bob -8", "carol +24", "dave -8"]
        assert await pairs.first.evaluate("e => getComputedStyle(e).whiteSpace") == "nowrap"
        lines = page.locator('.hand[data-hand="1"] .lines .pair')  # in the explanation too
        assert "本次：carol +24" in await lines.all_inner_texts()
        assert requested and all(u.startswith(base + "/app/") for u in requested), requested


async def test_two_winners_a_kong_and_the_walls_end_by_taps(tmp_path: Path) -> None:
    async with app_table(tmp_path) as t, served(t) as base, browser() as b:
        await seated(t)
        page, errors = await opened(b, launch_url(base, init_data(t, "alice")))
        # all six tabs fit a phone's width (390 px) in English: none cut off, no scrolling
        assert await page.evaluate("(n => n.scrollWidth <= n.clientWidth)"
                                   "(document.querySelector('nav'))")
        assert await page.inner_text('nav button[data-tab="enter"]') == "Enter"
        await page.set_viewport_size({"width": 360, "height": 640})  # a narrower phone too
        assert await page.evaluate("(n => n.scrollWidth <= n.clientWidth)"
                                   "(document.querySelector('nav'))")
        await page.click('nav button[data-tab="enter"]')

        async def preview(expected: str) -> None:
            """Press Preview and wait for its answer to read ``expected`` (the previous
            preview stays on the page until the new one arrives)."""
            from playwright.async_api import expect

            await page.click("#preview-button")
            await expect(page.locator("#preview .hint")).to_have_text(expected)

        await page.click('button[data-winner="S"]')
        await page.click('button[data-how="discard"]')
        await page.click('button[data-from-seat="W"]')
        await page.click('#patterns button[data-pattern="七对"]')
        await page.click('button[data-also="N"]')
        await page.click('[data-also-patterns="N"] button:text-is("清一色")')
        await preview("/hu bob from carol 七对, dave 清一色")
        await page.click('button[data-kind="kong"]')
        await page.click('button[data-winner="E"]')
        await page.click('button[data-kong="concealed"]')
        await preview("/kong alice 暗杠")
        await page.click('button[data-kind="draw"]')
        await page.click('[data-draw-seat="S"] button[data-state="ready"]')
        await page.click('[data-draw-seat="W"] button[data-state="pig"]')
        await preview("/draw alice 未听, bob 听 1, carol 花猪, dave 未听")
        assert errors == [] and "null" not in await page.inner_text("main")
        assert (await t.ledger.open_nights.current_night(GROUP)).hands == 0  # previews write none


async def test_a_seat_change_on_the_board_hands_and_chart(tmp_path: Path) -> None:
    """carol leaves and dave sits down: the board shows carol's points as having left, the
    hands name who played each, and the chart draws a line per person."""
    async with app_table(tmp_path, "zh-Hans") as t, served(t) as base, browser() as b:
        await seat_change_night(t)
        page, errors = await opened(b, launch_url(base, init_data(t, "bob")),
                                    '#board tr[data-seat="W"] td[data-total="4"]')
        assert "dave" in await page.inner_text('#board tr[data-seat="W"]')
        gone = await page.inner_text('#board tr[data-left="carol"]')
        assert "已离席" in gone and "-13" in gone, gone

        await page.click('nav button[data-tab="hands"]')
        await page.wait_for_selector('.hand[data-hand="3"]')
        pairs = page.locator('.hand[data-hand="2"] .deltas .pair')
        assert await pairs.all_inner_texts() == ["alice +16", "bob -10", "carol -6"]
        pairs = page.locator('.hand[data-hand="3"] .deltas .pair')
        assert await pairs.all_inner_texts() == ["alice -3", "bob -1", "dave +4"]

        await page.click('nav button[data-tab="chart"]')
        await page.wait_for_selector("#chart")
        assert await page.locator("#chart polyline").count() == 4  # a line per person
        assert await page.locator('#chart polyline[data-line="carol"]').get_attribute(
            "points") != await page.locator('#chart polyline[data-line="dave"]').get_attribute(
            "points")
        legend = await page.inner_text(".legend")
        assert "carol（已离席）" in legend and "dave" in legend, legend
        # each person's line in a colour of its own, their legend sample in the same
        drawn = await page.eval_on_selector_all("#chart polyline", "ps => ps.map(p => [\
p.dataset.line, getComputedStyle(p).stroke])")
        strokes = dict(drawn)
        assert len(set(strokes.values())) == len(strokes) == 4, drawn
        assert "none" not in strokes.values(), drawn
        samples = await page.eval_on_selector_all(".legend i", "is => is.map(i => \
getComputedStyle(i).borderTopColor)")
        assert samples == list(strokes.values()), (samples, drawn)
        assert errors == [] and "null" not in await page.inner_text("main")


@pytest.mark.parametrize("backend", BACKENDS)
async def test_a_double_click_on_record_records_once(tmp_path: Path, backend: str) -> None:
    """At a Chengdu table where carol's self-draw ends hand 2, a mouse double click on
    Record: one request (Record is disabled while it is out), hand 2 ends, no phantom hand
    3, one line in the group. Then an answer lost on the way back: Record again sends the
    same key, and the app is told "already recorded"; the hand is recorded once."""
    async with AsyncExitStack() as stack:
        url = await stack.enter_async_context(postgres_database("appclick")) \
            if backend == "postgres" else None
        t = await stack.enter_async_context(app_table(tmp_path, url=url))
        base = await stack.enter_async_context(served(t))
        b = await stack.enter_async_context(browser())
        await seated(t)
        for who in ("alice", "bob", "dave"):  # hand 1: three win, it ends
            await t.say(who, f"/hu {who} 自摸")
        for who in ("bob", "dave"):  # hand 2: alice and carol still in
            await t.say(who, f"/hu {who} 自摸")
        await pipeline(t.app).idle()
        page = await b.new_page(viewport=PHONE)
        page.set_default_timeout(TIMEOUT_MS)
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        posted: list[str] = []
        page.on("request", lambda r: posted.append(r.url) if r.url.endswith("/api/record")
                else None)
        release = asyncio.Event()

        async def hold(route: Any) -> None:  # the answer waits: Record's request is out
            await release.wait()
            await route.continue_()

        await page.route("**/api/record", hold)
        await page.goto(launch_url(base, init_data(t, "carol")))
        await page.wait_for_selector("#board")
        await page.click('nav button[data-tab="enter"]')
        await page.click('button[data-winner="W"]')
        await page.click('#patterns button[data-pattern="清一色"]')
        await page.click("#preview-button")
        await page.wait_for_selector("#preview-lines")
        before = await t.ledger.open_nights.current_night(GROUP)
        assert before.open_hand == 2 and before.still_in == ("E", "W")
        outbox = len(t.api.outbox)
        await page.dblclick("#record-button")
        await page.wait_for_selector("#record-button[disabled]")
        assert await page.is_disabled("#preview-button")
        release.set()
        await page.wait_for_selector("#board")  # back on the board once sent
        await pipeline(t.app).idle()
        assert len(posted) == 1, posted
        after = await t.ledger.open_nights.current_night(GROUP)
        assert (after.hands, after.open_hand) == (2, None)  # hand 2 ended; no hand 3
        assert after.totals["W"] - before.totals["W"] == 8  # 清一色, off alice alone
        echoes = [plain(m.text) for m in t.api.outbox[outbox:] if m.text.startswith("📱")]
        assert echoes == ["📱 carol: /hu carol self 清一色"], echoes

        # hand 3: the answer to Record is lost on the way back; Record again is the same
        # report (the same key), and the server says it was already recorded
        from playwright.async_api import expect

        lost: list[int] = []

        async def lose_once(route: Any) -> None:
            if lost:
                await route.continue_()
                return
            lost.append((await route.fetch()).status)  # the bot answers; the app never hears
            await route.abort()

        await page.unroute("**/api/record")
        await page.route("**/api/record", lose_once)
        await page.click('nav button[data-tab="enter"]')
        await page.click('button[data-winner="W"]')
        await page.click("#record-button")
        await page.wait_for_selector("#preview-error")
        assert lost == [200]
        assert await page.inner_text("#preview-error") == "Something went wrong; try again."
        await page.click("#record-button")
        await expect(page.locator("#toast")).to_have_text(
            "Already recorded: this was sent to the group once, and is not sent again.")
        await pipeline(t.app).idle()
        third = await t.ledger.open_nights.current_night(GROUP)
        assert (third.hands, third.open_hand) == (3, 3)
        echoes = [plain(m.text) for m in t.api.outbox if m.text.startswith("📱")]
        assert len(echoes) == 2 and echoes[1].startswith("📱 carol: /hu carol self"), echoes
        assert len(posted) == 3 and errors == []


async def test_the_app_says_when_it_must_be_reopened(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """The board says when the bot does not answer, and once the init data passes its
    maximum age (a night outlasts its hour) says that the app must be reopened and how,
    with no totals left on the page and no tabs."""
    skew = [0.0]

    class Clock:  # the server's clock, an hour on when the test says so
        @staticmethod
        def time() -> float:
            return time.time() + skew[0]

    monkeypatch.setattr(auth, "time", Clock)
    async with app_table(tmp_path, "zh-Hans") as t, served(t) as base, browser() as b:
        await seated(t)
        await t.say("bob", "/hu bob 自摸 清一色")
        page = await b.new_page(viewport=PHONE)
        page.set_default_timeout(TIMEOUT_MS)
        await page.goto(launch_url(base, init_data(t, "alice")))
        await page.wait_for_selector('#board tr[data-seat="S"] td[data-total="24"]')
        assert await page.is_visible("nav") and await page.is_hidden("#offline")

        # the bot away: said above the totals, until it answers again
        await page.route("**/api/board", lambda route: route.abort())
        await page.wait_for_selector("#offline", state="visible")
        assert await page.inner_text("#offline") == "机器人没有回应：这些分数可能不是最新的。"
        await page.unroute("**/api/board")
        await page.wait_for_selector("#offline", state="hidden")

        skew[0] = 3700  # more than init_data_max_age_seconds (3600) since it was opened
        await page.wait_for_selector("#fatal")
        assert await page.inner_text("#fatal") == (
            "小程序打开太久，Telegram 的登录已过期：请关掉它，再从群里打开（记分板上的 📱 "
            "按钮，或在群里发 /app）。")
        assert await page.query_selector("#board") is None  # no stale totals
        assert await page.is_hidden("nav") and await page.is_hidden("#offline")
