"""What a real table does in a night, through the real bot: a hand reported twice (by
buttons too, and across a restart)."""

from __future__ import annotations

from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

import pytest

from bot.console.fake_api import SentMessage
from bot.pictures import drawing
from tests.bot.guided_play import find_button
from tests.bot.harness import Table, plain, table
from tests.databases import BACKENDS, postgres_database

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


THREE = "/new 三人两房 @alice @bob @carol"


async def _texts(t: Table, who: str, text: str) -> list[str]:
    return [plain(m.text) for m in await t.say(who, text)]


@pytest.mark.parametrize("backend", BACKENDS)
async def test_a_hand_before_a_seat_change_is_corrected_as_it_was_played(
        tmp_path: Path, backend: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """carol leaves, dave sits down: a correction of carol's hands names carol (typed or
    by the buttons), and the night's chart draws carol's line and dave's, each their own."""
    drawn: list[tuple[Any, drawing.NightLabels]] = []
    night_chart = drawing.night_chart

    def spy(series: Any, who: drawing.NightLabels, lang: str, font: Any) -> bytes:
        drawn.append((series, who))
        return night_chart(series, who, lang, font)

    monkeypatch.setattr(drawing, "night_chart", spy)
    async with AsyncExitStack() as stack:
        url = await stack.enter_async_context(postgres_database("seat")) \
            if backend == "postgres" else None
        t = await stack.enter_async_context(table(tmp_path, lang="zh-hans", url=url))
        t.admin("alice")
        await t.say("alice", THREE)
        for who, text in (("bob", "/hu bob 自摸 清一色"), ("carol", "/hu carol from alice"),
                          ("alice", "/hu alice 自摸 七对"),
                          ("carol", "/hu carol from bob 对对胡")):
            await t.say(who, text)
        await t.say("alice", "/seat carol @dave")
        # Hand 1 was carol's, not dave's.
        texts = await _texts(t, "alice", "/edit 1.2 dave from alice 对对胡")
        assert any("dave 没有打第 1 盘" in x for x in texts), texts
        texts = await _texts(t, "alice", "/edit 1.2 carol from alice 对对胡")
        assert any("第 1 盘：alice -9→-10  carol -7→-6" in x for x in texts), texts
        texts = await _texts(t, "alice", "/edit 2.1 alice 自摸 对对胡")
        assert any("第 2 盘：alice +16→+8  bob -10→-6  carol -6→-2" in x for x in texts), texts
        session = await t.ledger.current_session(t.chat_id)
        assert session.seats["W"].name == "dave" and session.totals["W"] == 0
        # The guided edit of hand 2 offers its players: carol, not dave.
        await t.say("alice", "/hand 2")
        await _tap(t, "alice", "✏️ 第 2 条")
        labels = [b["text"] for b in t.last_with_buttons().buttons]
        assert any("carol" in x for x in labels) and not any("dave" in x for x in labels), \
            labels
        await _tap(t, "alice", "carol 自摸")
        await _tap(t, "alice", "对对胡")
        msg = t.last_with_buttons()
        out = await t.press("alice", msg, find_button(msg, "✅ 记录")["callback_data"])
        texts = [plain(m.text) for m in out]
        assert any("第 2 盘：bob -6→-8  carol -2→0" in x for x in texts), texts
        # dave's win right after carol's (both West, self-drawn) starts hand 3: a seat
        # changed in between, so it is not taken for a second report of hand 2.
        await t.say("dave", "/hu dave 自摸")
        await t.say("bob", "/hu bob from alice")
        texts = await _texts(t, "alice", "/history")
        assert any("#3：alice -3  bob -1  dave +4\n#2：alice +8  bob -8\n"
                   "#1：alice -10  bob +16  carol -6" in x for x in texts), texts
        await t.say("alice", "/end")
        assert t.api.errors == []
    (series, labels_of), = drawn
    lines = {labels_of.names[pid]: ys for pid, ys in series.totals.items()}
    assert series.hands == (0, 1, 2, 3)
    assert lines == {"alice": (0, -10, -2, -5), "bob": (0, 16, 8, 7),
                     "carol": (0, -6, -6, None), "dave": (None, None, 0, 4)}
    assert {labels_of.names[pid]: seat for pid, seat in series.seats.items()} == {
        "alice": "E", "bob": "S", "carol": "W", "dave": "W"}
