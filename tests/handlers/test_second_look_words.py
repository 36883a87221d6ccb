"""The table's own words, looked at again by a new Chinese-speaking user: each test one
thing that user met, through the handlers on a real ledger and the fake Bot API."""

from __future__ import annotations

from pathlib import Path

from tests.bot.harness import plain
from tests.handlers.harness import HandlerTable as Table
from tests.handlers.harness import handler_table as table


async def _one(t: Table, who: str, text: str) -> str:
    """The single answer to one line (the scoreboard's edit aside)."""
    said = [plain(m.text) for m in await t.say(who, text) if m.edits == 0]
    assert len(said) == 1, said
    return said[0]


async def test_a_stake_in_words_is_refused_as_no_amount(tmp_path: Path) -> None:
    """`/set 底注 两块` at a table whose stake is a number is not an unknown option
    "stake" (an English key the player never typed): it is no amount, and says how."""
    async with table(tmp_path, lang="zh-hans") as t:
        t.admin("alice")
        await t.say("alice", "/new chengdu @alice @bob @carol @dave")
        for line in ("/set 底注 两块", "/set stake 二"):
            out = await _one(t, "alice", line)
            assert "不是金额" in out and "0.5" in out, out
            assert "stake" not in out and "没有选项" not in out, out
        out = await _one(t, "alice", "/set 底注 0.5")
        assert "底注改为 0.50" in out, out
    async with table(tmp_path / "en") as t:
        t.admin("alice")
        out = await _one(t, "alice", "/set stake two")
        assert "is not an amount" in out and "Unknown option" not in out, out


async def test_changsha_refuses_a_fan_count_instead_of_scoring_a_small_win(
        tmp_path: Path) -> None:
    """`/hu alice 自摸 3番` at a Changsha table was scored as a small win, the 3番 dropped
    unsaid; Changsha counts big wins (docs/usage.md), so the count is refused with how."""
    async with table(tmp_path, lang="zh-hans") as t:
        await t.say("alice", "/new 长沙 @alice @bob @carol @dave")
        for line in ("/hu alice 自摸 3番", "/hu alice 自摸 清一色 番3"):
            out = await _one(t, "alice", line)
            assert "不算番" in out and "清一色 碰碰胡" in out and "没有记录" in out, out
        night = await t.ledger.open_nights.current_night(t.chat_id)
        assert night is not None and set(night.totals.values()) == {0}
        out = await _one(t, "alice", "/hu alice 自摸 清一色")
        assert "alice +12" in out, out


async def test_edit_without_a_report_shows_edit_and_undo_refuses_a_number(
        tmp_path: Path) -> None:
    """`/edit` alone was answered with /void's example; `/undo 5` took back the last event
    whatever the 5 meant. Each now says what it takes, and nothing changes."""
    async with table(tmp_path, lang="zh-hans") as t:
        await t.say("alice", "/new chengdu @alice @bob @carol @dave")
        await t.say("alice", "/hu bob 自摸 清一色")
        for line in ("/edit", "/edit 1"):
            out = await _one(t, "alice", line)
            assert "/edit 3 bob 自摸 七对" in out and "/void" not in out, out
        out = await _one(t, "alice", "/undo 5")
        assert "（5）" in out and "/void 3" in out and "没有撤销" in out, out
        night = await t.ledger.open_nights.current_night(t.chat_id)
        assert night is not None and night.totals["S"] == 24
        assert "已撤销" in await _one(t, "alice", "/undo")
    async with table(tmp_path / "en") as t:
        await t.say("alice", "/new chengdu @alice @bob @carol @dave")
        await t.say("alice", "/hu bob 自摸")
        assert "Nothing was undone" in await _one(t, "alice", "/undo 1")


async def test_looking_back_names_the_word_it_could_not_read(tmp_path: Path) -> None:
    """`/hand 1 昨天`, `/hand 一` and `/history 上周` were answered with examples alone; the
    answer now says which word was not understood, then how to say it."""
    async with table(tmp_path, lang="zh-hans") as t:
        await t.say("alice", "/new chengdu @alice @bob @carol @dave")
        await t.say("alice", "/hu bob 自摸 清一色")
        for line, word in (("/hand 1 昨天", "昨天"), ("/hand 一", "一"),
                           ("/hand 1 2026-12-03 再", "再")):
            out = await _one(t, "alice", line)
            assert out.startswith(f"⚠️ {word} 既不是盘号也不是日期。例如：/hand 3"), out
        out = await _one(t, "alice", "/history 上周")
        assert out.startswith("⚠️ 上周 既不是页码也不是日期。例如：/history"), out
        assert (await _one(t, "alice", "/hand")).startswith("⚠️ 例如：/hand 3"), out
    async with table(tmp_path / "en") as t:
        await t.say("alice", "/new chengdu @alice @bob @carol @dave")
        out = await _one(t, "alice", "/hand 1 yesterday")
        assert "yesterday is neither a hand's number nor a day" in out, out


async def test_a_count_with_a_sign_or_a_fraction_is_refused_as_that_count(
        tmp_path: Path) -> None:
    """`根-1` was refused as no pattern of that name, with the table's pattern list; it is a
    根 count out of its range, said so with the range."""
    async with table(tmp_path, lang="zh-hans") as t:
        await t.say("alice", "/new chengdu @alice @bob @carol @dave")
        for line, word in (("/hu carol 自摸 根-1", "根"), ("/hu carol 自摸 根1.5", "根"),
                           ("/hu carol 自摸 番2.5", "番"), ("/hu carol 自摸 杠+1", "杠")):
            out = await _one(t, "alice", line)
            assert out.startswith(f"⚠️ {word} 后面要跟"), out
            assert "没有番型" not in out, out
        assert "carol +" in await _one(t, "alice", "/hu carol 自摸 根1")


async def test_an_option_another_preset_has_is_named_as_typed(tmp_path: Path) -> None:
    """`/set 扎鸟 2` in a chat playing 成都血战 was refused as no option "birds", a key the
    player never typed; it names 扎鸟."""
    async with table(tmp_path, lang="zh-hans") as t:
        t.admin("alice")
        out = await _one(t, "alice", "/set 扎鸟 2")
        assert out.startswith("⚠️ 没有选项 扎鸟。"), out
        assert "birds" not in out, out


async def test_a_bird_said_apart_is_a_bird(tmp_path: Path) -> None:
    """`鸟 3` (apart, as `根 1` may be said) was refused as a free-scoring amount; it is the
    bird 3, as `鸟3` is."""
    async with table(tmp_path, lang="zh-hans") as t:
        await t.say("alice", "/new 长沙 @alice @bob @carol @dave")
        out = await _one(t, "alice", "/hu carol 自摸 鸟 3")
        assert "鸟 3 中 carol" in out and "carol +8  bob -2  dave -2  alice -4" in out, out
        out = await _one(t, "alice", "/hu carol 自摸 鸟 0")
        assert out.startswith("⚠️ 鸟0：请给 1 到 9 之间的数"), out


async def test_an_option_without_its_value_is_asked_for_it(tmp_path: Path) -> None:
    """`/set 封顶` alone was answered with /set's general examples (cap_fan=5); it names the
    option typed and asks for its value."""
    async with table(tmp_path, lang="zh-hans") as t:
        t.admin("alice")
        out = await _one(t, "alice", "/set 封顶")
        assert out.startswith("⚠️ 封顶 后面要写值：/set 封顶 再加上值"), out
        assert "cap_fan" not in out, out
