"""Wording a new user's review in console mode found wrong or unclear, through the real bot
in English and in Chinese."""

from __future__ import annotations

from pathlib import Path

from tests.bot.harness import Table, plain, table

CREW = "@alice @bob @carol @dave"


async def _say(t: Table, who: str, text: str) -> str:
    return "\n".join(plain(m.text) for m in await t.say(who, text))


async def _fed_two(t: Table) -> None:
    """Two hands of a blood battle: in the second alice feeds two winners."""
    await t.say("alice", f"/new chengdu {CREW}")
    await t.say("bob", "/hu bob 自摸")
    await t.say("carol", "/hu carol 自摸")
    await t.say("dave", "/hu dave 自摸")
    await t.say("bob", "/hu bob from alice")
    await t.say("carol", "/hu carol from alice")
    await t.say("dave", "/hu dave 自摸")


async def test_stats_deal_ins_say_in_how_many_hands(tmp_path: Path) -> None:
    async with table(tmp_path, lang="zh-hans") as t:
        await _fed_two(t)
        out = await _say(t, "alice", "/stats @alice")
        assert "点炮 2 次（在 1 盘里，占 50%）" in out, out
        out = await _say(t, "alice", "/stats @bob")
        assert "从未点炮" in out, out
        assert t.api.errors == []
    async with table(tmp_path / "en") as t:
        await _fed_two(t)
        out = await _say(t, "alice", "/stats @alice")
        assert "dealt in 2 times, in 1 hand (50%)" in out, out
        # One deal-in per hand keeps the short form.
        await t.say("bob", "/hu bob from alice")
        await t.say("carol", "/hu carol 自摸")
        await t.say("dave", "/hu dave 自摸")
        out = await _say(t, "alice", "/stats @alice")
        assert "dealt in 3 times, in 2 hands (67%)" in out, out
    async with table(tmp_path / "short") as t:
        await t.say("alice", f"/new sichuan {CREW}")
        await t.say("bob", "/hu bob from alice")
        await t.say("carol", "/hu carol 自摸")
        out = await _say(t, "alice", "/stats @alice")
        assert "dealt in once (100%)" in out, out


async def _corrected(t: Table, edit: str) -> None:
    t.admin("alice")
    await t.say("alice", f"/new sichuan {CREW}")
    await t.say("bob", "/hu bob 自摸")
    latest = next(m for m in await t.say("carol", "/hu carol from alice") if m.buttons)
    assert "⚠️" not in await _say(t, "alice", edit)
    await t.press("carol", latest, latest.buttons[0]["callback_data"])


async def test_undo_button_after_a_correction_says_undo_takes_it_first(
        tmp_path: Path) -> None:
    async with table(tmp_path, lang="zh-hans") as t:
        await _corrected(t, "/edit 1 bob 自摸 清一色")
        answer = list(t.api.answered.values())[-1]
        assert answer.get("show_alert"), answer
        assert answer["text"] == "最近的改动是对第 1 盘的更正，请先用 /undo 撤销它。", answer
    async with table(tmp_path / "en") as t:
        await _corrected(t, "/edit 1 bob 自摸 清一色")
        answer = list(t.api.answered.values())[-1]
        assert answer["text"] == ("The latest change is the correction of hand 1: /undo "
                                  "takes it back first."), answer
        # /undo takes the correction back; then the button works again.
        await t.say("alice", "/undo")
        latest = next(m for m in reversed(t.api.outbox) if "carol" in plain(m.text)
                      and m.buttons and not m.pinned)
        out = await t.press("carol", latest, latest.buttons[0]["callback_data"])
        assert any("Undone" in plain(m.text) for m in out), [m.text for m in out]
    async with table(tmp_path / "void") as t:
        await _corrected(t, "/void 1")
        answer = list(t.api.answered.values())[-1]
        assert answer["text"] == ("The latest change is the void of hand 1: /undo takes "
                                  "it back first."), answer


async def test_undo_with_everything_taken_back_says_nothing_left(tmp_path: Path) -> None:
    async with table(tmp_path, lang="zh-hans") as t:
        t.admin("alice")
        await t.say("alice", f"/new sichuan {CREW}")
        assert "这桌还没有记录。" in await _say(t, "alice", "/undo")
        await t.say("bob", "/hu bob 自摸")
        await t.say("alice", "/edit 1 bob 自摸 清一色")
        await t.say("alice", "/undo")
        await t.say("alice", "/undo")
        out = await _say(t, "alice", "/undo")
        assert "没有可撤销的了。" in out and "还没有记录" not in out, out
    async with table(tmp_path / "en") as t:
        await t.say("alice", f"/new sichuan {CREW}")
        assert "Nothing has been recorded at this table yet." in await _say(t, "bob", "/undo")
        await t.say("bob", "/hu bob 自摸")
        await t.say("bob", "/undo")
        assert "Nothing left to undo." in await _say(t, "bob", "/undo")


def test_a_hand_of_a_night_in_words() -> None:
    from datetime import date

    from bot.text.render_lookback import hand_of_night
    today = date(2026, 12, 5)
    assert hand_of_night("en", 1, "2026-12-02/2", today) == "hand 1 of night 2 on 2 Dec"
    assert hand_of_night("en", 3, "2026-12-02", today) == "hand 3 on 2 Dec"
    assert hand_of_night("en", 3, "2025-01-09", today) == "hand 3 on 9 Jan 2025"
    assert hand_of_night("zh-Hans", 1, "2026-12-02/2", today) == "12 月 2 日第 2 场第 1 盘"
    assert hand_of_night("zh-Hans", 3, "2025-01-09", today) == "2025 年 1 月 9 日第 3 盘"


async def test_stats_best_hand_and_self_draw_read_naturally(tmp_path: Path) -> None:
    async with table(tmp_path, lang="zh-hans") as t:
        await t.say("alice", f"/new sichuan {CREW}")
        await t.say("bob", "/hu bob 自摸 清一色")
        out = await _say(t, "alice", "/stats @bob")
        assert "胡牌 1 次（胡牌率 100%），是自摸；" in out, out
        assert "日第 1 盘（" in out and "牌局第" not in out, out
    async with table(tmp_path / "en") as t:
        await t.say("alice", f"/new sichuan {CREW}")
        await t.say("bob", "/hu bob 自摸 清一色")
        out = await _say(t, "alice", "/stats @bob")
        assert "1 win (100%), by self-draw;" in out, out
        assert "Best hand: 12 points, hand 1 on " in out, out


async def test_help_notes_a_misspelt_preset_and_lists_a_nights_commands_a_line_each(
        tmp_path: Path) -> None:
    for lang, note, lines in (
            ("en", "A misspelt preset (chengdou) is answered with the right name.",
             ["/penalty dave 诈胡 — a false win · 国标: /penalty dave 错碰 5 — a referee's "
              "fine",
              "/adjust alice -10 bob +10 side bet — a correction",
              "/edit 2.1 alice 自摸 七对 — hand 2, event 1 only",
              "/seat dave erin — erin takes dave's seat"]),
            ("zh-hans", "规则名写错（如 /new chengdou）会提示正确的名字。",
             ["/penalty dave 诈胡 — 诈胡罚分 · 国标：/penalty dave 错碰 5 — 裁判罚分",
              "/adjust alice -10 bob +10 彩头 — 手动调整分数",
              "/edit 2.1 alice 自摸 七对 — 只改第 2 盘第 1 条",
              "/seat dave erin — erin 换下 dave"])):
        async with table(tmp_path / lang, lang=lang) as t:
            text = (await _say(t, "alice", "/help")).splitlines()
            assert note in text, text
            assert not any(x.startswith("/new chengdou") for x in text), text
            assert text[-4:] == lines, text


async def _edit_three(t: Table, edit: str) -> str:
    t.admin("alice")
    await t.say("alice", f"/new sichuan {CREW}")
    for who, text in (("bob", "/hu bob 自摸"), ("carol", "/hu carol from alice"),
                      ("bob", "/hu bob from alice"), ("dave", "/hu dave 自摸"),
                      ("carol", "/hu carol 自摸"), ("alice", "/hu alice from dave")):
        await t.say(who, text)
    return await _say(t, "alice", edit)


async def test_an_edit_refusal_names_which_of_its_events(tmp_path: Path) -> None:
    edit = "/edit 2 dave 自摸 | carol from dave 对对胡 | alice 自摸"
    async with table(tmp_path, lang="zh-hans") as t:
        out = await _edit_three(t, edit)
        assert out == "⚠️ 第 2 条：dave 这盘已经胡过了。", out
        out = await _say(t, "alice", "/edit 2 dave 自摸 | carol 自摸 清清 | alice 自摸")
        assert out.startswith("⚠️ 第 2 条："), out
    async with table(tmp_path / "en") as t:
        out = await _edit_three(t, edit)
        assert out == "⚠️ Event 2: dave has already won this hand.", out
        # One event: no prefix.
        out = await _say(t, "alice", "/edit 2 dave 自摸 清清")
        assert out.startswith("⚠️ ") and "Event" not in out, out
