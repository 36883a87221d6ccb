"""The pictures: a night's chart, the settle-up card, the standings chart and a player's
wins by pattern, as PNG bytes of fixed sizes.

Drawing is synchronous matplotlib (Agg, object API, no pyplot); the bot calls these
through ``asyncio.to_thread``. matplotlib's settings are process-wide, so one lock lets
one picture draw at a time. Every function takes the series to draw (see
:mod:`bot.pictures.picture_data`) and the :class:`bot.pictures.fonts.Font`, and draws
names the font cannot draw by seat.
"""

from __future__ import annotations

import gc
import io
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

import matplotlib

matplotlib.use("Agg")

from matplotlib import rc_context

# The figure and the Agg canvas are imported with the first picture, not at start: most of
# a second of CPU that a process drawing nothing (a bot that just started, each webhook
# worker, every bot process the tests start) does without.
if TYPE_CHECKING:
    from matplotlib.figure import Figure

from bot.pictures.fonts import Font
from bot.pictures.picture_data import NightSeries, StandingsSeries
from bot.text.i18n import money, nt, signed, t
from bot.text.words import preset_name
from engine.models import Seat

DPI = 100
CHART_SIZE = (1200, 675)  # pixels: the night, standings and pattern pictures
CARD_SIZE = (1080, 1350)  # pixels: the settle-up card (4:5, as chat apps show photos)
SEAT_ZH = {"E": "东", "S": "南", "W": "西", "N": "北"}
COLORS = ("#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2",
          "#17becf")
MAX_NAME = 16  # characters of a name drawn

_lock = threading.Lock()


def ui(font: Font, lang: str, msgid: str, **params: object) -> str:
    """A label in the chat's language, or in English when the font cannot draw it."""
    text = t(lang, msgid, **params)
    return text if font.can_draw(text) else t("en", msgid, **params)


def nui(font: Font, lang: str, singular: str, plural: str, n: int, **params: object) -> str:
    """:func:`ui` counting ``n``: "1 point", "2 points"."""
    text = nt(lang, singular, plural, n, **params)
    return text if font.can_draw(text) else nt("en", singular, plural, n, **params)


def label(font: Font, lang: str, name: str, seat: Seat | None) -> str:
    """A player's name as drawn: shortened, or their seat when the font cannot draw it."""
    short = name if len(name) <= MAX_NAME else name[: MAX_NAME - 1] + "…"
    if font.can_draw(short):
        return short
    if seat is None:
        return "?"
    zh = SEAT_ZH[seat]
    return zh if lang == "zh-Hans" and font.can_draw(zh) else seat


def amount(cents: int) -> str:
    """Money as every reply writes it: no currency sign (a table plays in its own)."""
    return ("-" if cents < 0 else "") + money(abs(cents))


def preset_label(font: Font, lang: str, preset: str) -> str:
    """The preset's name in the chat's language, or in English when the font cannot."""
    text = preset_name(lang, preset)
    return text if font.can_draw(text) else preset_name("en", preset)


def _figure(size: tuple[int, int]) -> Figure:
    from matplotlib.figure import Figure

    return Figure(figsize=(size[0] / DPI, size[1] / DPI), dpi=DPI, facecolor="white")


def _png(fig: Figure) -> bytes:
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    FigureCanvasAgg(fig)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI, metadata={"Software": None})
    return buf.getvalue()


def _render(font: Font, draw: Callable[[Figure], object], size: tuple[int, int]) -> bytes:
    with _lock, rc_context({"font.family": "sans-serif", "font.sans-serif": font.families,
                            "axes.unicode_minus": False}):
        fig = _figure(size)
        draw(fig)
        png = _png(fig)
        del fig
    # A figure and its canvas refer to each other, so a drawn figure with its pixels (a
    # settle-up card's 1080x1350 RGBA buffer is 5.8 MB) is freed only by the collector,
    # which runs its youngest generation every 50,000 allocations (bot.ops.collector): at
    # a night's end every few seconds, pictures piled up by the hundred MB
    # (bench/soak_bench.py). Collected here, at once (the young generations only).
    gc.collect(1)
    return png


# -- a night ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class NightLabels:
    names: dict[int, str]  # the players' names by id (who left the table included)
    night: int
    preset: str


def night_chart(series: NightSeries, who: NightLabels, lang: str, font: Font) -> bytes:
    """Each player's running total after every hand (who took a seat during the night
    has a line of their own); dashed lines where the dealer changed; a star on the
    biggest hand; a grey band over each voided hand, where the lines stay flat. The title
    counts the hands as /end does, voided ones included, and says how many were void."""

    def draw(fig: Figure) -> None:
        ax = fig.add_axes((0.07, 0.1, 0.72, 0.8))
        xs = list(series.hands)
        for i, (pid, ys) in enumerate(series.totals.items()):  # four, three, or more
            name = label(font, lang, who.names[pid], series.seats[pid])
            last = next(y for y in reversed(ys) if y is not None)
            ax.plot(xs, [float("nan") if y is None else y for y in ys],
                    color=COLORS[i % len(COLORS)], linewidth=2.2,
                    marker="o" if len(xs) <= 60 else None, markersize=3.5,
                    label=f"{name} {signed(last)}")
        for n, number in enumerate(series.void):  # the segment that leads to its point
            ax.axvspan(number - 1, number, color="#dddddd", alpha=0.6, linewidth=0,
                       label=ui(font, lang, "voided hand") if n == 0 else None)
        for n, number in enumerate(series.dealer_changes):
            ax.axvline(number - 0.5, color="#888888", linestyle=":", linewidth=1,
                       label=ui(font, lang, "dealer changes") if n == 0 else None)
        if series.biggest is not None:
            number, pid, points = series.biggest
            at = series.hands.index(number)
            y = series.totals[pid][at] or 0  # the winner played that hand: never None
            ax.plot([number], [y], marker="*", markersize=20, color="#f2b01e",
                    markeredgecolor="black", linestyle="none",
                    label=ui(font, lang, "biggest hand"))
            ax.annotate(f"{label(font, lang, who.names[pid], series.seats[pid])} +{points}",
                        (number, y), textcoords="offset points", xytext=(8, 10),
                        fontsize=11, fontweight="bold")
        ax.axhline(0, color="black", linewidth=0.8)
        ax.margins(y=0.12)  # room for the biggest hand's label
        ax.set_xlabel(ui(font, lang, "Hand"))
        ax.set_ylabel(ui(font, lang, "Points"))
        ax.grid(alpha=0.3)
        if len(xs) <= 30:
            ax.set_xticks(xs)
        hands, void = len(xs) - 1, len(series.void)
        title = nui(font, lang, "Night {night}: {preset}, {hands} hand ({void} void)",
                    "Night {night}: {preset}, {hands} hands ({void} void)", hands,
                    night=who.night, preset=preset_label(font, lang, who.preset),
                    hands=hands, void=void) if void else nui(
            font, lang, "Night {night}: {preset}, {hands} hand",
            "Night {night}: {preset}, {hands} hands", hands, night=who.night,
            preset=preset_label(font, lang, who.preset), hands=hands)
        ax.set_title(title, fontsize=15)
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=12, frameon=False)

    return _render(font, draw, CHART_SIZE)


# -- the settle-up card ------------------------------------------------------------------------


@dataclass(frozen=True)
class CardNet:
    name: str
    seat: Seat | None
    points: int
    cents: int


@dataclass(frozen=True)
class CardTransfer:
    payer: CardNet
    payee: CardNet
    points: int | None  # None: in money only (the stake changed during the night)
    cents: int


@dataclass(frozen=True)
class Card:
    date: datetime
    table: str  # the chat's title, or ""
    night: int
    preset: str
    stake_cents: int
    hands: int
    nets: tuple[CardNet, ...]  # best first
    transfers: tuple[CardTransfer, ...]
    biggest: tuple[CardNet, int, int, tuple[str, ...]] | None  # who, points, hand, patterns
    stakes: tuple[int, ...] = ()  # more than one: the stake changed during the night


def settle_card(card: Card, lang: str, font: Font) -> bytes:
    """Date, table, preset, stake; each player's net in points and money; the fewest
    transfers; the biggest hand with its patterns. A night whose stake changed names its
    stakes and gives the transfers in money only (points at two stakes do not add up)."""

    def name(n: CardNet) -> str:
        return label(font, lang, n.name, n.seat)

    from matplotlib.patches import Rectangle

    def draw(fig: Figure) -> None:
        fig.patches.append(Rectangle(
            (0, 0.86), 1, 0.14, transform=fig.transFigure, color="#b22222", zorder=0))
        fig.text(0.06, 0.935, ui(font, lang, "Settle-up"), fontsize=40, color="white",
                 fontweight="bold", va="center")
        fig.text(0.94, 0.935, card.date.strftime("%Y-%m-%d"), fontsize=24, color="white",
                 ha="right", va="center")
        table = card.table if card.table and font.can_draw(card.table) else ""
        preset = preset_label(font, lang, card.preset)
        if len(card.stakes) > 1:
            sep = "、" if lang == "zh-Hans" and font.can_draw("、") else ", "
            head = nui(font, lang, "Night {night} · {preset} · {hands} hand · each hand at "
                       "its own stake ({stakes})", "Night {night} · {preset} · {hands} hands · "
                       "each hand at its own stake ({stakes})", card.hands, night=card.night,
                       preset=preset, hands=card.hands,
                       stakes=sep.join(amount(x) for x in card.stakes))
        else:
            head = nui(font, lang, "Night {night} · {preset} · {hands} hand · {stake} a point",
                       "Night {night} · {preset} · {hands} hands · {stake} a point",
                       card.hands, night=card.night, preset=preset, hands=card.hands,
                       stake=amount(card.stake_cents))
        y = 0.83
        if table:
            fig.text(0.06, y, table[:40], fontsize=22, va="top", fontweight="bold")
            y -= 0.04
        fig.text(0.06, y, head, fontsize=18, va="top", color="#444444")
        y -= 0.07
        for n in card.nets:
            color = "#1a7f37" if n.points > 0 else "#b22222" if n.points < 0 else "#444444"
            fig.text(0.08, y, name(n), fontsize=30, va="top")
            fig.text(0.62, y, signed(n.points), fontsize=30, va="top", ha="right",
                     color=color, fontweight="bold")
            fig.text(0.92, y, amount(n.cents), fontsize=30, va="top", ha="right",
                     color=color)
            y -= 0.065
        y -= 0.02
        fig.text(0.06, y, ui(font, lang, "To settle up"), fontsize=24, va="top",
                 fontweight="bold")
        y -= 0.055
        if not card.transfers:
            fig.text(0.08, y, ui(font, lang, "Nobody owes anybody."), fontsize=24, va="top")
            y -= 0.05
        for tr in card.transfers:
            fig.text(0.08, y, ui(font, lang, "{payer} pays {payee} {money}", payer=name(
                tr.payer), payee=name(tr.payee), money=amount(tr.cents)), fontsize=26,
                va="top")
            if tr.points is not None:
                fig.text(0.92, y, nui(font, lang, "{points} point", "{points} points",
                                      tr.points, points=tr.points),
                         fontsize=20, va="top", ha="right", color="#666666")
            y -= 0.055
        if card.biggest is not None:
            who, points, number, patterns = card.biggest
            y -= 0.02
            fig.text(0.06, y, ui(font, lang, "Biggest hand"), fontsize=24, va="top",
                     fontweight="bold")
            y -= 0.055
            fig.text(0.08, y, ui(font, lang, "{player}: +{points} (hand {number})",
                                 player=name(who), points=points, number=number),
                     fontsize=24, va="top")
            y -= 0.05
            shown = [p for p in patterns if font.can_draw(p)][:6]
            if shown:
                fig.text(0.08, y, " · ".join(shown), fontsize=24, va="top", color="#b22222")
        fig.text(0.5, 0.03, ui(font, lang, "Mahjong Tally"), fontsize=16, ha="center",
                 color="#999999")

    return _render(font, draw, CARD_SIZE)


# -- across nights ---------------------------------------------------------------------------


def standings_chart(series: StandingsSeries, lang: str, font: Font) -> bytes:
    """Each player's net over the nights."""

    def draw(fig: Figure) -> None:
        ax = fig.add_axes((0.07, 0.1, 0.72, 0.8))
        xs = list(series.nights)
        order = sorted(series.lines, key=lambda p: -series.lines[p][-1])
        for i, pid in enumerate(order):
            ys = series.lines[pid]
            ax.plot(xs, ys, color=COLORS[i % len(COLORS)], linewidth=2.2,
                    marker="o" if len(xs) <= 40 else None, markersize=4,
                    label=f"{label(font, lang, series.names[pid], None)} {signed(ys[-1])}")
        ax.axhline(0, color="black", linewidth=0.8)
        ax.set_xlabel(ui(font, lang, "Night"))
        ax.set_ylabel(ui(font, lang, "Points"))
        ax.grid(alpha=0.3)
        if len(xs) <= 30:
            ax.set_xticks(xs)
        ax.set_title(ui(font, lang, "Standings over {nights} nights", nights=len(xs) - 1),
                     fontsize=15)
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=12, frameon=False)

    return _render(font, draw, CHART_SIZE)


def patterns_chart(player: str, counts: Sequence[tuple[str, int]], wins: int, lang: str,
                   font: Font, english: dict[str, str] | None = None) -> bytes:
    """A player's wins by pattern, most frequent on top."""

    def draw(fig: Figure) -> None:
        ax = fig.add_axes((0.25, 0.1, 0.68, 0.8))
        names = [n if font.can_draw(n) else (english or {}).get(n, "?") for n, _ in counts]
        values = [c for _, c in counts]
        ys = list(range(len(counts)))[::-1]
        ax.barh(ys, values, color="#b22222")
        ax.set_yticks(ys, names, fontsize=13)
        for y, v in zip(ys, values, strict=True):
            ax.text(v, y, f" {v}", va="center", fontsize=12)
        ax.set_xlabel(ui(font, lang, "Wins"))
        ax.grid(axis="x", alpha=0.3)
        if not counts:
            ax.text(0.5, 0.5, ui(font, lang, "No wins yet."), transform=ax.transAxes,
                    ha="center", fontsize=16)
        who = label(font, lang, player, None)
        ax.set_title(nui(font, lang, "{player}: {wins} win by pattern",
                         "{player}: {wins} wins by pattern", wins, player=who, wins=wins),
                     fontsize=15)

    return _render(font, draw, CHART_SIZE)
