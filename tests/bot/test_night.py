"""What a real table does in a night, through the real bot: a hand reported twice (by
buttons too, and across a restart)."""

from __future__ import annotations

from pathlib import Path

from bot.console.fake_api import SentMessage
from tests.bot.guided_play import find_button
from tests.bot.harness import Table, plain, table

NEW = "/new changsha @alice @bob @carol @dave"


async def _tap(t: Table, who: str, label: str) -> list[SentMessage]:
    msg = t.last_with_buttons()
    return await t.press(who, msg, find_button(msg, label)["callback_data"])


async def test_guided_report_of_a_closed_win_asks_too(tmp_path: Path) -> None:
    async with table(tmp_path) as t:
        await t.say("alice", NEW)
        await t.say("bob", "/hu bob 自摸 鸟2")
        await t.say("carol", "/hu")
        await _tap(t, "carol", "bob self-draw")
        out = await _tap(t, "carol", "Bird 2")
        texts = [plain(m.text) for m in out]
        assert any("Hand 1 just ended with this win" in x for x in texts), texts
        assert not any("Recorded:" in x for x in texts), texts
        assert (await t.ledger.current_session(t.chat_id)).hands == 1
        question = t.last_with_buttons()
        assert [b["text"] for b in question.buttons] == ["The same hand", "A new hand"]
        same = question.buttons[0]["callback_data"]
        await _tap(t, "dave", "A new hand")
        session = await t.ledger.current_session(t.chat_id)
        assert session.hands == 2
        # A second press of the answered question changes nothing.
        await t.press("alice", question, same)
        assert list(t.api.answered.values())[-1].get("show_alert")
        assert (await t.ledger.current_session(t.chat_id)).totals == session.totals
        # Someone not at the table cannot answer.
        await t.say("carol", "/hu bob 自摸 鸟2")
        question = t.last_with_buttons()
        await t.press("mallory", question, question.buttons[0]["callback_data"])
        assert list(t.api.answered.values())[-1].get("show_alert")
        assert t.api.errors == []


async def test_the_question_survives_a_restart(tmp_path: Path) -> None:
    async with table(tmp_path, lang="zh-hans") as t:
        await t.say("alice", NEW)
        await t.say("bob", "/hu bob 自摸 鸟2")
        await t.say("carol", "/hu bob 自摸 鸟2")
        question = t.last_with_buttons()
        new = question.buttons[1]["callback_data"]
        assert "这是同一盘，还是新的一盘？" in plain(question.text)
        assert [b["text"] for b in question.buttons] == ["同一盘", "新的一盘"]
    async with table(tmp_path, lang="zh-hans") as t:  # the same database, a new process
        out = await t.press("dave", question, new)
        assert any("第 2 盘" in plain(m.text) for m in out), [plain(m.text) for m in out]
        assert (await t.ledger.current_session(t.chat_id)).hands == 2
        # (The new fake Telegram never saw the question nor the scoreboard: only their
        # edits are refused.)
        assert {e[0] for e in t.api.errors} <= {"editMessageText"}


async def test_guided_edit_of_one_event_from_hand(tmp_path: Path) -> None:
    async with table(tmp_path) as t:
        await t.say("alice", "/new chengdu @alice @bob @carol @dave")
        for who, text in (("bob", "/hu bob 自摸"), ("carol", "/hu carol from alice"),
                          ("dave", "/hu dave 自摸")):
            await t.say(who, text)
        out = await t.say("carol", "/hand 1")
        labels = [b["text"] for b in out[-1].buttons]
        assert labels == ["✏️ Event 1", "✏️ Event 2", "✏️ Event 3"]
        await _tap(t, "carol", "✏️ Event 2")
        assert "Editing hand 1, event 2:" in plain(t.last_with_buttons().text)
        await _tap(t, "carol", "carol self-draw")
        await _tap(t, "carol", "七对")
        msg = t.last_with_buttons()
        record = find_button(msg, "✅ Record")["callback_data"]
        out = await t.press("carol", msg, record)
        texts = [plain(m.text) for m in out]
        assert any("Hand 1 corrected." in x for x in texts), texts
        session = await t.ledger.current_session(t.chat_id)
        assert session.totals == {"E": -12, "S": 6, "W": 14, "N": -8}
        assert session.hands == 1
        await t.press("carol", msg, record)  # a second Confirm changes nothing
        assert list(t.api.answered.values())[-1].get("show_alert")
        assert (await t.ledger.current_session(t.chat_id)).totals == session.totals
        # Another player's event (bob reported event 1) is not carol's to change.
        await t.say("carol", "/hand 1")
        await _tap(t, "carol", "✏️ Event 1")
        await _tap(t, "carol", "bob self-draw")
        msg = t.last_with_buttons()
        out = await t.press("carol", msg, find_button(msg, "✅ Record")["callback_data"])
        assert any("Only the player who reported" in plain(m.text) for m in out)
        assert (await t.ledger.current_session(t.chat_id)).totals == session.totals
        assert t.api.errors == []


async def test_guided_edit_in_chinese(tmp_path: Path) -> None:
    async with table(tmp_path, lang="zh-hans") as t:
        await t.say("alice", "/new chengdu @alice @bob @carol @dave")
        for who, text in (("bob", "/hu bob 自摸"), ("carol", "/hu carol from alice")):
            await t.say(who, text)
        out = await t.say("carol", "/hand 1")
        assert [b["text"] for b in out[-1].buttons] == ["✏️ 第 1 条", "✏️ 第 2 条"]
        assert "只改其中一条：/edit 1.N" in plain(out[-1].text)
        await _tap(t, "carol", "✏️ 第 2 条")
        assert "修改第 1 盘第 2 条：" in plain(t.last_with_buttons().text)
        assert t.api.errors == []


async def test_a_player_who_left_keeps_their_wins(tmp_path: Path) -> None:
    async with table(tmp_path) as t:
        await t.say("alice", NEW)
        await t.say("dave", "/hu dave from bob 清一色 鸟1")
        out = await t.say("carol", "/seat dave @erin")
        assert any("erin takes dave's seat (North)" in plain(m.text) for m in out)
        await t.say("erin", "/hu erin 自摸 鸟2")
        out = await t.say("carol", "/stats dave")
        text = plain(out[-1].text)
        assert "Hands 1: won 1" in text and "清一色" in text, text
        out = await t.say("carol", "/hand 1")
        assert "dave wins" in plain(out[-1].text)
        out = await t.say("carol", "/end")
        assert any("dave: +" in plain(m.text) for m in out)
        assert t.api.errors == []


async def test_a_guest_s_name_later_used_as_an_at_mention_lets_that_member_play(
        tmp_path: Path) -> None:
    async with table(tmp_path) as t:
        await t.say("alice", "/new chengdu @alice @bob @carol dave")  # dave: a guest
        await t.say("bob", "/hu bob 自摸 清一色")
        await t.say("alice", "/end")
        await t.say("alice", NEW)  # now the member @dave
        out = await t.say("dave", "/hu dave 自摸")
        assert any("Hand 1 recorded: dave self-draws" in plain(m.text) for m in out), \
            [plain(m.text) for m in out]
        session = await t.ledger.current_session(t.chat_id)
        assert session.seats["N"].telegram_id == t.user("dave").id
        # His guest hand of the first night is his now: one player, not two.
        assert (await t.ledger.find_player(t.chat_id, "@dave")).id == session.seats["N"].id
        # A guest seated by name is linked to the member of that username when they act...
        await t.say("alice", "/end")
        await t.say("alice", "/new chengdu @alice @bob @carol erin")
        out = await t.say("erin", "/hu erin 自摸")
        assert any("erin self-draws" in plain(m.text) for m in out), \
            [plain(m.text) for m in out]
        # ...but a seat that has an account is never taken by another name's member.
        out = await t.say("frank", "/hu carol 自摸")
        assert any("Only the players at this table" in plain(m.text) for m in out)
        assert t.api.errors == []


async def test_a_mistyped_preset_is_refused_not_seated(tmp_path: Path) -> None:
    async with table(tmp_path) as t:
        out = await t.say("alice", "/new 麻麻 @alice @bob @carol")
        text = plain(out[-1].text)
        assert "Unknown preset 麻麻; choose one of: changsha, chengdu" in text, text
        assert await t.ledger.current_session(t.chat_id) is None
        # A bare guest among @mentions after a preset, and only bare names, still seat.
        out = await t.say("alice", "/new chengdu @alice @bob @carol dave")
        assert "North dave" in plain(out[0].text)
        await t.say("alice", "/end")
        out = await t.say("alice", "/new alice bob carol dave")
        assert "New table" in plain(out[0].text)
        await t.say("alice", "/end")
        # A guest this chat knows may deal among @mentions.
        out = await t.say("alice", "/new dave @alice @bob @carol")
        assert "East dave" in plain(out[0].text), plain(out[0].text)
    async with table(tmp_path / "zh", lang="zh-hans") as t:
        out = await t.say("alice", "/new 麻麻 @alice @bob @carol")
        text = plain(out[-1].text)
        assert "没有规则 麻麻；可选：" in text and "成都血战" in text, text
        assert await t.ledger.current_session(t.chat_id) is None
