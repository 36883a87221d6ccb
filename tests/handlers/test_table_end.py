"""What a table leaves when it ends, on the handler tier: its scoreboard loses its buttons
(a press on one kept from before is told the table has ended, nothing recorded), its
dialogs' drafts go (their buttons are out of date), and a night holds a bounded number of
people (a seat change past it is refused, saying what to do instead). What needs the
delivery around the handlers stays in tests/bot/test_table_end.py."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select

from bot.console.fake_api import SentMessage
from storage.services.open_nights import MAX_PEOPLE
from storage.sql import tables as t_
from tests.bot.harness import plain
from tests.databases import BACKENDS
from tests.handlers.harness import HandlerTable as Table
from tests.handlers.harness import handler_table as table
from tests.handlers.harness import handler_table_on

NEW = "/new changsha @alice @bob @carol @dave"
ENDED = {"en": "This table has ended; its buttons no longer work.",
         "zh-hans": "这桌已经结束，按钮不再有效。"}
STALE = {"en": "That button is out of date.", "zh-hans": "这个按钮已过期。"}


def last_answer(t: Table) -> dict[str, Any]:
    return list(t.api.answered.values())[-1]


async def board_of(t: Table) -> SentMessage:
    night = await t.ledger.open_nights.current_night(t.chat_id)
    assert night is not None and night.board_message_id is not None
    return t.api.messages[(t.chat_id, night.board_message_id)]


async def drafts(t: Table) -> int:
    async with t.ledger.read() as conn:  # (the handler tier's SQLite runs synchronous code)
        return int(await conn.run_sync(
            lambda c: c.execute(select(func.count()).select_from(t_.drafts)).scalar_one()))


async def what_is_recorded(t: Table) -> tuple[Any, ...]:
    async with t.ledger.read() as conn:
        return tuple(await conn.run_sync(lambda c: [
            c.execute(select(func.count()).select_from(table_)).scalar_one()
            for table_ in (t_.hands, t_.entries, t_.nights, t_.audit)]))


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("lang", ["en", "zh-hans"])
async def test_an_ended_tables_buttons(tmp_path: Path, backend: str, lang: str) -> None:
    """/end edits the scoreboard to drop its "… won" buttons and drops the table's
    drafts. A press kept from before, on the scoreboard or an Undo, is told the table has
    ended; on a guided report's, that it is out of date: an alert each, nothing recorded,
    before and after a new table opens."""
    async with handler_table_on(backend, tmp_path, lang, "ended") as t:
        await t.say("alice", NEW)
        board = await board_of(t)
        won = [b["callback_data"] for b in board.buttons]
        assert len(won) == 4
        await t.say("bob", "/hu")
        guided = t.last_with_buttons()
        await t.say("carol", "/kong")
        out = await t.say("dave", "/hu dave 自摸 鸟1")
        undo = next(b["callback_data"] for m in out for b in m.buttons
                    if b["callback_data"].startswith("v1:u:"))
        assert await drafts(t) == 2
        await t.say("alice", "/end")
        assert board.buttons == [] and board.reply_markup is None
        assert ("本场已结束" if lang == "zh-hans" else "the night is over") in plain(board.text)
        assert await drafts(t) == 0
        recorded = await what_is_recorded(t)

        async def stale_presses() -> None:
            for data in (won[0], won[3], undo):
                await t.press("alice", board, data)
                assert last_answer(t).get("show_alert"), data
                assert last_answer(t)["text"] == ENDED[lang], data
            for button in guided.buttons[:2]:
                await t.press("bob", guided, button["callback_data"])
                assert last_answer(t).get("show_alert")
                assert last_answer(t)["text"] == STALE[lang]

        await stale_presses()
        assert await what_is_recorded(t) == recorded
        await t.say("alice", NEW)  # a new table: the old buttons still say the same
        recorded = await what_is_recorded(t)
        new_board = await board_of(t)
        assert new_board.message_id != board.message_id and len(new_board.buttons) == 4
        await stale_presses()
        assert await what_is_recorded(t) == recorded and await drafts(t) == 0
        assert board.buttons == []
        night = await t.ledger.open_nights.current_night(t.chat_id)
        assert night is not None and night.hands == 0
        assert t.api.errors == []


@pytest.mark.parametrize("lang", ["en", "zh-hans"])
async def test_a_night_holds_at_most_max_people(tmp_path: Path, lang: str) -> None:
    """Seat changes bring new people in until the night holds MAX_PEOPLE; one more is
    refused with the limit and what to do instead, nothing changed; someone who played
    earlier comes back."""
    async with table(tmp_path, lang=lang) as t:
        t.admin("alice")
        await t.say("alice", NEW)
        await t.say("alice", "/hu dave 自摸 鸟1")  # a hand of Changsha: one win ends it
        leaving = "dave"
        for n in range(MAX_PEOPLE - 4):
            await t.say("alice", f"/seat {leaving} p{n}")
            await t.say("alice", f"/hu p{n} 自摸 鸟1")
            leaving = f"p{n}"
        before = await t.ledger.open_nights.current_night(t.chat_id)
        out = await t.say("alice", f"/seat {leaving} zoe")
        said = plain(out[-1].text)
        if lang == "zh-hans":
            assert said == (f"⚠️ zoe 无法加入：本场最多 {MAX_PEOPLE} 人。请先用 /end 结束本场，"
                            "再用 /new 开新的一场。"), said
        else:
            assert said == (f"⚠️ zoe cannot join: one night holds at most {MAX_PEOPLE} "
                            "people. End this night with /end, then start a new one with "
                            "/new."), said
        assert await t.ledger.open_nights.current_night(t.chat_id) == before
        await t.say("alice", f"/seat {leaving} dave")
        night = await t.ledger.open_nights.current_night(t.chat_id)
        assert night is not None and night.seats["N"].name == "dave"
        out = await t.say("alice", "/end")
        assert [m.kind for m in out].count("photo") == 2
        summary = await t.ledger.nights.summary(t.chat_id, night.id)
        assert len(summary.nets) == MAX_PEOPLE
        assert t.api.errors == []
