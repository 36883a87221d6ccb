"""A button press is handled once, even when its first attempt fails at the end (the
database gone at the moment "this update is handled" is written) and Telegram delivers
it again: the seat buttons of /new, a guided report's step and an import's confirmation
change their draft, say what they say and mark the update handled in one transaction, so
the attempt that commits finds everything as it was. A pending import lives in the
ledger: it is confirmed after a restart."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.console.fake_api import FakeBotAPI, SentMessage
from storage.queues import messages as delivery
from tests.bot.guided_play import find_button
from tests.bot.harness import Table, plain, table
from tests.bot.test_files_e2e import OTHER, _count, _files, _play, _upload


class FailOnce:
    """While armed, the next write of "this update is handled" fails as a dropped
    connection does (its whole transaction rolls back); the dispatcher tries the update
    again."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.left = 0
        real = delivery.mark_done

        def flaky(conn: Any, inbox_id: int, claim: str | None, stamp: Any) -> None:
            if self.left:
                self.left -= 1
                raise ConnectionResetError("the database went away (a test's fault)")
            real(conn, inbox_id, claim, stamp)

        # an answer's write and finish both mark the update in storage.queues.messages
        monkeypatch.setattr(delivery, "mark_done", flaky)


def answers_to(t: Table, update_id: int) -> list[dict[str, Any]]:
    """Every call that answered the press of ``update_id`` (refused ones too)."""
    qid = next(u for u in t.api.delivered if u["update_id"] == update_id)["callback_query"]["id"]
    return [p for method, p in t.api.log
            if method == "answerCallbackQuery" and str(p.get("callback_query_id")) == qid]


async def press_failing_once(t: Table, fail: FailOnce, who: str, msg: SentMessage,
                             data: str) -> int:
    """Press; the first attempt fails at its end; then Telegram delivers the press again
    (under its id, and under a new one)."""
    fail.left = 1
    uid = t.api.press(t.user(who), msg, data)
    await t.settle(uid)
    assert fail.left == 0  # the fault did happen
    await t.settle(t.api.redeliver(uid, new_id=False))
    await t.settle(t.api.redeliver(uid))
    (answer,) = answers_to(t, uid)  # answered once
    assert not answer.get("show_alert"), answer
    return uid


async def test_seat_presses_tried_again_are_handled_once(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    fail = FailOnce(monkeypatch)
    async with table(tmp_path) as t:
        board = (await t.say("alice", "/new changsha"))[0]

        def seats() -> SentMessage:
            return t.api.messages[(board.chat_id, board.message_id)]

        await press_failing_once(t, fail, "alice", seats(), seats().buttons[0]["callback_data"])
        assert seats().buttons[0]["text"].endswith("alice") and seats().edits == 1
        for who, index in (("bob", 1), ("carol", 2)):
            await t.press(who, seats(), seats().buttons[index]["callback_data"])
        # The last seat opens the table: once, with the draft gone in the same write.
        await press_failing_once(t, fail, "dave", seats(), seats().buttons[3]["callback_data"])
        night = await t.ledger.open_nights.current_night(t.chat_id)
        assert [p.name for p in night.seats.values()] == ["alice", "bob", "carol", "dave"]
        assert "New table: Changsha" in plain(seats().text) and not seats().buttons
        texts = [plain(m.text) for m in t.api.outbox]
        assert not any("already has a table" in x or "out of date" in x for x in texts)
        assert sum("Scoreboard" in x for x in texts) == 1
        out = await t.say("bob", "/hu bob 自摸")
        assert any("Hand 1 recorded" in plain(m.text) for m in out)
        assert t.api.errors == []


async def test_a_guided_step_tried_again_is_handled_once(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    fail = FailOnce(monkeypatch)
    async with table(tmp_path) as t:
        await t.say("alice", "/new chengdu @alice @bob @carol @dave")
        prompt = (await t.say("carol", "/hu"))[0]

        def draft() -> SentMessage:
            return t.api.messages[(prompt.chat_id, prompt.message_id)]

        step = find_button(draft(), "carol ← dave")["callback_data"]
        await press_failing_once(t, fail, "carol", draft(), step)
        assert draft().edits == 1  # the next question, shown once
        await press_failing_once(t, fail, "carol", draft(),
                                 find_button(draft(), "七对")["callback_data"])
        await t.press("carol", draft(), find_button(draft(), "根 0")["callback_data"])
        await press_failing_once(t, fail, "carol", draft(),
                                 find_button(draft(), "✅ Record")["callback_data"])
        night = await t.ledger.open_nights.current_night(t.chat_id)
        assert night.hands == 1 and night.totals == {"E": 0, "S": 0, "W": 16, "N": -16}
        assert "Recorded:" in plain(draft().text)
        assert not any("out of date" in str(p.get("text")) for m, p in t.api.log
                       if m == "answerCallbackQuery")
        assert t.api.errors == []


async def _preview(t: Table) -> SentMessage:
    """An export of a played chat, sent to the empty chat OTHER with /import by erin, an
    admin there: the preview with its buttons."""
    await _play(t)
    data = _files(await t.say("alice", "/export"), "document")[0].data
    t.api.chat(OTHER).admins.add(t.user("erin").id)
    (preview,) = await _upload(t, "erin", OTHER, data, "/import")
    assert [b["text"] for b in preview.buttons] == ["Import", "Cancel"]
    return preview


async def test_an_import_confirmed_again_is_written_once(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    fail = FailOnce(monkeypatch)
    async with table(tmp_path) as t:
        preview = await _preview(t)
        await press_failing_once(t, fail, "erin", preview, preview.buttons[0]["callback_data"])
        assert await _count(t, OTHER) == await _count(t, t.chat_id)
        edited = t.api.messages[(OTHER, preview.message_id)]
        assert "Imported 1 night(s), 2 hand(s)" in plain(edited.text) and not edited.buttons
        assert t.api.errors == []


async def test_an_import_is_confirmed_after_a_restart(tmp_path: Path) -> None:
    api = FakeBotAPI()
    async with table(tmp_path, api=api) as t:
        t.user("erin")  # the same user ids in both runs
        first = await _preview(t)
        data = _files(await t.say("alice", "/export"), "document")[0].data
        (second,) = await _upload(t, "erin", OTHER, data, "/import")
    async with table(tmp_path, api=api) as t:  # the same database and Telegram, a new bot
        t.user("erin")
        await t.press("erin", second, second.buttons[1]["callback_data"])
        assert "nothing was written" in plain(t.api.messages[(OTHER, second.message_id)].text)
        confirm = first.buttons[0]["callback_data"]
        await t.press("erin", first, confirm)
        assert await _count(t, OTHER) == await _count(t, t.chat_id)
        assert "Imported 1 night(s)" in plain(t.api.messages[(OTHER, first.message_id)].text)
        await t.press("erin", first, confirm)  # confirmed once
        assert "out of date" in list(t.api.answered.values())[-1]["text"]
        assert t.api.errors == []
