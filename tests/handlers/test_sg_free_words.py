"""What a new player types at a Singapore table and at a points-only (free) table, and
what the bot says back: the English words those tables use (bonus none, bao, exposed),
a /set of the table's own option in a chat whose house rules are another preset's, and
the refusals of a points-only hand (docs/rules/singapore.md, docs/rules/free.md)."""

from __future__ import annotations

from pathlib import Path

from tests.bot.harness import plain
from tests.handlers.harness import HandlerTable, handler_table

SG = "/new sg @alice @bob @carol @dave"  # 20/40, shooter, cap 5; alice East
FREE = "/new free @alice @bob @carol @dave"
TILES = "123m 456m 789m 234p 55p"  # four chows and a non-scoring pair, concealed


async def _said(t: HandlerTable, who: str, command: str) -> str:
    return "\n".join(plain(m.text) for m in await t.say(who, command))


async def _totals(t: HandlerTable) -> dict[str, int]:
    night = await t.ledger.open_nights.current_night(t.chat_id)
    assert night is not None
    return dict(night.totals)


async def test_set_of_the_table_options_in_a_chat_of_another_preset(tmp_path: Path) -> None:
    async with handler_table(tmp_path) as t:
        t.admin("alice")
        await t.say("alice", SG)  # the chat's own preset is still Chengdu
        text = await _said(t, "alice", "/set stake=10/20")
        assert "stake is an option of Singapore/Malaysia, the table going, not of this " \
               "chat's house rules (Chengdu blood battle)" in text, text
        assert "/set preset singapore, then /set stake=10/20." in text, text
        assert "Unknown option" not in text and "cap_fan" not in text, text
        text = await _said(t, "alice", "/set shooter false")
        assert "then /set shooter=false." in text, text
        info = await t.ledger.chats.chat(t.chat_id)
        assert info.overrides == {}, info
        # An option neither preset knows is still unknown.
        text = await _said(t, "alice", "/set nonsense=1")
        assert "Unknown option nonsense" in text, text
        # /rules' example of a change is one of the table's own options.
        text = await _said(t, "alice", "/rules")
        assert "e.g. /set cap_tai 6, /set stake 10/20." in text, text
        # Made the chat's preset, the options are taken for its next tables.
        await t.say("alice", "/set preset singapore")
        text = await _said(t, "alice", "/set stake=10/20")
        assert "House rules: Singapore/Malaysia (stake=10/20)" in text, text


async def test_a_free_tables_rules_example_is_its_own(tmp_path: Path) -> None:
    async with handler_table(tmp_path) as t:
        await t.say("alice", FREE)
        text = await _said(t, "alice", "/rules")
        assert "e.g. /set draw_dealer=next, /set stake 0.5." in text, text
        assert "cap_fan" not in text, text


async def test_singapore_bonus_words_in_english(tmp_path: Path) -> None:
    async with handler_table(tmp_path) as t:
        await t.say("alice", SG)
        # bonus none: no bonus tile at all, so 大平胡 (4) + 门清 (1) = 5 tai, 6.40 each.
        text = await _said(t, "alice", f"/hu alice zimo {TILES} bonus none")
        assert "full all chows, concealed self-draw, 5 tai" in text, text
        assert await _totals(t) == {"E": 1920, "S": -640, "W": -640, "N": -640}
        # flowers f1 s2: alice (East) holds her seat flower: 平胡 1 + 门清 1 + 正花 1.
        text = await _said(t, "alice", f"/hu alice zimo {TILES} flowers f1 s2")
        assert "seat flower, all chows, concealed self-draw, 3 tai" in text, text
        # bao carol: carol pays for all, 3 × zimo(4) = 9.60.
        text = await _said(t, "bob", "/hu bob zimo full flush bao carol")
        assert "包: carol pays for all" in text and "bob +9.60  carol -9.60" in text, text
        # exposed: 明杠 off alice's discard, alice pays 3u.
        text = await _said(t, "carol", "/kong carol exposed from alice")
        assert "carol +0.60  alice -0.60" in text, text
        text = await _said(t, "carol", "/kong carol")
        assert "/kong bob 暗杠 (concealed) — or 补杠 (added), or 直杠 (exposed) from carol." \
            in text, text


async def test_an_unknown_pattern_at_singapore_lists_english_names(tmp_path: Path) -> None:
    async with handler_table(tmp_path) as t:
        await t.say("alice", SG)
        text = await _said(t, "bob", "/hu bob from carol fulflush")
        assert "did you mean: full flush, half flush, full all chows?" in text, text
        assert "This table counts: animal, all four animals, seat flower" in text, text
        assert "清一色" not in text, text
    async with handler_table(tmp_path / "zh", lang="zh-Hans") as t:
        await t.say("alice", SG)
        text = await _said(t, "bob", "/hu bob 点炮 carol 清一涩")
        assert "清一色" in text and "full flush" not in text, text


async def test_a_kong_at_tables_that_pay_none_when_made(tmp_path: Path) -> None:
    async with handler_table(tmp_path) as t:
        t.admin("alice")
        await t.say("alice", FREE)
        text = await _said(t, "bob", "/kong bob concealed")
        assert "This table scores points only: a kong is paid in the amount of the hand's " \
               "win (/hu bob zimo 8), not when made." in text, text
        assert "杠1" not in text, text
        await t.say("alice", "/end")
        await t.say("alice", "/set preset singapore")
        await t.say("alice", "/set instant_payouts=false")
        await t.say("alice", "/new @alice @bob @carol @dave")
        text = await _said(t, "bob", "/kong bob concealed")
        assert "This table pays nothing for a kong when made: its instant payouts are off" \
            in text, text


async def test_a_points_only_hand_refused_in_its_own_words(tmp_path: Path) -> None:
    async with handler_table(tmp_path) as t:
        await t.say("alice", FREE)
        text = await _said(t, "alice", "/jifen alice +35 bob -20 carol -10")
        assert "A hand's changes must add up to zero; these add up to +5. Example: /jifen " \
               "alice +35 bob -20 carol -15" in text, text
        assert "/adjust" not in text and "adjustment" not in text, text
        text = await _said(t, "alice", "/jifen alice +35 alice -35")
        assert "alice is named twice; name each player once: /jifen" in text, text
        text = await _said(t, "alice", "/jifen erin +5 bob -5")
        assert "erin is not a player at this table. Example: /jifen" in text, text
        text = await _said(t, "alice", "/jifen alice +3000001 bob -3000001")
        assert "+3000001: a player's change in one hand is at most 3000000 points" in text
        assert await _totals(t) == {"E": 0, "S": 0, "W": 0, "N": 0}
        # A self-draw of the most one win pays, at four, given as amounts (free.md: ±3,000,000).
        await t.say("alice", "/jifen alice +3000000 bob -1000000 carol -1000000 dave -1000000")
        assert await _totals(t) == {"E": 3_000_000, "S": -1_000_000, "W": -1_000_000,
                                    "N": -1_000_000}
    async with handler_table(tmp_path / "zh", lang="zh-Hans") as t:
        await t.say("alice", FREE)
        text = await _said(t, "alice", "/jifen alice +35 bob -20 carol -10")
        assert "每人的得失合计必须为零；现在合计 +5。例如：/jifen alice +35 bob -20 carol -15" \
            in text, text
        text = await _said(t, "bob", "/kong bob 暗杠")
        assert "本桌只记分：杠不当场算分，一并算进胡牌的分数（/hu bob 自摸 8）。" in text, text


async def test_a_singapore_hands_payments_in_chinese_are_money(tmp_path: Path) -> None:
    """/hand at a Singapore table in Chinese: the win's payment is money (0.80), not
    points (0.80 分), as the instant payouts' lines already were; a points table keeps 分."""
    async with handler_table(tmp_path, lang="zh-Hans") as t:
        await t.say("alice", SG)
        await t.say("bob", "/kong bob 暗杠")
        await t.say("carol", "/hu carol 抢杠 bob 1台")  # bob pays as the shooter: 0.80
        text = await _said(t, "alice", "/hand 1")
        assert "bob → carol 0.80（胡牌）" in text, text
        assert "alice → bob 0.40（当场付）" in text, text
        assert " 分" not in text, text
        await t.say("alice", "/end")
        await t.say("alice", FREE)
        await t.say("bob", "/hu bob 点炮 carol 8")
        text = await _said(t, "alice", "/hand 1")
        assert "carol → bob 8 分（胡牌）" in text, text


async def test_a_hidden_bite_is_said_as_one(tmp_path: Path) -> None:
    async with handler_table(tmp_path) as t:
        await t.say("alice", SG)
        text = await _said(t, "dave", "/bite dave cat rat hidden")
        assert "Hand 1 recorded: dave: a hidden bite (cat and rat)" in text, text
        assert "dave +1.20  alice -0.40  bob -0.40  carol -0.40" in text, text
        assert "hidden, dave" not in text, text
    async with handler_table(tmp_path / "zh", lang="zh-Hans") as t:
        await t.say("alice", SG)
        text = await _said(t, "bob", "/yao bob 花 暗")
        assert "第 1 盘：bob：暗咬（本位花和季）" in text, text
        assert "暗，" not in text, text


async def test_a_reports_refusal_gives_an_example_the_table_takes(tmp_path: Path) -> None:
    async with handler_table(tmp_path) as t:
        await t.say("alice", FREE)
        text = await _said(t, "alice", "/hu bbo from carol 8")
        assert "bbo is not a player at this table. Example: /hu bob from carol 8" in text
        assert "七对" not in text, text
        text = await _said(t, "alice", "/hu bob form carol 8")
        assert text.endswith("Example: /hu bob from carol 8"), text
        # The example itself is a report this table takes.
        assert "bob +8  carol -8" in await _said(t, "alice", "/hu bob from carol 8")
    async with handler_table(tmp_path / "zh", lang="zh-Hans") as t:
        await t.say("alice", SG)
        text = await _said(t, "alice", "/hu bob 点炮")
        assert "例如：/hu bob 点炮 carol 3台" in text and "七对" not in text, text
        assert "bob +3.20  carol -3.20" in await _said(t, "alice", "/hu bob 点炮 carol 3台")


async def test_standings_of_a_points_night_and_a_singapore_night_add_up(tmp_path: Path) -> None:
    async with handler_table(tmp_path) as t:
        t.admin("alice")
        await t.say("alice", FREE)
        await t.say("alice", "/set stake 0.5")
        await t.say("bob", "/hu bob from carol 8")  # bob +4.00
        await t.say("alice", "/end")
        await t.say("alice", SG)
        await t.say("bob", "/hu bob from carol 2 tai")  # bob +1.60
        await t.say("alice", "/end")
        text = await _said(t, "alice", "/standings")
        assert "bob: +5.60 (+1.60 as money · +8 at 0.50)" in text, text
        assert "carol: -5.60 (-1.60 as money · -8 at 0.50)" in text, text
        text = await _said(t, "alice", "/stats bob")
        assert "Net: +5.60 (+1.60 as money · +8 at 0.50)." in text, text


async def test_chinese_examples_at_the_new_tables_say_dian_pao(tmp_path: Path) -> None:
    async with handler_table(tmp_path, lang="zh-Hans") as t:
        await t.say("alice", FREE)
        text = await _said(t, "alice", "/hu bob 自摸")
        assert "请说 bob 赢几分，例如 /hu bob 点炮 carol 8（carol 付 8）" in text, text
        text = await _said(t, "alice", "/hu bob 点炮 carol 清一色")
        assert "例如 /hu bob 点炮 carol 8 或 /hu bob 自摸 8。" in text, text
        assert "from" not in text, text


async def test_an_amount_with_a_thousands_comma_is_one_number(tmp_path: Path) -> None:
    async with handler_table(tmp_path) as t:
        await t.say("alice", FREE)
        text = await _said(t, "bob", "/hu bob zimo 1,000")
        assert "bob +3000  alice -1000  carol -1000  dave -1000" in text, text
        # A comma between winners still parts them.
        text = await _said(t, "bob", "/hu bob from carol 8,dave from carol 5")
        assert "bob +8  dave +5  carol -13" in text, text


async def test_an_added_kong_has_its_article(tmp_path: Path) -> None:
    async with handler_table(tmp_path) as t:
        await t.say("alice", SG)
        text = await _said(t, "bob", "/kong bob added")
        assert "Hand 1 recorded: bob declares an added kong" in text, text
        text = await _said(t, "dave", "/kong dave concealed")
        assert "Hand 1 recorded: dave declares a concealed kong" in text, text
    async with handler_table(tmp_path / "zh", lang="zh-Hans") as t:
        await t.say("alice", "/new chengdu @alice @bob @carol @dave")
        text = await _said(t, "bob", "/kong bob 补杠")
        assert "第 1 盘：bob 补杠" in text, text


async def test_a_tai_count_in_chinese_numerals(tmp_path: Path) -> None:
    async with handler_table(tmp_path, lang="zh-Hans") as t:
        await t.say("alice", SG)
        text = await _said(t, "bob", "/hu bob 点炮 carol 三台")
        assert "第 1 盘：carol 点炮，bob 胡，3 台" in text and "bob +3.20  carol -3.20" in text
        text = await _said(t, "bob", "/hu bob 自摸 两台")
        assert "bob 自摸，2 台" in text, text
        text = await _said(t, "bob", "/hu bob 自摸 二十一台")
        assert "21台：请给 0 到 20 之间的数。" in text, text


async def test_a_tai_word_without_its_number_shows_the_count_said_first(tmp_path: Path) -> None:
    async with handler_table(tmp_path) as t:
        await t.say("alice", SG)
        text = await _said(t, "bob", "/hu bob from carol three tai")
        assert "The tai count is a number from 0 to 20, written before tai: 3 tai (or 3台)." \
            in text, text
        assert "bob +3.20" in await _said(t, "bob", "/hu bob from carol 3 tai")
    async with handler_table(tmp_path / "zh", lang="zh-Hans") as t:
        await t.say("alice", SG)
        text = await _said(t, "bob", "/hu bob 点炮 carol 台")
        assert "台数是 0 到 20 的数，写在“台”前面：3台（或 3 台）。" in text, text
