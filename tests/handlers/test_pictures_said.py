"""What the pictures and the night's summary say, through the real bot, in both languages:
money where a night changed its stake (points at two stakes are never added), whole
numbers where things are counted, plurals, the best hand with everything it won with,
labels inside the picture, and no pictures for a night without a hand."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from matplotlib.figure import Figure
from matplotlib.text import Text

from bot.console.fake_api import SentMessage
from bot.text.i18n import money
from bot.text.render_money import signed_money
from tests.bot.harness import plain
from tests.bot.layout import kept_figures
from tests.handlers.harness import HandlerTable as Table
from tests.handlers.harness import handler_table as table

# The pictures are composed, not rasterized (tests/bot/conftest.py): the tests read the
# figures' texts, legends and lines. Those that measure where a text lands draw the figure
# they look at, and are marked ``pictures``: every picture they cause is rasterized, as the
# bot sends it, before they draw it again.

LANGS = ["zh-Hans", "en"]
NEW = "/new chengdu @alice @bob @carol @dave"


def photos(sent: list[SentMessage]) -> list[SentMessage]:
    return [m for m in sent if m.kind == "photo"]


def texts(fig: Figure) -> list[str]:
    return [x.get_text() for x in fig.findobj(Text) if x.get_text()]


@pytest.mark.parametrize("lang", LANGS)
async def test_a_night_whose_stake_changed_is_summed_in_money_only(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: str) -> None:
    figures = kept_figures(monkeypatch)
    async with table(tmp_path, lang=lang) as t:
        t.admin("alice")
        await t.say("alice", NEW)
        for report in ("/hu bob 自摸 清一色", "/hu carol from alice", "/hu dave 自摸"):
            await t.say("alice", report)
        await t.say("alice", "/set stake 2")  # from hand 2
        for report in ("/hu alice 自摸 七对", "/hu dave from bob", "/hu carol from bob"):
            await t.say("alice", report)
        night = await t.ledger.series.night_chart(t.chat_id)
        out = await t.say("alice", "/end")
        summary = await t.ledger.nights.summary(t.chat_id, night.night.id)
        assert summary.mixed and summary.stakes == (100, 200)
        names = {p.name: pid for pid, p in summary.players.items()}
        at = " 分×" if lang == "zh-Hans" else " at "
        said = plain(out[0].text).splitlines()
        for name, pid in names.items():
            # Money, then the points at each stake; the points' sum never.
            line = next(x for x in said if x.strip().startswith(name))
            cents = summary.money_of(pid)
            parts = summary.points_at[pid]
            assert sum(s * n for s, n in parts) == cents  # the money is made of them
            assert signed_money(cents) in line, line
            assert all(f"{n:+d}{at}{money(s)}" in line for s, n in parts), (line, parts)
            summed = summary.nets[pid]
            if len(parts) > 1:
                assert not re.search(rf"(?<![\d.]){summed:+d}(?![\d.]|{at})", line), line
        assert not any(x.count("（") > 1 for x in said)
        chart_fig, card_fig = figures[-2:]
        assert len(photos(out)) == 2
        # The chart: money on its axis and in its legend.
        ax = chart_fig.axes[0]
        assert ax.get_ylabel() == ("金额" if lang == "zh-Hans" else "Money")
        legend = ax.get_legend()
        assert legend is not None
        shown = [x.get_text() for x in legend.get_texts()]
        for name, pid in names.items():
            assert f"{name} {signed_money(summary.money_of(pid))}" in shown, shown
        # The card: each one's money and points per stake, no points summed across stakes.
        drawn = texts(card_fig)
        for name, pid in names.items():
            assert signed_money(summary.money_of(pid)) in drawn, drawn
            if len(summary.points_at[pid]) > 1:
                assert f"{summary.nets[pid]:+d}" not in drawn, (name, drawn)
            assert any(f"{n:+d}{at}{money(s)}" in x for x in drawn
                       for s, n in summary.points_at[pid]), drawn
        assert t.api.errors == []


async def _night_with_a_kong_bloom(t: Table) -> list[SentMessage]:
    """A night of two hands whose biggest is its last: dave's 杠上花 清一色; then /end."""
    await t.say("alice", NEW)
    for report in ("/hu bob 自摸", "/hu carol from alice", "/hu dave 自摸", "/hu alice 自摸",
                   "/hu carol from bob", "/hu dave 杠上花 from bob 清一色"):
        await t.say("alice", report)
    return await t.say("alice", "/end")


@pytest.mark.parametrize("lang", LANGS)
async def test_the_end_of_a_night_without_a_hand_sends_no_pictures(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: str) -> None:
    figures = kept_figures(monkeypatch)
    async with table(tmp_path, lang=lang) as t:
        await t.say("alice", NEW)
        out = await t.say("alice", "/end")
        assert photos(out) == [] and figures == []
        assert len(photos(await _night_with_a_kong_bloom(t))) == 2
        assert t.api.errors == []


@pytest.mark.parametrize("lang", LANGS)
async def test_the_card_shows_everything_the_biggest_hand_won_with(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: str) -> None:
    figures = kept_figures(monkeypatch)
    async with table(tmp_path, lang=lang) as t:
        await _night_with_a_kong_bloom(t)
        drawn = texts(figures[-1])
        assert any("清一色" in x and "杠上花" in x for x in drawn), drawn


@pytest.mark.pictures
@pytest.mark.parametrize("lang", LANGS)
async def test_the_biggest_hands_label_stays_inside_the_chart(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: str) -> None:
    figures = kept_figures(monkeypatch)
    async with table(tmp_path, lang=lang) as t:
        await _night_with_a_kong_bloom(t)
        fig = figures[-2]
        ax = fig.axes[0]
        fig.canvas.draw()
        star = next(x for x in ax.texts if x.get_text().startswith("dave "))
        box, chart, legend = star.get_window_extent(), ax.get_window_extent(), ax.get_legend()
        assert legend is not None
        assert chart.x0 <= box.x0 and box.x1 <= chart.x1, (box, chart)
        assert not box.overlaps(legend.get_window_extent())
        assert all(float(y).is_integer() for y in ax.get_yticks())  # whole points


@pytest.mark.pictures
@pytest.mark.parametrize("lang", LANGS)
async def test_the_wins_chart_counts_whole_wins(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: str) -> None:
    figures = kept_figures(monkeypatch)
    async with table(tmp_path, lang=lang) as t:
        await _night_with_a_kong_bloom(t)
        await t.say("bob", "/stats chart @dave")
        ax = figures[-1].axes[0]
        figures[-1].canvas.draw()
        assert all(float(x).is_integer() for x in ax.get_xticks()), ax.get_xticks()


@pytest.mark.parametrize("lang", LANGS)
async def test_standings_over_one_night_say_one_night(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: str) -> None:
    figures = kept_figures(monkeypatch)
    async with table(tmp_path, lang=lang) as t:
        await t.say("alice", NEW)  # a night without a hand is no night of the chart
        await t.say("alice", "/end")
        await _night_with_a_kong_bloom(t)
        await t.say("bob", "/standings chart")
        ax = figures[-1].axes[0]
        assert ax.get_title() == ("1 场积分走势" if lang == "zh-Hans"
                                  else "Standings over 1 night")
        assert t.api.errors == []


@pytest.mark.pictures
@pytest.mark.parametrize("lang", LANGS)
async def test_a_chart_of_a_night_without_a_hand_has_a_plain_axis(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: str) -> None:
    figures = kept_figures(monkeypatch)
    async with table(tmp_path, lang=lang) as t:
        await t.say("alice", NEW)
        assert len(photos(await t.say("alice", "/chart"))) == 1
        ax = figures[-1].axes[0]
        figures[-1].canvas.draw()
        assert ax.get_ylim() == (-1, 1)
        assert all(float(y).is_integer() for y in ax.get_yticks())
        assert ax.yaxis.get_offset_text().get_text() == ""  # no "1e-17"
        assert t.api.errors == []


@pytest.mark.parametrize("lang", LANGS)
async def test_standings_over_nights_at_two_stakes_are_drawn_in_money(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: str) -> None:
    figures = kept_figures(monkeypatch)
    async with table(tmp_path, lang=lang) as t:
        t.admin("alice")
        await _night_with_a_kong_bloom(t)
        await t.say("alice", "/set stake 2")
        await _night_with_a_kong_bloom(t)
        await t.say("bob", "/standings chart")
        ax = figures[-1].axes[0]
        assert ax.get_ylabel() == ("金额" if lang == "zh-Hans" else "Money")
        legend = ax.get_legend()
        assert legend is not None
        shown = [x.get_text() for x in legend.get_texts()]
        standings = await t.ledger.money.money_standings(t.chat_id)
        assert sorted(shown) == sorted(f"{m.player.name} {signed_money(m.cents)}"
                                       for m in standings), shown
        for line in ax.get_lines()[:len(standings)]:
            start, *_rest = np.asarray(line.get_ydata())
            assert start == 0  # every line starts at nothing
        assert t.api.errors == []
