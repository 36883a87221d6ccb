"""What a real table does in a night, through the bot's handlers on a real ledger (the
handler tier): a hand reported twice (by buttons too, and across a restart); a seat taken
over; the stake changed mid-night."""

from __future__ import annotations

import csv
import io
import zipfile
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

import pytest
from matplotlib.figure import Figure

from bot.console.fake_api import SentMessage
from bot.pictures import drawing
from bot.text.words import pattern_shown
from tests.bot.guided_play import find_button
from tests.bot.harness import carol_leaves, end_night, plain
from tests.bot.layout import kept_figures, layout_problems
from tests.databases import BACKENDS, postgres_database
from tests.handlers.harness import HandlerTable as Table
from tests.handlers.harness import handler_table as table
from tests.handlers.harness import handler_table_on as table_on

NEW = "/new changsha @alice @bob @carol @dave"


async def _tap(t: Table, who: str, label: str) -> list[SentMessage]:
    msg = t.last_with_buttons()
    return await t.press(who, msg, find_button(msg, label)["callback_data"])


async def test_guided_report_of_a_closed_win_asks_too(tmp_path: Path) -> None:
    async with table(tmp_path) as t:
        await t.say("alice", NEW)
        await t.say("bob", "/hu bob 自摸 鸟2")
        await t.say("carol", "/hu")
        await _tap(t, "carol", "bob self-draw")
        out = await _tap(t, "carol", "Bird 2")
        texts = [plain(m.text) for m in out]
        assert any("Hand 1 just ended with this win" in x for x in texts), texts
        assert not any("Recorded:" in x for x in texts), texts
        assert (await t.ledger.open_nights.current_night(t.chat_id)).hands == 1
        question = t.last_with_buttons()
        assert [b["text"] for b in question.buttons] == ["The same hand", "A new hand"]
        same = question.buttons[0]["callback_data"]
        await _tap(t, "dave", "A new hand")
        night = await t.ledger.open_nights.current_night(t.chat_id)
        assert night.hands == 2
        # A second press of the answered question changes nothing.
        await t.press("alice", question, same)
        assert list(t.api.answered.values())[-1].get("show_alert")
        assert (await t.ledger.open_nights.current_night(t.chat_id)).totals == night.totals
        # Someone not at the table cannot answer.
        await t.say("carol", "/hu bob 自摸 鸟2")
        question = t.last_with_buttons()
        await t.press("mallory", question, question.buttons[0]["callback_data"])
        assert list(t.api.answered.values())[-1].get("show_alert")
        assert t.api.errors == []


async def test_the_question_survives_a_restart(tmp_path: Path) -> None:
    async with table(tmp_path, lang="zh-hans") as t:
        await t.say("alice", NEW)
        await t.say("bob", "/hu bob 自摸 鸟2")
        await t.say("carol", "/hu bob 自摸 鸟2")
        question = t.last_with_buttons()
        new = question.buttons[1]["callback_data"]
        assert "这是同一盘，还是新的一盘？" in plain(question.text)
        assert [b["text"] for b in question.buttons] == ["同一盘", "新的一盘"]
    async with table(tmp_path, lang="zh-hans") as t:  # the same database, a new process
        out = await t.press("dave", question, new)
        assert any("第 2 盘" in plain(m.text) for m in out), [plain(m.text) for m in out]
        assert (await t.ledger.open_nights.current_night(t.chat_id)).hands == 2
        # (The new fake Telegram never saw the question nor the scoreboard: only their
        # edits are refused.)
        assert {e[0] for e in t.api.errors} <= {"editMessageText"}


async def test_guided_edit_of_one_event_from_hand(tmp_path: Path) -> None:
    async with table(tmp_path) as t:
        await t.say("alice", "/new chengdu @alice @bob @carol @dave")
        for who, text in (("bob", "/hu bob 自摸"), ("carol", "/hu carol from alice"),
                          ("dave", "/hu dave 自摸")):
            await t.say(who, text)
        out = await t.say("carol", "/hand 1")
        labels = [b["text"] for b in out[-1].buttons]
        assert labels == ["✏️ Event 1", "✏️ Event 2", "✏️ Event 3"]
        await _tap(t, "carol", "✏️ Event 2")
        assert "Editing hand 1, event 2:" in plain(t.last_with_buttons().text)
        await _tap(t, "carol", "carol self-draw")
        await _tap(t, "carol", "七对")
        msg = t.last_with_buttons()
        record = find_button(msg, "✅ Record")["callback_data"]
        out = await t.press("carol", msg, record)
        texts = [plain(m.text) for m in out]
        assert any("Hand 1 corrected." in x for x in texts), texts
        night = await t.ledger.open_nights.current_night(t.chat_id)
        assert night.totals == {"E": -12, "S": 6, "W": 14, "N": -8}
        assert night.hands == 1
        await t.press("carol", msg, record)  # a second Confirm changes nothing
        assert list(t.api.answered.values())[-1].get("show_alert")
        assert (await t.ledger.open_nights.current_night(t.chat_id)).totals == night.totals
        # Another player's event (bob reported event 1) is not carol's to change.
        await t.say("carol", "/hand 1")
        await _tap(t, "carol", "✏️ Event 1")
        await _tap(t, "carol", "bob self-draw")
        msg = t.last_with_buttons()
        out = await t.press("carol", msg, find_button(msg, "✅ Record")["callback_data"])
        assert any("Only the player who reported" in plain(m.text) for m in out)
        assert (await t.ledger.open_nights.current_night(t.chat_id)).totals == night.totals
        assert t.api.errors == []


@pytest.mark.parametrize("lang", ["en", "zh-hans"])
async def test_guided_edit_offers_only_who_is_still_in(tmp_path: Path, lang: str) -> None:
    """In a blood battle bob won event 1: editing event 2 offers him neither as a winner
    nor as the discarder, and what it does offer records. Event 1 offers everyone."""
    zh = lang == "zh-hans"
    async with table(tmp_path, lang=lang) as t:
        await t.say("alice", "/new chengdu @alice @bob @carol @dave")
        await t.say("bob", "/hu bob 自摸")
        await t.say("carol", "/hu carol from alice")
        await t.say("dave", "/hu dave 自摸")  # three have won: the hand is over
        await t.say("carol", "/hand 1")
        await _tap(t, "carol", "✏️ 第 2 条" if zh else "✏️ Event 2")
        offered = [b["text"] for b in t.last_with_buttons().buttons]
        assert not [x for x in offered if "bob" in x], offered
        assert ("alice 自摸" if zh else "alice self-draw") in offered, offered
        assert "← carol" in offered and "dave…" in offered, offered
        await _tap(t, "carol", "carol ← dave")  # the engine takes it: it records
        msg = t.last_with_buttons()
        record = "✅ 记录" if zh else "✅ Record"
        out = await t.press("carol", msg, find_button(msg, record)["callback_data"])
        texts = [plain(m.text) for m in out]
        assert any(("第 1 盘已更正" if zh else "Hand 1 corrected.") in x for x in texts), texts
        await t.say("carol", "/hand 1")
        await _tap(t, "carol", "✏️ 第 1 条" if zh else "✏️ Event 1")
        offered = [b["text"] for b in t.last_with_buttons().buttons]
        assert "← bob" in offered and ("bob 自摸" if zh else "bob self-draw") in offered
        assert t.api.errors == []


async def test_guided_edit_in_chinese(tmp_path: Path) -> None:
    async with table(tmp_path, lang="zh-hans") as t:
        await t.say("alice", "/new chengdu @alice @bob @carol @dave")
        for who, text in (("bob", "/hu bob 自摸"), ("carol", "/hu carol from alice")):
            await t.say(who, text)
        out = await t.say("carol", "/hand 1")
        assert [b["text"] for b in out[-1].buttons] == ["✏️ 第 1 条", "✏️ 第 2 条"]
        assert "只改其中一条：/edit 1.N" in plain(out[-1].text)
        await _tap(t, "carol", "✏️ 第 2 条")
        assert "修改第 1 盘第 2 条：" in plain(t.last_with_buttons().text)
        assert t.api.errors == []


async def test_a_player_who_left_keeps_their_wins(tmp_path: Path) -> None:
    async with table(tmp_path) as t:
        await t.say("alice", NEW)
        await t.say("dave", "/hu dave from bob 清一色 鸟1")
        out = await t.say("carol", "/seat dave @erin")
        assert any("erin takes dave's seat (North)" in plain(m.text) for m in out)
        await t.say("erin", "/hu erin 自摸 鸟2")
        out = await t.say("carol", "/stats dave")
        text = plain(out[-1].text)
        assert "Played 1 hand: 1 win (100%)" in text and "清一色" in text, text
        out = await t.say("carol", "/hand 1")
        assert "dave wins" in plain(out[-1].text)
        out = await end_night(t, "carol")
        assert any("dave: +" in plain(m.text) for m in out)
        assert t.api.errors == []


def _drawn(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every text the pictures draw from now on (the card's words and figures)."""
    texts: list[str] = []
    text = Figure.text

    def recorded(self: Figure, x: float, y: float, s: str, *args: Any, **kw: Any) -> Any:
        texts.append(s)
        return text(self, x, y, s, *args, **kw)

    monkeypatch.setattr(Figure, "text", recorded)
    return texts


async def _debts_csv(t: Table) -> list[dict[str, str]]:
    (doc,) = [m for m in await t.say("alice", "/export") if m.kind == "document"]
    with zipfile.ZipFile(io.BytesIO(doc.data)) as zf:
        return list(csv.DictReader(io.TextIOWrapper(zf.open("debts.csv"), "utf-8")))


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("lang", ["en", "zh-hans"])
async def test_a_night_whose_stake_changed_settles_in_money(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: str, backend: str) -> None:
    """The settle-up card names both stakes and draws no points beside the transfers;
    debts.csv leaves their points empty. A night at one stake keeps its points."""
    async with table_on(backend, tmp_path, lang, "night") as t:
        t.admin("alice")
        await t.say("alice", "/new changsha @alice @bob @carol @dave")
        await t.say("alice", "/set stake 0.5")
        await t.say("bob", "/hu bob 自摸 鸟2")
        await t.say("alice", "/set stake 2")
        await t.say("carol", "/hu carol 自摸 鸟3")
        drawn = _drawn(monkeypatch)
        out = await end_night(t, "alice")
        assert [m.kind for m in out].count("photo") == 2  # the night's chart, the card
        if lang == "en":
            assert "Night 1 · Changsha · 2 hands · each hand at its own stake (0.50, 2.00)" \
                in drawn, drawn
            assert "dave pays carol 5.00" in drawn and "alice pays carol 4.00" in drawn
            assert not any(x.endswith(" points") for x in drawn), drawn
        else:
            assert any("每盘按各自的底注（0.50、2.00）" in x for x in drawn), drawn
            assert "dave 付给 carol 5.00" in drawn and "alice 付给 carol 4.00" in drawn
            assert not any(x.endswith(" 分") for x in drawn), drawn
        assert not any("a point" in x or "每分" in x for x in drawn), drawn
        # Best first in money: carol +3 points (9.00) before bob +6 points (0.00).
        assert drawn.index("carol") < drawn.index("bob") < drawn.index("alice"), drawn
        debts = await _debts_csv(t)
        assert [(d["payer"], d["payee"], d["points"], d["cents"]) for d in debts] == [
            ("dave", "carol", "", "500"), ("alice", "carol", "", "400")]

        # The next night, at one stake: the card and the file give the points.
        drawn.clear()
        await t.say("alice", "/new changsha @alice @bob @carol @dave")
        await t.say("bob", "/hu bob 自摸 鸟2")
        await end_night(t, "alice")
        points = "4 points" if lang == "en" else "4 分"
        assert drawn.count(points) == 1 and drawn.count(points.replace("4", "2")) == 2, drawn
        assert [(d["points"], d["cents"]) for d in (await _debts_csv(t))[2:]] == [
            ("4", "800"), ("2", "400"), ("2", "400")]
        assert t.api.errors == []


async def _answer(t: Table, who: str, text: str) -> str:
    return "\n".join(plain(m.text) for m in await t.say(who, text) if not m.pinned)


@pytest.mark.parametrize("lang", ["en", "zh-hans"])
async def test_numbers_in_a_report_are_refused_as_out_of_range(tmp_path: Path,
                                                               lang: str) -> None:
    """A number out of range inside a report (鸟999, 连抢9, 飞宝=alice:9) says its range,
    not "unknown pattern"; nothing is recorded."""
    zh = lang != "en"
    said = "{token}：请给 {least} 到 {most} 之间的数。" if zh else \
        "{token}: give a number from {least} to {most}."
    async with table(tmp_path, lang=lang) as t:
        await t.say("alice", NEW)
        for word, least, most in (("鸟999", 1, 9), ("鸟0", 1, 9), ("bird2,10", 1, 9),
                                  ("根5", 0, 4), ("番99", 1, 20), ("杠9", 0, 4)):
            text = await _answer(t, "bob", f"/hu bob 自摸 {word}")
            assert said.format(token=word, least=least, most=most) in text, text
        text = await _answer(t, "bob", "/hu bob 自摸 鸟1 鸟2 鸟3 鸟4 鸟5 鸟6 鸟7")
        assert ("鸟7：一次胡牌最多扎 6 只鸟。" if zh else
                "鸟7: one win draws at most 6 birds.") in text, text
        assert (await t.ledger.open_nights.current_night(t.chat_id)).hands == 0
        await end_night(t, "alice")
        await t.say("alice", "/new feibao @alice @bob @carol @dave")
        for word, token, least, most in (("连抢9", "连抢9", 1, 4), ("连杠9", "连杠9", 0, 4),
                                         ("飞宝=alice:9", "alice:9", 0, 8),
                                         ("精:alice:5/1", "alice:5/1", 0, 4)):
            text = await _answer(t, "bob", f"/hu bob 自摸 {word}")
            assert said.format(token=token, least=least, most=most) in text, text
        assert (await t.ledger.open_nights.current_night(t.chat_id)).hands == 0
        assert t.api.errors == []


# Not 门清 nor 断幺九: Chengdu plays without them (menqing_zhongzhang=false), issue 31.
CHENGDU = ("平胡", "对对胡", "清一色", "带幺九", "七对", "将对", "金钩钓",
           "天胡", "地胡", "清对", "龙七对", "清七对", "清龙七对", "清幺九", "将金钩钓",
           "清金钩钓", "十八罗汉", "清十八罗汉")


@pytest.mark.parametrize("lang", ["en", "zh-hans"])
async def test_an_unknown_pattern_lists_the_tables_patterns_whole(tmp_path: Path,
                                                                  lang: str) -> None:
    zh = lang != "en"
    # An English chat names each pattern in English with the Chinese beside (issue 31).
    every = "、".join(CHENGDU) if zh else ", ".join(
        pattern_shown("en", "chengdu", n) for n in CHENGDU)
    async with table(tmp_path, lang=lang) as t:
        await t.say("alice", "/new chengdu @alice @bob @carol @dave")
        text = await _answer(t, "bob", "/hu bob 自摸 清一吃")
        assert (f"没有番型 清一吃；你是说：清一色？本桌算的有：{every}。" if zh else
                "Unknown pattern 清一吃; did you mean: one suit 清一色? This table counts: "
                f"{every}."
                ) in text, text
        text = await _answer(t, "bob", "/hu bob 自摸 xyzzy")
        assert (f"没有番型 xyzzy。本桌算的有：{every}。" if zh else
                f"Unknown pattern xyzzy. This table counts: {every}.") in text, text
        await end_night(t, "alice")
        # Changsha's starting-hand wins: the three this table plays.
        await t.say("alice", "/new changsha @alice @bob @carol @dave")
        text = await _answer(t, "bob", "/qishou bob 板胡")
        assert ("你是说：板板胡？本桌算的有：四喜、板板胡、缺一色。" if zh else
                "did you mean: 板板胡? This table counts: 四喜, 板板胡, 缺一色.") in text, text
        assert t.api.errors == []


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("lang", ["en", "zh-hans"])
async def test_hand_says_which_correction_was_undone(tmp_path: Path, lang: str,
                                                     backend: str) -> None:
    zh = lang != "en"
    async with table_on(backend, tmp_path, lang, "night") as t:
        await t.say("alice", "/new chengdu @alice @bob @carol @dave")
        await t.say("bob", "/hu bob 自摸")
        await t.say("bob", "/edit 1.1 bob 自摸 七对")
        await t.say("bob", "/undo")
        text = await _answer(t, "bob", "/hand 1")
        assert ("bob 于 " in text and "撤销了对这一盘第 1 条的更正。" in text) if zh else \
            "The correction of its event 1 was undone by bob at " in text, text
        await t.say("bob", "/edit 1 bob 自摸 对对胡")
        await t.say("bob", "/undo")
        text = await _answer(t, "bob", "/hand 1")
        assert ("撤销了对这一盘的更正。" in text) if zh else \
            "Its correction was undone by bob at " in text, text
        await t.say("dave", "/adjust alice -10 bob +10")
        await t.say("dave", "/undo")
        text = await _answer(t, "bob", "/hand 1")
        assert ("撤销了这一盘的分数调整。" in text) if zh else \
            "Its adjustment was undone by dave at " in text, text
        for said in ("Its last event was undone", "撤销了这一盘的最后一条记录"):
            assert said not in text, text
        assert t.api.errors == []


async def test_a_guest_s_name_later_used_as_an_at_mention_lets_that_member_play(
        tmp_path: Path) -> None:
    async with table(tmp_path) as t:
        await t.say("alice", "/new chengdu @alice @bob @carol dave")  # dave: a guest
        await t.say("bob", "/hu bob 自摸 清一色")
        await end_night(t, "alice")
        await t.say("alice", NEW)  # now the member @dave
        out = await t.say("dave", "/hu dave 自摸")
        assert any("Hand 1 recorded: dave self-draws" in plain(m.text) for m in out), \
            [plain(m.text) for m in out]
        night = await t.ledger.open_nights.current_night(t.chat_id)
        assert night.seats["N"].telegram_id == t.user("dave").id
        # His guest hand of the first night is his now: one player, not two.
        assert (await t.ledger.chats.find_player(t.chat_id, "@dave")).id == night.seats["N"].id
        # A guest seated by name is linked to the member of that username when they act...
        await end_night(t, "alice")
        await t.say("alice", "/new chengdu @alice @bob @carol erin")
        out = await t.say("erin", "/hu erin 自摸")
        assert any("erin self-draws" in plain(m.text) for m in out), \
            [plain(m.text) for m in out]
        # ...but a seat that has an account is never taken by another name's member.
        out = await t.say("frank", "/hu carol 自摸")
        assert any("Only the players at this table" in plain(m.text) for m in out)
        assert t.api.errors == []


async def test_a_mistyped_preset_is_refused_not_seated(tmp_path: Path) -> None:
    async with table(tmp_path) as t:
        out = await t.say("alice", "/new 麻麻 @alice @bob @carol")
        text = plain(out[-1].text)
        assert "Unknown preset 麻麻; choose one of: changsha, chengdu" in text, text
        assert "/new chengdu 麻麻 @alice @bob @carol" in text, text
        assert await t.ledger.open_nights.current_night(t.chat_id) is None
        # A bare guest among @mentions after a preset, and only bare names, still seat.
        out = await t.say("alice", "/new chengdu @alice @bob @carol dave")
        assert "North dave" in plain(out[0].text)
        await end_night(t, "alice")
        out = await t.say("alice", "/new alice bob carol dave")
        assert "New table" in plain(out[0].text)
        await end_night(t, "alice")
        # A guest this chat knows may deal among @mentions.
        out = await t.say("alice", "/new dave @alice @bob @carol")
        assert "East dave" in plain(out[0].text), plain(out[0].text)
    async with table(tmp_path / "zh", lang="zh-hans") as t:
        out = await t.say("alice", "/new 麻麻 @alice @bob @carol")
        text = plain(out[-1].text)
        assert "没有规则 麻麻；可选：" in text and "成都血战" in text, text
        assert await t.ledger.open_nights.current_night(t.chat_id) is None


async def test_new_reads_its_first_word_as_a_preset_only_when_it_names_one(
        tmp_path: Path) -> None:
    """A preset's name (or alias) is the preset; a word one letter from one is refused
    with it; any other word is a player, at the chat's preset; a known name always is."""
    async def opened(t: Table, line: str) -> str:
        text = "\n".join(await _texts(t, "alice", line))
        night = await t.ledger.open_nights.current_night(t.chat_id)
        assert night is not None, (line, text)
        seats = " ".join(p.name for p in night.seats.values())
        await end_night(t, "alice")
        return f"{night.preset}: {seats}"

    async def refused(t: Table, line: str) -> str:
        text = "\n".join(await _texts(t, "alice", line))
        assert text.startswith("⚠️"), (line, text)
        assert await t.ledger.open_nights.current_night(t.chat_id) is None, line
        return text

    async with table(tmp_path) as t:
        t.admin("alice")
        assert await opened(t, "/new alice bob carol dave") == "chengdu: alice bob carol dave"
        assert await opened(t, "/new chengdu alice bob carol") == "chengdu: alice bob carol"
        assert await opened(t, "/new sanfang alice bob carol") == "sanfang: alice bob carol"
        assert await opened(t, "/new 成都血战 alice bob carol dave") == \
            "chengdu: alice bob carol dave"
        assert await opened(t, "/new cheng bob carol dave") == "chengdu: cheng bob carol dave"
        text = await refused(t, "/new chengdou @alice @bob @carol @dave")
        assert "Unknown preset chengdou; did you mean chengdu? " \
               "/new chengdu @alice @bob @carol @dave" in text, text
        assert "to seat a player" not in text, text
        text = await refused(t, "/new chengdou alice bob carol")
        assert "did you mean chengdu? /new chengdu alice bob carol — or, to seat a player " \
               "named chengdou, name the preset first: /new chengdu chengdou alice bob " \
               "carol" in text, text
        assert "did you mean sichuan?" in await refused(t, "/new sichaun alice bob carol dave")
        assert "did you mean yibin?" in await refused(t, "/new yibin2 alice bob carol")
        assert "did you mean changsha? /new changsha" in await refused(t, "/new changsa")
        text = await refused(t, "/new foo alice bob carol dave")
        assert "A table seats four players, or three; you named 5. If foo is meant as the " \
               "rules, the presets are: changsha, chengdu" in text, text
        text = await refused(t, "/new alice bob carol dave erin")  # alice plays here
        assert "A table has four players, or three; you named 5." in text, text
        text = await refused(t, "/new zed bob carol dave erin")
        assert "you named 5. If zed is meant as the rules" in text, text
        # Seated once with the preset first, chengdou is a player this chat knows.
        assert await opened(t, "/new chengdu chengdou alice bob carol") == \
            "chengdu: chengdou alice bob carol"
        assert await opened(t, "/new chengdou alice bob carol") == \
            "chengdu: chengdou alice bob carol"
        # The example seats the player at the chat's own preset.
        await t.say("alice", "/set preset changsha")
        text = await refused(t, "/new yibin2 alice bob carol")
        assert "/new changsha yibin2 alice bob carol" in text, text
        assert await opened(t, "/new alice bob carol dave") == "changsha: alice bob carol dave"
        help_text = "\n".join(await _texts(t, "alice", "/help"))
        assert "at the chat's preset (/rules): every word a player" in help_text, help_text
        assert "A misspelt preset (chengdou) is answered with the right name." in help_text, \
            help_text
        assert t.api.errors == []
    async with table(tmp_path / "zh", lang="zh-hans") as t:
        text = await refused(t, "/new 成都血站 alice bob carol")
        assert "没有规则 成都血站；是不是成都血战？/new 成都血战 alice bob carol —— 若 成都血站 " \
               "是玩家的名字，请先写规则：/new chengdu 成都血站 alice bob carol" in text, text
        text = await refused(t, "/new chengdou @alice @bob @carol @dave")
        assert "没有规则 chengdou；是不是成都血战？/new chengdu @alice @bob @carol @dave" \
            in text, text
        text = await refused(t, "/new zed bob carol dave erin")
        assert "一桌四个人或三个人；你写了 5 个名字。若 zed 是规则名，可选：长沙、成都血战" \
            in text, text
        assert await t.ledger.open_nights.current_night(t.chat_id) is None
        help_text = "\n".join(await _texts(t, "alice", "/help"))
        assert "按本群的规则开桌（/rules），每个词都是玩家" in help_text, help_text
        assert "规则名写错（如 /new chengdou）会提示正确的名字。" in help_text, help_text
        assert t.api.errors == []


THREE = "/new 三人两房 @alice @bob @carol"


async def _texts(t: Table, who: str, text: str) -> list[str]:
    return [plain(m.text) for m in await t.say(who, text)]


@pytest.mark.parametrize("backend", BACKENDS)
async def test_a_hand_before_a_seat_change_is_corrected_as_it_was_played(
        tmp_path: Path, backend: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """carol leaves, dave sits down: a correction of carol's hands names carol (typed or
    by the buttons), and the night's chart draws carol's line and dave's, each their own."""
    drawn: list[tuple[Any, drawing.NightLabels]] = []
    night_chart = drawing.night_chart

    def spy(series: Any, who: drawing.NightLabels, lang: str, font: Any, **kw: Any) -> bytes:
        drawn.append((series, who))
        return night_chart(series, who, lang, font, **kw)

    monkeypatch.setattr(drawing, "night_chart", spy)
    async with AsyncExitStack() as stack:
        url = await stack.enter_async_context(postgres_database("seat")) \
            if backend == "postgres" else None
        t = await stack.enter_async_context(table(tmp_path, lang="zh-hans", url=url))
        await carol_leaves(t)
        # Hand 1 was carol's, not dave's.
        texts = await _texts(t, "alice", "/edit 1.2 dave from alice 对对胡")
        assert any("dave 没有打第 1 盘" in x for x in texts), texts
        texts = await _texts(t, "alice", "/edit 1.2 carol from alice 对对胡")
        assert any("第 1 盘：alice -9→-10  carol -7→-6" in x for x in texts), texts
        texts = await _texts(t, "alice", "/edit 2.1 alice 自摸 对对胡")
        assert any("第 2 盘：alice +16→+8  bob -10→-6  carol -6→-2" in x for x in texts), texts
        night = await t.ledger.open_nights.current_night(t.chat_id)
        assert night.seats["W"].name == "dave" and night.totals["W"] == 0
        # The guided edit of hand 2 offers its players: carol, not dave.
        await t.say("alice", "/hand 2")
        await _tap(t, "alice", "✏️ 第 2 条")
        labels = [b["text"] for b in t.last_with_buttons().buttons]
        assert any("carol" in x for x in labels) and not any("dave" in x for x in labels), \
            labels
        await _tap(t, "alice", "carol 自摸")
        await _tap(t, "alice", "对对胡")
        msg = t.last_with_buttons()
        out = await t.press("alice", msg, find_button(msg, "✅ 记录")["callback_data"])
        texts = [plain(m.text) for m in out]
        assert any("第 2 盘：bob -6→-8  carol -2→0" in x for x in texts), texts
        # dave's win right after carol's (both West, self-drawn) starts hand 3: a seat
        # changed in between, so it is not taken for a second report of hand 2.
        await t.say("dave", "/hu dave 自摸")
        await t.say("bob", "/hu bob from alice")
        texts = await _texts(t, "alice", "/history")
        assert any("#3：alice -3  bob -1  dave +4\n#2：alice +8  bob -8\n"
                   "#1：alice -10  bob +16  carol -6" in x for x in texts), texts
        await end_night(t, "alice")
        assert t.api.errors == []
    (series, labels_of), = drawn
    lines = {labels_of.names[pid]: ys for pid, ys in series.totals.items()}
    assert series.hands == (0, 1, 2, 3)
    assert lines == {"alice": (0, -10, -2, -5), "bob": (0, 16, 8, 7),
                     "carol": (0, -6, -6, None), "dave": (None, None, 0, 4)}
    assert {labels_of.names[pid]: seat for pid, seat in series.seats.items()} == {
        "alice": "E", "bob": "S", "carol": "W", "dave": "W"}


@pytest.mark.parametrize(("backend", "lang"), [(b, lang) for b in BACKENDS
                                               for lang in ("zh-hans", "en")])
async def test_undoing_a_correction_names_who_left(tmp_path: Path, backend: str,
                                                   lang: str) -> None:
    """After carol leaves, /undo of an /edit of her hand says how her result moved too,
    not only the seated players'."""
    async with AsyncExitStack() as stack:
        url = await stack.enter_async_context(postgres_database("undo")) \
            if backend == "postgres" else None
        t = await stack.enter_async_context(table(tmp_path, lang=lang, url=url))
        await carol_leaves(t)
        await t.say("dave", "/hu dave 自摸")
        edited = await _texts(t, "alice", "/edit 1.2 carol from alice 对对胡")
        assert any("alice -9→-10  carol -7→-6" in x for x in edited), edited
        texts = await _texts(t, "alice", "/undo")
        undone = ("已撤销对第 1 盘第 2 条的修改。\nalice +1  carol -1" if lang == "zh-hans"
                  else "Undone: the correction of event 2 of hand 1.\nalice +1  carol -1")
        assert any(undone in x for x in texts), texts
        night = await t.ledger.open_nights.current_night(t.chat_id)
        assert [p.name for p in night.seats.values()] == ["alice", "bob", "dave"]
        assert t.api.errors == []


@pytest.mark.parametrize("lang", ["en", "zh-hans"])
async def test_one_point_is_one_point(tmp_path: Path, lang: str,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """English counts "1 point", in /end's biggest hand, the settle-up card and /stats'
    best hand; Chinese says 1 分 as it says 2 分."""
    figures = kept_figures(monkeypatch)
    async with table(tmp_path, lang=lang) as t:
        await t.say("alice", THREE)
        await t.say("carol", "/hu carol from alice")
        await t.say("bob", "/hu bob from alice")  # two of three have won: the hand ends
        ended = "\n".join(plain(m.text) for m in await end_night(t, "alice"))
        drawn = [x.get_text() for fig in figures for x in fig.texts]
        stats = "\n".join(plain(m.text) for m in await t.say("carol", "/stats"))
        assert t.api.errors == []
    if lang == "en":
        assert "Biggest hand: bob, 1 point (hand 1)." in ended, ended
        assert "The night is over: 1 hand." in ended, ended
        assert drawn.count("1 point") == 2 and "1 points" not in drawn, drawn
        assert any(x.endswith(" · 1 hand · stake 1.00") for x in drawn), drawn
        assert "Best hand: 1 point, hand 1 on " in stats, stats
    else:
        assert "单盘最高：bob，1 分（第 1 盘）。" in ended, ended
        assert "本场结束：共 1 盘。" in ended, ended
        assert drawn.count("1 分") == 2, drawn
        assert "单盘最高：1 分，" in stats and "日第 1 盘（三人两房：平胡）" in stats, stats


@pytest.mark.pictures  # drawn, to measure where each text lands
@pytest.mark.parametrize("lang", ["zh-hans", "en"])
async def test_the_card_of_five_players_and_four_transfers_fits(
        tmp_path: Path, lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A Chengdu night where erin took carol's seat: five people, four transfers, the
    biggest hand with its pattern; every line of the settle-up card is on the card, clear
    of the footer and of each other."""
    figures = kept_figures(monkeypatch)
    async with table(tmp_path, lang=lang) as t:
        t.admin("alice")
        for who, text in (("alice", "/new chengdu @alice @bob @carol @dave"),
                          ("dave", "/hu dave 自摸 清七对"), ("bob", "/hu bob from alice"),
                          ("carol", "/hu carol from alice 对对胡"),
                          ("alice", "/seat carol @erin"), ("erin", "/hu erin from bob 清一色"),
                          ("alice", "/hu alice 自摸"), ("dave", "/hu dave from bob")):
            await t.say(who, text)
        out = await end_night(t, "alice")
        assert [m.kind for m in out].count("photo") == 2
        assert t.api.errors == []
    footer = "麻将记分" if lang == "zh-hans" else "Mahjong Tally"
    (card,) = [f for f in figures if any(x.get_text() == footer for x in f.texts)]
    assert layout_problems(card, footer) == []
    drawn = [x.get_text() for x in card.texts]
    if lang == "zh-hans":
        assert "单盘最高" in drawn and "dave：+96（第 1 盘）" in drawn, drawn
        assert "carol 付给 erin 4.00" in drawn, drawn
    else:
        assert "dave: +96 (hand 1)" in drawn, drawn
        assert "carol pays erin 4.00" in drawn, drawn
    assert any("清七对" in x for x in drawn), drawn
    assert [x for x in drawn if x in ("dave", "erin", "carol", "alice", "bob")] == [
        "dave", "erin", "carol", "alice", "bob"], drawn


@pytest.mark.parametrize("lang", ["zh-hans", "en"])
async def test_a_new_stake_names_the_table_s_rules(tmp_path: Path, lang: str) -> None:
    """/set stake while 三人三房 is going names 三人三房 and from which hand it plays the
    stake, then the chat's own default (成都血战), labelled as the rules of new tables. A
    table on the chat's own rules is named alone."""
    zh = lang == "zh-hans"
    async with table(tmp_path, lang=lang) as t:
        t.admin("alice")
        await t.say("alice", "/new 三人三房 @alice @bob @carol")
        said = await _answer(t, "alice", "/set stake 0.5")
        if zh:
            assert said.splitlines() == [
                "正在进行的牌桌（三人三房）从第 1 盘起底注改为 0.50；之前的各盘保持原来的底注。",
                "本群以后新开的牌桌：成都血战（默认规则，无改动）；底注 0.50；简短回复。"], said
        else:
            assert said.splitlines() == [
                "The table going plays 三人三房 (three players, three suits): stake 0.50 per point "
                "from hand 1 on; the hands before keep their stake.",
                "New tables in this chat: Chengdu blood battle (the preset's defaults, nothing "
                "changed); stake 0.50 per point; compact answers."], said
        await t.say("bob", "/hu bob 自摸")
        await end_night(t, "alice")
        await t.say("alice", "/new @alice @bob @carol @dave")
        said = await _answer(t, "alice", "/set stake 2")
        one = ("正在进行的牌桌（成都血战）从第 1 盘起底注改为 2.00；之前的各盘保持原来的底注。"
               if zh else "The table going plays Chengdu blood battle: stake 2.00 per point from "
               "hand 1 on; the hands before keep their stake.")
        assert said == one, said
        assert t.api.errors == []
