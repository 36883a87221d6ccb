"""Defects a new user found in issue 19's features, through the real bot."""

from __future__ import annotations

from pathlib import Path

from tests.bot.harness import Table, plain, table


async def _say(t: Table, who: str, text: str) -> str:
    return "\n".join(plain(m.text) for m in await t.say(who, text))


async def test_dealt_in_rate_is_out_of_hands_played(tmp_path: Path) -> None:
    """In a blood battle one player can deal in twice in one hand: twice, one hand of one."""
    async with table(tmp_path, lang="zh-hans") as t:
        await t.say("ann", "/new chengdu @ann @ben @cat @dan")
        await t.say("ann", "/hu ann 自摸 七对")
        await t.say("ben", "/hu ben from cat 平胡")
        await t.say("dan", "/hu dan from cat 平胡")
        await t.say("ann", "/end")
        out = await _say(t, "ann", "/stats @cat")
        assert "共 1 盘" in out and "点炮 2 次" in out, out
        assert "（点炮率 100%）" in out, out
        assert "200%" not in out, out
        assert t.api.errors == []
