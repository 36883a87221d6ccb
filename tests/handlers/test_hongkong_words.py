"""A Hong Kong night in Traditional Chinese as players type it, through the handlers: the
bonus tiles by their characters (花 梅 蘭), 無 and 無花, which Singapore also has words
for, are Hong Kong's own at a Hong Kong table; what it does refuse names the table."""

from __future__ import annotations

from pathlib import Path

from tests.bot.harness import plain
from tests.handlers.harness import HandlerTable, handler_table


async def _texts(t: HandlerTable, who: str, command: str) -> str:
    return "\n".join(plain(m.text) for m in await t.say(who, command))


async def _hk_night(t: HandlerTable) -> None:
    t.admin("alice")
    await t.say("alice", "/lang 繁體")
    await t.say("alice", "/new 港式 alice bob carol dave")


async def test_no_flowers_by_name_is_hong_kongs_pattern(tmp_path: Path) -> None:
    async with handler_table(tmp_path, "zh-Hant") as t:
        await _hk_night(t)
        # 平糊 1 + 門前清 1 + 搶槓 1 = 3 (無花 not toward the minimum) + 無花 1 = 4番:
        # s = 4 at 二五雞, alice pays the whole self-draw, 6 s.
        said = await _texts(t, "dave", "/hu dave 搶槓 alice 平糊 門前清 無花")
        assert "無花" in said and "4 番" in said, said
        assert "dave +24.00  alice -24.00" in said, said


async def test_bonus_tiles_by_their_characters_after_the_tiles(tmp_path: Path) -> None:
    async with handler_table(tmp_path, "zh-Hant") as t:
        await _hk_night(t)
        # bob (South, seat 2): 蘭 is his 正花. 混一色 3 + 門前清 1 + 自摸 1 + 三元 1 +
        # 門風 1 + 圈風 1 + 正花 1 = 9番: s = 24 at 二五雞, 48 from each.
        said = await _texts(t, "bob", "/hu bob 自摸 111z 222z 777z 234m 55m 花 梅 蘭 圈風 東")
        assert "正花" in said and "9 番" in said, said
        assert "bob +144.00  alice -48.00  carol -48.00  dave -48.00" in said, said
        # 無 after the tiles: no bonus tiles at all. bob deals: 平糊 1 + 門前清 1 +
        # 自摸 1 + 無花 1 = 4番, s = 4, 8 from each.
        said = await _texts(t, "bob", "/hu bob 自摸 123m 456m 789m 234p 55p 無")
        assert "無花" in said and "4 番" in said, said
        assert "bob +24.00  alice -8.00  carol -8.00  dave -8.00" in said, said


async def test_a_singapore_word_is_refused_naming_the_table(tmp_path: Path) -> None:
    async with handler_table(tmp_path, "zh-Hant") as t:
        await _hk_night(t)
        said = await _texts(t, "bob", "/hu bob 自摸 3番 雞")
        assert "雞 是新馬麻雀的" in said and "港式" in said, said


async def test_refusals_give_hong_kong_examples(tmp_path: Path) -> None:
    """No 七對 or 槓上炮 in a Hong Kong table's examples: it plays neither."""
    async with handler_table(tmp_path, "zh-Hant") as t:
        await _hk_night(t)
        for command in ("/hu bob", "/hu bob 出銃 erin 3番", "/hu 自摸 bob 3番", "/hu bob 搶槓"):
            said = await _texts(t, "bob", command)
            assert "5番" in said or "3番" in said, (command, said)
            assert "七對" not in said and "槓上炮" not in said, (command, said)


async def test_flower_fan_written_apart(tmp_path: Path) -> None:
    async with handler_table(tmp_path, "zh-Hant") as t:
        await _hk_night(t)
        said = await _texts(t, "bob", "/hu bob 自摸 3番 花 1")
        assert "不算 1 番花番" in said and "副露" not in said, said
        said = await _texts(t, "bob", "/hu bob 自摸 4番 花 1")
        assert "bob +24.00" in said, said
