"""Issue 9: every line a player types gets the right answer. One test per defect found by a
new user and by fuzzing, each through the real bot against the fake Bot API."""

from __future__ import annotations

from pathlib import Path

from bot.console.fake_api import SentMessage
from tests.bot.harness import end_night, plain
from tests.handlers.harness import HandlerTable as Table
from tests.handlers.harness import handler_table as table

CREW = "@alice @bob @carol @dave"
CRASH = "something went wrong"


def texts(out: list[SentMessage]) -> list[str]:
    return [plain(m.text) for m in out]


def one(out: list[SentMessage]) -> str:
    """The single reply to one input (the scoreboard edit aside), without a crash."""
    said = [plain(m.text) for m in out if m.edits == 0]
    assert len(said) == 1, said
    assert CRASH not in said[0], said[0]
    return said[0]


async def totals(t: Table) -> dict[str, int] | None:
    night = await t.ledger.open_nights.current_night(t.chat_id)
    return None if night is None else dict(night.totals)


async def test_lang_in_every_form_answers_and_changes_only_when_valid(tmp_path: Path) -> None:
    async with table(tmp_path) as t:
        t.admin("alice")
        assert "Language: English" in one(await t.say("alice", "/lang"))
        assert "Choose a language" in one(await t.say("alice", "/lang klingon"))
        assert "Language: English" in one(await t.say("alice", "/lang"))
        assert "Only chat admins" in one(await t.say("bob", "/lang zh"))
        assert "Language: English" in one(await t.say("alice", "/lang"))
        reply = one(await t.say("alice", "/lang zh"))
        assert "简体中文" in reply and "nothing was recorded" not in reply
        assert "简体中文" in one(await t.say("alice", "/lang"))
        assert "English" in one(await t.say("alice", "/lang en"))
        assert "Choose a language" in one(await t.say("alice", "/set lang klingon"))
        assert t.api.errors == []


async def test_the_same_winner_twice_is_refused(tmp_path: Path) -> None:
    async with table(tmp_path) as t:
        await t.say("alice", f"/new chengdu {CREW}")
        reply = one(await t.say("dave", "/hu dave from carol, dave from carol"))
        assert "named twice as a winner" in reply
        assert await totals(t) == {"E": 0, "S": 0, "W": 0, "N": 0}


async def test_huge_numbers_are_refused_with_the_range(tmp_path: Path) -> None:
    async with table(tmp_path) as t:
        t.admin("alice")
        assert "at most 10000" in one(await t.say("alice", "/set stake 99999999999999999999"))
        assert "at most 10000" in one(await t.say("alice", "/new sichuan "
                                                  f"{CREW} stake=99999999"))
        await t.say("alice", f"/new sichuan {CREW}")
        zero = {"E": 0, "S": 0, "W": 0, "N": 0}
        for line in ("/history 99999999999999999999", "/standings 99999999999d",
                     "/standings 999999999", "/void 1000000000000000000000000000000",
                     "/paid 1000000000000000000000000000000", "/edit 99999999999 bob 自摸",
                     "/hu bob 自摸 fan999999999", "/hu bob 自摸 fan62", "/hu bob 自摸 fan21",
                     "/hu bob 自摸 根99999999999", "/hu bob 自摸 杠5", "/hu bob 自摸 fan0",
                     "/draw alice 听 99999999999, bob 未听", "/draw alice 听 fan33, bob 未听"):
            reply = one(await t.say("alice", line))
            if line.startswith(("/history", "/standings", "/paid")):  # their usage, in full
                assert reply.startswith("⚠️") and ("Example" in reply or "e.g." in reply), (
                    line, reply)
            else:
                assert "give a number from" in reply, (line, reply)
            assert await totals(t) == zero, line
        # The most a reported fan may be is accepted, and the night still ends.
        assert "Hand 1 recorded" in one(await t.say("alice", "/hu bob 自摸 fan20"))
        assert await totals(t) == {"E": -524288, "S": 3 * 524288, "W": -524288, "N": -524288}
        summary = texts(await end_night(t, "alice"))
        assert any("The night is over" in x for x in summary)
        # Forged button data with ids no ledger holds: a popup, nothing else.
        last = t.api.outbox[-1]
        for data in ("v1:u:99999999999999999999:1:0", "v1:d:99999999999999999999:1:x",
                     "v1:u:1:²:0"):
            await t.press("bob", last, data)
            assert list(t.api.answered.values())[-1].get("show_alert")
        assert t.api.errors == []


async def test_huge_house_rules_are_refused(tmp_path: Path) -> None:
    async with table(tmp_path) as t:
        t.admin("alice")
        for line in ("/set cap_fan=99999999999999999999", "/set base=1000000",
                     "/set fan.清一色=999"):
            reply = one(await t.say("alice", line))
            assert "from" in reply and "to" in reply, (line, reply)
        assert t.api.errors == []


async def test_unicode_digits_are_not_numbers(tmp_path: Path) -> None:
    async with table(tmp_path) as t:
        await t.say("alice", f"/new chengdu {CREW}")
        assert "Give the hand's number" in one(await t.say("alice", "/void ²"))
        assert "Give the debt's number" in one(await t.say("alice", "/paid ²"))
        one(await t.say("alice", "/standings ²"))
        one(await t.say("alice", "/history ²"))
        one(await t.say("alice", "/edit ² bob 自摸"))
        one(await t.say("alice", "/draw alice 听 ², bob 未听"))
        one(await t.say("alice", "/hu bob 自摸 根²"))
        one(await t.say("alice", "/set stake ²"))
        assert await totals(t) == {"E": 0, "S": 0, "W": 0, "N": 0}
        assert t.api.errors == []


async def test_a_long_line_is_not_echoed_back_whole(tmp_path: Path) -> None:
    async with table(tmp_path) as t:
        await t.say("alice", f"/new chengdu {CREW}")
        junk = "x" * 4000
        for line in (f"/score {junk}", f"/score 1m{junk}", f"/hu {junk}", f"/stats {junk}",
                     f"/rules {junk}", f"/hu bob 自摸 {junk}", f"/draw {junk}",
                     f"/hu bob from {junk}", f"/set {junk}=1", f"/set cap_fan={junk}",
                     f"/set preset {junk}", f"/new {junk} a b c d", f"/kong bob {junk}",
                     f"/qishou bob {junk}", f"/edit 1 {junk}"):
            reply = one(await t.say("alice", line))
            assert len(reply) < 600, (line[:20], len(reply))
        assert t.api.errors == []


async def test_new_keeps_the_chats_house_rules(tmp_path: Path) -> None:
    async with table(tmp_path) as t:
        t.admin("alice")
        await t.say("alice", "/set cap_fan=6")
        await t.say("alice", f"/new chengdu {CREW}")
        night = await t.ledger.open_nights.current_night(t.chat_id)
        assert night.rules["options"]["cap_fan"] == 6
        reply = one(await t.say("bob", "/hu bob 自摸 清十八罗汉"))
        assert "6 fan, 32 points (capped)" in reply, reply
        assert await totals(t) == {"E": -32, "S": 96, "W": -32, "N": -32}


async def test_impossible_reports_are_refused(tmp_path: Path) -> None:
    async with table(tmp_path) as t:
        await t.say("alice", f"/new chengdu {CREW}")  # alice deals
        zero = {"E": 0, "S": 0, "W": 0, "N": 0}
        cases = {
            "/hu bob 自摸 天胡": "天胡",
            "/hu alice from bob 天胡": "天胡",
            "/hu bob from carol 地胡": "地胡",
            "/hu alice 自摸 地胡": "地胡",
            "/hu bob 自摸 from carol": "drop the 'from'",
            "/draw alice 听 1112345678999m, alice 未听": "named twice",
            "/draw alice 听 3 未听": "both ready and not ready",
            "/draw alice 未听 1112345678999m": "both ready and not ready",
            "/draw alice 未听 3, bob 未听": "both ready and not ready",
            "/draw alice 没听 fan2": "both ready and not ready",
            "/kong dave 暗杠 from carol": "drop the 'from'",
        }
        for line, wanted in cases.items():
            reply = one(await t.say("alice", line))
            assert wanted in reply, (line, reply)
            assert await totals(t) == zero, line
        # What the dealer may do is still accepted.
        assert "Hand 1 recorded" in one(await t.say("alice", "/hu bob from alice 地胡"))
        assert t.api.errors == []


async def test_kongs_the_ledger_holds_count_in_the_win(tmp_path: Path) -> None:
    async with table(tmp_path) as t:
        await t.say("alice", f"/new chengdu {CREW}")
        await t.say("bob", "/kong bob 暗杠")
        reply = one(await t.say("bob", "/hu bob 自摸"))
        assert "plain win 平胡, kong 杠, self-draw 自摸, 3 fan" in reply, reply
    async with table(tmp_path / "sichuan") as t:
        await t.say("alice", f"/new sichuan {CREW}")
        reply = one(await t.say("dave", "/hu dave 杠上花 from bob 平胡"))
        assert "4 fan" in reply, reply


async def test_undo_after_edit_restores_the_hand(tmp_path: Path) -> None:
    async with table(tmp_path) as t:
        await t.say("alice", f"/new sichuan {CREW}")
        recorded = next(m for m in await t.say("bob", "/hu bob 自摸 清一色") if m.buttons)
        before = await totals(t)
        assert "Hand 1 corrected" in one(await t.say("bob", "/edit 1 bob 自摸 清一色 根2"))
        edited = await totals(t)
        assert edited != before
        # The report's Undo button predates the correction: out of date now.
        await t.press("bob", recorded, recorded.buttons[0]["callback_data"])
        assert "latest" in list(t.api.answered.values())[-1]["text"]
        assert await totals(t) == edited
        one(await t.say("bob", "/undo"))
        assert await totals(t) == before
        page = await t.ledger.nights.history(t.chat_id)
        assert "根" not in str(page)
        # The next undo takes back the report itself.
        one(await t.say("bob", "/undo"))
        assert await totals(t) == {"E": 0, "S": 0, "W": 0, "N": 0}


async def test_void_edit_and_undo_share_one_permission_rule(tmp_path: Path) -> None:
    async with table(tmp_path) as t:
        await t.say("alice", f"/new sichuan {CREW}")
        await t.say("bob", "/hu bob 自摸")
        after = await totals(t)
        for line in ("/undo", "/void 1", "/edit 1 bob 自摸 清一色"):
            assert "Only the player who reported" in one(await t.say("carol", line)), line
            assert await totals(t) == after
        t.admin("carol")
        assert "Hand 1 voided" in one(await t.say("carol", "/void 1"))


async def test_changsha_takes_kongs_as_it_advises(tmp_path: Path) -> None:
    async with table(tmp_path) as t:
        await t.say("alice", f"/new changsha {CREW}")
        advice = one(await t.say("alice", "/kong alice 暗杠"))
        assert "杠1" in advice
        assert "Hand 1 recorded" in one(await t.say("bob", "/hu bob 自摸 杠1"))


async def test_english_pattern_names_of_several_words(tmp_path: Path) -> None:
    async with table(tmp_path) as t:
        await t.say("alice", f"/new chengdu {CREW}")
        reply = one(await t.say("bob", "/hu bob 自摸 one suit"))
        assert "Hand 1 recorded" in reply, reply
        assert "one suit 清一色, self-draw 自摸, 4 fan" in reply, reply
        reply = one(await t.say("carol", "/hu carol from alice seven pairs"))
        assert "seven pairs 七对, 3 fan" in reply, reply
        reply = one(await t.say("dave", "/hu dave 自摸 qing yi se"))
        assert "one suit 清一色, self-draw 自摸, 4 fan" in reply, reply
