"""Three-player tables through the real bot: the seat buttons (three seats, or "Start with
three" at a four-seat preset), /new with three names in any family that has a three-player
form, the pictures, and export/import — in English and zh-Hans."""

from __future__ import annotations

import csv
import io
import zipfile
from pathlib import Path

import pytest

from bot.console.fake_api import SentMessage
from tests.bot.guided_play import find_button
from tests.bot.harness import plain
from tests.bot.test_files_e2e import OTHER, _files, _upload
from tests.bot.test_pictures import png_size
from tests.handlers.harness import HandlerTable as Table
from tests.handlers.harness import handler_table as table


async def _tap(t: Table, who: str, label: str) -> list[SentMessage]:
    msg = t.last_with_buttons()
    return await t.press(who, msg, find_button(msg, label)["callback_data"])


def _texts(out: list[SentMessage]) -> list[str]:
    return [plain(m.text) for m in out]


async def test_start_with_three_at_a_four_seat_preset(tmp_path: Path) -> None:
    async with table(tmp_path) as t:
        await t.say("alice", "/new chengdu")
        labels = [b["text"] for b in t.last_with_buttons().buttons]
        assert labels == ["East: —", "South: —", "West: —", "North: —"]
        await _tap(t, "alice", "East")
        await _tap(t, "bob", "South")
        assert "Start with three" not in [b["text"] for b in t.last_with_buttons().buttons]
        await _tap(t, "carol", "West")
        assert "Start with three" in [b["text"] for b in t.last_with_buttons().buttons]
        out = await _tap(t, "carol", "Start with three")
        night = await t.ledger.open_nights.current_night(t.chat_id)
        assert night is not None and list(night.seats) == ["E", "S", "W"]
        assert night.preset == "chengdu" and night.rules["options"]["players"] == 3
        edited = [m.text for m in t.api.messages.values() if "New table" in (m.text or "")]
        assert any("Seats: East alice, South bob, West carol." in plain(x) for x in edited), out
        out = await t.say("bob", "/hu bob 自摸")
        assert any("bob +4  alice -2  carol -2" in x for x in _texts(out))
        assert t.api.errors == []


async def test_seat_buttons_in_chinese_for_a_preset_of_three(tmp_path: Path) -> None:
    async with table(tmp_path, lang="zh-hans") as t:
        await t.say("alice", "/new 三人三房")
        labels = [b["text"] for b in t.last_with_buttons().buttons]
        assert labels == ["东：—", "南：—", "西：—"]
        await _tap(t, "alice", "东")
        await _tap(t, "bob", "南")
        await _tap(t, "carol", "西")
        edited = [plain(m.text) for m in t.api.messages.values() if m.text]
        assert any("开桌：三人三房。座位：东 alice、南 bob、西 carol。" in x for x in edited)
        out = await t.say("alice", "/new feibao @alice @bob @carol")  # a table is going
        assert any("已经" in x or "/end" in x for x in _texts(out))
        assert t.api.errors == []


async def test_three_players_in_every_family_that_has_them(tmp_path: Path) -> None:
    async with table(tmp_path, lang="zh-hans") as t:
        out = await t.say("alice", "/new 飞宝 @alice @bob @carol")
        assert any("上饶飞宝没有三人玩法，要四个人打。" in x for x in _texts(out))
        out = await t.say("alice", "/new 三人两房 @alice @bob @carol @dave")
        assert any("三人两房是三个人打的" in x for x in _texts(out))
        assert await t.ledger.open_nights.current_night(t.chat_id) is None
        out = await t.say("alice", "/new 长沙 @alice @bob @carol 0.5")  # with its stake
        assert any("座位：东 alice、南 bob、西 carol。" in x for x in _texts(out))
        night = await t.ledger.open_nights.current_night(t.chat_id)
        assert night is not None and night.stake_cents == 50
        # Changsha at three: a bird of rank 4 counts round three seats back to the dealer
        # (at four it would land on North): alice, the dealer, pays (1 + 1) doubled.
        out = await t.say("bob", "/hu bob 自摸 鸟4")
        night = await t.ledger.open_nights.current_night(t.chat_id)
        assert night is not None and night.totals == {"E": -4, "S": 5, "W": -1}
        out = await t.say("alice", "/end")
        assert any("本场结束" in x for x in _texts(out))
        assert t.api.errors == []


@pytest.mark.pictures  # rasterized (tests/bot/conftest.py, tests/handlers/conftest.py)
async def test_pictures_and_files_of_a_night_of_three(tmp_path: Path) -> None:
    async with table(tmp_path) as t:
        await t.say("alice", "/new liangfang @alice @bob @carol")
        for report in ("/hu bob 自摸 清一色", "/hu carol from alice", "/kong carol 暗杠",
                       "/draw alice 听 1", "/hu alice 自摸 七对", "/hu bob from carol"):
            await t.say("alice", report)
        out = await t.say("alice", "/chart")
        (photo,) = _files(out, "photo")
        assert png_size(photo.data)[0] > 0
        out = await t.say("alice", "/end")
        assert len(_files(out, "photo")) == 2  # the night's chart and the settle-up card
        await t.say("alice", "/new chengdu @alice @bob @carol @dave")
        await t.say("alice", "/hu dave 自摸")
        doc = _files(await t.say("alice", "/export"), "document")[0]
        with zipfile.ZipFile(io.BytesIO(doc.data)) as zf:
            nights = list(csv.reader(io.StringIO(zf.read("sessions.csv").decode())))
        assert nights[1][4:8] == ["alice", "bob", "carol", ""]
        assert nights[2][4:8] == ["alice", "bob", "carol", "dave"]
        t.api.chat(OTHER).admins.add(t.user("erin").id)
        (preview,) = await _upload(t, "erin", OTHER, doc.data, "/import")
        await t.press("erin", preview, preview.buttons[0]["callback_data"])
        again = _files(await t.say("erin", "/export", chat_id=OTHER), "document")[0]
        assert again.data == doc.data
        out = await t.say("erin", "/standings", chat_id=OTHER)
        assert any("carol" in x for x in _texts(out))
        assert t.api.errors == []
