"""The Mini App's API against the real bot and the fake Bot API: who may read and record,
the board following the chat, a hand entered by its tiles going through the chat's own
path (the group's answer, Undo), debts paid, and fuzzed requests that write nothing."""

from __future__ import annotations

import asyncio
import json
import time
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.console.fake_api import BOT_USERNAME, ApiError
from bot.delivery.pipeline import pipeline_of as pipeline
from bot.handlers.app_link import chat_param
from tests.bot.harness import GROUP, end_night, plain, table
from tests.bot.webapp_harness import (
    app_table,
    auth,
    client,
    init_data,
    keyed,
    seat_change_night,
    seated,
)
from tests.databases import BACKENDS, postgres_database

WIN = {"winner": "S", "how": "self_draw",
       "tiles": ["1m", "1m", "1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "9m", "9m",
                 "5m"]}


async def counts(t: Any) -> tuple[int, int]:
    """Recorded hands and sent messages: what a refused request must leave alone."""
    night = await t.ledger.open_nights.current_night(t.chat_id)
    return (night.hands if night else -1, len(t.api.outbox))


async def test_app_command_and_buttons(tmp_path: Path) -> None:
    async with app_table(tmp_path) as t:
        await seated(t)
        link = f"https://t.me/{BOT_USERNAME}/tally?startapp={chat_param('42:TEST', GROUP)}"
        board = next(m for m in t.api.outbox if m.pinned)
        assert {"text": "📱 Open the app", "url": link} in board.buttons
        replies = await t.say("alice", "/table")
        assert replies[-1].buttons == [{"text": "📱 Open the app", "url": link}]
        replies = await t.say("bob", "/app")
        assert replies[-1].buttons[0]["url"] == link
        await end_night(t, "alice")  # the ended board keeps only the app's link
        assert board.buttons == [{"text": "📱 Open the app", "url": link}]


async def test_app_command_without_configuration(tmp_path: Path) -> None:
    async with table(tmp_path, "zh-Hans") as t:
        await t.say("alice", "/new chengdu @alice @bob @carol @dave")
        board = next(m for m in t.api.outbox if m.pinned)
        assert not any("url" in b for b in board.buttons)
        replies = await t.say("alice", "/app")
        assert "管理者尚未设置" in plain(replies[-1].text) and not replies[-1].buttons


async def test_board_follows_the_chat(tmp_path: Path) -> None:
    async with app_table(tmp_path) as t, client(t) as c:
        await seated(t)
        h = auth(init_data(t, "carol"))
        board = (await c.get("/app/api/board", headers=h)).json()
        assert [s["name"] for s in board["seats"]] == ["alice", "bob", "carol", "dave"]
        assert board["seats"][0]["dealer"] and board["can_record"]
        await t.say("bob", "/hu bob 自摸 清一色")
        board = (await c.get("/app/api/board", headers=h)).json()
        totals = {s["seat"]: s["total"] for s in board["seats"]}
        assert totals == (await t.ledger.open_nights.current_night(GROUP)).totals
        assert totals["S"] > 0 and board["open_hand"] == 1
        assert [s["in_hand"] for s in board["seats"]] == [True, False, True, True]
        night = (await c.get("/app/api/night", headers=h)).json()
        assert {x["name"]: x["values"] for x in night["lines"]} == {
            s["name"]: [0, s["total"]] for s in board["seats"]}
        assert night["hands"][0]["names"] == {"E": "alice", "S": "bob", "W": "carol",
                                              "N": "dave"}
        assert board["left"] == []
        assert any("清一色" in line for line in night["hands"][0]["events"][0])


async def test_forged_expired_foreign_and_non_members_get_nothing(tmp_path: Path) -> None:
    async with app_table(tmp_path) as t, client(t) as c:
        await seated(t)
        before = await counts(t)
        good = init_data(t, "alice")
        cases = {
            "no header": {},
            "not tma": {"Authorization": "Bearer " + good},
            "forged": auth(good.replace("alice", "alicf")),
            "other bot": auth(init_data(t, "alice", token="43:OTHER")),
            "expired": auth(init_data(t, "alice", auth_date=int(time.time()) - 3700)),
        }
        for name, headers in cases.items():
            for path in ("board", "me"):
                r = await c.get(f"/app/api/{path}", headers=headers)
                assert r.status_code == 401, (name, r.text)
            r = await c.post("/app/api/record", headers=headers, json=keyed(WIN))
            assert r.status_code == 401, name
        other = init_data(t, "alice", chat_id=-999)  # signed for a chat with no table
        t.api.chat(-999)
        assert (await c.get("/app/api/board", headers=auth(other))).json()["status"] == "none"
        forged_chat = init_data(t, "alice", start_param="cn999_" + "0" * 24)
        assert (await c.get("/app/api/board", headers=auth(forged_chat))).status_code == 403
        no_chat = init_data(t, "alice", start_param="")  # opened from the bot's menu
        r = await c.get("/app/api/board", headers=auth(no_chat))
        assert r.status_code == 403 and r.json()["error"] == "no_chat"
        assert "/app" in r.json()["message"]

        async def not_a_member(method: str, params: dict[str, Any]) -> None:
            if method == "getChatMember" and int(params["user_id"]) == t.user("eve").id:
                raise ApiError("Bad Request: PARTICIPANT_ID_INVALID")

        t.api.faults.append(not_a_member)
        eve = auth(init_data(t, "eve"))
        for path in ("board", "night", "players", "debts", "me"):
            assert (await c.get(f"/app/api/{path}", headers=eve)).status_code == 403
        r = await c.post("/app/api/record", headers=eve, json=keyed(WIN))
        assert r.status_code == 403 and r.json()["message"]
        # a member who does not play reads, and may not record
        zed = auth(init_data(t, "zed"))
        assert (await c.get("/app/api/board", headers=zed)).status_code == 200
        assert not (await c.get("/app/api/me", headers=zed)).json()["can_record"]
        for path in ("record", "undo", "preview"):
            r = await c.post(f"/app/api/{path}", headers=zed, json=keyed(WIN))
            assert r.status_code == 403
        await pipeline(t.app).idle()
        assert await counts(t) == before


async def test_hand_by_tiles_goes_through_the_chat_and_undoes(tmp_path: Path) -> None:
    async with app_table(tmp_path) as t, client(t) as c:
        await seated(t)
        h = auth(init_data(t, "alice"))
        entry = (await c.get("/app/api/entry", headers=h)).json()
        assert "清一色" in entry["patterns"] and entry["hows"][0]["how"] == "self_draw"
        preview = (await c.post("/app/api/preview", headers=h, json=WIN)).json()
        assert preview["deltas"] == {"E": -8, "S": 24, "W": -8, "N": -8}
        assert any("清一色" in line for line in preview["lines"])
        # a preview writes nothing
        assert (await t.ledger.open_nights.current_night(GROUP)).hands == 0
        r = await c.post("/app/api/record", headers=h, json=keyed(WIN))
        assert r.status_code == 200, r.text
        await pipeline(t.app).idle()
        echo = next(m for m in t.api.outbox if m.text.startswith("📱"))
        assert plain(echo.text) == "📱 alice: " + r.json()["sent"]
        answer = next(m for m in t.api.outbox if m.reply_to == echo.message_id)
        assert "Hand 1 recorded" in plain(answer.text)
        night = await t.ledger.open_nights.current_night(GROUP)
        assert night.totals == {"E": -8, "S": 24, "W": -8, "N": -8}
        assert "Undo" in [b["text"] for b in answer.buttons]
        # the same hand typed in the chat gives the same answer
        replies = await t.press("alice", answer, answer.buttons[0]["callback_data"])
        assert any("Undone" in plain(m.text) or "undone" in plain(m.text) for m in replies)
        assert (await t.ledger.open_nights.current_night(GROUP)).totals == dict.fromkeys("ESWN", 0)
        typed = await t.say("alice", r.json()["sent"])
        assert plain(typed[0].text) == plain(answer.text)
        # and Undo from the app is the chat's /undo
        assert (await c.post("/app/api/undo", headers=h, json=keyed())).status_code == 200
        await pipeline(t.app).idle()
        assert (await t.ledger.open_nights.current_night(GROUP)).totals == dict.fromkeys("ESWN", 0)


@pytest.mark.parametrize("backend", BACKENDS)
async def test_undo_only_by_the_reporter_or_an_admin(tmp_path: Path, backend: str) -> None:
    """As in the chat: carol (seated) may not undo bob's report; refused in the app with the
    chat's words, nothing written or said in the group, and no Undo on her board. bob (who
    reported it) and an admin undo."""
    async with AsyncExitStack() as stack:
        url = await stack.enter_async_context(postgres_database("appundo")) \
            if backend == "postgres" else None
        t = await stack.enter_async_context(app_table(tmp_path, "zh-Hans", url=url))
        c = await stack.enter_async_context(client(t))
        t.admin("alice")
        await seated(t)
        carol = auth(init_data(t, "carol"))
        r = await c.post("/app/api/undo", headers=carol, json=keyed())
        assert r.status_code == 409 and r.json() == {  # nothing recorded yet
            "error": "nothing_to_undo", "message": "这桌还没有记录。"}
        assert not (await c.get("/app/api/board", headers=carol)).json()["can_undo"]
        await t.say("bob", "/hu bob 自摸 清一色")
        first = (await t.ledger.open_nights.current_night(GROUP)).totals
        await t.say("dave", "/hu dave 自摸")
        second = (await t.ledger.open_nights.current_night(GROUP)).totals
        await t.say("bob", "/hu carol 自摸 七对")  # bob reported the last event
        await pipeline(t.app).idle()
        totals = (await t.ledger.open_nights.current_night(GROUP)).totals
        typed = await t.say("carol", "/undo")  # the chat's refusal, for the same words
        chat_words = plain(typed[-1].text)
        assert chat_words == "⚠️ 只有报牌的人或管理员可以撤销。"
        before = await counts(t)
        assert not (await c.get("/app/api/board", headers=carol)).json()["can_undo"]
        for lang, words in (("zh-hans", chat_words.removeprefix("⚠️ ")),
                            ("en", "Only the player who reported it, or an admin, can undo "
                                   "it.")):
            r = await c.post("/app/api/undo", headers=auth(init_data(t, "carol", lang=lang)),
                             json=keyed())
            assert r.status_code == 403 and r.json() == {"error": "not_reporter",
                                                         "message": words}
        await pipeline(t.app).idle()
        assert await counts(t) == before  # nothing written, nothing said in the group
        assert (await t.ledger.open_nights.current_night(GROUP)).totals == totals
        # bob, who reported it, undoes it from the app
        bob = auth(init_data(t, "bob"))
        assert (await c.get("/app/api/board", headers=bob)).json()["can_undo"]
        r = await c.post("/app/api/undo", headers=bob, json=keyed())
        assert r.status_code == 200 and r.json()["sent"] == "/undo"
        await pipeline(t.app).idle()
        assert (await t.ledger.open_nights.current_night(GROUP)).totals == second
        # dave's report is next: neither carol nor alice reported it, but alice is an admin
        assert (await c.post("/app/api/undo", headers=carol, json=keyed())).status_code == 403
        alice = auth(init_data(t, "alice"))
        assert (await c.get("/app/api/board", headers=alice)).json()["can_undo"]
        assert (await c.post("/app/api/undo", headers=alice, json=keyed())).status_code == 200
        await pipeline(t.app).idle()
        assert (await t.ledger.open_nights.current_night(GROUP)).totals == first
        assert not any("⚠️" in m.text for m in t.api.outbox[before[1]:])  # no refusal


async def test_form_mistakes_are_explained_in_the_users_language(tmp_path: Path) -> None:
    async with app_table(tmp_path, "zh-Hans") as t, client(t) as c:
        await seated(t)
        h = auth(init_data(t, "alice"))
        r = await c.post("/app/api/preview", headers=h, json={**WIN, "tiles": WIN["tiles"][:13]})
        assert r.status_code == 422 and "张" in r.json()["message"]
        r = await c.post("/app/api/preview", headers=h, json={**WIN, "how": "discard"})
        assert r.status_code == 422 and r.json()["message"] == "请选择是谁打的牌或谁的杠。"
        r = await c.post("/app/api/record", headers=h, json=keyed({**WIN, "tiles": ["1m"] * 5}))
        assert r.status_code in (400, 422)
        r = await c.post("/app/api/preview", headers=h,
                         json={"winner": "S", "how": "discard", "from_seat": "W",
                               "patterns": ["七对"]})
        assert r.status_code == 200 and "点炮" in r.json()["text"]
        assert (await t.ledger.open_nights.current_night(GROUP)).hands == 0


async def test_debts_paid_from_the_app(tmp_path: Path) -> None:
    async with app_table(tmp_path) as t, client(t) as c:
        await seated(t, stake="1")
        await t.say("bob", "/hu bob 自摸 清一色")
        await t.say("alice", "/draw")
        await end_night(t, "alice")
        debts = (await c.get("/app/api/debts", headers=auth(init_data(t, "alice")))).json()
        assert debts and all(d["payee"] == "bob" for d in debts)
        mine = next(d for d in debts if d["payer"] == "alice")
        assert mine["can_pay"]
        carol = auth(init_data(t, "carol"))
        others = (await c.get("/app/api/debts", headers=carol)).json()
        assert not next(d for d in others if d["payer"] == "alice")["can_pay"]
        r = await c.post("/app/api/paid", headers=carol, json=keyed({"handle": mine["handle"]}))
        assert r.status_code == 403 and r.json() == {
            "error": "not_party",
            "message": "Only the debt's two players, or an admin, can mark it paid."}
        zed = auth(init_data(t, "zed", lang="zh-hans"))  # a member not at the table
        r = await c.post("/app/api/paid", headers=zed, json=keyed({"handle": mine["handle"]}))
        assert r.status_code == 403 and r.json() == {
            "error": "not_party", "message": "只有这笔账的两位玩家或管理员才能标记为已付。"}
        r = await c.post("/app/api/paid", headers=auth(init_data(t, "alice")),
                         json=keyed({"handle": mine["handle"]}))
        assert r.status_code == 200 and r.json()["sent"] == f"/paid {mine['handle']}"
        await pipeline(t.app).idle()
        left = (await c.get("/app/api/debts", headers=carol)).json()
        assert all(d["payer"] != "alice" for d in left)
        players = (await c.get("/app/api/players", headers=carol)).json()
        bob = next(p for p in players["rows"] if p["name"] == "bob")
        line = next(x for x in players["chart"]["lines"] if x["name"] == "bob")
        assert players["chart"]["nights"] == [0, 1] and line["values"][-1] > 0
        record = (await c.get(f"/app/api/player/{bob['id']}", headers=carol)).json()
        assert record["wins"] == 1
        for unknown in ("999999", "bob"):  # no such player here, or not a number
            r = await c.get(f"/app/api/player/{unknown}", headers=carol)
            assert r.status_code == 404 and r.json() == {
                "error": "no_player", "message": "No such player in this chat."}


_json = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=20),
                     lambda inner: st.lists(inner, max_size=5)
                     | st.dictionaries(st.text(max_size=10), inner, max_size=5), max_leaves=20)
_seat = st.sampled_from(["E", "S", "W", "N", "X", ""])
_forms = st.fixed_dictionaries({}, optional={
    "kind": st.sampled_from(["win", "kong", "draw", "x"]),
    "kong": st.sampled_from(["concealed", "added", "direct", "wild", "x", None]),
    "indicator": st.sampled_from(["3m", "5p", "0z", None]),
    "players": st.dictionaries(_seat, st.fixed_dictionaries({}, optional={
        "state": st.sampled_from(["no", "ready", "pig", "x"]),
        "fan": st.integers(-2, 30)}), max_size=5),
    "others": st.lists(st.fixed_dictionaries({"winner": _seat}, optional={
        "patterns": st.lists(st.sampled_from(["清一色", "七对", "x"]), max_size=3)}),
        max_size=3),
    "winner": st.sampled_from(["E", "S", "W", "N", "X", "", "SS"]) | st.text(max_size=3),
    "how": st.sampled_from(["self_draw", "discard", "rob_kong", "kong_replacement",
                            "after_kong_discard", "x"]),
    "from_seat": st.sampled_from(["E", "S", "W", "N", None, "Q"]),
    "tiles": st.lists(st.sampled_from(["1m", "5m", "9p", "7z", "8z", "0m", "1x", "55m"]),
                      max_size=16),
    "melds": st.lists(st.lists(st.sampled_from(["1m", "2m", "3m", "5p", "9z"]), max_size=5),
                      max_size=5),
    "patterns": st.lists(st.sampled_from(["清一色", "七对", "nonsense", "", "自摸 清一色"]),
                         max_size=9),
})


async def test_fuzzed_forms_never_fail_or_write(tmp_path: Path) -> None:
    async with app_table(tmp_path) as t, client(t) as c:
        await seated(t)
        h = auth(init_data(t, "alice"))
        before = await counts(t)
        seen: list[int] = []

        @settings(max_examples=120, deadline=None,
                  suppress_health_check=[HealthCheck.function_scoped_fixture,
                                         HealthCheck.too_slow])
        @given(st.one_of(_forms, _json))
        def check(body: Any) -> None:
            seen.append(body)

        check()
        for body in seen:
            r = await c.post("/app/api/preview", headers=h, content=json.dumps(body))
            assert r.status_code in (200, 400, 422), (body, r.text)
        for raw in (b"{", b"\xff", b"[]", b"x" * 20000):
            r = await c.post("/app/api/preview", headers=h, content=raw)
            assert r.status_code in (400, 413)
            assert r.json()["message"] == ("That is too much to send at once."
                                           if r.status_code == 413 else "The app sent "
                                           "something the bot could not read; reload it.")
        for path in ("player/0", "player/99999999999", "player/-1", "player/x"):
            assert (await c.get(f"/app/api/{path}", headers=h)).status_code == 404
        for bad in ({"handle": "1"}, {"handle": True}, {"handle": -1}, {"handle": 10**12}, {}):
            assert (await c.post("/app/api/paid", headers=h, json=keyed(bad))).status_code == 400
        await pipeline(t.app).idle()
        assert await counts(t) == before


async def test_the_turned_up_tile_where_the_preset_has_wildcards(tmp_path: Path) -> None:
    async with app_table(tmp_path) as t, client(t) as c:
        await seated(t, "yibin")
        h = auth(init_data(t, "bob"))
        assert (await c.get("/app/api/entry", headers=h)).json()["indicator"] == "本金"
        # 本金 3m makes 2m and 4m wild: the 2m pairs the 9p
        tiles = ["5m", "6m", "7m", "7m", "8m", "9m", "5p", "6p", "7p", "6p", "7p", "8p", "9p",
                 "2m"]
        form = {"winner": "S", "how": "self_draw", "tiles": tiles}
        r = await c.post("/app/api/preview", headers=h, json=form)
        assert r.status_code == 422  # in the app's words, not the chat's "本金 5p"
        assert r.json()["message"] == "Tap “Turned-up tile (本金)”, then the tile that was " \
                                      "turned up."
        zh = auth(init_data(t, "bob", lang="zh-hans"))
        r = await c.post("/app/api/preview", headers=zh, json=form)
        assert r.json()["message"] == "请点“翻开的牌（本金）”，再点翻开的那张牌。"
        chat = await t.say("bob", "/hu bob 自摸 567789m 5667789p 2m")
        assert "name the turned-up tile too: 本金 5p" in plain(chat[-1].text)
        r = await c.post("/app/api/preview", headers=h, json={**form, "indicator": "3m"})
        assert r.status_code == 200 and r.json()["text"].endswith(" 本金 3m"), r.text
        assert r.json()["deltas"]["S"] > 0


async def test_the_palette_holds_the_tables_tiles(tmp_path: Path) -> None:
    """No winds or dragons at a Sichuan table (the engine's tile set); Jiangxi plays them."""
    suits = [f"{r}{s}" for s in "mps" for r in range(1, 10)]
    async with app_table(tmp_path / "chengdu") as t, client(t) as c:
        await seated(t)
        entry = (await c.get("/app/api/entry", headers=auth(init_data(t, "bob")))).json()
        assert entry["tiles"] == suits
    async with app_table(tmp_path / "feibao") as t, client(t) as c:
        await seated(t, "feibao")
        entry = (await c.get("/app/api/entry", headers=auth(init_data(t, "bob")))).json()
        assert entry["tiles"] == suits + [f"{r}z" for r in range(1, 8)]


async def test_the_apps_words_in_chinese(tmp_path: Path) -> None:
    """The tab is 玩家 (players), while the house rule "players" stays 人数 (a head count)."""
    async with app_table(tmp_path, "zh-Hans") as t, client(t) as c:
        await seated(t)
        words = (await c.get("/app/api/me", headers=auth(init_data(t, "bob")))).json()["strings"]
        assert (words["players"], words["hands"]) == ("玩家", "各盘")
        assert (words["lp"], words["rp"]) == ("（", "）")
        assert "人数：四人" in plain((await t.say("alice", "/rules"))[-1].text)


@pytest.mark.parametrize("backend", BACKENDS)
async def test_a_seat_change_in_the_apps_night(tmp_path: Path, backend: str) -> None:
    """carol leaves, dave sits down: the app's hands name who played each, the board shows
    dave's own points and carol's as having left, and the chart draws a line per person
    (as the chat's /history and /end do)."""
    async with AsyncExitStack() as stack:
        url = await stack.enter_async_context(postgres_database("appseat")) \
            if backend == "postgres" else None
        t = await stack.enter_async_context(app_table(tmp_path, "zh-Hans", url=url))
        c = await stack.enter_async_context(client(t))
        await seat_change_night(t)
        history = [plain(m.text) for m in await t.say("alice", "/history")]
        assert any("#3：alice -3  bob -1  dave +4\n#2：alice +16  bob -10  carol -6\n"
                   "#1：alice -9  bob +16  carol -7" in x for x in history), history
        h = auth(init_data(t, "alice"))
        night = (await c.get("/app/api/night", headers=h)).json()
        # Each hand names who played it, as /history does.
        assert [(x["number"], x["names"]["W"], x["deltas"]["W"]) for x in night["hands"]] \
            == [(1, "carol", -7), (2, "carol", -6), (3, "dave", 4)]
        assert "本次：carol +2  bob -2" in night["hands"][1]["events"][1]
        assert not any("dave" in line for e in night["hands"][1]["events"] for line in e)
        assert "本次：dave +4  alice -2  bob -2" in night["hands"][2]["events"][0]
        # A line per person: carol's ends with her last hand, dave's starts before his first.
        assert {x["name"]: (x["values"], x["left"]) for x in night["lines"]} == {
            "alice": ([0, -9, 7, 4], False), "bob": ([0, 16, 6, 5], False),
            "carol": ([0, -7, -13, None], True), "dave": ([None, None, 0, 4], False)}
        # The board: who sits now with their own points, and carol with hers, as left.
        board = (await c.get("/app/api/board", headers=h)).json()
        assert [(x["name"], x["total"]) for x in board["seats"]] == [
            ("alice", 4), ("bob", 5), ("dave", 4)]
        assert [(x["name"], x["total"], x["money"]) for x in board["left"]] == [
            ("carol", -13, "-13.00")]
        for lang, word in (("zh-Hans", "已离席"), ("en", "left")):
            me = await c.get("/app/api/me", headers=auth(init_data(t, "bob", lang=lang)))
            assert me.json()["strings"]["left"] == word
        assert t.api.errors == []


NIGHT: list[tuple[str, dict[str, Any], str]] = [
    # (reporter, what the Mini App's form says, what a player types for the same win)
    ("bob", {"winner": "S", "how": "self_draw", "patterns": ["清一色"]}, "/hu bob 自摸 清一色"),
    ("carol", {"winner": "W", "how": "discard", "from_seat": "E", "patterns": ["七对"]},
     "/hu carol 点炮 alice 七对"),
    ("dave", {"winner": "N", "how": "self_draw", "tiles": WIN["tiles"]}, "/hu dave 自摸 清一色"),
    ("alice", {"winner": "E", "how": "discard", "from_seat": "S", "patterns": ["对对胡"]},
     "/hu alice 点炮 bob 对对胡"),
    ("bob", {"winner": "S", "how": "self_draw"}, "/hu bob 自摸"),
    ("carol", {"winner": "W", "how": "rob_kong", "from_seat": "N"}, "/hu carol 抢杠 dave"),
]


async def play_night(tmp_path: Path, through_app: bool) -> tuple[list[str], Any, list[Any]]:
    """The night, every other report made in the Mini App (``through_app``) or all typed as
    a player would; returns what the bot said (but the app's echo lines), the standings and
    the debts."""
    async with app_table(tmp_path) as t, client(t) as c:
        await seated(t, stake="0.5")
        for i, (who, form, typed) in enumerate(NIGHT):
            if through_app and i % 2 == 0:
                r = await c.post("/app/api/record", headers=auth(init_data(t, who)),
                                 json=keyed(form))
                assert r.status_code == 200, r.text
                await pipeline(t.app).idle()
            else:
                await t.say(who, typed)
        await end_night(t, "alice")
        said = [plain(m.text) for m in t.api.outbox if not m.text.startswith("📱")]
        return said, await t.ledger.lookback.standings(GROUP), await t.ledger.money.debts(GROUP)


async def test_a_night_half_in_the_app_is_the_night_played_in_the_chat(tmp_path: Path) -> None:
    typed = await play_night(tmp_path / "chat", through_app=False)
    mixed = await play_night(tmp_path / "app", through_app=True)
    assert mixed[0] == typed[0]  # every answer, board and the night's summary alike
    assert mixed[1] == typed[1] and mixed[2] == typed[2] and typed[2]


async def test_a_kong_from_the_app(tmp_path: Path) -> None:
    async with app_table(tmp_path, "zh-Hans") as t, client(t) as c:
        await seated(t)
        h = auth(init_data(t, "bob"))
        kongs = (await c.get("/app/api/entry", headers=h)).json()["kongs"]
        assert [k["label"] for k in kongs] == ["暗杠", "补杠", "直杠"]
        form = {"kind": "kong", "winner": "S", "kong": "direct"}
        r = await c.post("/app/api/preview", headers=h, json=form)
        assert r.status_code == 422 and r.json()["message"] == "请选择是谁打的牌或谁的杠。"
        r = await c.post("/app/api/preview", headers=h, json={**form, "from_seat": "W"})
        assert r.status_code == 200 and r.json()["text"] == "/kong bob 直杠 carol"
        deltas = r.json()["deltas"]
        assert deltas["S"] > 0 and deltas["W"] < 0 and sum(deltas.values()) == 0
        r = await c.post("/app/api/record", headers=h, json=keyed({**form, "from_seat": "W"}))
        assert r.status_code == 200
        await pipeline(t.app).idle()
        assert (await t.ledger.open_nights.current_night(GROUP)).totals == deltas


async def test_the_wall_runs_out_in_the_app(tmp_path: Path) -> None:
    async with app_table(tmp_path) as t, client(t) as c:
        await seated(t)
        await t.say("bob", "/hu bob 自摸 清一色")
        h = auth(init_data(t, "alice"))
        assert (await c.get("/app/api/entry", headers=h)).json()["draw"]
        form = {"kind": "draw", "players": {"E": {"state": "pig"},
                                            "W": {"state": "ready", "fan": 2}}}
        r = await c.post("/app/api/preview", headers=h, json=form)
        assert r.status_code == 200, r.text
        assert r.json()["text"] == "/draw alice 花猪, carol 听 2, dave 未听"
        deltas = r.json()["deltas"]
        assert deltas["E"] < 0 < deltas["W"] and sum(deltas.values()) == 0
        bad = {"kind": "draw", "players": {"E": {"state": "ready", "fan": 99}}}
        assert (await c.post("/app/api/preview", headers=h, json=bad)).status_code == 400
        before = (await t.ledger.open_nights.current_night(GROUP)).totals
        assert (await c.post("/app/api/record", headers=h, json=keyed(form))).status_code == 200
        await pipeline(t.app).idle()
        after = (await t.ledger.open_nights.current_night(GROUP)).totals
        assert {s: after[s] - before[s] for s in after} == deltas
        # the hand is over
        assert (await t.ledger.open_nights.current_night(GROUP)).open_hand is None


async def test_two_winners_off_one_discard(tmp_path: Path) -> None:
    async with app_table(tmp_path) as t, client(t) as c:
        await seated(t)
        h = auth(init_data(t, "alice"))
        form = {"winner": "S", "how": "discard", "from_seat": "W", "patterns": ["七对"],
                "others": [{"winner": "N", "patterns": ["清一色"]}]}
        r = await c.post("/app/api/preview", headers=h, json=form)
        assert r.status_code == 200, r.text
        assert r.json()["text"] == "/hu bob from carol 七对, dave 清一色"
        deltas = r.json()["deltas"]
        assert deltas["S"] > 0 and deltas["N"] > 0 and deltas["W"] == -deltas["S"] - deltas["N"]
        for other in ("S", "W"):  # the winner again, or the discarder
            bad = {**form, "others": [{"winner": other}]}
            assert (await c.post("/app/api/preview", headers=h, json=bad)).status_code == 422
        self_draw = {**form, "how": "self_draw", "from_seat": None}
        assert (await c.post("/app/api/preview", headers=h, json=self_draw)).status_code == 422
        assert (await c.post("/app/api/record", headers=h, json=keyed(form))).status_code == 200
        await pipeline(t.app).idle()
        assert (await t.ledger.open_nights.current_night(GROUP)).totals == deltas


@pytest.mark.parametrize("backend", BACKENDS)
async def test_a_report_sent_twice_at_once_is_recorded_once(tmp_path: Path,
                                                            backend: str) -> None:
    """Two POST /api/record of bob's self-draw with one key, at once (a double click, a
    retry racing the first): one hand, one line in the group, one answer; the other
    request is told "already recorded" in the user's language. A later retry with the key
    is too, and a new key is a new report."""
    async with AsyncExitStack() as stack:
        url = await stack.enter_async_context(postgres_database("apponce")) \
            if backend == "postgres" else None
        t = await stack.enter_async_context(app_table(tmp_path, url=url))
        c = await stack.enter_async_context(client(t))
        await seated(t, "changsha")
        h = auth(init_data(t, "bob"))
        form = {"winner": "S", "how": "self_draw"}
        deltas = (await c.post("/app/api/preview", headers=h, json=form)).json()["deltas"]
        before = len(t.api.outbox)
        body = keyed(form)
        first, second = await asyncio.gather(*(c.post("/app/api/record", headers=h, json=body)
                                               for _ in range(2)))
        await pipeline(t.app).idle()
        night = await t.ledger.open_nights.current_night(GROUP)
        assert night.hands == 1 and night.totals == deltas and deltas["S"] > 0
        said = [plain(m.text) for m in t.api.outbox[before:]]
        assert [s for s in said if s.startswith("📱")] == ["📱 bob: /hu bob self 小胡"], said
        assert sum("Hand 1" in s for s in said) == 1 and not any("⚠️" in s for s in said)
        answers = sorted([first.json(), second.json()], key=lambda r: "already" in r)
        assert first.status_code == second.status_code == 200, answers
        assert answers[0]["sent"] == answers[1]["sent"] == "/hu bob self 小胡"
        assert "already" not in answers[0] and answers[1]["already"] is True
        assert answers[1]["message"] == "Already recorded: this was sent to the group once, " \
                                        "and is not sent again."
        # the answer lost and the request sent again, later: the same
        zh = auth(init_data(t, "bob", lang="zh-hans"))
        again = await c.post("/app/api/record", headers=zh, json=body)
        assert again.json() == {"already": True, "sent": "/hu bob self 小胡",
                                "message_id": answers[0]["message_id"],
                                "message": "已经记过了：这条已经发到群里一次，不会再发。"}
        await pipeline(t.app).idle()
        assert len(t.api.outbox) == before + len(said)
        assert (await t.ledger.open_nights.current_night(GROUP)).hands == 1
        # a new form (a new key) is a new report
        r = await c.post("/app/api/record", headers=h, json=keyed(form))
        assert r.status_code == 200 and "already" not in r.json()
        await pipeline(t.app).idle()
        assert (await t.ledger.open_nights.current_night(GROUP)).hands == 2


@pytest.mark.parametrize("backend", BACKENDS)
async def test_an_undo_and_a_payment_sent_twice_go_through_once(tmp_path: Path,
                                                                backend: str) -> None:
    async with AsyncExitStack() as stack:
        url = await stack.enter_async_context(postgres_database("apponce")) \
            if backend == "postgres" else None
        t = await stack.enter_async_context(app_table(tmp_path, url=url))
        c = await stack.enter_async_context(client(t))
        await seated(t, stake="1")
        await t.say("bob", "/hu bob 自摸 清一色")
        first = (await t.ledger.open_nights.current_night(GROUP)).totals
        await t.say("bob", "/hu dave 自摸")
        h = auth(init_data(t, "bob"))
        before = len(t.api.outbox)
        body = keyed()
        answers = await asyncio.gather(*(c.post("/app/api/undo", headers=h, json=body)
                                         for _ in range(2)))
        await pipeline(t.app).idle()
        assert (await t.ledger.open_nights.current_night(GROUP)).totals == first  # one undone
        said = [plain(m.text) for m in t.api.outbox[before:]]
        assert [s for s in said if s.startswith("📱")] == ["📱 bob: /undo"], said
        assert sorted("already" in r.json() for r in answers) == [False, True]
        # the same undo sent again once its event is gone: still "already", not a refusal
        r = await c.post("/app/api/undo", headers=h, json=body)
        assert r.status_code == 200 and r.json()["already"]
        await t.say("alice", "/draw")
        await end_night(t, "alice")
        debts = (await c.get("/app/api/debts", headers=h)).json()
        mine = next(d for d in debts if d["payer"] == "alice")
        body = keyed({"handle": mine["handle"]})
        alice = auth(init_data(t, "alice"))
        before = len(t.api.outbox)
        answers = await asyncio.gather(*(c.post("/app/api/paid", headers=alice, json=body)
                                         for _ in range(2)))
        await pipeline(t.app).idle()
        assert sorted("already" in r.json() for r in answers) == [False, True]
        echoes = [m for m in t.api.outbox[before:] if m.text.startswith("📱")]
        assert [plain(m.text) for m in echoes] == [f"📱 alice: /paid {mine['handle']}"]
        # paid, so gone from the list: a retry is still told "already", not "no such debt"
        r = await c.post("/app/api/paid", headers=alice, json=body)
        assert r.status_code == 200 and r.json()["already"]
        for bad in ({}, {"key": "short"}, {"key": "x" * 65}, {"key": 12345678901234567890},
                    {"key": "not a key, spaces!"}):
            r = await c.post("/app/api/undo", headers=h, json=bad)
            assert r.status_code == 400 and r.json()["error"] == "bad_key"


async def test_a_win_the_group_will_question_is_said_in_the_app(tmp_path: Path) -> None:
    """bob's self-draw, typed in the chat, ended hand 1; alice reports it again from the
    app a minute later: the preview and Record say that the group is asked whether it is
    the same hand (not just "sent"), and the group is asked. bob himself, or another win,
    is not questioned."""
    async with app_table(tmp_path) as t, client(t) as c:
        await seated(t, "changsha")
        await t.say("bob", "/hu bob 自摸")
        form = {"winner": "S", "how": "self_draw"}
        alice, bob = auth(init_data(t, "alice")), auth(init_data(t, "bob"))
        assert (await c.post("/app/api/preview", headers=alice, json=form)).json()["asks"] == 1
        assert (await c.post("/app/api/preview", headers=bob, json=form)).json()["asks"] is None
        other = {"winner": "W", "how": "self_draw"}
        assert (await c.post("/app/api/preview", headers=alice, json=other)).json()["asks"] \
            is None
        words = (await c.get("/app/api/me", headers=alice)).json()["strings"]
        assert words["asks"].startswith("Hand {n} just ended with this win, reported by "
                                        "another player: the group is asked")
        r = await c.post("/app/api/record", headers=alice, json=keyed(form))
        assert r.status_code == 200 and r.json()["asks"] == 1
        await pipeline(t.app).idle()
        asked = t.api.outbox[-1]
        assert "Is this the same hand, or a new one?" in plain(asked.text)
        assert (await t.ledger.open_nights.current_night(GROUP)).hands == 1
        zh = await c.get("/app/api/me", headers=auth(init_data(t, "alice", lang="zh-hans")))
        assert zh.json()["strings"]["asks"].startswith("第 {n} 盘刚以这一胡结束")


async def test_init_data_past_its_age_says_how_to_reopen(tmp_path: Path) -> None:
    """Telegram's own init data, older than the maximum age: 401 with words that say the
    app must be reopened from the group, in the user's language (forged data keeps its
    own words)."""
    async with app_table(tmp_path) as t, client(t) as c:
        await seated(t)
        old = int(time.time()) - 3700
        for lang, words in (("en", "The app has been open too long for Telegram's sign-in: "
                                   "close it and open it again from the group (the 📱 "
                                   "button on the scoreboard, or /app)."),
                            ("zh-hans", "小程序打开太久，Telegram 的登录已过期：请关掉它，"
                                        "再从群里打开（记分板上的 📱 按钮，或在群里发 /app）。")):
            r = await c.get("/app/api/board",
                            headers=auth(init_data(t, "alice", auth_date=old, lang=lang)))
            assert r.status_code == 401 and r.json() == {"error": "stale", "message": words}
        forged = init_data(t, "alice").replace("alice", "alicf")
        r = await c.get("/app/api/board", headers=auth(forged))
        assert r.status_code == 401 and r.json()["error"] == "expired"


async def _best_of_stats(t: Any, who: str) -> str:
    """The line /stats says of ``who``'s best hand."""
    said = "\n".join(plain(m.text) for m in await t.say(who, "/stats"))
    return next(line for line in said.split("\n") if line.startswith(("Best hand", "单盘最高",
                                                                      "單盤最高")))


@pytest.mark.parametrize("lang, feibao, chengdu", [
    ("en", "(Shangrao Feibao: 七对)", "(Chengdu blood battle: 清一色 自摸)"),
    ("zh-Hans", "（上饶飞宝：七对）", "（成都血战：清一色 自摸）"),
    ("zh-Hant", "（上饒飛寶：七對）", "（成都血戰：清一色 自摸）")])
async def test_a_players_best_hand_is_the_one_stats_names_with_its_preset(
        tmp_path: Path, lang: str, feibao: str, chengdu: str) -> None:
    """The player view's best hand is /stats': the best at the chat's preset, else at any,
    said with the preset it was played at, in the reader's language."""
    async with app_table(tmp_path, lang) as t, client(t) as c:
        h = auth(init_data(t, "carol"))
        await seated(t, "feibao")
        await t.say("bob", "/hu bob zimo 七对 无宝")
        await end_night(t, "alice")
        bob = next(p for p in (await c.get("/app/api/players", headers=h)).json()["rows"]
                   if p["name"] == "bob")
        best = (await c.get(f"/app/api/player/{bob['id']}", headers=h)).json()["best"]
        assert best["text"] == await _best_of_stats(t, "bob")
        assert best["text"].endswith(feibao) and best["preset"] == "feibao", best
        assert best["shown"] == "30" and best["preset_name"] in feibao
        # a Chengdu hand of 24 beats the 飞宝 one of 30 in a Chengdu chat
        await seated(t)
        await t.say("bob", "/hu bob zimo 清一色")
        await end_night(t, "alice")
        record = (await c.get(f"/app/api/player/{bob['id']}", headers=h)).json()
        best = record["best"]
        assert best["text"] == await _best_of_stats(t, "bob")
        assert best["text"].endswith(chengdu) and best["preset"] == "chengdu", best["text"]
        assert best["points"] == 24 and record["biggest_shown"] == "24"
