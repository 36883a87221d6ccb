"""Defects a new user found in issue 19's features, through the real bot."""

from __future__ import annotations

from pathlib import Path

from tests.bot.harness import end_night, plain
from tests.handlers.harness import HandlerTable as Table
from tests.handlers.harness import handler_table as table


async def _say(t: Table, who: str, text: str) -> str:
    return "\n".join(plain(m.text) for m in await t.say(who, text))


async def test_dealt_in_rate_is_out_of_hands_played(tmp_path: Path) -> None:
    """In a blood battle one player can deal in twice in one hand: twice, one hand of one."""
    async with table(tmp_path, lang="zh-hans") as t:
        await t.say("ann", "/new chengdu @ann @ben @cat @dan")
        await t.say("ann", "/hu ann 自摸 七对")
        await t.say("ben", "/hu ben from cat 平胡")
        await t.say("dan", "/hu dan from cat 平胡")
        await end_night(t, "ann")
        out = await _say(t, "ann", "/stats @cat")
        assert "共 1 盘" in out and "点炮 2 次" in out, out
        assert "（在 1 盘里，占 100%）" in out, out
        assert "200%" not in out, out
        assert t.api.errors == []


async def _three_wins(t: Table) -> None:
    await t.say("alice", "/new chengdu @alice @bob @carol @dave")
    await t.say("bob", "/hu bob 自摸")
    await t.say("carol", "/hu carol from alice")
    await t.say("dave", "/hu dave 自摸")


async def test_undo_after_edit_names_the_corrected_event(tmp_path: Path) -> None:
    async with table(tmp_path, lang="zh-hans") as t:
        t.admin("alice")
        await _three_wins(t)
        before = (await t.ledger.open_nights.current_night(t.chat_id)).totals
        await t.say("alice", "/edit 1.2 carol 自摸 清一色")
        out = await _say(t, "alice", "/undo")
        assert "已撤销对第 1 盘第 2 条的修改。" in out, out
        assert "第 3 条" not in out, out
        assert (await t.ledger.open_nights.current_night(t.chat_id)).totals == before
        # The next undo takes back the last event itself.
        out = await _say(t, "alice", "/undo")
        assert "已撤销：第 1 盘的第 3 条记录。" in out, out
        assert t.api.errors == []
    async with table(tmp_path / "en") as t:
        t.admin("alice")
        await _three_wins(t)
        await t.say("alice", "/edit 1.1 bob 自摸 七对")
        out = await _say(t, "alice", "/undo")
        assert "Undone: the correction of event 1 of hand 1." in out, out


async def test_hand_names_a_scorekeeper_who_is_not_seated(tmp_path: Path) -> None:
    from tests.bot.test_files_e2e import OTHER, _files, _upload

    async with table(tmp_path, lang="zh-hans") as t:
        t.admin("sam")  # keeps score; not at the table
        await t.say("sam", "/new chengdu @alice @bob @carol @dave")
        await t.say("sam", "/hu bob 自摸")
        await t.say("carol", "/hu carol from alice")
        out = await _say(t, "alice", "/hand 1")
        assert "第 1 条，由 sam 报：" in out and "第 2 条，由 carol 报：" in out, out
        assert "非本桌的人" not in out, out
        # A scorekeeper with no hands is in no standings.
        await end_night(t, "sam")
        assert "sam" not in {s.player.name for s in await t.ledger.lookback.standings(t.chat_id)}
        # One night's export names its reporters; an import keeps the names.
        doc = _files(await t.say("sam", "/export 1"), "document")[0]
        t.api.chat(OTHER).admins.add(t.user("erin").id)
        (preview,) = await _upload(t, "erin", OTHER, doc.data, "/import")
        await t.press("erin", preview, preview.buttons[0]["callback_data"])
        out = "\n".join(plain(m.text) for m in await t.say("erin", "/hand 1", chat_id=OTHER))
        assert "第 1 条，由 sam 报：" in out, out
        assert t.api.errors == []


async def test_a_long_line_says_what_is_wrong(tmp_path: Path) -> None:
    async with table(tmp_path, lang="zh-hans") as t:
        await t.say("alice", "/new chengdu @alice @bob @carol @dave")
        out = await _say(t, "bob", "/hu bob 自摸 " + "清一色 " * 400)
        assert "这行太长：最多 100 个词。没有记录。" in out, out
        assert "胡家人数" not in out, out
        out = await _say(t, "bob", "/hu bob 自摸 " + "清一色 " * 20)
        assert "清一色 写了不止一次" in out, out
        out = await _say(t, "bob", "/hu bob 自摸 清一色 qingyise")
        assert "qingyise 写了不止一次" in out, out
        assert (await t.ledger.open_nights.current_night(t.chat_id)).hands == 0
        assert t.api.errors == []
    async with table(tmp_path / "en") as t:
        await t.say("alice", "/new chengdu @alice @bob @carol @dave")
        out = await _say(t, "bob", "/hu bob 自摸 " + "清一色 " * 400)
        assert "That line is too long: at most 100 words. Nothing was recorded." in out, out
        out = await _say(t, "bob", "/hu bob 自摸 七对 清一色 七对")
        assert "七对 is named more than once" in out, out


async def test_another_presets_word_is_named(tmp_path: Path) -> None:
    async with table(tmp_path, lang="zh-hans") as t:
        await t.say("alice", "/new chengdu @alice @bob @carol @dave")
        out = await _say(t, "carol", "/hu carol 自摸 平和 无宝")
        assert "无宝 是上饶飞宝的说法，成都血战不算。" in out, out
        out = await _say(t, "dave", "/hu dave 自摸 wubao")
        assert "wubao 是上饶飞宝的说法，成都血战不算。" in out, out
        out = await _say(t, "dave", "/hu dave from bob 鸟3")
        assert "鸟3 是长沙的说法，成都血战不算。" in out, out
        assert (await t.ledger.open_nights.current_night(t.chat_id)).hands == 0
        assert t.api.errors == []
    async with table(tmp_path / "en") as t:
        await t.say("alice", "/new changsha @alice @bob @carol @dave")
        out = await _say(t, "dave", "/hu dave 自摸 七对 根1")
        assert "根1: that is how Sichuan counts; Changsha does not count it." in out, out


async def test_adjust_names_its_limit_and_no_one_deals_into_their_own_win(
        tmp_path: Path) -> None:
    async with table(tmp_path, lang="zh-hans") as t:
        await t.say("alice", "/new chengdu @alice @bob @carol @dave")
        out = await _say(t, "alice", "/adjust alice -99999999999 bob +99999999999")
        assert "-99999999999：一次调整每位玩家最多 1000000 分。" in out, out
        out = await _say(t, "alice", "/adjust alice -" + "9" * 5000 + " bob +1")
        assert "一次调整每位玩家最多 1000000 分" in out, out
        out = await _say(t, "alice", "/hu alice from alice 平胡")
        assert "alice 不能点自己的炮。" in out and "付钱" not in out, out
        out = await _say(t, "alice", "/hu alice rob alice 平胡")
        assert "alice 不能抢自己的杠。" in out, out
        assert (await t.ledger.open_nights.current_night(t.chat_id)).hands == 0
        assert t.api.errors == []
    async with table(tmp_path / "en") as t:
        await t.say("alice", "/new chengdu @alice @bob @carol @dave")
        out = await _say(t, "alice", "/hu alice from alice")
        assert "alice cannot win off their own discard." in out, out


async def test_stats_say_each_count_in_words(tmp_path: Path) -> None:
    """/stats reads as a sentence in either language: "1 hand", "1 win", "no wins",
    "dealt in once", "never dealt in", not "Hands 1: won 1"."""
    async with table(tmp_path) as t:
        t.admin("ann")
        await t.say("ann", "/new chengdu @ann @ben @cat @dan")
        await t.say("ann", "/hu ann 自摸 七对")
        await t.say("ben", "/hu ben from cat 平胡")
        await t.say("dan", "/hu dan from cat 平胡")
        await end_night(t, "ann")
        out = await _say(t, "ann", "/stats @ann")
        assert "Played 1 hand: 1 win (100%), by self-draw; never dealt in." in out, out
        out = await _say(t, "ann", "/stats @cat")
        assert "Played 1 hand: no wins; dealt in 2 times, in 1 hand (100%)." in out, out
        out = await _say(t, "ann", "/stats @ben")
        assert "Played 1 hand: 1 win (100%); never dealt in." in out, out
        # Hand 1: ann and ben self-draw, cat wins off dan; hand 2: ann wins off ben.
        await t.say("ann", "/new chengdu @ann @ben @cat @dan")
        await t.say("ann", "/hu ann 自摸")
        await t.say("cat", "/hu cat from dan")
        await t.say("ben", "/hu ben 自摸")
        await t.say("ann", "/hu ann from ben")
        await end_night(t, "ann")
        wanted = {
            "ann": ("Played 3 hands: 3 wins (100%), 2 of them by self-draw; never dealt in.",
                    "共 3 盘：胡牌 3 次（胡牌率 100%），其中自摸 2 次；从未点炮。"),
            "ben": ("Played 3 hands: 2 wins (67%), 1 of them by self-draw; dealt in once (33%).",
                    "共 3 盘：胡牌 2 次（胡牌率 67%），其中自摸 1 次；点炮 1 次（点炮率 33%）。"),
            "cat": ("Played 3 hands: 1 win (33%); dealt in 2 times, in 1 hand (33%).",
                    "共 3 盘：胡牌 1 次（胡牌率 33%）；点炮 2 次（在 1 盘里，占 33%）。"),
        }
        for who, (en, _) in wanted.items():
            out = await _say(t, "ann", f"/stats @{who}")
            assert en in out, out
        await t.say("ann", "/lang zh")
        for who, (_, zh) in wanted.items():
            out = await _say(t, "ann", f"/stats @{who}")
            assert zh in out, out
        for _ in range(2):  # eve: two hands, both won by self-draw
            await t.say("ann", "/new chengdu @ann @ben @cat @eve")
            await t.say("eve", "/hu eve 自摸")
            await end_night(t, "ann")
        out = await _say(t, "ann", "/stats @eve")
        assert "共 2 盘：胡牌 2 次（胡牌率 100%），全是自摸；从未点炮。" in out, out
        await t.say("ann", "/lang en")
        out = await _say(t, "ann", "/stats @eve")
        assert "Played 2 hands: 2 wins (100%), all by self-draw; never dealt in." in out, out
        assert t.api.errors == []
