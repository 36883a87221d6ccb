"""The pictures' data equals the ledger's running totals; the pictures are PNGs of their
documented sizes; Chinese names use a CJK font or fall back to seats."""

from __future__ import annotations

import gc
import itertools
import logging
import os
import shutil
import struct
import subprocess
import weakref
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from matplotlib import font_manager
from matplotlib.colors import to_hex
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.text import Text

from bot.handlers.files import card_of, draw_night
from bot.pictures import drawing, fonts
from bot.pictures.picture_data import (
    night_series,
    pattern_counts,
    standings_series,
    winning_patterns,
)
from engine.models import SEATS
from storage.ledger import Ledger
from storage.models import PlayerRef
from storage.services.open_nights import MAX_PEOPLE
from tests.bot.layout import kept_figures, layout_problems
from tests.storage.helpers import win

pytestmark = pytest.mark.pictures  # rasterized (tests/bot/conftest.py)

CHAT = -1001
SEATED = [PlayerRef(name="小明", telegram_id=1), PlayerRef(name="bob", telegram_id=2),
          PlayerRef(name="carol"), PlayerRef(name="大卫", telegram_id=4)]


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


@pytest.fixture
async def ledger(tmp_path: Path) -> AsyncIterator[Ledger]:
    led = await Ledger.open(f"sqlite+aiosqlite:///{tmp_path}/t.sqlite3")
    yield led
    await led.close()


async def _night(ledger: Ledger, hands: int = 5, seated: list[PlayerRef] = SEATED
                 ) -> list[dict[str, int]]:
    """Play a night of blood-battle hands, each won by three players in turn; the table's
    totals after each hand."""
    await ledger.open_nights.open_night(CHAT, seated, preset="chengdu")
    after: list[dict[str, int]] = [dict.fromkeys("ESWN", 0)]
    patterns = {(0, 0): ["清一色"], (2, 2): ["七对"]}
    for h in range(hands):
        order = ["ESWN"[(h + i) % 4] for i in range(4)]
        for k, seat in enumerate(order[:3]):
            extra: dict[str, Any] = {"patterns": patterns[(h, k)]} if (h, k) in patterns else {}
            report = (win("discard", seat, order[3], **extra) if k == 1
                      else win("self_draw", seat, **extra))
            out = await ledger.hands.record(CHAT, report)
        assert out.closed and out.night is not None
        after.append({s: v for s, v in out.night.totals.items()})
    return after


async def test_the_night_series_is_the_ledgers_running_totals(ledger: Ledger) -> None:
    after = await _night(ledger)
    await ledger.corrections.void(CHAT, 2)
    night = await ledger.series.night_chart(CHAT)
    table = {seat: p.id for seat, p in night.night.seats.items()}
    data = night_series(night.hands, table, night.nets)
    history = {h.number: h for h in (await ledger.nights.history(CHAT, page_size=100)).items}
    counted = [n for n in sorted(history) if history[n].status != "void"]
    # Every hand keeps its column, as /end counts them; the void one moves nothing.
    assert data.hands == (0, *sorted(history)) and data.void == (2,)
    # After each hand, each seat's point is the sum of the ledger's deltas so far.
    for i, number in enumerate(data.hands):
        for seat in SEATS:
            expected = sum(history[n].deltas[seat] for n in counted if n <= number)
            assert data.totals[table[seat]][i] == expected
    assert {s: data.totals[p][-1] for s, p in table.items()} == night.night.totals
    assert len(after) > 2  # the night had several closed hands
    # Dealers: every change is a hand whose dealer differs from the one before.
    dealers = {h.number: h.dealer for h in night.hands}
    assert list(data.dealer_changes) == [
        n for prev, n in itertools.pairwise(counted) if dealers[n] != dealers[prev]]
    summary = await ledger.nights.summary(CHAT)
    assert summary.biggest is not None and data.biggest is not None
    assert (data.biggest[0], data.biggest[2]) == (summary.biggest[2], summary.biggest[1])


async def test_a_chart_of_the_last_hands_starts_where_they_start(ledger: Ledger) -> None:
    await _night(ledger)
    night = await ledger.series.night_chart(CHAT)
    table = {seat: p.id for seat, p in night.night.seats.items()}
    whole = night_series(night.hands, table, night.nets)
    tail = night_series(night.hands[3:], table, night.nets)
    assert {p: v[0] for p, v in tail.totals.items()} == {p: v[3] for p, v in
                                                          whole.totals.items()}
    assert {s: tail.totals[p][-1] for s, p in table.items()} == night.night.totals


async def test_standings_series_ends_at_the_standings(ledger: Ledger) -> None:
    await _night(ledger)
    await ledger.nights.end_night(CHAT)
    await ledger.open_nights.open_night(CHAT, [SEATED[1], SEATED[0], PlayerRef(name="eve"),
                                              SEATED[3]],
                                       preset="chengdu")
    await ledger.hands.record(CHAT, win("self_draw", "W"))
    nights, names = await ledger.series.night_nets(CHAT)
    standings = await ledger.lookback.standings(CHAT)
    data = standings_series(nights, names, {s.player.id: s.net for s in standings})
    assert data.nights == (0, 1, 2)
    assert {data.names[p]: v[-1] for p, v in data.lines.items()} == \
        {s.player.name: s.net for s in standings}
    eve = next(p for p, n in data.names.items() if n == "eve")
    assert data.lines[eve][:2] == (0, 0)  # eve played the second night only


async def test_pattern_counts_of_a_players_wins(ledger: Ledger) -> None:
    await _night(ledger)
    xiaoming = await ledger.chats.find_player(CHAT, "小明")
    assert xiaoming is not None
    wins = await ledger.series.player_wins(CHAT, xiaoming.id)
    counts = dict(pattern_counts(wins))
    assert counts["七对"] == 1 and counts["清一色"] == 1
    assert sum(counts.values()) == (await ledger.lookback.player_stats(CHAT, xiaoming.id)).wins == 4
    seat, result = wins[-1]  # the oldest: hand 1, 清一色 self-drawn
    assert seat == "E" and winning_patterns(result, seat) == ["清一色"]


def test_the_font_picker_falls_back_without_a_cjk_font(
        tmp_path: Path, caplog: pytest.LogCaptureFixture,
        monkeypatch: pytest.MonkeyPatch) -> None:
    none = fonts.pick_font([str(tmp_path)])  # a folder with no fonts at all
    assert not none.cjk and none.family == fonts.BASE_FAMILY
    assert not none.can_draw("小明") and none.can_draw("bob")
    assert drawing.label(none, "zh-Hans", "小明", "E") == "E"
    assert drawing.label(none, "zh-Hans", "bob", "S") == "bob"
    assert drawing.ui(none, "zh-Hans", "biggest hand") == "biggest hand"
    real = fonts.pick_font
    monkeypatch.setattr(fonts, "pick_font", lambda: real([str(tmp_path)]))
    monkeypatch.setattr(fonts, "_chosen", [])
    with caplog.at_level(logging.WARNING, logger="bot.pictures.fonts"):
        assert not fonts.chosen().cjk
        assert fonts.chosen() is fonts.chosen()  # picked once
    warnings = [r for r in caplog.records if "fonts-noto-cjk" in r.getMessage()]
    assert len(warnings) == 1


def test_the_project_brings_its_own_cjk_font() -> None:
    """Installed with the project's dependencies, it is the one picked, whatever the
    system has."""
    path = fonts.bundled_font_path()
    assert path is not None and Path(path).name == fonts.BUNDLED_FILE
    font = fonts.pick_font()
    assert font.cjk and font.path == path and font.family == "Noto Sans SC"
    assert font.can_draw("老王 付给 carol 2.00：+105（296.00）杠上花、平胡 · 东南西北")


def installed_cjk_file() -> str | None:
    """A CJK font file on this machine, asked of fontconfig and of matplotlib's list
    independently of the picker."""
    fc_list = shutil.which("fc-list")
    if fc_list:
        out = subprocess.run([fc_list, ":lang=zh-cn", "file"], capture_output=True, text=True,
                             timeout=60, check=False).stdout
        files = sorted(line.rstrip(": ") for line in out.splitlines() if "CJK" in line)
        if files:
            return files[0]
    for entry in font_manager.fontManager.ttflist:
        if entry.name in fonts.CJK_FAMILIES:
            return str(entry.fname)
    return None


def skip_without_cjk_font() -> str:
    path = installed_cjk_file()
    if path is None:
        # CI installs fonts-noto-cjk and sets this, so there the font test cannot skip.
        assert not os.environ.get("TALLY_REQUIRE_CJK_FONT"), "no CJK font found, yet required"
        pytest.skip("no CJK font on this machine (apt-get install fonts-noto-cjk)")
    return path


def test_a_cjk_font_draws_chinese_names_when_installed() -> None:
    skip_without_cjk_font()
    font = fonts.pick_font()
    assert font.cjk and font.can_draw("小明 付给 大卫")
    assert drawing.label(font, "zh-Hans", "小明", "E") == "小明"
    assert drawing.ui(font, "zh-Hans", "biggest hand") == "单盘最高"
    cjk_dir = str(Path(font.path).parent)
    assert fonts.pick_font([cjk_dir]).cjk  # pointed at the font's folder, it is found


def test_a_pattern_chart_without_wins_draws_no_scale(monkeypatch: pytest.MonkeyPatch) -> None:
    """A player with no win yet: the words say so, and no axis of -0.045 … 0.045 counts
    wins that are not there."""
    figures = kept_figures(monkeypatch)
    drawing.patterns_chart("alice", [], 0, "en", fonts.pick_font())
    ax = figures[-1].axes[0]
    assert len(ax.get_xticks()) == 0 and ax.get_xlabel() == ""
    assert [x.get_text() for x in ax.texts] == ["No wins yet."]


def fake_fc_list(folder: Path, script: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """An ``fc-list`` that runs ``script``, first on the PATH."""
    folder.mkdir()
    fake = folder / "fc-list"
    fake.write_text("#!/bin/sh\n" + script + "\n")
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{folder}{os.pathsep}{os.environ.get('PATH', '')}")


def test_a_font_installed_after_matplotlib_listed_its_fonts_is_found(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = skip_without_cjk_font()
    # A font file matplotlib's cached list has never seen, which fontconfig reports.
    fresh = tmp_path / "fonts" / ("Fresh" + Path(real).suffix)
    fresh.parent.mkdir()
    fresh.symlink_to(real)
    monkeypatch.setattr(font_manager.fontManager, "ttflist",
                        list(font_manager.fontManager.ttflist))  # restored afterwards
    assert all(entry.fname != str(fresh) for entry in font_manager.fontManager.ttflist)
    fake_fc_list(tmp_path / "bin", f"printf '%s\\tNoto Sans CJK SC\\tRegular\\n' '{fresh}'",
                 monkeypatch)
    font = fonts.pick_font(bundled=False)  # the system's fonts, not the project's own
    assert font.cjk and font.path == str(fresh) and font.can_draw("小明")
    assert any(entry.fname == str(fresh) for entry in font_manager.fontManager.ttflist)
    assert png_size(drawing.patterns_chart("小明", [("清一色", 1)], 1, "zh-Hans", font,
                                           {})) == drawing.CHART_SIZE


def test_fontconfig_missing_failing_or_hanging_gives_no_files(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # no fc-list at all
    assert fonts.fontconfig_cjk_files() == []
    fake_fc_list(tmp_path / "fails", "echo broken >&2; exit 1", monkeypatch)
    assert fonts.fontconfig_cjk_files() == []
    fake_fc_list(tmp_path / "hangs", "exec sleep 60", monkeypatch)
    monkeypatch.setattr(fonts, "FC_TIMEOUT", 0.2)
    assert fonts.fontconfig_cjk_files() == []
    assert fonts.pick_font([str(tmp_path)]).family == fonts.BASE_FAMILY


async def test_pictures_are_pngs_of_their_sizes(ledger: Ledger, tmp_path: Path) -> None:
    await _night(ledger)
    summary = await ledger.nights.end_night(CHAT)
    night = await ledger.series.night_chart(CHAT)
    nights, names = await ledger.series.night_nets(CHAT)
    for font in (fonts.pick_font(), fonts.pick_font([str(tmp_path)])):
        for lang in ("zh-Hans", "en"):
            assert png_size(draw_night(night, lang, font)) == drawing.CHART_SIZE
            card = card_of(night, summary, "周五麻将", lang)
            assert png_size(drawing.settle_card(card, lang, font)) == drawing.CARD_SIZE
            assert png_size(drawing.standings_chart(standings_series(nights, names), lang,
                                                    font)) == drawing.CHART_SIZE
            counts = [("清一色", 3), ("七对", 1)]
            assert png_size(drawing.patterns_chart("小明", counts, 4, lang, font,
                                                   {"清一色": "one suit"})) == drawing.CHART_SIZE
    zh = card_of(night, summary, "周五麻将", "zh-Hans")
    assert zh.biggest is not None and zh.biggest[3] == ("清一色", "自摸")
    assert card.biggest is not None and card.biggest[3] == ("one suit 清一色", "self-draw 自摸")
    assert [n.points for n in card.nets] == sorted(summary.nets.values(), reverse=True)
    assert sum(n.points for n in card.nets) == 0


async def test_the_card_names_patterns_in_the_chats_words(ledger: Ledger) -> None:
    """An English chat's card names the biggest hand's patterns in English with the Chinese
    beside, as its answers do; a Chinese chat's, in Chinese."""
    await _night(ledger)
    summary = await ledger.nights.end_night(CHAT)
    night = await ledger.series.night_chart(CHAT)
    english = card_of(night, summary, "Friday", "en").biggest
    assert english is not None and english[3] == ("one suit 清一色", "self-draw 自摸")
    chinese = card_of(night, summary, "周五麻将", "zh-Hans").biggest
    assert chinese is not None and chinese[3] == ("清一色", "自摸")


async def test_dollar_signs_are_drawn_as_written(ledger: Ledger,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """A name or a chat title between two "$" is text, not a formula for matplotlib (which
    failed the picture on one it could not parse)."""
    names = ["$x^$", "$\\frac{a$", "$5 or $10", "dave"]
    await _night(ledger, seated=[PlayerRef(name=n, telegram_id=i + 1)
                                 for i, n in enumerate(names)])
    summary = await ledger.nights.end_night(CHAT)
    night = await ledger.series.night_chart(CHAT)
    nights, who = await ledger.series.night_nets(CHAT)
    figures = kept_figures(monkeypatch)
    font = fonts.pick_font()
    draw_night(night, "en", font)
    drawing.settle_card(card_of(night, summary, "Friday $\\sqrt{$ game", "en"), "en", font)
    drawing.standings_chart(standings_series(nights, who), "en", font)
    drawing.patterns_chart("$x^$", [("清一色", 3)], 3, "en", font, {"清一色": "one suit"})
    drawn = [[x.get_text() for x in fig.findobj(Text)] for fig in figures]
    assert all(any("$x^$" in x for x in texts) for texts in drawn), drawn
    assert any("Friday $\\sqrt{$ game" in x for x in drawn[1]), drawn[1]


NEWCOMERS = ["alice", "grace", "heidi", "张三丰", "ivan", "judy", "李四", "mallory", "niaj",
             "olivia", "peggy", "王五"]


@pytest.mark.parametrize("lang", ["zh-Hans", "en"])
async def test_a_night_of_max_people_draws_each_line_its_own_look(
        ledger: Ledger, monkeypatch: pytest.MonkeyPatch, lang: str) -> None:
    """Seat changes bring the night up to the most people it may hold
    (storage.services.open_nights.MAX_PEOPLE), each with a line of their own: no two lines share a
    colour and a line style (the colours run out at eight; a colour came back for a
    second person, and the legend could not tell them apart), and the legend names
    everyone, beside the chart and inside the picture."""
    assert 4 + len(NEWCOMERS) == MAX_PEOPLE
    assert len(drawing.COLORS) * len(drawing.STYLES) >= MAX_PEOPLE
    await ledger.open_nights.open_night(CHAT, SEATED, preset="changsha")
    await ledger.hands.record(CHAT, win("self_draw", "S", birds=[2]))
    for n, name in enumerate(NEWCOMERS):
        await ledger.open_nights.change_seat(CHAT, "ESWN"[n % 4], PlayerRef(name=name))
        await ledger.hands.record(CHAT, win("self_draw", "ESWN"[(n + 1) % 4], birds=[2]))
    night = await ledger.series.night_chart(CHAT)
    figures = kept_figures(monkeypatch)
    font = fonts.pick_font()
    png = draw_night(night, lang, font)
    assert png_size(png) == drawing.CHART_SIZE
    if os.environ.get("TALLY_KEEP_PICTURES"):  # to look at it
        Path(os.environ["TALLY_KEEP_PICTURES"], f"night-{MAX_PEOPLE}-{lang}.png").write_bytes(png)
    fig = figures[0]
    ax = fig.axes[0]
    people = ax.get_lines()[:MAX_PEOPLE]  # a line per person is drawn first
    looks = [(to_hex(x.get_color()), x.get_linestyle()) for x in people]
    assert len(set(looks)) == MAX_PEOPLE, looks
    assert len({x.get_label() for x in people}) == MAX_PEOPLE
    names = [str(x.get_label()).rsplit(" ", 1)[0] for x in people]
    for who in ("alice", "张三丰", "bob", "grace", "carol", "heidi"):
        assert drawing.label(font, lang, who, None) in names or not font.can_draw(who), names
    legend = ax.get_legend()
    assert legend is not None
    shown = {t.get_text(): (to_hex(h.get_color()), h.get_linestyle())
             for t, h in zip(legend.get_texts(), legend.legend_handles, strict=True)
             if isinstance(h, Line2D)}
    assert {str(x.get_label()): look for x, look in zip(people, looks, strict=True)
            }.items() <= shown.items()  # everyone, in the look of their line
    fig.canvas.draw()
    width, height = fig.canvas.get_width_height()
    box = legend.get_window_extent()
    assert box.x0 >= 0 and box.x1 <= width and box.y0 >= 0 and box.y1 <= height, box.bounds
    assert box.x0 > ax.get_window_extent().x1  # beside the chart, not over it


def test_a_card_with_long_names_and_no_transfers_still_fits() -> None:
    font = fonts.pick_font()
    who = drawing.CardNet("名" * 64, "E", 0, 0)
    card = drawing.Card(date=datetime(2026, 1, 1, tzinfo=UTC), table="<b>" * 30, night=999999,
                        preset="chengdu", stake_cents=10**9, hands=10**6,
                        nets=(who,) * 4, transfers=(), biggest=(who, 10**9, 10**6, ("x",) * 50))
    assert png_size(drawing.settle_card(card, "en", font)) == drawing.CARD_SIZE


def _crowded_card(players: int) -> drawing.Card:
    """A night with ``players`` people, every one owing or owed (the most transfers: one
    fewer than the people), names as long as a card draws, huge amounts, a long table
    title, many stakes and a biggest hand with many patterns."""
    nets = tuple(drawing.CardNet(f"{'名' * 14}{i:02d}", None, (1 if i % 2 else -1) * (10**8 + i),
                                 (1 if i % 2 else -1) * 10**12) for i in range(players))
    transfers = tuple(drawing.CardTransfer(nets[i], nets[i + 1], 10**9, 10**12)
                      for i in range(players - 1))
    return drawing.Card(date=datetime(2026, 1, 1, tzinfo=UTC), table="周五晚上的麻将局" * 6,
                        night=999999, preset="chengdu", stake_cents=10**9, hands=100000,
                        nets=nets, transfers=transfers,
                        biggest=(nets[0], 10**9, 100000, ("清七对", "清一色", "龙七对", "将对",
                                                          "金钩钓", "海底捞月", "杠上花")),
                        stakes=tuple(range(50, 1050, 50)))


@pytest.mark.parametrize(("players", "lang"), [(12, "zh-Hans"), (12, "en"),
                                                (MAX_PEOPLE, "zh-Hans"), (MAX_PEOPLE, "en")])
def test_a_crowded_card_fits(monkeypatch: pytest.MonkeyPatch, players: int,
                             lang: str) -> None:
    """Up to 12 players (the fewest transfers are exact up to 12: 11 of them), and up to
    the most people a night may hold (storage.services.open_nights.MAX_PEOPLE, every one owing or
    owed), the card grows and tightens to show everyone and every transfer. No text leaves
    the card or runs into another or into the footer."""
    figures = kept_figures(monkeypatch)
    font = fonts.pick_font()
    card = _crowded_card(players)
    width, height = png_size(drawing.settle_card(card, lang, font))
    assert width == drawing.CARD_SIZE[0]
    assert drawing.CARD_SIZE[1] < height <= drawing.CARD_MAX_HEIGHT
    footer = "麻将记分" if lang == "zh-Hans" else "Mahjong Tally"
    assert layout_problems(figures[0], footer) == []
    drawn = [x.get_text() for x in figures[0].texts]
    assert sum(x in {n.name for n in card.nets} for x in drawn) == players, drawn
    transfers = [x for x in drawn if x.endswith((" 分", " points"))]
    assert len(transfers) == players - 1, drawn
    assert not any(x.startswith(("……", "…and")) for x in drawn), drawn  # none left out
    assert any("海底捞月" in x for x in drawn), drawn


def test_a_drawn_figure_is_freed_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A figure is a reference cycle holding its pixels (5.8 MB for the card); with the
    collector tuned to run rarely (bot.ops.collector), it must not wait for it."""
    made: list[weakref.ref[Figure]] = []
    figure = drawing._figure

    def recorded(size: tuple[int, int]) -> Figure:
        fig = figure(size)
        made.append(weakref.ref(fig))
        return fig

    monkeypatch.setattr(drawing, "_figure", recorded)
    who = drawing.CardNet("alice", "E", 10, 0)
    card = drawing.Card(date=datetime(2026, 1, 1, tzinfo=UTC), table="t", night=1,
                        preset="chengdu", stake_cents=100, hands=4, nets=(who,) * 4,
                        transfers=(), biggest=(who, 10, 1, ("x",)))
    gc.disable()  # no automatic collection: only what drawing does itself
    try:
        drawing.settle_card(card, "en", fonts.pick_font())
        assert len(made) == 1 and made[0]() is None
    finally:
        gc.enable()


async def test_an_mcr_cards_biggest_hand_names_its_fans_by_both_names(ledger: Ledger) -> None:
    """The settle-up card of an MCR night lists the biggest hand's fans, each by its
    Chinese and English names (as the answers do), whether counted from the tiles or
    named with a fan count; a count that names none is its fan."""
    await ledger.open_nights.open_night(CHAT, SEATED, preset="mcr")
    tiles = {"standing": "55m456p23789s", "winning_tile": "4s",
             "melds": [{"tiles": "123m"}]}
    for hand in ({"seat": "S", "mcr": tiles},  # GB1: 花龙 8, 平和 2
                 {"seat": "E", "patterns": ["清龙", "清一色"], "mcr": {"fan": 42, "flowers": 2}},
                 {"seat": "N", "mcr": {"fan": 9}}):
        await ledger.hands.record(CHAT, {"type": "win", "how": "discard", "from_seat": "W",
                                         "winners": [hand]})
    summary = await ledger.nights.end_night(CHAT)
    night = await ledger.series.night_chart(CHAT)
    wins = {row.number: row.result for row in night.hands}
    assert winning_patterns(wins[1], "S") == ["花龙", "平和"]
    assert winning_patterns(wins[3], "N") == ["9番"]
    card = card_of(night, summary, "国标", "en")
    assert card.biggest is not None and card.biggest[2] == 2
    assert card.biggest[3] == ("清龙 Pure Straight", "清一色 Full Flush")
    # A Chinese chat: the Chinese names alone.
    zh = card_of(night, summary, "国标", "zh-Hans").biggest
    assert zh is not None and zh[3] == ("清龙", "清一色")
