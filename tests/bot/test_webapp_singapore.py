"""The Mini App's Singapore instant payouts: bites (cat and rat, rooster and centipede, the
seat flower and season; hidden, paid double; from every other player or charged to one),
complete sets and kongs, written as the chat's /bite and /kong and recorded through the
chat's own path, once per idempotency key (SQLite and PostgreSQL)."""

from __future__ import annotations

import asyncio
from contextlib import AsyncExitStack
from pathlib import Path

import pytest

from bot.delivery.pipeline import pipeline_of as pipeline
from tests.bot.harness import GROUP, plain
from tests.bot.webapp_browser import browser, launch_url, missing, opened, served
from tests.bot.webapp_harness import app_table, auth, client, init_data, keyed, seated
from tests.databases import BACKENDS, postgres_database

# stake 20/40: u = 20 cents; each form, the command it becomes, and what each seat gets
CASES = [
    ({"kind": "bite", "winner": "S", "bite": "cat_rat"}, "/bite bob cat rat",
     {"E": -20, "S": 60, "W": -20, "N": -20}),
    ({"kind": "bite", "winner": "S", "bite": "cat_rat", "hidden": True},
     "/bite bob cat rat hidden", {"E": -40, "S": 120, "W": -40, "N": -40}),
    ({"kind": "bite", "winner": "S", "bite": "rooster_centipede", "from_seat": "W"},
     "/bite bob rooster centipede from carol", {"E": 0, "S": 20, "W": -20, "N": 0}),
    ({"kind": "bite", "winner": "E", "bite": "seat_flowers", "hidden": True,
      "from_seat": "N"}, "/bite alice seat flower hidden from dave",
     {"E": 40, "S": 0, "W": 0, "N": -40}),
    ({"kind": "bite", "winner": "N", "bite": "set_animals"}, "/bite dave set animals",
     {"E": -40, "S": -40, "W": -40, "N": 120}),
    ({"kind": "bite", "winner": "W", "bite": "set_seasons"}, "/bite carol set seasons",
     {"E": -40, "S": -40, "W": 120, "N": -40}),
    ({"kind": "kong", "winner": "N", "kong": "concealed"}, None,
     {"E": -40, "S": -40, "W": -40, "N": 120}),
    ({"kind": "kong", "winner": "S", "kong": "direct", "from_seat": "W"}, None,
     {"E": 0, "S": 60, "W": -60, "N": 0}),
]


async def test_each_bite_set_and_kong_previewed_as_the_chat_reads_it(tmp_path: Path) -> None:
    async with app_table(tmp_path) as t, client(t) as c:
        await seated(t, "singapore")
        h = auth(init_data(t, "bob"))
        entry = (await c.get("/app/api/entry", headers=h)).json()
        assert [b["bite"] for b in entry["bites"]] == [
            "cat_rat", "rooster_centipede", "seat_flowers", "set_flowers", "set_seasons",
            "set_animals"]
        assert entry["bites"][0]["label"] == "a bite (cat and rat)" and entry["cents"]
        assert [k["kong"] for k in entry["kongs"]] == ["concealed", "added", "direct"]
        for form, text, deltas in CASES:
            r = await c.post("/app/api/preview", headers=h, json=form)
            assert r.status_code == 200, (form, r.text)
            if text is not None:
                assert r.json()["text"] == text
            assert r.json()["deltas"] == deltas, form
            assert r.json()["shown"]["N"] == ("+" if deltas["N"] > 0 else "") + \
                f"{deltas['N'] / 100:.2f}"
        # a set is never hidden nor charged to one: the form drops neither silently
        r = await c.post("/app/api/preview", headers=h,
                         json={"kind": "bite", "winner": "S", "bite": "set_flowers",
                               "hidden": True})
        assert r.json()["text"] == "/bite bob set flowers"
        for bad in ({"kind": "bite", "winner": "S"},
                    {"kind": "bite", "winner": "S", "bite": "cat_rat", "from_seat": "S"}):
            r = await c.post("/app/api/preview", headers=h, json=bad)
            assert r.status_code == 422 and r.json()["message"], bad
        r = await c.post("/app/api/preview", headers=h,
                         json={"kind": "bite", "winner": "S", "bite": "dog"})
        assert r.status_code == 400
        assert (await t.ledger.open_nights.current_night(GROUP)).hands == 0


async def test_chinese_bites_and_none_at_other_tables(tmp_path: Path) -> None:
    async with app_table(tmp_path, "zh-Hans") as t, client(t) as c:
        await seated(t, "singapore")
        h = auth(init_data(t, "bob"))
        form = {"kind": "bite", "winner": "S", "bite": "cat_rat", "hidden": True,
                "from_seat": "W"}
        r = await c.post("/app/api/preview", headers=h, json=form)
        assert r.json()["text"] == "/yao bob 猫 鼠 暗 from carol"
        assert r.json()["deltas"] == {"E": 0, "S": 40, "W": -40, "N": 0}
        r = await c.post("/app/api/preview", headers=h,
                         json={"kind": "bite", "winner": "S", "bite": "set_flowers"})
        assert r.json()["text"] == "/yao bob 齐 花"
    async with app_table(tmp_path / "chengdu", "zh-Hans") as t, client(t) as c:
        await seated(t)
        h = auth(init_data(t, "bob"))
        assert (await c.get("/app/api/entry", headers=h)).json()["bites"] == []
        r = await c.post("/app/api/preview", headers=h,
                         json={"kind": "bite", "winner": "S", "bite": "cat_rat"})
        assert r.status_code == 422 and "新马" in r.json()["message"]


@pytest.mark.parametrize("backend", BACKENDS)
async def test_bites_recorded_once_as_the_chat_records_them(tmp_path: Path,
                                                            backend: str) -> None:
    """bob's hidden bite sent twice at once with one key: one event, one line in the group,
    answered as the same /bite typed in the chat is; then a set and a kong, and a win that
    keeps them."""
    async with AsyncExitStack() as stack:
        url = await stack.enter_async_context(postgres_database("appsg")) \
            if backend == "postgres" else None
        t = await stack.enter_async_context(app_table(tmp_path, url=url))
        c = await stack.enter_async_context(client(t))
        await seated(t, "singapore")
        h = auth(init_data(t, "bob"))
        body = keyed({"kind": "bite", "winner": "S", "bite": "cat_rat", "hidden": True})
        before = len(t.api.outbox)
        answers = await asyncio.gather(*(c.post("/app/api/record", headers=h, json=body)
                                         for _ in range(2)))
        await pipeline(t.app).idle()
        assert sorted("already" in r.json() for r in answers) == [False, True]
        night = await t.ledger.open_nights.current_night(GROUP)
        assert night.open_hand == 1 and night.totals == {"E": -40, "S": 120, "W": -40,
                                                             "N": -40}
        said = t.api.outbox[before:]
        echo = next(m for m in said if m.text.startswith("📱"))
        assert plain(echo.text) == "📱 bob: /bite bob cat rat hidden"
        assert sum(m.text.startswith("📱") for m in said) == 1
        answer = next(m for m in said if m.reply_to == echo.message_id)
        # the same bite typed in the chat, after an undo, is answered the same
        await t.say("bob", "/undo")
        typed = await t.say("bob", "/bite bob cat rat hidden")
        assert plain(typed[0].text) == plain(answer.text)
        await t.say("bob", "/undo")
        for form in ({"kind": "bite", "winner": "S", "bite": "cat_rat", "hidden": True},
                     {"kind": "bite", "winner": "N", "bite": "set_flowers"},
                     {"kind": "kong", "winner": "W", "kong": "added"},
                     {"winner": "E", "how": "discard", "from_seat": "S", "tai": 1}):
            r = await c.post("/app/api/record", headers=h, json=keyed(form))
            assert r.status_code == 200, r.text
            await pipeline(t.app).idle()
        night = await t.ledger.open_nights.current_night(GROUP)
        # bite 40×3; set 40×3; added kong 20×3; E wins 1 tai off S: 80
        assert night.hands == 1 and not night.open_hand
        assert night.totals == {"E": -40 - 40 - 20 + 80, "S": 120 - 40 - 20 - 80,
                                  "W": -40 - 40 + 60, "N": -40 + 120 - 20}


@pytest.mark.skipif(missing() is not None, reason=str(missing()))
async def test_a_hidden_bite_and_a_set_by_taps(tmp_path: Path) -> None:
    """In a real browser: bob taps a hidden cat-and-rat bite charged to carol, previews it
    (the command and the amounts in dollars), records it; the group answers, the ledger
    and the board have it; then dave's four flowers."""
    from playwright.async_api import expect

    async with app_table(tmp_path) as t, served(t) as base, browser() as b:
        await seated(t, "singapore")
        page, errors = await opened(b, launch_url(base, init_data(t, "bob")))
        await page.click('nav button[data-tab="enter"]')
        for tap in ('button[data-kind="bite"]', 'button[data-winner="S"]',
                    '#bites button[data-bite="cat_rat"]', '#bite-payer button[data-payer="W"]',
                    "#bite-hidden"):
            await page.click(tap)
        await page.click("#preview-button")
        await expect(page.locator("#preview .hint")).to_have_text(
            "/bite bob cat rat hidden from carol")
        assert "null" not in await page.inner_text("main")
        assert await page.locator("#preview .deltas .pair").all_inner_texts() == [
            "alice 0.00", "bob +0.40", "carol -0.40", "dave 0.00"]
        before = len(t.api.outbox)
        await page.click("#record-button")
        await page.wait_for_selector('#board tr[data-seat="S"] td[data-total="40"]')
        await pipeline(t.app).idle()
        said = [plain(m.text) for m in t.api.outbox[before:]]
        assert said[0] == "📱 bob: /bite bob cat rat hidden from carol", said
        assert any("cat and rat" in s and "hidden" in s for s in said[1:]), said
        assert "+0.40" in await page.inner_text('#board tr[data-seat="S"]')
        # a set: every other player pays; no payer or hidden to choose
        await page.click('nav button[data-tab="enter"]')
        for tap in ('button[data-kind="bite"]', 'button[data-winner="N"]',
                    '#bites button[data-bite="set_flowers"]'):
            await page.click(tap)
        assert await page.locator("#bite-payer").count() == 0
        await page.click("#record-button")
        await page.wait_for_selector('#board tr[data-seat="N"] td[data-total="120"]')
        await pipeline(t.app).idle()
        night = await t.ledger.open_nights.current_night(GROUP)
        assert night.totals == {"E": -40, "S": 0, "W": -80, "N": 120}
        assert errors == []


async def test_bao_previewed_as_the_chat_reads_it_and_a_bad_choice_refused(
        tmp_path: Path) -> None:
    """包: the liable player pays what all three would have paid (a self-draw's three
    shares, a discard's whole payment); the winner, or 包 at a table without it, is
    refused in the user's words and nothing is recorded."""
    async with app_table(tmp_path) as t, client(t) as c:
        await seated(t, "singapore")
        h = auth(init_data(t, "bob"))
        self_draw = {"winner": "S", "how": "self_draw", "tai": 3}
        plain_win = (await c.post("/app/api/preview", headers=h, json=self_draw)).json()
        r = await c.post("/app/api/preview", headers=h, json={**self_draw, "feeder": "W"})
        assert r.status_code == 200 and r.json()["text"] == "/hu bob self 3 tai bao carol"
        won = plain_win["deltas"]["S"]
        assert won > 0 and r.json()["deltas"] == {"E": 0, "S": won, "W": -won, "N": 0}
        assert "• 包: carol is liable and pays for all (bob's win)" in r.json()["lines"]
        discard = {"winner": "S", "how": "discard", "from_seat": "E", "tai": 1}
        plain_win = (await c.post("/app/api/preview", headers=h, json=discard)).json()
        r = await c.post("/app/api/preview", headers=h, json={**discard, "feeder": "N"})
        assert r.json()["text"] == "/hu bob from alice 1 tai bao dave"
        won = plain_win["deltas"]["S"]
        assert r.json()["deltas"] == {"E": 0, "S": won, "W": 0, "N": -won}
        before = len(t.api.outbox)
        for path in ("preview", "record"):
            r = await c.post(f"/app/api/{path}", headers=h,
                             json=keyed({**self_draw, "feeder": "S"}))
            assert r.status_code == 422 and r.json() == {
                "error": "bad_form",
                "message": "包: choose another player than the winner, who pays for all."}
        await pipeline(t.app).idle()
        assert len(t.api.outbox) == before
        assert (await t.ledger.open_nights.current_night(GROUP)).hands == 0
    async with app_table(tmp_path / "zh", "zh-Hans") as t, client(t) as c:
        await seated(t, "singapore")
        h = auth(init_data(t, "bob"))
        r = await c.post("/app/api/preview", headers=h,
                         json={"winner": "S", "how": "self_draw", "tai": 3, "feeder": "W"})
        assert r.json()["text"] == "/hu bob 自摸 3台 包 carol"
        assert "• 包：carol负责，替所有人付（bob胡）" in r.json()["lines"]
        r = await c.post("/app/api/record", headers=h, json=keyed(
            {"winner": "S", "how": "self_draw", "tai": 3, "feeder": "S"}))
        assert r.status_code == 422
        assert r.json()["message"] == "包：请选一位赢家以外的玩家，由其全付。"
    async with app_table(tmp_path / "chengdu", "zh-Hant") as t, client(t) as c:
        await seated(t)
        h = auth(init_data(t, "bob"))
        r = await c.post("/app/api/record", headers=h, json=keyed(
            {"winner": "S", "how": "self_draw", "patterns": ["清一色"], "feeder": "W"}))
        assert r.status_code == 422 and r.json()["message"] == \
            "在這裏只有新馬和港式麻雀桌才能報包（由一家全付）。"
        assert (await t.ledger.open_nights.current_night(GROUP)).hands == 0


@pytest.mark.parametrize("backend", BACKENDS)
async def test_a_win_with_bao_recorded_and_explained(tmp_path: Path, backend: str) -> None:
    """bob's self-draw with 包 carol goes to the group as the chat's /hu; the recorded hand's
    explanation names carol as liable, carol alone pays, and bob's best hand says its
    preset as /stats does."""
    async with AsyncExitStack() as stack:
        url = await stack.enter_async_context(postgres_database("appsgbao")) \
            if backend == "postgres" else None
        t = await stack.enter_async_context(app_table(tmp_path, url=url))
        c = await stack.enter_async_context(client(t))
        await seated(t, "singapore")
        h = auth(init_data(t, "bob"))
        before = len(t.api.outbox)
        r = await c.post("/app/api/record", headers=h, json=keyed(
            {"winner": "S", "how": "self_draw", "tai": 3, "feeder": "W"}))
        assert r.status_code == 200 and r.json()["sent"] == "/hu bob self 3 tai bao carol"
        await pipeline(t.app).idle()
        said = [plain(m.text) for m in t.api.outbox[before:]]
        assert said[0] == "📱 bob: /hu bob self 3 tai bao carol", said
        assert any("包: carol pays for all" in s for s in said[1:]), said
        night = await t.ledger.open_nights.current_night(GROUP)
        won = night.totals["S"]
        assert night.hands == 1 and won > 0
        assert night.totals == {"E": 0, "S": won, "W": -won, "N": 0}
        hand = (await c.get("/app/api/night", headers=h)).json()["hands"][0]
        assert "• 包: carol is liable and pays for all (bob's win)" in hand["events"][0]
        players = (await c.get("/app/api/players", headers=h)).json()["rows"]
        bob = next(p for p in players if p["name"] == "bob")
        record = (await c.get(f"/app/api/player/{bob['id']}", headers=h)).json()
        stats = "\n".join(plain(m.text) for m in await t.say("bob", "/stats"))
        assert record["best"]["text"] in stats.split("\n")
        assert record["best"]["shown"] == record["biggest_shown"] == f"{won / 100:.2f}"
        assert record["best"]["preset_name"] in record["best"]["text"]


@pytest.mark.skipif(missing() is not None, reason=str(missing()))
async def test_a_win_with_bao_by_taps_and_the_best_hand_with_its_preset(
        tmp_path: Path) -> None:
    """In a real browser: bob taps a 3-tai self-draw with 包 on carol, previews it (the
    command, carol alone paying, the explanation's 包 line), records it; then his record in
    Players says his best hand as /stats does, with the preset it was played at."""
    from playwright.async_api import expect

    async with app_table(tmp_path) as t, served(t) as base, browser() as b:
        await seated(t, "singapore")
        page, errors = await opened(b, launch_url(base, init_data(t, "bob")))
        await page.click('nav button[data-tab="enter"]')
        await expect(page.locator("#sg-liable")).to_be_visible()
        assert await page.locator('#sg-liable button[aria-pressed="true"]').inner_text() \
            == "Nobody"
        await page.click('button[data-winner="S"]')
        # the winner is not offered as liable
        assert await page.locator('#sg-liable button[data-liable="S"]').count() == 0
        for tap in ('#tai button[data-tai="3"]', '#sg-liable button[data-liable="W"]'):
            await page.click(tap)
        await page.click("#preview-button")
        await expect(page.locator("#preview .hint")).to_have_text(
            "/hu bob self 3 tai bao carol")
        assert await page.locator("#preview .deltas .pair").all_inner_texts() == [
            "alice 0.00", "bob +4.80", "carol -4.80", "dave 0.00"]
        assert "包: carol is liable and pays for all (bob's win)" in \
            await page.inner_text("#preview-lines")
        await page.click("#record-button")
        await page.wait_for_selector('#board tr[data-seat="S"] td[data-total="480"]')
        await pipeline(t.app).idle()
        night = await t.ledger.open_nights.current_night(GROUP)
        assert night.totals == {"E": 0, "S": 480, "W": -480, "N": 0}
        stats = "\n".join(plain(m.text) for m in await t.say("bob", "/stats"))
        best = next(x for x in stats.split("\n") if x.startswith("Best hand"))
        await page.click('nav button[data-tab="players"]')
        bob = night.seats["S"].id
        await page.click(f'#standings tr[data-player="{bob}"]')
        await expect(page.locator("#player-best")).to_have_text(best)
        assert "(Singapore/Malaysia" in best
        assert errors == []
