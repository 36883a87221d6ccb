"""A kong reported twice, through the real bot on both backends: the kong-maker and a payer
reporting the same kong is kept as a question (the same kong / another kong), typed or
guided, like a win reported twice (docs/night.md). A Singapore bite reported twice is asked
about the same way, whoever reports it (its cases: tests/handlers/test_bites_twice.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.console.fake_api import SentMessage
from tests.bot.guided_play import find_button
from tests.bot.harness import Table, plain, table_on
from tests.databases import BACKENDS

THREE = "/new 三人两房 @alice @bob @carol"


async def _tap(t: Table, who: str, label: str) -> list[SentMessage]:
    msg = t.last_with_buttons()
    return await t.press(who, msg, find_button(msg, label)["callback_data"])


@pytest.mark.parametrize("backend", BACKENDS)
async def test_the_same_kong_reported_by_a_payer_is_asked_about(tmp_path: Path,
                                                                backend: str) -> None:
    async with table_on(backend, tmp_path, "en", "kong_twice") as t:
        await t.say("alice", THREE)
        await t.say("carol", "/kong carol 暗杠")
        once = (await t.ledger.open_nights.current_night(t.chat_id)).totals
        assert once == {"E": -2, "S": -2, "W": 4}, once
        out = await t.say("alice", "/kong carol 暗杠")
        texts = [plain(m.text) for m in out]
        assert any("Hand 1 already has this kong: carol reported it less than a minute ago."
                   in x for x in texts), texts
        assert not any("Recorded" in x for x in texts), texts
        assert (await t.ledger.open_nights.current_night(t.chat_id)).totals == once
        question = t.last_with_buttons()
        assert [b["text"] for b in question.buttons] == ["The same kong", "Another kong"]
        out = await _tap(t, "bob", "The same kong")
        assert any("The same kong" in plain(m.text) for m in out)
        assert (await t.ledger.open_nights.current_night(t.chat_id)).totals == once
        # The same player again is a second kong of theirs: recorded at once.
        await t.say("carol", "/kong carol 暗杠")
        twice = (await t.ledger.open_nights.current_night(t.chat_id)).totals
        assert twice == {"E": -4, "S": -4, "W": 8}, twice
        # Another kind, or another maker, is another kong.
        await t.say("alice", "/kong carol 补杠")
        assert (await t.ledger.open_nights.current_night(t.chat_id)).totals["W"] == 10
        # The guided /kong asks the same; "another kong" records it.
        await t.say("bob", "/kong")
        await _tap(t, "bob", "carol")
        out = await _tap(t, "bob", "暗杠")
        texts = [plain(m.text) for m in out]
        assert any("Hand 1 already has this kong: carol reported it less than a minute ago."
                   in x for x in texts), texts
        assert (await t.ledger.open_nights.current_night(t.chat_id)).totals["W"] == 10
        out = await _tap(t, "alice", "Another kong")
        assert any("Another kong." in plain(m.text) for m in out)
        assert (await t.ledger.open_nights.current_night(t.chat_id)).totals["W"] == 14
        assert t.api.errors == []


@pytest.mark.parametrize("backend", BACKENDS)
async def test_the_kong_question_in_chinese(tmp_path: Path, backend: str) -> None:
    async with table_on(backend, tmp_path, "zh-hans", "kong_twice_zh") as t:
        await t.say("alice", THREE)
        await t.say("bob", "/kong bob 直杠 from alice")
        await t.say("alice", "/kong bob 直杠 from alice")
        question = t.last_with_buttons()
        assert "同一个杠" in plain(question.text), plain(question.text)
        assert [b["text"] for b in question.buttons] == ["同一个杠", "另一个杠"]
        assert t.api.errors == []


@pytest.mark.parametrize("backend", BACKENDS)
async def test_the_same_bite_reported_twice_is_asked_about(tmp_path: Path,
                                                           backend: str) -> None:
    async with table_on(backend, tmp_path, "en", "bite_twice") as t:
        await t.say("alice", "/new sg @alice @bob @carol @dave")
        await t.say("dave", "/bite dave cat rat")
        once = (await t.ledger.open_nights.current_night(t.chat_id)).totals
        assert once == {"E": -20, "S": -20, "W": -20, "N": 60}, once
        await t.say("bob", "/bite")
        await _tap(t, "bob", "dave")
        await _tap(t, "bob", "a bite (cat and rat)")
        out = await _tap(t, "bob", "Each, exposed")
        texts = [plain(m.text) for m in out]
        assert any("Hand 1 already has this bite: dave reported it less than a minute ago."
                   in x for x in texts), texts
        assert (await t.ledger.open_nights.current_night(t.chat_id)).totals == once
        assert [b["text"] for b in t.last_with_buttons().buttons] == \
            ["The same bite", "Another bite"]
        out = await _tap(t, "carol", "The same bite")
        assert any("The same bite" in plain(m.text) for m in out)
        assert (await t.ledger.open_nights.current_night(t.chat_id)).totals == once
        assert t.api.errors == []
