"""The answer to an event: compact by default, Details one tap away (refused when stale or
forged), the full answer for a chat that asks, and refusals in plain words."""

from __future__ import annotations

from pathlib import Path

from bot.console.fake_api import SentMessage
from tests.bot.harness import end_night, plain
from tests.handlers.harness import HandlerTable as Table
from tests.handlers.harness import handler_table as table

NEW = "/new chengdu @alice @bob @carol @dave"


def answer_of(replies: list[SentMessage]) -> SentMessage:
    return next(m for m in replies if m.buttons)


def last_answer(t: Table) -> dict[str, object]:
    return list(t.api.answered.values())[-1]


async def test_a_compact_answer_with_undo_and_details(tmp_path: Path) -> None:
    async with table(tmp_path) as t:
        await t.say("alice", NEW)
        msg = answer_of(await t.say("bob", "/hu bob 自摸 清一色 根1"))
        lines = plain(msg.text).split("\n")
        assert lines == ["Hand 1 recorded: bob self-draws, one suit 清一色, root 根, "
                         "self-draw 自摸, 5 fan, 16 points",
                         "bob +48  alice -16  carol -16  dave -16 · The hand plays on; "
                         "still in: alice, carol, dave."]
        assert [b["text"] for b in msg.buttons] == ["Undo", "Details"]
        assert all(len(b["callback_data"].encode()) <= 64 for b in msg.buttons)
        assert msg.buttons[1]["callback_data"].startswith("v1:x:")
        await t.press("carol", msg, msg.buttons[1]["callback_data"])
        assert msg.edits == 1 and "Hand 1, the details:" in msg.text
        assert "alice → bob 16 (the win)" in plain(msg.text)
        assert [b["text"] for b in msg.buttons] == ["Undo"]  # Undo stays
        assert last_answer(t).get("show_alert") is not True
        assert t.api.errors == []


async def test_details_of_an_event_undone_since_is_refused(tmp_path: Path) -> None:
    async with table(tmp_path) as t:
        await t.say("alice", NEW)
        old = answer_of(await t.say("bob", "/hu bob 自摸"))
        details = old.buttons[1]["callback_data"]
        await t.say("bob", "/undo")
        await t.say("carol", "/hu carol from dave 七对")  # another event in its place
        await t.press("bob", old, details)
        assert old.edits == 0
        assert last_answer(t)["show_alert"] is True
        assert "out of date" in str(last_answer(t)["text"])
        assert t.api.errors == []


async def test_forged_details_data_is_refused(tmp_path: Path) -> None:
    async with table(tmp_path) as t:
        await t.say("alice", NEW)
        msg = answer_of(await t.say("bob", "/hu bob 自摸"))
        before = msg.text
        good = msg.buttons[1]["callback_data"]
        _, _, sid, hand, event, check = good.split(":")
        for forged in (f"v1:x:{int(sid) + 1}:{hand}:{event}:{check}",  # another table
                       f"v1:x:{sid}:{hand}:7:{check}", f"v1:x:{sid}:{hand}:{event}:00000000",
                       f"v1:x:{sid}:99999999999999999999:0:{check}", "v1:x:1", "v1:x:" + "9" * 70):
            await t.press("bob", msg, forged)
            assert last_answer(t)["show_alert"] is True, forged
        assert msg.text == before and msg.edits == 0
        assert t.api.errors == []


async def test_a_chat_can_ask_for_the_full_answer(tmp_path: Path) -> None:
    async with table(tmp_path) as t:
        t.admin("alice")
        await t.say("alice", NEW)
        await t.say("alice", "/set verbose on")
        assert (await t.ledger.chats.chat(t.chat_id)).verbose is True
        msg = answer_of(await t.say("bob", "/hu bob 自摸"))
        assert "Payments:" in msg.text and "Totals:" in msg.text
        assert [b["text"] for b in msg.buttons] == ["Undo"]
        await t.say("alice", "/set verbose off")
        msg = answer_of(await t.say("carol", "/hu carol 自摸"))
        assert len(plain(msg.text).split("\n")) == 2
        assert (await t.ledger.chats.chat(t.chat_id)).verbose is False
        refused = await t.say("bob", "/set verbose on")  # not an admin
        assert "Only chat admins" in plain(refused[0].text)


async def test_one_point_is_said_in_the_singular(tmp_path: Path) -> None:
    async with table(tmp_path) as t:
        await t.say("alice", NEW)
        msg = answer_of(await t.say("carol", "/hu carol from alice"))  # 平胡: 1 fan, 1 point
        assert plain(msg.text).split("\n")[0].endswith(", 1 fan, 1 point"), plain(msg.text)
        await t.press("bob", msg, msg.buttons[1]["callback_data"])
        assert "carol: 1 fan = 1 point\n" in plain(msg.text), plain(msg.text)
        msg = answer_of(await t.say("bob", "/hu bob 自摸 清一色"))
        assert ", 8 points\n" in plain(msg.text), plain(msg.text)
    async with table(tmp_path / "zh", lang="zh-hans") as t:
        await t.say("alice", NEW)
        msg = answer_of(await t.say("carol", "/hu carol from alice"))
        assert plain(msg.text).split("\n")[0].endswith("，1 番 1 分"), plain(msg.text)


async def test_the_chinese_answer(tmp_path: Path) -> None:
    async with table(tmp_path, lang="zh-hans") as t:
        await t.say("alice", NEW)
        msg = answer_of(await t.say("carol", "/hu carol from alice 七对"))
        assert plain(msg.text).split("\n")[0] == "第 1 盘：alice 点炮，carol 胡，七对，3 番 4 分"
        assert [b["text"] for b in msg.buttons] == ["撤销", "详情"]


async def test_a_report_field_out_of_range_is_refused_in_plain_words(tmp_path: Path) -> None:
    from bot.text.errors_text import error_text

    text = error_text("zh-Hans", "bad_report", "", where="events.1.wall_end.players.E.fan")
    assert "events" not in text and "番数超出范围" in text
    text = error_text("en", "bad_report", "", where="events.1.win.winners.0.kongs")
    assert "events" not in text and "a kong count out of range" in text
    async with table(tmp_path, lang="zh-hans") as t:
        await t.say("alice", NEW)
        replies = await t.say("bob", "/hu bob 自摸 杠9")
        assert replies and "events" not in replies[0].text and "winners" not in replies[0].text
        assert t.api.errors == []


async def test_rules_show_the_chats_own_house_rules_in_chinese(tmp_path: Path) -> None:
    async with table(tmp_path, lang="zh-hans") as t:
        t.admin("alice")
        await t.say("alice", "/set preset 成都血战")
        await t.say("alice", "/set cap_fan=5")
        text = plain((await t.say("alice", "/rules"))[0].text)
        assert text.startswith("成都血战") and "封顶：5 番" in text and "cap_fan" not in text
        text = plain((await t.say("alice", "/rules 宜宾"))[0].text)
        assert "大对子：+2 番" in text and "对对胡" not in text.split("选项")[0]
        await t.say("alice", NEW.replace("chengdu", "成都"))
        table_text = plain((await t.say("bob", "/table"))[0].text)
        assert "牌桌：成都血战" in table_text and "东 alice" in table_text


async def test_details_after_the_night_ended_show_no_hand_in_play_and_no_undo(
        tmp_path: Path) -> None:
    """/end closes the night with bob's hand still in play: its Details then show the
    explanation alone (no "plays on; still in", nobody deals next) and no Undo, which
    could only answer that the table has ended."""
    for lang, still, undo, details in (("en", "still in", "Undo", "Hand 1, the details:"),
                                       ("zh-hans", "还在打", "撤销", "第 1 盘详情")):
        async with table(tmp_path / lang, lang=lang) as t:
            await t.say("alice", NEW)
            msg = answer_of(await t.say("bob", "/hu bob 自摸"))
            assert still in plain(msg.text)  # the hand played on when it was answered
            await end_night(t, "alice")
            await t.press("carol", msg, msg.buttons[-1]["callback_data"])
            text = plain(msg.text)
            assert details in text, text
            assert still not in text and "alice" in text, text
            assert undo not in [b["text"] for b in msg.buttons]
            assert msg.buttons == [], msg.buttons
            assert last_answer(t).get("show_alert") is not True
            assert t.api.errors == []
