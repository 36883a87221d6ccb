"""What a table's buttons leave behind, through the real bot: the drafts of guided
reports abandoned are pruned (their buttons are out of date). And a night holds a
bounded number of people (a seat change past it is refused, saying what to do instead)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select

from bot.delivery.intake import pipeline_of
from storage import tables as t_
from storage.sessions import MAX_PEOPLE
from tests.bot.guided_play import find_button
from tests.bot.harness import Table, plain, table

NEW = "/new changsha @alice @bob @carol @dave"
STALE = {"en": "That button is out of date.", "zh-hans": "这个按钮已过期。"}


def last_answer(t: Table) -> dict[str, Any]:
    return list(t.api.answered.values())[-1]


async def drafts(t: Table) -> int:
    async with t.ledger.read() as conn:
        return int((await conn.execute(select(func.count()).select_from(t_.drafts)))
                   .scalar_one())


async def what_is_recorded(t: Table) -> tuple[Any, ...]:
    async with t.ledger.read() as conn:
        return tuple([(await conn.execute(select(func.count()).select_from(table_)))
                      .scalar_one() for table_ in (t_.hands, t_.entries, t_.sessions,
                                                   t_.audit)])


async def test_abandoned_drafts_are_pruned_and_their_buttons_are_out_of_date(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The pipeline's pruner deletes drafts untouched for draft_retention_hours, a batch
    a transaction and a bounded number of batches a round; one in use stays. A press on a
    pruned draft's button, with the table going, is out of date: an alert, no error."""
    from datetime import timedelta

    from sqlalchemy import update

    from bot.delivery import pipeline as pipeline_module
    from storage.ledger import now

    monkeypatch.setattr(pipeline_module, "PRUNE_BATCH", 2)
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
        session = await t.ledger.sessions.current_session(t.chat_id)
        assert session is not None and session.hands == 1 and await drafts(t) == 0
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
        before = await t.ledger.sessions.current_session(t.chat_id)
        out = await t.say("alice", f"/seat {leaving} zoe")
        said = plain(out[-1].text)
        if lang == "zh-hans":
            assert said == (f"⚠️ zoe 无法加入：一局最多 {MAX_PEOPLE} 人。请先用 /end 结束本局，"
                            "再用 /new 开新的一局。"), said
        else:
            assert said == (f"⚠️ zoe cannot join: one night holds at most {MAX_PEOPLE} "
                            "people. End this night with /end, then start a new one with "
                            "/new."), said
        assert await t.ledger.sessions.current_session(t.chat_id) == before
        await t.say("alice", f"/seat {leaving} dave")
        session = await t.ledger.sessions.current_session(t.chat_id)
        assert session is not None and session.seats["N"].name == "dave"
        out = await t.say("alice", "/end")
        assert [m.kind for m in out].count("photo") == 2
        summary = await t.ledger.nights.summary(t.chat_id, session.id)
        assert len(summary.nets) == MAX_PEOPLE
        assert t.api.errors == []
