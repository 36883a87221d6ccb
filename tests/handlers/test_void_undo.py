"""/void and what comes after it, through the real bot: /undo right after a void counts the
hand again (not an older event); a void hand is counted again by /edit with its whole
report, kongs and the wall's end included; the night chart numbers every hand /end counts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from matplotlib.axes import Axes

from bot.pictures import drawing
from tests.bot.harness import plain
from tests.databases import BACKENDS
from tests.handlers.harness import HandlerTable as Table
from tests.handlers.harness import handler_table_on as table_on

NIGHT = (  # Chengdu: hand 1 has a kong, a 杠上炮 and a draw; hand 3 ends in a draw
    ("alice", "/new chengdu @alice @bob @carol @dave"),
    ("alice", "/kong alice 暗杠"), ("bob", "/hu bob 杠上炮 alice 对对胡 根1"),
    ("carol", "/draw carol 听 2, dave 花猪"),
    ("bob", "/hu bob 自摸"), ("carol", "/hu carol from alice"), ("dave", "/hu dave 自摸"),
    ("carol", "/hu carol 自摸"), ("dave", "/draw alice 听 2, bob 花猪"),
)
HAND_1 = "alice 暗杠 | bob 杠上炮 alice 对对胡 根1 | carol 听 2, dave 花猪"


async def _answer(t: Table, who: str, text: str) -> str:
    return "\n".join(plain(m.text) for m in await t.say(who, text) if not m.pinned)


async def _night(t: Table) -> Any:
    t.admin("alice")
    for who, text in NIGHT:
        await t.say(who, text)
    night = await t.ledger.open_nights.current_night(t.chat_id)
    assert night.hands == 3 and night.open_hand is None, night
    return night


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("lang", ["en", "zh-hans"])
async def test_undo_right_after_a_void_counts_the_hand_again(tmp_path: Path, lang: str,
                                                             backend: str) -> None:
    zh = lang != "en"
    async with table_on(backend, tmp_path, lang, "void") as t:
        before = await _night(t)
        text = await _answer(t, "alice", "/void 1")
        # The dealer line reads naturally: no stray "-" when no points moved.
        assert ("第 2 盘：庄家 bob→alice" if zh else "Hand 2: dealer bob→alice") in text, text
        assert "- " not in text.replace("→-", ""), text
        voided = await t.ledger.open_nights.current_night(t.chat_id)
        assert voided.totals != before.totals
        text = await _answer(t, "alice", "/undo")
        assert ("已撤销作废：第 1 盘重新计入。" if zh else
                "Undone: the void of hand 1; it counts again.") in text, text
        assert "alice +54  bob +12  carol +64  dave -130" in text, text
        after = await t.ledger.open_nights.current_night(t.chat_id)
        # As before the void: hand 3 still finished by its draw, the same dealer.
        assert (after.totals, after.dealer, after.hands, after.open_hand) == (
            before.totals, before.dealer, 3, None)
        text = await _answer(t, "bob", "/hand 1")
        assert ("撤销了作废，这一盘重新计入。" if zh else
                "Its void was undone by alice at ") in text, text
        assert ("已作废" if zh else "(void)") not in text.split("\n")[1], text
        # A win recorded after a void is the last change; once undone, the void is.
        await t.say("alice", "/void 1")
        await t.say("bob", "/hu bob 自摸")
        text = await _answer(t, "alice", "/undo")
        assert ("已撤销：第 4 盘的第 1 条记录。" if zh else
                "Undone: event 1 of hand 4.") in text, text
        text = await _answer(t, "alice", "/undo")
        assert ("已撤销作废：第 1 盘重新计入。" if zh else
                "Undone: the void of hand 1; it counts again.") in text, text
        assert (await t.ledger.open_nights.current_night(t.chat_id)).totals == before.totals
        # The next /undo takes back what came before the void: hand 3's draw.
        text = await _answer(t, "alice", "/undo")
        assert ("已撤销：第 3 盘的第 2 条记录。" if zh else
                "Undone: event 2 of hand 3.") in text, text
        assert t.api.errors == []


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("lang", ["en", "zh-hans"])
async def test_edit_with_the_whole_report_counts_a_void_hand_again(
        tmp_path: Path, lang: str, backend: str) -> None:
    """Kongs and the wall's end are said in /edit as /kong and /draw say them (their
    command's name optional); /undo of that edit voids the hand again."""
    zh = lang != "en"
    async with table_on(backend, tmp_path, lang, "void") as t:
        before = await _night(t)
        await t.say("alice", "/void 1")
        voided = await t.ledger.open_nights.current_night(t.chat_id)
        text = await _answer(t, "alice", f"/edit 1 {HAND_1}")
        assert ("第 1 盘已更正。" if zh else "Hand 1 corrected.") in text, text
        assert "alice 0→+54  bob 0→+12  carol 0→+64  dave 0→-130" in text, text
        after = await t.ledger.open_nights.current_night(t.chat_id)
        assert (after.totals, after.dealer) == (before.totals, before.dealer)
        text = await _answer(t, "alice", "/undo")
        assert ("已撤销对第 1 盘的修改。" if zh else "Undone: the correction of hand 1.") \
            in text, text
        again = await t.ledger.open_nights.current_night(t.chat_id)
        assert (again.totals, again.dealer) == (voided.totals, voided.dealer)
        text = await _answer(t, "bob", "/hand 1")
        assert ("这一盘已作废" if zh else "void") in text, text
        # The commands' names may open each event too; a void hand is not voided twice.
        text = await _answer(t, "alice", "/edit 1 kong alice 暗杠 | bob 杠上炮 alice 对对胡 "
                             "根1 | /draw carol 听 2, dave 花猪")
        assert "alice 0→+54" in text, text
        assert (await t.ledger.open_nights.current_night(t.chat_id)).totals == before.totals
        # One event alone: the kong, as /kong says it.
        text = await _answer(t, "alice", "/edit 1.1 alice 补杠")
        assert ("第 1 盘已更正。" if zh else "Hand 1 corrected.") in text, text
        assert t.api.errors == []


def _board(t: Table) -> str:
    """The scoreboard as it reads now (its newest text)."""
    return plain(next(m for m in reversed(t.api.outbox) if m.pinned).text)


async def _table_now(t: Table) -> tuple[Any, ...]:
    s = await t.ledger.open_nights.current_night(t.chat_id)
    return s.totals, s.dealer, s.hands, s.open_hand, _board(t)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("lang", ["en", "zh-hans"])
async def test_undo_takes_back_corrections_newest_first(tmp_path: Path, lang: str,
                                                         backend: str) -> None:
    """/edit 2, /edit 3 (or /edit 2 twice, or a /void among them): each /undo takes back
    the newest correction not taken back yet, the table and its scoreboard as they were
    before it; then /undo goes on with the hands, as usual."""
    zh = lang != "en"
    async with table_on(backend, tmp_path, lang, "undo_stack") as t:
        await _night(t)
        played = await _table_now(t)
        await t.say("alice", "/edit 2 bob 自摸 七对 | carol from alice | dave 自摸")
        first = await _table_now(t)
        await t.say("alice", "/edit 3 carol 自摸 清一色 | draw alice 听 2, bob 花猪")
        assert await _table_now(t) not in (first, played)
        text = await _answer(t, "alice", "/undo")
        assert ("已撤销对第 3 盘的修改。" if zh else "Undone: the correction of hand 3.") \
            in text, text
        assert await _table_now(t) == first
        text = await _answer(t, "alice", "/undo")
        assert ("已撤销对第 2 盘的修改。" if zh else "Undone: the correction of hand 2.") \
            in text, text
        assert await _table_now(t) == played
        # The same hand twice, and a void: newest first again.
        await t.say("alice", "/edit 2 bob 自摸 七对 | carol from alice | dave 自摸")
        await t.say("alice", "/edit 2 bob 自摸 清一色 | carol from alice | dave 自摸")
        await t.say("alice", "/void 3")
        text = await _answer(t, "alice", "/undo")
        assert ("已撤销作废：第 3 盘重新计入。" if zh else
                "Undone: the void of hand 3; it counts again.") in text, text
        await t.say("alice", "/undo")
        assert await _table_now(t) == first
        text = await _answer(t, "alice", "/undo")
        assert ("已撤销对第 2 盘的修改。" if zh else "Undone: the correction of hand 2.") \
            in text, text
        assert await _table_now(t) == played
        # Every correction taken back: the hands, as usual, hand 3's draw first.
        text = await _answer(t, "alice", "/undo")
        assert ("已撤销：第 3 盘的第 2 条记录。" if zh else
                "Undone: event 2 of hand 3.") in text, text
        assert t.api.errors == []


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("lang", ["en", "zh-hans"])
async def test_the_night_chart_counts_the_hands_end_counts(
        tmp_path: Path, lang: str, backend: str, monkeypatch: pytest.MonkeyPatch) -> None:
    drawn: list[Any] = []
    night_chart = drawing.night_chart
    titles: list[str] = []
    set_title = Axes.set_title

    def title(ax: Axes, text: str, *args: Any, **kwargs: Any) -> Any:
        titles.append(text)
        return set_title(ax, text, *args, **kwargs)

    monkeypatch.setattr(Axes, "set_title", title)

    def spy(series: Any, who: drawing.NightLabels, lang: str, font: Any, **kw: Any) -> bytes:
        drawn.append(series)
        return night_chart(series, who, lang, font, **kw)

    monkeypatch.setattr(drawing, "night_chart", spy)
    zh = lang != "en"
    async with table_on(backend, tmp_path, lang, "void") as t:
        before = await _night(t)
        await t.say("alice", "/void 1")
        text = await _answer(t, "alice", "/end")
        assert ("共 3 盘" if zh else "3 hands") in text, text
        assert t.api.errors == []
    (series,) = drawn
    # Every hand has its column, numbered as /end and /hand number them; hand 1 is flat.
    assert series.hands == (0, 1, 2, 3) and series.void == (1,)
    for ys in series.totals.values():
        assert ys[0] == ys[1] == 0
    assert {p: ys[-1] for p, ys in series.totals.items()} != {
        p.id: before.totals[s] for s, p in before.seats.items()}  # hand 1 no longer counts
    assert ("第 1 场：成都血战，3 盘（1 盘作废）" if zh else
            "Night 1: Chengdu blood battle, 3 hands (1 void)") in titles, titles
