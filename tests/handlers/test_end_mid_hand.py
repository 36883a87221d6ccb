"""/end while a hand is being played asks first (end it here, or go on), and /undo right
after an /end opens the night again as it was (its open hand, its board, no debts),
audited like every undo; through the real bot on both backends (docs/night.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select

from bot.console.fake_api import SentMessage
from storage.models import NightInfo
from storage.sql import tables as t_
from tests.bot.guided_play import find_button
from tests.bot.harness import plain
from tests.databases import BACKENDS
from tests.handlers.harness import HandlerTable as Table
from tests.handlers.harness import handler_table_on as table_on

THREE = "/new 三人两房 @alice @bob @carol"


async def _tap(t: Table, who: str, label: str) -> list[SentMessage]:
    msg = t.last_with_buttons()
    return await t.press(who, msg, find_button(msg, label)["callback_data"])


def _texts(out: list[SentMessage]) -> list[str]:
    return [plain(m.text) for m in out]


def _state(night: NightInfo | None) -> tuple[Any, ...]:
    assert night is not None
    return (night.id, night.status, night.totals, night.dealer, night.hands,
            night.open_hand, night.still_in)


async def _debts(t: Table) -> int:
    async with t.ledger.read() as conn:  # (the handler tier's SQLite runs synchronous code)
        return int(await conn.run_sync(
            lambda c: c.execute(select(func.count()).select_from(t_.debts)).scalar_one()))


async def _board(t: Table, night_id: int) -> SentMessage:
    board_id = await t.ledger.open_nights.board_message(t.chat_id, night_id)
    assert board_id is not None
    return t.api.messages[(t.chat_id, board_id)]


@pytest.mark.parametrize("backend", BACKENDS)
async def test_end_mid_hand_asks_and_undo_reopens_the_night(tmp_path: Path,
                                                            backend: str) -> None:
    async with table_on(backend, tmp_path, "en", "end_mid_hand") as t:
        await t.say("alice", THREE)
        await t.say("bob", "/hu bob 自摸 清一色")  # blood battle: the hand plays on
        playing = await t.ledger.open_nights.current_night(t.chat_id)
        assert playing.open_hand == 1
        out = await t.say("carol", "/end")
        assert any("Hand 1 is still being played" in x for x in _texts(out)), _texts(out)
        assert [b["text"] for b in t.last_with_buttons().buttons] == [
            "End the night here", "Go on"]
        assert _state(await t.ledger.open_nights.current_night(t.chat_id)) == _state(playing)
        out = await _tap(t, "alice", "Go on")
        assert any("The hand goes on" in x for x in _texts(out)), _texts(out)
        assert _state(await t.ledger.open_nights.current_night(t.chat_id)) == _state(playing)
        await t.say("carol", "/hu carol from alice")  # now it ends on its own
        out = await t.say("alice", "/end")
        assert any("The night is over: 1 hand." in x for x in _texts(out)), _texts(out)
        assert await t.ledger.open_nights.current_night(t.chat_id) is None
        first_night_debts = await _debts(t)
        # The next night, ended mid-hand by the button.
        await t.say("alice", THREE)
        await t.say("bob", "/hu bob 自摸 清一色")
        before = await t.ledger.open_nights.current_night(t.chat_id)
        board_before = (await _board(t, before.id)).buttons
        await t.say("carol", "/end")
        question = t.last_with_buttons()
        go_on = find_button(question, "Go on")["callback_data"]
        out = await _tap(t, "bob", "End the night here")
        assert await t.ledger.open_nights.current_night(t.chat_id) is None
        assert await _debts(t) > first_night_debts
        assert not (await _board(t, before.id)).buttons  # the board lost its buttons
        await t.press("carol", question, go_on)
        assert list(t.api.answered.values())[-1].get("show_alert")  # answered already
        # /undo right after /end: the night as it was, the debts gone, the board back.
        out = await t.say("bob", "/undo")  # bob ended it (his press)
        texts = _texts(out)
        assert any("Undone: the end of the night" in x for x in texts), texts
        assert any("Hand 1 is still being played" in x for x in texts), texts
        again = await t.ledger.open_nights.current_night(t.chat_id)
        assert again is not None
        assert _state(again) == _state(before)
        assert await _debts(t) == first_night_debts  # the first night's only
        assert (await _board(t, before.id)).buttons == board_before
        trail = await t.ledger.corrections.audit_trail(t.chat_id)
        assert [r["action"] for r in trail[:2]] == ["undo", "end"]
        # The night goes on: the hand closes, /undo takes back its last event as before.
        await t.say("carol", "/hu carol from alice")
        out = await t.say("carol", "/undo")
        assert any("Undone" in x for x in _texts(out)), _texts(out)
        assert (await t.ledger.open_nights.current_night(t.chat_id)).totals == before.totals
        assert t.api.errors == []


@pytest.mark.parametrize("backend", BACKENDS)
async def test_an_end_is_undone_only_right_after(tmp_path: Path, backend: str) -> None:
    async with table_on(backend, tmp_path, "zh-hans", "end_undo_zh") as t:
        await t.say("alice", THREE)
        await t.say("bob", "/hu bob 自摸 清一色")
        await t.say("carol", "/hu carol from alice")
        await t.say("alice", "/end")
        out = await t.say("bob", "/undo")  # alice ended it, not bob
        assert not any("撤销" in x and "重新" in x for x in _texts(out)), _texts(out)
        assert await t.ledger.open_nights.current_night(t.chat_id) is None
        out = await t.say("alice", "/undo")
        assert any("本场的结束已撤销" in x for x in _texts(out)), _texts(out)
        assert await t.ledger.open_nights.current_night(t.chat_id) is not None
        await t.say("alice", "/end")
        async with t.ledger.read() as conn:  # its number as /debts shows it
            debt = await conn.run_sync(
                lambda c: c.execute(select(func.max(t_.debts.c.id))).scalar_one())
        out = await t.say("bob", f"/paid {debt}")  # bob is owed every debt
        assert not any("⚠️" in x for x in _texts(out)), _texts(out)
        out = await t.say("alice", "/undo")  # a debt was paid: the end stands
        assert any("已经标记为付清" in x for x in _texts(out)), _texts(out)
        assert await t.ledger.open_nights.current_night(t.chat_id) is None
        await t.say("alice", THREE)  # a new night: /undo is that night's again
        out = await t.say("alice", "/undo")
        assert any("这桌还没有记录" in x or "没有" in x for x in _texts(out)), _texts(out)
        assert t.api.errors == []
