"""What a report leaves out is said: a Changsha win with no bird named, or fewer than the
table draws, and a 飞宝 win with no 精 counts, are scored as no bird hit and no 精 reward,
and the answer says so (typed or guided), through the real bot on both backends."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.console.fake_api import SentMessage
from tests.bot.guided_play import find_button
from tests.bot.harness import plain
from tests.databases import BACKENDS
from tests.handlers.harness import HandlerTable as Table
from tests.handlers.harness import handler_table_on as table_on


async def _tap(t: Table, who: str, label: str) -> list[SentMessage]:
    msg = t.last_with_buttons()
    return await t.press(who, msg, find_button(msg, label)["callback_data"])


def _texts(out: list[SentMessage]) -> str:
    return "\n".join(plain(m.text) for m in out)


@pytest.mark.parametrize("backend", BACKENDS)
async def test_a_changsha_win_without_its_bird_says_how_it_was_scored(
        tmp_path: Path, backend: str) -> None:
    async with table_on(backend, tmp_path, "zh-hans", "left_out") as t:
        await t.say("alice", "/new changsha @alice @bob @carol @dave")
        out = await t.say("carol", "/hu carol 点炮 dave 清一色")
        assert "没报鸟，按不中鸟算" in _texts(out), _texts(out)
        with_bird = await t.say("carol", "/hu carol 点炮 dave 清一色 鸟2")
        assert "没报鸟" not in _texts(with_bird), _texts(with_bird)
        # Two birds at the table, one named.
        await t.say("alice", "/end")
    async with table_on(backend, tmp_path / "two", "en", "left_out_two") as t:
        t.admin("alice")
        await t.say("alice", "/set preset changsha")
        assert "Unknown" not in _texts(await t.say("alice", "/set birds=2"))
        await t.say("alice", "/new changsha @alice @bob @carol @dave")
        out = await t.say("bob", "/hu bob 自摸 鸟3")
        assert "1 of 2 birds named: the others scored as no hit." in _texts(out), _texts(out)
        # The guided report recorded with no bird chosen says it too.
        await t.say("carol", "/hu")
        await _tap(t, "carol", "carol self-draw")
        out = await _tap(t, "carol", "✅ Record")
        assert "No bird named: scored as no bird hit." in _texts(out), _texts(out)
        assert t.api.errors == []


@pytest.mark.parametrize("backend", BACKENDS)
async def test_a_feibao_win_without_jing_counts_says_no_jing_reward(
        tmp_path: Path, backend: str) -> None:
    async with table_on(backend, tmp_path, "zh-hans", "left_out_jing") as t:
        await t.say("alice", "/new feibao @alice @bob @carol @dave")
        out = await t.say("bob", "/hu bob 自摸 七对")
        assert "没报精，不算奖精" in _texts(out), _texts(out)
        out = await t.say("carol", "/hu carol 自摸 七对 jing=alice:1/0")
        assert "没报精" not in _texts(out), _texts(out)
        assert t.api.errors == []
