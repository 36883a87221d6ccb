"""What a new player typed at the table in a review, and what the bot now says back: a
lone "false" is no false win, points with a thousands comma, a points-only hand's
negative amount, /rules as the table plays (its options in force, its own counts), /set
of the table's own option, 承包 and 包 in each family's words, Chinese numerals, and
/stats' best hand within its preset."""

from __future__ import annotations

from pathlib import Path

from tests.bot.harness import plain
from tests.handlers.harness import HandlerTable, handler_table

SG = "/new sg @alice @bob @carol @dave"
FREE = "/new free @alice @bob @carol @dave"


async def _said(t: HandlerTable, who: str, command: str) -> str:
    return "\n".join(plain(m.text) for m in await t.say(who, command))


async def _totals(t: HandlerTable) -> dict[str, int]:
    night = await t.ledger.open_nights.current_night(t.chat_id)
    assert night is not None
    return dict(night.totals)


async def test_a_lone_false_is_no_false_win(tmp_path: Path) -> None:
    async with handler_table(tmp_path) as t:
        await t.say("alice", SG)
        text = await _said(t, "bob", "/hu bob from carol shooter false")
        assert "false win" not in text and "诈胡" not in text, text
        # Singapore's option said in a report: where it is changed.
        assert "shooter false is a table option, not part of a hand: an admin changes it " \
               "with /set shooter=false. Report the hand without it." in text, text
        assert await _totals(t) == {"E": 0, "S": 0, "W": 0, "N": 0}
        # Said clearly, in two words or one, it is.
        text = await _said(t, "bob", "/hu dave false win")
        assert "dave: a false win (诈胡)" in text, text
        text = await _said(t, "alice", "/penalty dave false")
        assert "dave: a false win (诈胡)" in text, text
    async with handler_table(tmp_path / "zh", lang="zh-Hans") as t:
        await t.say("alice", FREE)
        text = await _said(t, "bob", "/hu bob 点炮 carol shooter false")
        assert "诈胡" not in text, text
        assert "shooter false 不是一盘的内容（shooter 是新马麻将牌桌的选项）：报这盘时不用写它。" \
            in text, text
        # 诈胡 is read as one: a points-only table asks its points first.
        text = await _said(t, "bob", "/hu dave 诈胡")
        assert "先设诈胡罚几分" in text, text


async def test_points_with_a_thousands_comma(tmp_path: Path) -> None:
    async with handler_table(tmp_path) as t:
        await t.say("alice", FREE)
        text = await _said(t, "alice", "/jifen alice +1,500 bob -500 carol -1,000")
        assert "alice +1500  bob -500  carol -1000" in text, text
        assert await _totals(t) == {"E": 1500, "S": -500, "W": -1000, "N": 0}
    async with handler_table(tmp_path / "zh", lang="zh-Hans") as t:
        await t.say("alice", FREE)
        await t.say("alice", "/jifen alice 1,000 bob -1,000")
        assert await _totals(t) == {"E": 1000, "S": -1000, "W": 0, "N": 0}


async def test_a_negative_amount_at_a_points_only_table(tmp_path: Path) -> None:
    async with handler_table(tmp_path) as t:
        await t.say("alice", FREE)
        text = await _said(t, "bob", "/hu bob from carol -5")
        assert "-5: a win's amount is the points the winner gets, with no minus sign: " \
               "/hu bob from carol 5 (carol pays 5)" in text, text
        assert await _totals(t) == {"E": 0, "S": 0, "W": 0, "N": 0}
        await t.say("bob", "/hu bob from carol +5")  # a plus sign is the amount itself
        assert await _totals(t) == {"E": 0, "S": 5, "W": -5, "N": 0}
    async with handler_table(tmp_path / "zh", lang="zh-Hans") as t:
        await t.say("alice", FREE)
        text = await _said(t, "bob", "/hu bob 点炮 carol -5")
        assert "-5：胡牌的分数是赢家得的分，不带负号：/hu bob 点炮 carol 5（carol 付 5）" \
            in text, text


async def test_a_points_only_tables_rules_have_no_pattern_row(tmp_path: Path) -> None:
    async with handler_table(tmp_path) as t:
        await t.say("alice", FREE)
        text = await _said(t, "alice", "/rules")
        assert "Patterns: none; each report says its amount." in text, text
        assert "—: none" not in text and "\n  —" not in text, text
    async with handler_table(tmp_path / "zh", lang="zh-Hans") as t:
        await t.say("alice", FREE)
        text = await _said(t, "alice", "/rules")
        assert "番型：不计番型，每次报分数。" in text, text
        assert "—：" not in text, text


async def test_rules_say_the_options_changed_from_the_summary(tmp_path: Path) -> None:
    async with handler_table(tmp_path) as t:
        t.admin("alice")
        await t.say("alice", "/set preset singapore")
        await t.say("alice", "/set cap_tai 6")
        await t.say("alice", "/set shooter false")
        text = await _said(t, "alice", "/rules")  # the chat's house rules, no table
        assert "Changed from the summary above: Shooter pays (the discarder pays for all) " \
               "(shooter): no; Tai cap (cap_tai): 6 tai." in text, text
        await t.say("alice", "/new @alice @bob @carol @dave")
        text = await _said(t, "alice", "/rules")  # the table's, as it plays
        assert "(cap_tai): 6 tai." in text, text
        await t.say("alice", "/end")
        await t.say("alice", "/set preset chengdu")
        text = await _said(t, "alice", "/rules")  # the preset as it is: nothing changed
        assert "Changed from the summary" not in text, text
    async with handler_table(tmp_path / "zh", lang="zh-Hans") as t:
        t.admin("alice")
        await t.say("alice", "/set 封顶 5")
        await t.say("alice", "/new @alice @bob @carol @dave")
        text = await _said(t, "alice", "/rules")
        assert "7 番封顶" in text and "与上面简介不同：封顶：5 番。" in text, text


async def test_changsha_rules_speak_of_big_wins_not_fan(tmp_path: Path) -> None:
    async with handler_table(tmp_path) as t:
        await t.say("alice", "/new changsha @alice @bob @carol @dave")
        text = await _said(t, "alice", "/rules")
        assert "Big wins, and the starting wins:\n  all pongs 碰碰胡: 1 big win(s)" in text, text
        assert "e.g. /set birds 2, /set stake 0.5." in text, text
        assert "Patterns:" not in text and "cap_fan" not in text, text
    async with handler_table(tmp_path / "zh", lang="zh-Hans") as t:
        await t.say("alice", "/new changsha @alice @bob @carol @dave")
        text = await _said(t, "alice", "/rules")
        assert "大胡和起手胡：\n  碰碰胡：算 1 个大胡" in text, text
        assert "例如 /set 扎鸟 2、/set 底注 0.5。" in text, text
        assert "番型" not in text and "封顶" not in text, text


async def test_set_of_a_changsha_option_in_a_chengdu_chat(tmp_path: Path) -> None:
    async with handler_table(tmp_path) as t:
        t.admin("alice")
        await t.say("alice", "/new changsha @alice @bob @carol @dave")
        text = await _said(t, "alice", "/set 扎鸟 2")
        assert "birds is an option of Changsha, the table going, not of this chat's house " \
               "rules (Chengdu blood battle)" in text, text
        assert "/set preset changsha, then /set birds=2." in text, text
        assert "cap_fan" not in text and "Unknown option" not in text, text
    async with handler_table(tmp_path / "zh", lang="zh-Hans") as t:
        t.admin("alice")
        await t.say("alice", "/new changsha @alice @bob @carol @dave")
        text = await _said(t, "alice", "/set 扎鸟 2")
        assert "扎鸟 是正在进行的牌桌（长沙）的选项，不是本群规则（成都血战）的选项" in text, text
        assert "再 /set 扎鸟=2。" in text and "birds" not in text, text
        assert "封顶" not in text, text
        await t.say("alice", "/end")
        await t.say("alice", "/set 规则 changsha")
        text = await _said(t, "alice", "/set 扎鸟=2")  # the example as said works
        assert "长沙（扎鸟=2）" in text, text


async def test_a_feibao_refusals_example_is_a_self_draw(tmp_path: Path) -> None:
    async with handler_table(tmp_path) as t:
        await t.say("alice", "/new feibao @alice @bob @carol @dave")
        text = await _said(t, "bob", "/hu bob zimo 承包 zed")
        assert "zed is not a player at this table. Example: /hu bob zimo 七对" in text, text
        assert "from carol" not in text, text
        text = await _said(t, "bob", "/hu bob zimo 七对")  # the example is taken
        assert "Hand 1 recorded: bob self-draws, seven pairs 七对" in text, text
    async with handler_table(tmp_path / "zh", lang="zh-Hans") as t:
        await t.say("alice", "/new feibao @alice @bob @carol @dave")
        text = await _said(t, "bob", "/hu bob 自摸 承包")
        assert "承包 后面要跟一位玩家。例如：/hu bob 自摸 七对" in text, text
        assert "点炮" not in text, text


async def test_hong_kong_bao_off_a_discard_is_said_not_dropped(tmp_path: Path) -> None:
    async with handler_table(tmp_path) as t:
        await t.say("alice", "/new hk @alice @bob @carol @dave")
        text = await _said(t, "bob", "/hu bob 出銃 carol 4番 包 dave")
        assert "包 counts on a self-draw only: dave pays as usual" in text, text
        # 半銃: carol 2 shares, the others 1 each (a share at 4番 is 4.00).
        assert "bob +16.00  alice -4.00  dave -4.00  carol -8.00" in text, text
        text = await _said(t, "bob", "/hu bob 自摸 4番 包 dave")  # 包自摸: dave pays all
        assert "包自摸 by dave" in text and "bob +24.00  dave -24.00" in text, text
    async with handler_table(tmp_path / "zh", lang="zh-Hans") as t:
        await t.say("alice", "/new hk @alice @bob @carol @dave")
        text = await _said(t, "bob", "/hu bob 出銃 carol 4番 包 dave")
        assert "包只算自摸，dave 照常付" in text, text


async def test_robbing_the_eighth_is_no_discard(tmp_path: Path) -> None:
    async with handler_table(tmp_path) as t:
        await t.say("alice", SG)
        text = await _said(t, "bob", "/hu bob 七抢一 from dave")
        assert "bob takes dave's eighth bonus tile, robbing the eighth (limit)" in text, text
        assert "discard" not in text, text
        assert "bob +12.80  dave -12.80" in text, text  # dave alone: 2 × base + zimo
        text = await _said(t, "bob", "/hu bob 七抢一 dave")  # as 海底炮 <who> is said
        assert "bob takes dave's eighth bonus tile" in text, text
    async with handler_table(tmp_path / "zh", lang="zh-Hans") as t:
        await t.say("alice", SG)
        text = await _said(t, "bob", "/hu bob 七抢一 dave")
        assert "bob 抢走 dave 摸到的第八张花，七抢一（满台）" in text, text
        assert "点炮" not in text, text


async def test_chinese_numerals_in_a_hong_kong_report(tmp_path: Path) -> None:
    async with handler_table(tmp_path, lang="zh-Hans") as t:
        await t.say("alice", "/new hk @alice @bob @carol @dave")
        text = await _said(t, "bob", "/hu bob 出銃 carol 三番")
        assert "carol 出铳，bob 食糊，报 3 番" in text, text
        text = await _said(t, "bob", "/hu bob 自摸 四 番")  # the numeral a word of its own
        assert "bob 自摸，报 4 番" in text, text
        text = await _said(t, "bob", "/hu bob 自摸 番 五")
        assert "bob 自摸，报 5 番" in text, text
        # 花一: one of the 番 is a flower 番, which does not count toward the 3 to win.
        text = await _said(t, "bob", "/hu bob 自摸 三番 花一")
        assert "不算 1 番花番" in text and "不够本桌起胡的 3 番" in text, text
        text = await _said(t, "bob", "/hu bob 自摸 五番 花 二")
        assert "bob 自摸，报 5 番" in text, text
    async with handler_table(tmp_path / "en", lang="en") as t:
        await t.say("alice", "/new hk @alice @bob @carol @dave")
        text = await _said(t, "bob", "/hu bob 出銃 carol 三番")
        assert "bob wins off carol's discard, 3 fan as reported" in text, text


async def test_the_best_hand_is_the_chats_games_and_says_its_preset(tmp_path: Path) -> None:
    """Points of two presets do not compare: the best hand is the best at the chat's game
    (a 飞宝 hand of 30 does not beat a Chengdu one of 24 in a Chengdu chat); a player with
    no win at it has the best at any named with its preset."""
    feibao = ("/new feibao @alice @bob @carol @dave", "/hu bob zimo 七对 无宝", "/end")
    chengdu = ("/new @alice @bob @carol @dave", "/hu bob zimo 清一色", "/end")
    async with handler_table(tmp_path) as t:
        for line in feibao:
            await t.say("alice" if not line.startswith("/hu") else "bob", line)
        text = await _said(t, "bob", "/stats")
        assert "Best hand: 30 points, hand 1 on " in text, text
        assert "(Shangrao Feibao: 七对)" in text, text
        for line in chengdu:
            await t.say("alice" if not line.startswith("/hu") else "bob", line)
        text = await _said(t, "bob", "/stats")
        assert "Best hand: 24 points, hand 1 of night 2 on " in text, text
        assert "Feibao" not in text, text
    async with handler_table(tmp_path / "zh", lang="zh-Hans") as t:
        for line in feibao:
            await t.say("alice" if not line.startswith("/hu") else "bob", line)
        text = await _said(t, "bob", "/stats")
        assert "单盘最高：30 分，" in text and "日第 1 盘（上饶飞宝：七对）" in text, text
