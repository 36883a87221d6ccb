"""Issue "The table's own words", item 4: where the stake changed during a night, the
running scoreboard (the pinned message after each hand) says each seat's money, each hand
at its own stake, with its points at each stake; never points added across stakes. /table
says the same (tests/bot/transcripts/stake_board*.txt)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.console.fake_api import SentMessage
from tests.bot.harness import Table, plain, table

CREW = "@alice @bob @carol @dave"


async def board_of(t: Table) -> SentMessage:
    night = await t.ledger.open_nights.current_night(t.chat_id)
    assert night is not None and night.board_message_id is not None
    return t.api.messages[(t.chat_id, night.board_message_id)]


@pytest.mark.parametrize(("lang", "one_stake", "changed", "bob", "summed"), [
    ("zh-hans", "南 bob：+8", "本场中途改过底注：每盘按它自己的底注计（1.00、2.00）。",
     "南 bob：+4.00（+8 分×1.00 · -2 分×2.00）", "南 bob：+6"),
    ("en", "South bob: +8", "The stake changed during the night: each hand counts at its "
     "own stake (1.00, 2.00).", "South bob: +4.00 (+8 at 1.00 · -2 at 2.00)",
     "South bob: +6"),
])
async def test_the_board_says_money_once_the_stake_changed(
        tmp_path: Path, lang: str, one_stake: str, changed: str, bob: str,
        summed: str) -> None:
    async with table(tmp_path, lang=lang) as t:
        t.admin("alice")
        await t.say("alice", f"/new changsha {CREW}")
        await t.say("bob", "/hu bob 自摸 鸟2")
        await t.say("alice", "/set stake 2")
        await t.say("alice", "/table")
        text = plain((await board_of(t)).text)
        assert one_stake in text and changed not in text, text  # one stake so far: points
        await t.say("carol", "/hu carol 自摸 鸟3")
        await t.say("alice", "/table")  # a later update: the board's edit has been sent
        text = plain((await board_of(t)).text)
        assert changed in text and bob in text, text
        assert summed not in text, text
        assert t.api.errors == []
