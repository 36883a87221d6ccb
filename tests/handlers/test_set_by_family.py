"""/set and /rules in a family's own terms: the examples a chat's table takes (no stake
per point at a Hong Kong table, no cap at a Chinese Official one), and the Chinese
Official false win called 错和, set by that name or the old ones."""

from __future__ import annotations

from pathlib import Path

from tests.bot.harness import plain
from tests.handlers.harness import HandlerTable, handler_table


async def _texts(t: HandlerTable, who: str, command: str) -> str:
    return "\n".join(plain(m.text) for m in await t.say(who, command))


async def test_set_alone_gives_examples_the_hong_kong_table_takes(tmp_path: Path) -> None:
    async with handler_table(tmp_path, "zh-Hant") as t:
        t.admin("alice")
        await t.say("alice", "/lang 繁體")
        await t.say("alice", "/set preset hongkong")
        said = await _texts(t, "alice", "/set")
        assert "/set 注碼 五一" in said and "0.5" not in said, said
        await t.say("alice", "/new alice bob carol dave")
        said = await _texts(t, "alice", "/set")
        assert "/set 注碼 五一" in said and "0.5" not in said, said


async def test_set_alone_in_english_at_a_table_of_another_preset(tmp_path: Path) -> None:
    async with handler_table(tmp_path, "en") as t:
        t.admin("alice")
        await t.say("alice", "/lang en")
        await t.say("alice", "/new hongkong alice bob carol dave")  # the chat's is Chengdu
        said = await _texts(t, "alice", "/set")
        assert "/set stake wuyi" in said and "0.5" not in said, said


async def test_mcr_rules_call_a_false_win_cuohe(tmp_path: Path) -> None:
    async with handler_table(tmp_path, "zh-Hans") as t:
        t.admin("alice")
        await t.say("alice", "/set preset mcr")
        rules = await _texts(t, "alice", "/rules")
        assert "错和赔给其他每位玩家的分数：10" in rules and "诈胡" not in rules, rules
        assert "/set 明暗杠的番数 6" in rules and "封顶" not in rules, rules
        said = await _texts(t, "alice", "/set 错和 20")
        assert "国标麻将（错和赔给其他每位玩家的分数=20）" in said, said
        rules = await _texts(t, "alice", "/rules")
        assert "错和赔给其他每位玩家的分数：20" in rules, rules
        # The names /set took before still work.
        await t.say("alice", "/set 诈胡赔给其他每位玩家的分数 15")
        await t.say("alice", "/set 错和赔给其他每位玩家的分数 12")
        rules = await _texts(t, "alice", "/rules")
        assert "错和赔给其他每位玩家的分数：12" in rules, rules
        said = await _texts(t, "alice", "/set")
        assert "/set 明暗杠的番数 6" in said, said


async def test_the_free_tables_hint_names_an_option_set_takes(tmp_path: Path) -> None:
    async with handler_table(tmp_path, "zh-Hans") as t:
        t.admin("alice")
        await t.say("alice", "/set preset free")
        said = await _texts(t, "alice", "/set 诈胡=8")
        assert "8" in said and "⚠️" not in said, said


async def test_an_option_of_the_table_going_not_the_chats_says_so(tmp_path: Path) -> None:
    """A Hong Kong table opened in a chat whose house rules are Chengdu's: /set stake wuyi
    is not "no such option" with Chengdu's list, but says whose option it is and how to
    make it the chat's."""
    async with handler_table(tmp_path, "zh-Hant") as t:
        t.admin("alice")
        await t.say("alice", "/lang 繁體")
        await t.say("alice", "/new 港式 alice bob carol dave")
        said = await _texts(t, "alice", "/set stake wuyi")
        assert "注碼 是正在進行的牌桌（港式）的選項" in said and "成都血戰" in said, said
        assert "/set 規則 hongkong" in said and "查花豬" not in said, said
        said = await _texts(t, "alice", "/set curve full_spicy")
        assert "辣上 是正在進行的牌桌（港式）的選項" in said, said
