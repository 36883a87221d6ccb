"""What players see of the scoring fixes, in English and in Chinese: a named pattern the
house rules do not count is named in the answer with the reason; the names players use for
kongs, 宝 and 海底 are understood; Details show every step of an amount; 退税 never
returns kong money that 呼叫转移 handed on."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.console.fake_api import SentMessage
from tests.bot.harness import end_night, plain
from tests.bot.test_language import check
from tests.handlers.harness import HandlerTable as Table
from tests.handlers.harness import handler_table as table

NEW = "/new {preset} @alice @bob @carol @dave"


def no_english(lang: str, replies: list[SentMessage], typed: str) -> None:
    """In a zh-Hans chat, the replies read as Chinese."""
    if lang == "zh-hans":
        check(replies, typed, typed)


def answer_of(replies: list[SentMessage]) -> SentMessage:
    return next(m for m in replies if m.buttons)


async def details(t: Table, replies: list[SentMessage]) -> str:
    msg = answer_of(replies)
    data = next(b["callback_data"] for b in msg.buttons if b["callback_data"].startswith("v1:x:"))
    await t.press("carol", msg, data)
    return plain(msg.text)


@pytest.mark.parametrize(("lang", "short", "full"), [
    ("en", "断幺九 not counted (“门清 and 断幺九” is off)",
     "断幺九 not counted: the house rule “门清 and 断幺九” is off"),
    ("zh-hans", "断幺九不计（“门清、断幺九”未开启）", "断幺九不计：本群规则“门清、断幺九”未开启"),
])
async def test_a_pattern_the_house_rules_do_not_count_is_named(
        tmp_path: Path, lang: str, short: str, full: str) -> None:
    async with table(tmp_path, lang=lang) as t:
        await t.say("alice", NEW.format(preset="chengdu"))
        replies = await t.say("dave", "/hu dave 自摸 断幺九")
        assert short in plain(answer_of(replies).text)
        no_english(lang, replies, "/hu dave 自摸 断幺九")
        assert full in await details(t, replies)
        night = await t.ledger.open_nights.current_night(t.chat_id)
        assert night.totals == {"E": -2, "S": -2, "W": -2, "N": 6}  # 平胡 + 自摸, as before
        rules = plain((await t.say("alice", "/rules"))[-1].text)
        assert ("断幺九: not counted" in rules) if lang == "en" else ("断幺九：不计" in rules)
        assert t.api.errors == []


@pytest.mark.parametrize("lang", ["en", "zh-hans"])
async def test_tuishui_after_hujiao_zhuanyi_charges_the_kong_money_once(
        tmp_path: Path, lang: str) -> None:
    async with table(tmp_path, lang=lang) as t:
        await t.say("alice", NEW.format(preset="chengdu"))
        await t.say("dave", "/kong dave 暗杠")
        await t.say("alice", "/hu alice 杠上炮 dave")
        replies = await t.say("bob", "/draw bob 听 1")  # dave is not ready
        no_english(lang, replies, "/draw bob 听 1")
        night = await t.ledger.open_nights.current_night(t.chat_id)
        assert night.totals == {"E": 6, "S": 0, "W": -3, "N": -3}
        text = await details(t, replies)
        assert ("退税: dave's kong money (6) went to the winner by 呼叫转移" in text
                if lang == "en" else "退税：dave 的杠钱（6）已因呼叫转移转给胡牌者" in text)
        assert t.api.errors == []


@pytest.mark.parametrize("lang", ["en", "zh-hans"])
async def test_the_names_players_use_are_understood(tmp_path: Path, lang: str) -> None:
    async with table(tmp_path, lang=lang) as t:
        await t.say("alice", NEW.format(preset="chengdu"))
        for word in ("巴杠", "弯杠", "面下杠"):
            replies = await t.say("bob", f"/kong bob {word}")
            no_english(lang, replies, word)
        night = await t.ledger.open_nights.current_night(t.chat_id)
        assert night.totals == {"E": -3, "S": 9, "W": -3, "N": -3}  # three 补杠, 1 each
        await end_night(t, "alice")
        await t.say("alice", NEW.format(preset="changsha"))
        # 海底炮 <who>, like 杠上炮 <who>: bob took the last tile and discarded it (10).
        await t.say("carol", "/hu carol 海底炮 bob")
        night = await t.ledger.open_nights.current_night(t.chat_id)
        assert night.totals == {"E": 0, "S": -10, "W": 10, "N": 0}
        await end_night(t, "alice")
        await t.say("alice", NEW.format(preset="feibao"))
        for text in ("/hu bob 自摸 seven pairs no bao", "/hu carol 自摸 wubao 碰对",
                     "/hu dave 自摸 七对无宝"):
            replies = await t.say("alice", text)
            no_english(lang, replies, text)
        # 七对 and 碰对 without 宝 are worth 10 from each; no 精 named, so no reward.
        night = await t.ledger.open_nights.current_night(t.chat_id)
        assert night.totals == {"E": -30, "S": 10, "W": 10, "N": 10}
        assert t.api.errors == []


@pytest.mark.parametrize(("lang", "steps"), [
    ("en", ["alice → carol: +1 for the dealer = 13", "alice → carol: x2 for 1 bird hit(s) = 26",
            "alice → carol 26 (the win)"]),
    ("zh-hans", ["alice → carol：庄家加 1，共 13", "alice → carol：中鸟 1 个，×2，共 26"]),
])
async def test_changsha_details_add_up_to_the_amount(tmp_path: Path, lang: str,
                                                     steps: list[str]) -> None:
    async with table(tmp_path, lang=lang) as t:
        await t.say("alice", NEW.format(preset="changsha"))
        # The transcript's hand: bird 1 lands on alice, the dealer and discarder.
        replies = await t.say("carol", "/hu carol from alice 清一色 碰碰胡 鸟1")
        text = await details(t, replies)
        for step in steps:
            assert step in text, text
        no_english(lang, [answer_of(replies)], "/hu carol from alice 清一色 碰碰胡 鸟1")
        assert t.api.errors == []


async def test_chinese_punctuation_in_suggestions_and_the_short_answer(tmp_path: Path) -> None:
    async with table(tmp_path, lang="zh-hans") as t:
        await t.say("alice", NEW.format(preset="chengdu"))
        refusal = plain((await t.say("bob", "/hu bob 自摸 清一"))[-1].text)
        assert "你是说：" in refusal and "清一色、" in refusal and ", " not in refusal
        await end_night(t, "alice")
        await t.say("alice", NEW.format(preset="changsha"))
        await t.say("bob", "/draw")
        confirm = t.last_with_buttons()
        replies = await t.press("bob", confirm, confirm.buttons[0]["callback_data"])
        text = plain(answer_of(replies).text)
        assert "没有分数变动 · 下一盘庄家" in text and "。 ·" not in text
        assert t.api.errors == []
