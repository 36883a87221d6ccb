"""A Singapore bite or complete set reported twice in one hand, through the handlers on
both backends: whoever reports it again, typed or guided, the table is asked "the same one,
or another?" with two buttons, and nothing is recorded until someone answers
(docs/rules/singapore.md). Its full-stack run: tests/bot/test_asked_twice.py."""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest

from bot.console.fake_api import SentMessage
from tests.bot.harness import plain
from tests.databases import BACKENDS
from tests.handlers.harness import HandlerTable, handler_table_on

NEW = "/new sg @alice @bob @carol @dave"  # 20/40: u = 0.20


def _table(backend: str, tmp_path: Path, lang: str = "en"
           ) -> contextlib.AbstractAsyncContextManager[HandlerTable]:
    return handler_table_on(backend, tmp_path, lang, "bites_twice")


async def _totals(t: HandlerTable) -> dict[str, int]:
    return dict((await t.ledger.open_nights.current_night(t.chat_id)).totals)


async def _tap(t: HandlerTable, who: str, label: str, msg: SentMessage | None = None
               ) -> list[SentMessage]:
    msg = msg or t.last_with_buttons()
    hit = next((b for b in msg.buttons if b["text"] == label), None)
    assert hit is not None, (label, [b["text"] for b in msg.buttons])
    return await t.press(who, msg, hit["callback_data"])


def _texts(out: list[SentMessage]) -> list[str]:
    return [plain(m.text) for m in out]


@pytest.mark.parametrize("backend", BACKENDS)
async def test_a_bite_reported_twice_is_asked_about(tmp_path: Path, backend: str) -> None:
    async with _table(backend, tmp_path) as t:
        await t.say("alice", NEW)
        await t.say("dave", "/bite dave cat rat")
        once = await _totals(t)
        assert once == {"E": -20, "S": -20, "W": -20, "N": 60}, once
        # Another player reports the same bite: asked, nothing recorded.
        out = await t.say("alice", "/bite dave cat rat")
        texts = _texts(out)
        assert any("Hand 1 already has this bite: dave reported it less than a minute ago. "
                   "Is this the same bite, or another one? Nothing is recorded until you "
                   "choose." in x for x in texts), texts
        assert await _totals(t) == once
        question = t.last_with_buttons()
        assert [b["text"] for b in question.buttons] == ["The same bite", "Another bite"]
        out = await _tap(t, "bob", "The same bite")
        assert any("The same bite: the second report of it in hand 1 was dropped." in x
                   for x in _texts(out)), _texts(out)
        assert await _totals(t) == once
        assert t.last_with_buttons() is not question  # its buttons are gone
        # The biter again, said hidden this time: still the one cat and rat, asked.
        out = await t.say("dave", "/bite dave cat rat hidden")
        assert any("Hand 1 already has this bite: dave reported it" in x
                   for x in _texts(out)), _texts(out)
        assert await _totals(t) == once
        open_question = t.last_with_buttons()
        # Another pair, or another biter, is another bite: recorded at once.
        await t.say("dave", "/bite dave rooster centipede")
        twice = await _totals(t)
        assert twice == {"E": -40, "S": -40, "W": -40, "N": 120}, twice
        await t.say("carol", "/bite carol seat flowers")
        assert (await _totals(t))["W"] == -40 + 60
        # The question still open is answered "another bite": it is recorded then.
        out = await _tap(t, "alice", "Another bite", open_question)
        assert any("Another bite." in x for x in _texts(out)), _texts(out)
        assert (await _totals(t))["N"] == 120 - 20 + 120  # hidden: 0.40 from each
        # The next hand starts afresh: the same bite there is recorded at once.
        await t.say("bob", "/hu bob from carol 1 tai")
        before = await _totals(t)
        await t.say("alice", "/bite dave cat rat")
        assert (await _totals(t))["N"] == before["N"] + 60


@pytest.mark.parametrize("backend", BACKENDS)
async def test_a_set_reported_twice_is_asked_about(tmp_path: Path, backend: str) -> None:
    async with _table(backend, tmp_path) as t:
        await t.say("alice", NEW)
        await t.say("carol", "/bite carol set seasons")
        once = await _totals(t)
        assert once == {"E": -40, "S": -40, "W": 120, "N": -40}, once
        # The same player again, by buttons: asked; "the same set" drops it.
        await t.say("carol", "/bite")
        await _tap(t, "carol", "carol")
        out = await _tap(t, "carol", "all four seasons")
        texts = _texts(out)
        assert any("Reported:" in x for x in texts), texts
        assert any("Hand 1 already has this set: carol reported it less than a minute ago."
                   in x for x in texts), texts
        assert [b["text"] for b in t.last_with_buttons().buttons] == \
            ["The same set", "Another set"]
        assert await _totals(t) == once
        out = await _tap(t, "dave", "The same set")
        assert any("The same set: the second report of it in hand 1 was dropped." in x
                   for x in _texts(out)), _texts(out)
        assert await _totals(t) == once
        # The other set is another one.
        await t.say("alice", "/bite carol set flowers")
        assert (await _totals(t))["W"] == 240


@pytest.mark.parametrize("backend", BACKENDS)
async def test_a_guided_bite_reported_twice(tmp_path: Path, backend: str) -> None:
    async with _table(backend, tmp_path) as t:
        await t.say("alice", NEW)
        await t.say("bob", "/bite bob cat rat hidden")
        once = await _totals(t)
        assert once == {"E": -40, "S": 120, "W": -40, "N": -40}, once
        await t.say("alice", "/bite")
        await _tap(t, "alice", "bob")
        await _tap(t, "alice", "a bite (cat and rat)")
        out = await _tap(t, "alice", "Each, hidden (double)")
        assert any("Hand 1 already has this bite: bob reported it less than a minute ago."
                   in x for x in _texts(out)), _texts(out)
        assert await _totals(t) == once
        await _tap(t, "carol", "Another bite")
        assert await _totals(t) == {"E": -80, "S": 240, "W": -80, "N": -80}


@pytest.mark.parametrize("backend", BACKENDS)
async def test_the_bite_question_in_chinese(tmp_path: Path, backend: str) -> None:
    async with _table(backend, tmp_path, "zh-hans") as t:
        await t.say("alice", NEW)
        await t.say("dave", "/yao dave 猫 鼠")
        out = await t.say("bob", "/yao dave 猫 鼠")
        assert any("第 1 盘已经记了这个咬：dave 不到一分钟前报过。" in x
                   for x in _texts(out)), _texts(out)
        assert [b["text"] for b in t.last_with_buttons().buttons] == ["同一个咬", "另一个咬"]
        out = await _tap(t, "alice", "同一个咬")
        assert any("同一个咬：第 1 盘里这个咬的重复报告已作废" in x for x in _texts(out))
        await t.say("dave", "/yao dave 一套 季")
        await t.say("alice", "/yao dave 一套 季")
        assert [b["text"] for b in t.last_with_buttons().buttons] == ["同一套", "另一套"]
        assert (await _totals(t))["N"] == 60 + 120


@pytest.mark.parametrize("backend", BACKENDS)
async def test_another_bite_said_after_its_hand_ended_is_refused(tmp_path: Path,
                                                                 backend: str) -> None:
    """The question waits while play goes on; once its hand is over, "another bite" can no
    longer join it, and it does not start the next hand either."""
    async with _table(backend, tmp_path) as t:
        await t.say("alice", NEW)
        await t.say("dave", "/bite dave cat rat")
        await t.say("alice", "/bite dave cat rat")
        question = t.last_with_buttons()
        await t.say("bob", "/hu bob from carol 1 tai")  # hand 1 ends
        after = await _totals(t)
        out = await _tap(t, "carol", "Another bite", question)
        assert any("Hand 1 is over: nothing more can join it, so nothing was recorded."
                   in x for x in _texts(out)), _texts(out)
        night = await t.ledger.open_nights.current_night(t.chat_id)
        assert night.totals == after and night.hands == 1 and not night.open_hand
        out = await _tap(t, "carol", "The same bite", question)
        assert any("The same bite" in x for x in _texts(out)), _texts(out)
