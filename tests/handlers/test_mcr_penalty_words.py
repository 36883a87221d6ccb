"""A Chinese Official table's penalty refusals call a false win 错和, as its rules do."""

from __future__ import annotations

from pathlib import Path

from tests.bot.harness import plain
from tests.handlers.harness import handler_table


async def test_penalty_refusals_say_cuohe(tmp_path: Path) -> None:
    async with handler_table(tmp_path, "zh-Hans") as t:
        await t.say("alice", "/new 国标 alice bob carol dave")
        for command in ("/penalty dave 错和 5", "/penalty erin 错碰 5"):
            said = "\n".join(plain(m.text) for m in await t.say("alice", command))
            assert "错和" in said and "诈胡" not in said, (command, said)
