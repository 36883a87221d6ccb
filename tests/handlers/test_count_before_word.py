"""A count said before its word, apart (8 fan, 5 番, 2 flowers), as English players say
it: the count, at a Chinese Official and a Hong Kong table alike, not a pattern named 8
or a points-only amount."""

from __future__ import annotations

from pathlib import Path

from tests.bot.harness import plain
from tests.handlers.harness import HandlerTable, handler_table


async def _texts(t: HandlerTable, who: str, command: str) -> str:
    return "\n".join(plain(m.text) for m in await t.say(who, command))


async def test_mcr_fan_and_flowers_before_their_words(tmp_path: Path) -> None:
    async with handler_table(tmp_path, "en") as t:
        await t.say("alice", "/lang en")
        await t.say("alice", "/new mcr alice bob carol dave")
        said = await _texts(t, "bob", "/hu bob from carol 10 fan 2 flowers")
        assert "bob +34  alice -8  dave -8  carol -18" in said, said
        # 9 fan of which 2 flowers: 7 without them, under the gate: a false win.
        said = await _texts(t, "carol", "/hu carol zimo 9 fan 2 flowers")
        assert "false win" in said and "carol -30" in said, said


async def test_hong_kong_fan_before_its_word(tmp_path: Path) -> None:
    async with handler_table(tmp_path, "en") as t:
        await t.say("alice", "/lang en")
        await t.say("alice", "/new hongkong alice bob carol dave")
        said = await _texts(t, "bob", "/hu bob from carol 5 fan")
        assert "bob +24.00  alice -6.00  dave -6.00  carol -12.00" in said, said
        said = await _texts(t, "bob", "/hu bob zimo 99 番")
        assert "from 1 to 20" in said, said


async def test_bao_in_english_is_the_fourth_melds_feeder(tmp_path: Path) -> None:
    async with handler_table(tmp_path, "en") as t:
        await t.say("alice", "/lang en")
        await t.say("alice", "/new hongkong alice bob carol dave")
        # 包自摸: 5番 at 二五雞 is s = 6; bob alone pays 6 s.
        said = await _texts(t, "alice", "/hu alice zimo 5 fan bao bob")
        assert "alice +36.00  bob -36.00" in said, said
