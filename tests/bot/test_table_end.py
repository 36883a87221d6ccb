"""What a table leaves when it ends, through the real bot: an ended table's scoreboard is
edited though the next table's comes first, and abandoned drafts are pruned by the
pipeline (their buttons are out of date). What the handlers alone decide (an ended table's
buttons, the most people a night holds) is tested on the handler tier
(tests/handlers/test_table_end.py)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select

from bot.console.fake_api import SentMessage
from bot.delivery.pipeline import pipeline_of
from storage.sql import tables as t_
from tests.bot.guided_play import find_button
from tests.bot.harness import Table, plain, table

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
