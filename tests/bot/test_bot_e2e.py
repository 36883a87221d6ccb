"""The bot's safety and plumbing, end to end through polling against the fake Bot API."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path

import pytest
from telegram import Update
from telegram.ext import CommandHandler, ContextTypes

from bot.app import build_application, running
from bot.console.fake_api import FakeBotAPI, FakeUser, SentMessage, dispatch, serve_http
from bot.delivery.pipeline import pipeline_of
from bot.ops.config import Settings, StorageSettings, TelegramSettings
from bot.text import render
from tests.bot.guided_play import find_button
from tests.bot.harness import Table, end_night, plain, table

NEW = "/new chengdu @alice @bob @carol @dave"


async def test_a_redelivered_report_is_recorded_once(tmp_path: Path) -> None:
    """Telegram sends an update again when it was not confirmed, or after restarting its
    update ids; the inbox knows it by its chat and message id."""
    async with table(tmp_path) as t:
        await t.say("alice", NEW)
        first = await t.say("bob", "/hu bob 自摸")
        uid = t.api.delivered[-1]["update_id"]
        before = len(t.api.outbox)
        await t.settle(t.api.redeliver(uid))  # under a new update id
        await t.settle(t.api.redeliver(uid, new_id=False))  # the same one again
        assert any("Hand 1 recorded" in plain(m.text) for m in first)
        assert len(t.api.outbox) == before  # recorded and answered once
        night = await t.ledger.open_nights.current_night(t.chat_id)
        assert night.totals == {"E": -2, "S": 6, "W": -2, "N": -2}


async def test_outsiders_cannot_report_but_admins_can(tmp_path: Path) -> None:
    async with table(tmp_path) as t:
        await t.say("alice", NEW)
        out = await t.say("mallory", "/hu bob 自摸")
        assert "Only the players at this table" in plain(out[0].text)
        t.admin("mallory")
        out = await t.say("mallory", "/hu bob 自摸")
        assert any("Hand 1 recorded" in plain(m.text) for m in out)


async def test_undo_button_and_stale_buttons(tmp_path: Path) -> None:
    async with table(tmp_path) as t:
        await t.say("alice", NEW)
        out = await t.say("bob", "/hu bob 自摸")
        recorded = next(m for m in out if m.buttons)
        await t.say("carol", "/hu carol from alice")
        # The first message's Undo is stale now: only the latest event can be undone.
        await t.press("bob", recorded, recorded.buttons[0]["callback_data"])
        answer = list(t.api.answered.values())[-1]
        assert answer.get("show_alert") and "latest" in answer["text"]
        latest = t.last_with_buttons()
        await t.press("carol", latest, latest.buttons[0]["callback_data"])
        night = await t.ledger.open_nights.current_night(t.chat_id)
        assert night.totals == {"E": -2, "S": 6, "W": -2, "N": -2}
        # Forged data is refused with a popup; nothing changes.
        await t.press("bob", latest, "v1:u:999:1:0")
        await t.press("bob", latest, "garbage")
        answers = list(t.api.answered.values())[-2:]
        assert all(a.get("show_alert") for a in answers)
        night = await t.ledger.open_nights.current_night(t.chat_id)
        assert night.totals == {"E": -2, "S": 6, "W": -2, "N": -2}
        assert t.api.errors == []


async def test_guided_report_with_buttons(tmp_path: Path) -> None:
    async with table(tmp_path) as t:
        await t.say("alice", NEW)
        out = await t.say("carol", "/hu")
        prompt = out[0]
        assert "Who won, and how?" in prompt.text

        async def press(label: str) -> None:
            msg = t.api.messages[(prompt.chat_id, prompt.message_id)]
            button = find_button(msg, label)
            assert len(button["callback_data"].encode()) <= 64
            await t.press("carol", msg, button["callback_data"])

        await press("carol ← dave")
        old = t.api.messages[(prompt.chat_id, prompt.message_id)].buttons[0]["callback_data"]
        await press("七对")
        # Pressing a button from an older version of the draft is refused.
        await t.press("carol", t.api.messages[(prompt.chat_id, prompt.message_id)], old)
        assert list(t.api.answered.values())[-1].get("show_alert")
        await press("根 0")  # one 根: in chengdu 七对 with a four is 龙七对, 5 fan = 16
        await press("✅ Record")
        night = await t.ledger.open_nights.current_night(t.chat_id)
        assert night.totals == {"E": 0, "S": 0, "W": 16, "N": -16}
        assert "Recorded:" in t.api.messages[(prompt.chat_id, prompt.message_id)].text
        assert t.api.errors == []


async def test_scoreboard_is_edited_in_place_and_pinned(tmp_path: Path) -> None:
    async with table(tmp_path) as t:
        await t.say("alice", NEW)
        for text in ("/hu bob 自摸", "/hu carol from alice", "/hu dave 自摸"):
            await t.say("bob", text)
        boards = {m.message_id for m in t.api.outbox if "Scoreboard" in m.text}
        assert len(boards) == 1
        board = t.api.messages[(t.chat_id, boards.pop())]
        assert board.pinned and board.edits == 3


async def _until(condition: Callable[[], object], timeout: float = 30.0) -> None:
    """Wait for the sender's task, without asserting how long it took."""
    for _ in range(int(timeout / 0.01)):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("condition not met")


def _interval_passes(t: Table) -> None:
    """The scoreboard's interval runs out now: a waiting edit goes, the next at once.
    (The test's interval is long, so that nothing falls due by itself, however slowly
    the machine runs it.)"""
    sender = pipeline_of(t.app).sender
    sender.board_due.pop(t.chat_id, None)
    stream = sender.streams.get(t.chat_id)
    if stream is not None:
        stream.wake.set()


async def test_scoreboard_edits_in_a_burst_merge_into_one(tmp_path: Path) -> None:
    async with table(tmp_path, board_interval=3600.0) as t:
        await t.say("alice", NEW)
        board_id = next(m.message_id for m in t.api.outbox if "Scoreboard" in m.text)
        board = t.api.messages[(t.chat_id, board_id)]
        for text in ("/hu bob 自摸", "/hu carol from alice", "/hu dave 自摸"):
            out = await t.say("bob", text)
            assert any("recorded" in plain(m.text) for m in out)  # each report answered
        assert board.edits == 0  # all three came within the interval of the post
        _interval_passes(t)
        await _until(lambda: board.edits == 1)
        await shows_the_ledger(t, board)  # the one edit shows the newest table
        _interval_passes(t)  # quiet for longer than the interval: the next is at once
        await t.say("bob", "/hu bob 自摸")
        assert board.edits == 2
        await shows_the_ledger(t, board)
        await t.say("carol", "/hu carol 自摸")
        assert board.edits == 2
        night = await t.ledger.open_nights.current_night(t.chat_id)
        await end_night(t, "alice")  # one edit, at once: the night is over (no hand in
        # progress), with the final nets
        assert board.edits == 3 and "the night is over" in board.text
        assert render.board_text("en", night).split("\n")[-4:] == board.text.split("\n")[-4:]
        _interval_passes(t)  # carol's edit was replaced by the night's last: nothing left
        await pipeline_of(t.app).idle()
        assert board.edits == 3 and t.api.errors == []


async def test_the_next_table_s_board_is_posted_at_once_after_the_last_one_ended(
        tmp_path: Path) -> None:
    """The night's last edit of a board starts the interval; the next table's first
    board (a new post, where its buttons are) does not wait for it."""
    async with table(tmp_path, board_interval=3600.0) as t:
        await t.say("alice", NEW)
        await t.say("bob", "/hu bob 自摸")
        await end_night(t, "alice")
        def boards() -> list[SentMessage]:  # each board message once, as it stands
            ids = dict.fromkeys(m.message_id for m in t.api.outbox if "Scoreboard" in m.text)
            return [t.api.messages[(t.chat_id, i)] for i in ids]

        [ended] = boards()
        assert "the night is over" in ended.text
        await t.say("alice", NEW)
        assert len(boards()) == 2, [plain(m.text) for m in t.api.outbox]
        board = boards()[1]
        assert "the night is over" not in board.text and board.reply_markup
        await t.say("carol", "/hu carol 自摸")  # its edits keep the interval
        assert board.edits == 0
        assert t.api.errors == []


async def test_a_pending_scoreboard_edit_is_shown_at_shutdown(tmp_path: Path) -> None:
    async with table(tmp_path, board_interval=60) as t:
        await t.say("alice", NEW)
        await t.say("bob", "/hu bob 自摸")
        board = next(t.api.messages[(t.chat_id, m.message_id)] for m in t.api.outbox
                     if "Scoreboard" in m.text)
        assert board.edits == 0
    assert board.edits == 1 and "bob: +6" in plain(board.text)


async def shows_the_ledger(t: Table, board: SentMessage) -> None:
    night = await t.ledger.open_nights.current_night(t.chat_id)
    assert board.text == render.board_text("en", night)
    assert f"{night.seats['S'].name}: {night.totals['S']:+d}" in plain(board.text)


async def test_private_chat_calculator_and_no_ledger(tmp_path: Path) -> None:
    async with table(tmp_path) as t:
        dm = 555
        t.api.chat(dm, type="private")
        out = await t.say("alice", "/score 1112345678999m", chat_id=dm)
        assert "waiting on 123456789m" in plain(out[0].text)
        out = await t.say("alice", "/score 1111m 23456789m 55m sichuan", chat_id=dm)
        assert "A winning hand" in plain(out[0].text)
        out = await t.say("alice", "/score 12x", chat_id=dm)
        assert "12x" in plain(out[0].text) and "Example" in plain(out[0].text)
        out = await t.say("alice", NEW, chat_id=dm)
        assert "works in a group" in plain(out[0].text)
        assert await t.ledger.open_nights.current_night(dm) is None


async def test_bad_input_answers_with_an_example_and_records_nothing(tmp_path: Path) -> None:
    async with table(tmp_path) as t:
        await t.say("alice", NEW)
        for text, expected in [
            ("/hu bob", "Say how they won"),
            ("/hu bob from", "needs a player"),
            ("/hu bob 自摸 清一吃", "did you mean: one suit 清一色"),
            ("/hu bob from bob", "cannot win off their own discard"),
            ("/hu bob 自摸 七对 对对胡", "cannot both hold"),
            ("/kong bob", "Example: /kong"),
            ("/void x", "Give the hand's number"),
            ("/new chengdu a b", "four players in seat order"),
            ("/new chengdu a b c", "A table is already going"),
            ("/new chengdu a b c d", "A table is already going"),
            ("/hu bob 自摸 <b>x</b>", "Unknown pattern"),
        ]:
            out = await t.say("bob", text)
            assert out and expected in plain(out[0].text), (text, [m.text for m in out])
        night = await t.ledger.open_nights.current_night(t.chat_id)
        assert night.hands == 0 and set(night.totals.values()) == {0}
        assert t.api.errors == []


async def test_errors_are_reported_without_a_traceback(tmp_path: Path) -> None:
    async with table(tmp_path) as t:
        async def boom(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
            raise RuntimeError("database on fire")

        t.app.add_handler(CommandHandler("boom", boom))
        out = await t.say("alice", "/boom")
        text = plain(out[0].text)
        assert "something went wrong" in text and "Traceback" not in text
        assert "fire" not in text


async def test_command_menus_per_scope_and_language(tmp_path: Path) -> None:
    async with table(tmp_path) as t:
        keys = set(t.api.commands)
        assert any('"all_group_chats"' in k and k.endswith("|zh") for k in keys)
        assert any('"all_private_chats"' in k and k.endswith("|") for k in keys)
        zh_group = next(v for k, v in t.api.commands.items()
                        if '"all_group_chats"' in k and k.endswith("|zh"))
        assert any(c["description"] == "报胡" for c in zh_group)
        # a Singapore bite or set has its guided report too: /bite alone
        assert {"command": "bite", "description": "咬或凑齐一套，当场付（新马）"} in zh_group


async def test_language_follows_the_chat(tmp_path: Path) -> None:
    async with table(tmp_path, lang="zh-hans") as t:
        out = await t.say("alice", "/table")
        assert "本群现在没有牌桌" in plain(out[0].text)
        t.admin("alice")
        await t.say("alice", "/lang en")
        out = await t.say("alice", "/table")
        assert "No table is going" in plain(out[0].text)


async def test_fake_refuses_what_telegram_refuses() -> None:
    api = FakeBotAPI()
    api.chat(1)
    status, body = await dispatch(api, "sendMessage", {"chat_id": 1, "text": "x" * 4097})
    assert status == 400 and b"too long" in body
    markup = {"inline_keyboard": [[{"text": "a", "callback_data": "x" * 65}]]}
    status, body = await dispatch(api, "sendMessage", {"chat_id": 1, "text": "hi",
                                                       "reply_markup": markup})
    assert status == 400 and b"BUTTON_DATA_INVALID" in body
    for bad in ("a < b", "<script>x</script>", "<b>open", "fish & chips"):
        status, body = await dispatch(api, "sendMessage", {"chat_id": 1, "text": bad,
                                                           "parse_mode": "HTML"})
        assert status == 400 and b"can't parse entities" in body, bad
    status, body = await dispatch(api, "sendMessage", {"chat_id": 1, "parse_mode": "HTML",
                                                       "text": "<b>ok</b> &lt;3 &amp; more"})
    assert status == 200
    status, body = await dispatch(api, "sendMessage", {"chat_id": 1, "text": "hi"})
    mid = json.loads(body)["result"]["message_id"]
    status, body = await dispatch(api, "editMessageText", {"chat_id": 1, "message_id": mid,
                                                           "text": "hi"})
    assert status == 400 and b"not modified" in body
    user = FakeUser(5, "u")
    last = api.last()
    assert last is not None
    api.press(user, last, "v1:x")
    qid = api.updates[-1]["callback_query"]["id"]
    assert (await dispatch(api, "answerCallbackQuery", {"callback_query_id": qid}))[0] == 200
    status, body = await dispatch(api, "answerCallbackQuery", {"callback_query_id": qid})
    assert status == 400 and b"query is too old" in body


async def test_smoke_over_http_on_loopback(tmp_path: Path) -> None:
    """python-telegram-bot's own HTTP client reaching the fake through base_url."""
    api = FakeBotAPI()
    server = await serve_http(api)
    port = server.sockets[0].getsockname()[1]
    settings = Settings(
        telegram=TelegramSettings(token="42:HTTP", base_url=f"http://127.0.0.1:{port}/bot"),
        storage=StorageSettings(url=f"sqlite+aiosqlite:///{tmp_path}/http.db"))
    app = build_application(settings)
    try:
        async with running(app, poll_timeout=1):
            uid = api.say(FakeUser(7, "alice", "alice", "en"), -42, "/score 1112345678999m")
            for _ in range(400):
                if api.offset > uid:
                    break
                await asyncio.sleep(0.01)
            await app.update_queue.join()
    finally:
        server.close()
        await server.wait_closed()
    reply = api.last(-42)
    assert reply is not None and "123456789m" in reply.text
    assert tuple(m for m, _ in api.log[:5]) >= ("getUpdates", ) or any(
        m == "getUpdates" for m, _ in api.log)


def test_config_errors_are_clear(tmp_path: Path) -> None:
    from bot.__main__ import main

    assert main(["--config", str(tmp_path / "missing.toml")]) == 2
    bad = tmp_path / "bad.toml"
    bad.write_text('default_language = "fr"\n')
    assert main(["--config", str(bad)]) == 2


@pytest.mark.parametrize("preset", ["chengdu"])
async def test_end_of_night_summary(tmp_path: Path, preset: str) -> None:
    async with table(tmp_path) as t:
        await t.say("alice", NEW.replace("chengdu", preset) + " 0.5")
        await t.say("bob", "/hu bob 自摸 清一色")
        out = await end_night(t, "alice")
        text = "\n".join(plain(m.text) for m in out)
        assert "bob: +24 (12.00)" in text and "To settle up" in text
        out = await t.say("alice", "/standings")
        assert "bob: +12.00 (+24 at 0.50)" in plain(out[0].text)
        out = await t.say("bob", "/stats")
        assert "1 win (100%), by self-draw" in plain(out[0].text)


async def test_join_buttons_open_a_table(tmp_path: Path) -> None:
    async with table(tmp_path) as t:
        out = await t.say("alice", "/new changsha")
        board = out[0]
        assert "Take a seat" in board.text and len(board.buttons) == 4
        for who, index in (("alice", 0), ("bob", 1), ("carol", 2)):
            msg = t.api.messages[(board.chat_id, board.message_id)]
            await t.press(who, msg, msg.buttons[index]["callback_data"])
        msg = t.api.messages[(board.chat_id, board.message_id)]
        await t.press("mallory", msg, msg.buttons[0]["callback_data"])  # taken
        assert list(t.api.answered.values())[-1].get("show_alert")
        await t.press("dave", msg, msg.buttons[3]["callback_data"])
        night = await t.ledger.open_nights.current_night(t.chat_id)
        assert night is not None and night.preset == "changsha"
        assert [p.name for p in night.seats.values()] == ["alice", "bob", "carol", "dave"]
        assert night.seats["E"].telegram_id == t.user("alice").id
        out = await t.say("bob", "/hu bob 自摸")
        assert any("Hand 1 recorded" in plain(m.text) for m in out)


async def test_text_mentions_seat_members_without_usernames(tmp_path: Path) -> None:
    async with table(tmp_path) as t:
        erin = FakeUser(901, "Erin")  # no @username: only a text mention identifies her
        await t.say("alice", "/new chengdu @alice Erin carol dave", mentions={"Erin": erin})
        night = await t.ledger.open_nights.current_night(t.chat_id)
        assert night.seats["S"].telegram_id == 901
        assert night.seats["W"].is_guest  # carol: a plain name is a guest
        before = len(t.api.outbox)
        uid = t.api.say(erin, t.chat_id, "/hu Erin 自摸", mentions={"Erin": erin})
        await t.settle(uid)
        assert any("Hand 1 recorded" in plain(m.text) for m in t.api.outbox[before:])


async def test_names_with_markup_are_shown_safely(tmp_path: Path) -> None:
    async with table(tmp_path) as t:
        await t.say("alice", "/new chengdu @alice <b>bo</b> carol dave")
        out = await t.say("alice", "/hu")
        buttons = t.api.messages[(out[0].chat_id, out[0].message_id)].buttons
        winner = next(b for b in buttons if "bo" in b["text"])
        await t.press("alice", out[0], winner["callback_data"])
        prompt = t.api.messages[(out[0].chat_id, out[0].message_id)]
        assert "&lt;b&gt;bo&lt;/b&gt;" in prompt.text
        assert t.api.errors == []
        night = await t.ledger.open_nights.current_night(t.chat_id)
        assert night.seats["S"].name == "<b>bo</b>"


async def test_debts_carry_over_and_are_marked_paid(tmp_path: Path) -> None:
    async with table(tmp_path) as t:
        await t.say("alice", NEW)
        await t.say("bob", "/hu bob 自摸 清一色")
        await end_night(t, "alice")
        out = await t.say("carol", "/debts")
        text = plain(out[0].text)
        assert text.count("→ bob: 8.00") == 3
        line = next(x for x in text.splitlines() if "#" in x and "dave" not in x)
        first = int(line.split("#", 1)[1].split()[0])
        out = await t.say("dave", f"/paid {first}")  # dave is not a party to this debt
        assert "Only the two players" in plain(out[0].text)
        out = await t.say("bob", f"/paid {first}")
        assert "Recorded: " in plain(out[0].text) and "They are square" in plain(out[0].text)
        out = await t.say("carol", "/debts")
        assert plain(out[0].text).count("→ bob: 8.00") == 2
        out = await t.say("bob", "/paid x")
        assert "Give the debt's number" in plain(out[0].text)


async def test_the_chat_speaks_the_language_of_whoever_added_the_bot(tmp_path: Path) -> None:
    async with table(tmp_path, lang="en") as t:
        adder = FakeUser(321, "mei", "mei", "zh-hans")
        before = len(t.api.outbox)
        await t.settle(t.api.add_bot(adder, t.chat_id))
        assert "麻将记分" in plain(t.api.outbox[before].text)  # the welcome, in Chinese
        out = await t.say("alice", "/table")  # alice's client is English; the chat is not
        assert "本群现在没有牌桌" in plain(out[0].text)
