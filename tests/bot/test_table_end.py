"""What a table leaves when it ends, through the real bot: its scoreboard loses its
buttons (a press on one kept from before is told the table has ended, nothing recorded),
its dialogs' drafts go (their buttons are out of date), and a night holds a bounded number
of people (a seat change past it is refused, saying what to do instead)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select

from bot.console.fake_api import SentMessage
from bot.delivery.pipeline import pipeline_of
from storage.services.open_nights import MAX_PEOPLE
from storage.sql import tables as t_
from tests.bot.guided_play import find_button
from tests.bot.harness import Table, plain, table, table_on
from tests.databases import BACKENDS

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
    async with t.ledger.read() as conn:
        return int((await conn.execute(select(func.count()).select_from(t_.drafts)))
                   .scalar_one())


async def what_is_recorded(t: Table) -> tuple[Any, ...]:
    async with t.ledger.read() as conn:
        return tuple([(await conn.execute(select(func.count()).select_from(table_)))
                      .scalar_one() for table_ in (t_.hands, t_.entries, t_.nights,
                                                   t_.audit)])


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("lang", ["en", "zh-hans"])
async def test_an_ended_tables_buttons(tmp_path: Path, backend: str, lang: str) -> None:
    """/end edits the scoreboard to drop its "… won" buttons and drops the table's
    drafts. A press kept from before, on the scoreboard or an Undo, is told the table has
    ended; on a guided report's, that it is out of date: an alert each, nothing recorded,
    before and after a new table opens."""
    async with table_on(backend, tmp_path, lang=lang, name="ended") as t:
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


async def test_an_ended_board_is_edited_though_the_next_tables_comes_first(
        tmp_path: Path) -> None:
    """The night's summary is slow to go out, and meanwhile a new table opens: its board
    does not replace the ended table's last edit (which drops the old buttons); both
    are shown, the ended one first."""
    async with table(tmp_path) as t:
        await t.say("alice", NEW)
        board = await board_of(t)
        held, go = asyncio.Event(), asyncio.Event()

        async def slow_summary(method: str, params: dict[str, Any]) -> None:
            if method == "sendMessage" and "The night is over" in str(params.get("text")):
                held.set()
                await go.wait()

        t.api.faults.append(slow_summary)
        t.api.say(t.user("alice"), t.chat_id, "/end")
        await asyncio.wait_for(held.wait(), 10)
        opened = t.api.say(t.user("alice"), t.chat_id, NEW)
        for _ in range(2000):  # until the poller has stored it (bounded: 10 s)
            if t.api.offset > opened:
                break
            await asyncio.sleep(0.005)
        await pipeline_of(t.app).dispatcher.idle()  # /new handled, its board queued
        assert await t.ledger.open_nights.current_night(t.chat_id) is not None
        assert len(board.buttons) == 4  # not edited yet: the summary goes first
        go.set()
        await t.settle(opened)
        assert board.buttons == [] and "the night is over" in plain(board.text)
        new_board = await board_of(t)
        assert new_board.message_id != board.message_id and len(new_board.buttons) == 4
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


async def test_abandoned_drafts_are_pruned_and_their_buttons_are_out_of_date(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The pipeline's pruner deletes drafts untouched for draft_retention_hours, a batch
    a transaction and a bounded number of batches a round; one in use stays. A press on a
    pruned draft's button, with the night going, is out of date: an alert, no error."""
    from datetime import timedelta

    from sqlalchemy import update

    from bot.delivery import pipeline as pipeline_module
    from storage.ledger import now

    monkeypatch.setattr(pipeline_module, "DRAFT_PRUNE_BATCH", 2)
    monkeypatch.setattr(pipeline_module, "DRAFT_BATCHES", 2)
    async with table(tmp_path) as t:
        await t.say("alice", NEW)
        abandoned = []
        for _ in range(5):
            await t.say("bob", "/hu")
            abandoned.append(t.last_with_buttons())
        await t.say("carol", "/hu")
        in_use = t.last_with_buttons()
        long_ago = now() - timedelta(hours=49)
        async with t.ledger.write() as conn:
            await conn.execute(update(t_.drafts).values(touched_at=long_ago))
        await t.press("carol", in_use, in_use.buttons[0]["callback_data"])  # touched now
        assert not last_answer(t).get("show_alert")
        pipeline = pipeline_of(t.app)
        assert pipeline.settings.draft_retention_hours == 48
        assert await pipeline.prune_drafts() == 4  # two batches of two: the round's bound
        assert await pipeline.prune_drafts() == 1
        assert await pipeline.prune_drafts() == 0
        assert await drafts(t) == 1
        recorded = await what_is_recorded(t)
        for message in abandoned[::2]:
            await t.press("bob", message, message.buttons[0]["callback_data"])
            assert last_answer(t).get("show_alert")
            assert last_answer(t)["text"] == STALE["en"]
        assert await what_is_recorded(t) == recorded
        going = t.last_with_buttons()  # carol's report goes on, and records
        assert going.message_id == in_use.message_id
        out = await t.press("carol", going, find_button(going, "No bird")["callback_data"])
        assert any("Recorded:" in plain(m.text) for m in out), [m.text for m in out]
        night = await t.ledger.open_nights.current_night(t.chat_id)
        assert night is not None and night.hands == 1 and await drafts(t) == 0
        assert t.api.errors == []
