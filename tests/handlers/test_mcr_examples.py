"""The tiles a Chinese Official refusal gives as its example make a hand that counts (14
tiles), and a wrong tile count names the winning tile that was read, not a stock one."""

from __future__ import annotations

import re
from pathlib import Path

from tests.bot.harness import plain
from tests.handlers.harness import HandlerTable, handler_table

# The tiles of an example: 吃234m 55m 456p 789s 12s +3s
EXAMPLE = re.compile(r"吃\S+(?: [0-9]+[mps])+ \+[0-9][mps]")


async def _texts(t: HandlerTable, who: str, command: str) -> str:
    return "\n".join(plain(m.text) for m in await t.say(who, command))


async def test_every_example_hand_counts(tmp_path: Path) -> None:
    async with handler_table(tmp_path, "zh-Hans") as t:
        examples = set()
        for command in ("/score mcr", "/score mcr 花2"):
            said = await _texts(t, "alice", command)
            examples |= set(EXAMPLE.findall(said))
        await t.say("alice", "/new 国标 alice bob carol dave")
        said = await _texts(t, "bob", "/hu bob from carol")
        examples |= set(EXAMPLE.findall(said))
        assert examples, said
        for tiles in examples:
            said = await _texts(t, "alice", f"/score mcr {tiles}")
            assert "⚠️" not in said and "共" in said, (tiles, said)


async def test_a_wrong_count_names_the_winning_tile_read(tmp_path: Path) -> None:
    async with handler_table(tmp_path, "zh-Hans") as t:
        said = await _texts(t, "alice", "/score mcr 吃123m 55m")
        assert "（和牌张 +5m 另算）" in said, said
