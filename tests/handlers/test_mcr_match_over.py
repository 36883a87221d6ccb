"""After a match's 16th hand, /draw, /hu and /penalty alone are refused at once with what
to do next, not asked by buttons whose answer would be refused."""

from __future__ import annotations

from pathlib import Path

from tests.bot.harness import plain
from tests.handlers.harness import handler_table


async def test_buttons_are_not_offered_after_the_sixteenth_hand(tmp_path: Path) -> None:
    async with handler_table(tmp_path, "zh-Hans") as t:
        await t.say("alice", "/new 国标 alice bob carol dave")
        for _ in range(16):
            await t.say("bob", "/hu bob 自摸 8番")
        for command in ("/draw", "/hu", "/penalty"):
            said = await t.say("alice", command)
            text = "\n".join(plain(m.text) for m in said)
            assert "本场比赛 16 盘已打完，不能再记" in text, (command, text)
            assert not any(m.buttons for m in said), (command, text)
