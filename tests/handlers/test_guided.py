"""The guided report, per preset: whole nights by buttons score as the same nights typed,
every pattern and fact the preset scores is reachable, and stale or forged presses are
refused. The dialog is the handlers' doing: these play on the handler tier (every call
still one Telegram would take)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.console.fake_api import SentMessage
from tests.bot.guided_play import find_button, play
from tests.bot.harness import end_night, plain
from tests.bot.test_language import _SAY, ascii_punctuation, check, english_words
from tests.handlers.harness import HandlerTable as Table
from tests.handlers.harness import handler_table as table

NIGHTS = sorted((Path(__file__).parents[1] / "bot" / "transcripts" / "buttons").glob("*.txt"))
LANGUAGE = {"feibao": "zh-hans", "liangfang": "zh-hans"}
USAGE = Path(__file__).resolve().parents[2] / "docs" / "usage.md"
NEW = "/new {preset} @alice @bob @carol @dave"


@pytest.mark.parametrize("path", NIGHTS, ids=[p.stem for p in NIGHTS])
async def test_night_by_buttons_scores_as_typed(path: Path, tmp_path: Path) -> None:
    lang = LANGUAGE.get(path.stem, "en")
    async with table(tmp_path / "buttons", lang=lang) as t:
        tapped = await play(t, path, typed=False)
        assert t.api.errors == [], t.api.errors
        if path.stem in CHINESE_CHECKED:
            no_english(t, path)
    async with table(tmp_path / "typed", lang=lang) as t:
        typed = await play(t, path, typed=True)
        assert t.api.errors == [], t.api.errors
    assert tapped.totals == typed.totals and len(tapped.totals) >= 5
    # The common hand (one winner, self-draw or one discarder, one or two patterns) takes at
    # most four taps after /hu.
    assert tapped.taps["common_two_patterns" if "common_two_patterns" in tapped.taps
                       else "common_gen"] <= 4
    assert "richest" in tapped.taps


# The Chinese nights by buttons that test_chinese_words checked, played there as here: the
# checks are made on this play (every message as it stands at the end, every button and
# every alert), the night played once.
CHINESE_CHECKED = ("feibao", "liangfang")


def no_english(t: Table, path: Path) -> None:
    typed = " ".join(m.group(2) for line in path.read_text(encoding="utf-8").splitlines()
                     if (m := _SAY.match(line.strip())))
    check(t.api.outbox, typed, path.name)
    for answer in t.api.answered.values():
        text = str(answer.get("text") or "")
        assert not english_words(text) and not ascii_punctuation(text), text


def test_the_chinese_checked_nights_are_played_in_chinese() -> None:
    assert {p.stem for p in NIGHTS} >= set(CHINESE_CHECKED)
    assert all(LANGUAGE.get(stem) == "zh-hans" for stem in CHINESE_CHECKED)


def test_every_preset_has_a_night_by_buttons() -> None:
    from engine.rules import presets

    assert {p.stem for p in NIGHTS} == set(presets())


async def test_documented_tap_counts_are_the_measured_ones(tmp_path: Path) -> None:
    """The table of taps in docs/usage.md is what the button nights measure."""
    section = USAGE.read_text(encoding="utf-8").split("### Taps per hand", 1)[1]
    rows = re.findall(r"^\| `(\w+)` \| (\d+) \| (\d+) \|", section, re.M)
    assert {r[0] for r in rows} == {p.stem for p in NIGHTS}
    for preset, common, richest in rows:
        path = next(p for p in NIGHTS if p.stem == preset)
        text = path.read_text(encoding="utf-8")
        measured = dict(re.findall(r"^taps (\w+) (\d+)$", text, re.M))
        best = measured.get("common_two_patterns") or measured["common_gen"]
        assert (best, measured["richest"]) == (common, richest), preset


async def _start(t: Table, who: str = "bob") -> None:
    await t.say(who, "/hu")


async def _tap(t: Table, who: str, label: str) -> list[SentMessage]:
    msg = t.last_with_buttons()
    return await t.press(who, msg, find_button(msg, label)["callback_data"])


async def _pattern_labels(t: Table) -> list[str]:
    seen: list[str] = []
    while True:
        msg = t.last_with_buttons()
        texts = [b["text"] for b in msg.buttons]
        new = [x for x in texts if x not in seen]
        seen += new
        more = next((x for x in texts
                     if x.startswith(("More patterns", "更多番型", "More big wins"))), None)
        if more is None or more.endswith("1/2)") or "(1/" in more:
            return seen
        await _tap(t, "bob", more)


@pytest.mark.parametrize(("preset", "must", "plain_word"), [
    ("chengdu", {"天胡", "地胡", "清龙七对", "十八罗汉", "清十八罗汉", "清金钩钓"}, "平胡"),
    ("changsha", {"海底炮", "天胡", "地胡", "双豪华七小对", "全求人"}, "小胡"),
    ("feibao", {"七对", "碰对", "九幺", "十三浪", "宝吊", "单张", "清一色"}, "平和"),
    ("yibin", {"无听用", "碰本金", "金钩钓", "天胡", "地胡"}, "平胡"),
    ("sichuan", {"天胡", "地胡", "将对", "带幺九"}, "平胡"),
])
async def test_every_pattern_is_reachable_and_the_hint_is_true(
        tmp_path: Path, preset: str, must: set[str], plain_word: str) -> None:
    async with table(tmp_path) as t:
        await t.say("alice", NEW.format(preset=preset))
        await _start(t)
        await _tap(t, "bob", "bob self-draw")
        prompt = plain(t.last_with_buttons().text)
        # Changsha counts big wins: none of them is a small win (小胡)
        # an English chat: the pattern in English, the Chinese beside (plain win 平胡)
        assert (f" {plain_word}." if preset != "changsha"
                else "Big wins for bob? None is a small win.") in prompt, prompt
        labels = [x.split(" ")[-1] for x in await _pattern_labels(t)]
        assert must <= set(labels), must - set(labels)
        assert plain_word not in labels  # the plain win is what none means, not a button
        assert t.api.errors == []


async def test_quick_report_from_the_scoreboard(tmp_path: Path) -> None:
    async with table(tmp_path) as t:
        await t.say("alice", NEW.format(preset="chengdu"))
        await t.say("bob", "/hu bob 自摸")
        night = await t.ledger.open_nights.current_night(t.chat_id)
        board = t.api.messages[(t.chat_id, night.board_message_id)]
        labels = [b["text"] for b in board.buttons]
        # bob has won this blood-battle hand: only the players still in are offered.
        assert labels == ["alice won…", "carol won…", "dave won…"]
        assert all(len(b["callback_data"].encode()) <= 64 for b in board.buttons)
        bob_button = f"v1:b:{night.id}:S"
        for forged in (bob_button, f"v1:b:{night.id + 1}:W", "v1:b:x:W", "v2:b:1:W"):
            await t.press("carol", board, forged)
            assert list(t.api.answered.values())[-1].get("show_alert"), forged
        await t.press("mallory", board, board.buttons[1]["callback_data"])
        assert list(t.api.answered.values())[-1].get("show_alert")  # not a player
        out = await t.press("carol", board, board.buttons[1]["callback_data"])
        assert "How did carol win?" in plain(out[-1].text)
        await _tap(t, "carol", "← alice")
        await _tap(t, "carol", "七对")
        await _tap(t, "carol", "✅ Record")
        night = await t.ledger.open_nights.current_night(t.chat_id)
        assert night.still_in == ("E", "N")
        board = t.api.messages[(t.chat_id, night.board_message_id)]
        assert [b["text"] for b in board.buttons] == ["alice won…", "dave won…"]
        kept = board.buttons[0]["callback_data"]
        await end_night(t, "alice")
        assert board.buttons == []  # the ended board's quick reports are gone
        await t.press("alice", board, kept)  # a press kept from before
        answer = list(t.api.answered.values())[-1]
        assert answer.get("show_alert") and "table has ended" in answer["text"]
        assert t.api.errors == []


async def test_refused_record_keeps_the_draft_and_confirm_counts_once(tmp_path: Path) -> None:
    async with table(tmp_path) as t:
        await t.say("alice", NEW.format(preset="chengdu"))
        await _start(t)
        await _tap(t, "bob", "bob self-draw")
        await _tap(t, "bob", "七对")
        for label in ("根 0", "根 1", "根 2", "根 3"):
            await _tap(t, "bob", label)  # 根 4 in seven pairs: the engine refuses it
        out = await _tap(t, "bob", "✅ Record")
        assert any("根" in plain(m.text) and "⚠️" in m.text for m in out)
        assert (await t.ledger.open_nights.current_night(t.chat_id)).hands == 0
        await _tap(t, "bob", "根 4")  # back to 0: the same draft, fixed
        msg = t.last_with_buttons()
        record = find_button(msg, "✅ Record")["callback_data"]
        await t.press("bob", msg, record)
        await t.press("bob", msg, record)  # a second press of the same Confirm
        assert list(t.api.answered.values())[-1].get("show_alert")
        night = await t.ledger.open_nights.current_night(t.chat_id)
        assert night.hands == 1 and night.totals["S"] == 24
        assert t.api.errors == []


async def test_another_players_draft_is_refused(tmp_path: Path) -> None:
    async with table(tmp_path) as t:
        await t.say("alice", NEW.format(preset="chengdu"))
        await _start(t, "bob")
        await _tap(t, "carol", "bob self-draw")
        assert list(t.api.answered.values())[-1].get("show_alert")
        assert "Who won" in plain(t.last_with_buttons().text)


async def test_recent_winners_first_and_kongs_filled_in(tmp_path: Path) -> None:
    async with table(tmp_path) as t:
        await t.say("alice", NEW.format(preset="chengdu"))
        for text in ("/hu bob 自摸", "/hu carol from alice", "/hu dave 自摸"):
            await t.say("bob", text)
        await t.say("carol", "/kong carol 暗杠")
        await _start(t, "carol")
        markup = t.last_with_buttons().reply_markup
        assert markup is not None
        rows = markup["inline_keyboard"]
        firsts = [row[0]["text"] for row in rows[:4]]
        assert firsts == ["dave self-draw", "carol self-draw", "bob self-draw",
                          "alice self-draw"]
        await _tap(t, "carol", "carol self-draw")
        labels = [b["text"] for b in t.last_with_buttons().buttons]
        assert "杠 1" in labels and "根 0" in labels  # carol's kong is already counted
        await _tap(t, "carol", "✅ Record")
        night = await t.ledger.open_nights.current_night(t.chat_id)
        report, _result = await t.ledger.nights.hand(t.chat_id, night.open_hand)
        assert report["events"][-1]["winners"][0]["kongs"] == 1


async def test_guided_kong_and_draw(tmp_path: Path) -> None:
    async with table(tmp_path) as t:
        await t.say("alice", NEW.format(preset="chengdu"))
        await t.say("bob", "/kong")
        labels = [b["text"] for b in t.last_with_buttons().buttons]
        assert labels[:4] == ["alice", "bob", "carol", "dave"]
        await _tap(t, "bob", "bob")
        assert [b["text"] for b in t.last_with_buttons().buttons] == [
            "暗杠", "补杠", "直杠…", "Cancel"]  # no 宝杠 outside Jiangxi
        msg = t.last_with_buttons()
        forged = find_button(msg, "暗杠")["callback_data"].replace(":kk:c", ":kk:w")
        await t.press("bob", msg, forged)
        assert list(t.api.answered.values())[-1].get("show_alert")
        await _tap(t, "bob", "直杠…")
        out = await _tap(t, "bob", "carol")
        assert any("Recorded:\nbob 直杠 ← carol" in plain(m.text) for m in out)
        night = await t.ledger.open_nights.current_night(t.chat_id)
        assert night.totals == {"E": 0, "S": 2, "W": -2, "N": 0}  # 直杠: the discarder pays
        await t.say("bob", "/draw")
        await _tap(t, "bob", "carol | 听")
        await _tap(t, "bob", "carol | 2 fan")
        out = await _tap(t, "bob", "✅ Record")
        assert any("The wall ran out: carol 听 2" in plain(m.text) for m in out)
        night = await t.ledger.open_nights.current_night(t.chat_id)
        assert night.open_hand is None and night.hands == 1
    async with table(tmp_path / "changsha") as t:
        await t.say("alice", NEW.format(preset="changsha"))
        await t.say("bob", "/draw")
        assert [b["text"] for b in t.last_with_buttons().buttons] == ["✅ Record", "Cancel"]
        await _tap(t, "bob", "✅ Record")
        assert (await t.ledger.open_nights.current_night(t.chat_id)).hands == 1
        assert t.api.errors == []


def _labels(t: Table) -> list[str]:
    return [b["text"] for b in t.last_with_buttons().buttons]


@pytest.mark.parametrize(("lang", "fan", "record", "said"), [
    ("zh-hans", "{n} 番", "✅ 记录", "流局：carol 听 2"),
    ("en", "{n} fan", "✅ Record", "The wall ran out: carol 听 2"),
])
async def test_the_ready_screen_picks_a_fan_and_ticks_states(
        tmp_path: Path, lang: str, fan: str, record: str, said: str) -> None:
    """Issue "The table's own words", item 2: each player still in has a button per state
    the table plays, the one that holds ticked; a ready player's fan is one tap, ticked."""
    colon = "：" if lang != "en" else ": "
    async with table(tmp_path, lang=lang) as t:
        await t.say("alice", NEW.format(preset="chengdu"))
        await t.say("bob", "/draw")
        labels = _labels(t)
        assert f"carol{colon}未听 ✓" in labels and "听" in labels and "花猪" in labels, labels
        assert fan.format(n=1) not in labels  # nobody is ready yet: no fan to pick
        await _tap(t, "bob", "carol | 听")
        labels = _labels(t)
        assert f"carol{colon}未听" in labels and "听 ✓" in labels, labels
        assert fan.format(n=1) + " ✓" in labels and fan.format(n=7) in labels, labels
        await _tap(t, "bob", "carol | " + fan.format(n=2))
        labels = _labels(t)
        assert fan.format(n=2) + " ✓" in labels and fan.format(n=1) in labels, labels
        out = await _tap(t, "bob", record)
        assert any(said in plain(m.text) for m in out), [m.text for m in out]
        assert t.api.errors == []


@pytest.mark.parametrize("lang", ["zh-hans", "en"])
async def test_the_wild_label_reads_as_a_state(tmp_path: Path, lang: str) -> None:
    """有宝 is ticked while it holds; a tap clears the tick (无宝), another sets it again."""
    async with table(tmp_path, lang=lang) as t:
        await t.say("alice", NEW.format(preset="feibao"))
        await t.say("bob", "/hu")
        await _tap(t, "bob", "bob 自摸" if lang != "en" else "bob self-draw")
        assert "有宝 ✓" in _labels(t), _labels(t)
        out = await _tap(t, "bob", "有宝 ✓")
        assert "有宝" in _labels(t) and "有宝 ✓" not in _labels(t), _labels(t)
        assert any("无宝" in plain(m.text) for m in out), [m.text for m in out]
        await _tap(t, "bob", "有宝")
        assert "有宝 ✓" in _labels(t), _labels(t)
        assert t.api.errors == []
