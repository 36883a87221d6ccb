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

# matplotlib (with numpy, its figure and the Agg canvas) is imported with the first
# picture, not at start: a second of CPU that a process drawing nothing (a bot that just
# started, each webhook worker, every bot process the tests start) does without.
if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.axis import Axis
    from matplotlib.figure import Figure

from bot.pictures.fonts import Font
from bot.pictures.picture_data import NightSeries, StandingsSeries
from bot.text.amounts import preset_in_cents, signed_points
from bot.text.i18n import is_chinese, money, nt, signed, t
from bot.text.render_money import points_at_stakes, signed_money
from bot.text.words import preset_name, said
from engine.models import Seat

DPI = 100
CHART_SIZE = (1200, 675)  # pixels: the night, standings and pattern pictures
CARD_SIZE = (1080, 1350)  # pixels: the settle-up card (4:5, as chat apps show photos)
SEAT_ZH = {"E": "东", "S": "南", "W": "西", "N": "北"}
COLORS = ("#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2",
          "#17becf")
# Past the colours a line takes them again in another style: dashed with square marks,
# then dash-dotted with triangles (a night holds up to open_nights.MAX_PEOPLE people,
# each with a line of their own; no two look alike up to 24).
STYLES = (("-", "o"), ("--", "s"), ("-.", "^"))
MAX_NAME = 16  # characters of a name drawn

_lock = threading.Lock()


def line_look(i: int) -> tuple[str, str, str]:
    """The ``i``-th line's colour, line style and marker: every colour solid first, then
    each again in the next style."""
    style, marker = STYLES[i // len(COLORS) % len(STYLES)]
    return COLORS[i % len(COLORS)], style, marker


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
    zh = said(lang, SEAT_ZH[seat])  # 東 in zh-Hant
    return zh if is_chinese(lang) and font.can_draw(zh) else seat


def amount(cents: int) -> str:
    """Money as every reply writes it: no currency sign (a table plays in its own)."""
    return ("-" if cents < 0 else "") + money(abs(cents))


def preset_label(font: Font, lang: str, preset: str) -> str:
    """The preset's name in the chat's language, or in English when the font cannot."""
    text = preset_name(lang, preset)
    return text if font.can_draw(text) else preset_name("en", preset)


def _counts(axis: Axis) -> None:
    """Ticks at whole numbers only (points, wins): never 0.25 of a win."""
    from matplotlib.ticker import MaxNLocator

    axis.set_major_locator(MaxNLocator(integer=True))


def _never_flat(ax: Axes) -> None:
    """An axis whose lines are all at one value (a night without a hand) spans one unit
    either side of it, not a sliver labelled ``1e-17``."""
    if ax.dataLim.height < 1e-9:
        y = round(ax.dataLim.y0, 6)
        ax.set_ylim(y - 1, y + 1)


def _figure(size: tuple[int, int]) -> Figure:
    from matplotlib.figure import Figure

    return Figure(figsize=(size[0] / DPI, size[1] / DPI), dpi=DPI, facecolor="white")


def _png(fig: Figure) -> bytes:
    """The figure drawn, as an RGB PNG: every picture is opaque (a white figure), so its
    alpha channel said nothing, yet took a quarter of the pixels to filter and compress
    (a tenth more bytes, a quarter more time to encode)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from PIL import Image

    canvas = FigureCanvasAgg(fig)
    canvas.draw()  # type: ignore[no-untyped-call]
    pixels = canvas.buffer_rgba()  # type: ignore[no-untyped-call]
    rgba = Image.frombuffer("RGBA", canvas.get_width_height(), pixels, "raw", "RGBA", 0, 1)
    buf = io.BytesIO()
    rgba.convert("RGB").save(buf, format="png", dpi=(DPI, DPI))
    return buf.getvalue()


def _render(font: Font, draw: Callable[[Figure], object], size: tuple[int, int]) -> bytes:
    from matplotlib import rc_context

    # Every text is drawn as written: a chat title or a name between two "$" is no
    # formula for matplotlib to parse (one it cannot parse would fail the picture).
    with _lock, rc_context({"font.family": "sans-serif", "font.sans-serif": font.families,
                            "axes.unicode_minus": False, "text.parse_math": False}):
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


def night_chart(series: NightSeries, who: NightLabels, lang: str, font: Font, *,
                money: bool = False, cents: bool = False) -> bytes:
    """Each player's running total after every hand (who took a seat during the night
    has a line of their own); dashed lines where the dealer changed; a star on the
    biggest hand; a grey band over each voided hand, where the lines stay flat. The title
    counts the hands as /end does, voided ones included, and says how many were void.
    With ``money`` the totals are money (cents; a night whose stake changed); with
    ``cents`` its points are cents of the table's money (Singapore, Hong Kong), drawn as
    money, the biggest hand too."""
    money = money or cents

    def shown(y: int) -> float:
        return y / 100 if money else y

    def draw(fig: Figure) -> None:
        ax = fig.add_axes((0.07, 0.1, 0.72, 0.8))
        xs = list(series.hands)
        for i, (pid, ys) in enumerate(series.totals.items()):  # four, three, or more
            name = label(font, lang, who.names[pid], series.seats[pid])
            last = next(y for y in reversed(ys) if y is not None)
            color, style, marker = line_look(i)
            ax.plot(xs, [float("nan") if y is None else shown(y) for y in ys], color=color,
                    linestyle=style, linewidth=2.2, marker=marker if len(xs) <= 60 else None,
                    markersize=3.5,
                    label=f"{name} {signed_money(last) if money else signed(last)}")
        for n, number in enumerate(series.void):  # the segment that leads to its point
            ax.axvspan(number - 1, number, color="#dddddd", alpha=0.6, linewidth=0,
                       label=ui(font, lang, "voided hand") if n == 0 else None)
        for n, number in enumerate(series.dealer_changes):
            ax.axvline(number - 0.5, color="#888888", linestyle=":", linewidth=1,
                       label=ui(font, lang, "dealer changes") if n == 0 else None)
        if series.biggest is not None:
            number, pid, points = series.biggest
            at = series.hands.index(number)
            y = shown(series.totals[pid][at] or 0)  # the winner played that hand: not None
            ax.plot([number], [y], marker="*", markersize=20, color="#f2b01e",
                    markeredgecolor="black", linestyle="none",
                    label=ui(font, lang, "biggest hand"))
            # Its label stays inside the chart: leftwards in the chart's right half.
            right = number > (xs[0] + xs[-1]) / 2
            won = amount(points) if cents else str(points)
            ax.annotate(f"{label(font, lang, who.names[pid], series.seats[pid])} +{won}",
                        (number, y), textcoords="offset points",
                        xytext=(-10, 10) if right else (10, 10),
                        ha="right" if right else "left", fontsize=11, fontweight=font.bold)
        ax.axhline(0, color="black", linewidth=0.8)
        ax.margins(y=0.12)  # room for the biggest hand's label
        _never_flat(ax)
        ax.set_xlabel(ui(font, lang, "Hand"))
        ax.set_ylabel(ui(font, lang, "Money") if money else ui(font, lang, "Points"))
        ax.grid(alpha=0.3)
        if not money:
            _counts(ax.yaxis)
        if len(xs) <= 30:
            ax.set_xticks(xs)
        else:
            _counts(ax.xaxis)
        hands, void = len(xs) - 1, len(series.void)
        title = nui(font, lang, "Night {night}: {preset}, {hands} hand ({void} void)",
                    "Night {night}: {preset}, {hands} hands ({void} void)", hands,
                    night=who.night, preset=preset_label(font, lang, who.preset),
                    hands=hands, void=void) if void else nui(
            font, lang, "Night {night}: {preset}, {hands} hand",
            "Night {night}: {preset}, {hands} hands", hands, night=who.night,
            preset=preset_label(font, lang, who.preset), hands=hands)
        ax.set_title(title, fontsize=15)
        # long enough a sample to show a line's dashes
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=12, frameon=False,
                  handlelength=3)

    return _render(font, draw, CHART_SIZE)


# -- the settle-up card ------------------------------------------------------------------------


@dataclass(frozen=True)
class CardNet:
    name: str
    seat: Seat | None
    points: int
    cents: int
    # (stake in cents, points at it): a night whose stake changed, its points never added
    points_at: tuple[tuple[int, int], ...] = ()


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
    stake_table: str = ""  # Singapore: the stake table its money follows (20/40)


# The card is laid out from its content, in pixels from the top: the rows' steps tighten
# (down to CARD_TIGHT of their ease) before the card grows taller, up to CARD_MAX_HEIGHT
# (the longest side Telegram keeps of a photo); beyond that the whole text shrinks, down to
# CARD_MIN_SCALE, and a night with still more players lists its last ones as "and N more".
CARD_MAX_HEIGHT = 2560
CARD_TIGHT = 0.7
CARD_MIN_SCALE = 0.5
CARD_BAND = 189  # the red band at the top
CARD_FOOT = 80  # the footer's strip at the bottom
CARD_MAX_ROWS = 60  # players (and transfers) drawn at most
CARD_STAKES = 6  # stakes named in the head line; more are elided in the middle
_PT = DPI / 72  # pixels per point
# The card measures its texts to fit them (at 1 ms and more each: a text is laid out glyph
# by glyph), many of them again and again (a name, a line being wrapped, the same labels
# on every card): the widths measured, by font (its files), text, size and weight, are
# kept (under _lock, as every picture draws), up to _WIDTHS_KEPT of them, then measured
# anew.
_WIDTHS_KEPT = 10_000
_widths: dict[tuple[Font, str, float, str], float] = {}


@dataclass(frozen=True)
class _Row:
    """One row of the card: its texts (x as a fraction of the width, text, size in
    points, matplotlib keywords) and the pixels it moves down, eased."""

    texts: tuple[tuple[float, str, float, dict[str, object]], ...]
    step: float
    gap: float = 0.0  # space before the row, eased

    @property
    def size(self) -> float:
        """The pixels its tallest text takes, line spacing included."""
        return max(s for _x, _t, s, _k in self.texts) * _PT * 1.45

    def moved(self, ease: float) -> float:
        """The pixels the row moves down, eased but never onto the next row."""
        return max(self.step * ease, self.size) + self.gap * ease


def _stakes(stakes: Sequence[int], sep: str) -> str:
    shown = [amount(x) for x in stakes]
    if len(shown) > CARD_STAKES:
        shown = [*shown[:3], "…", *shown[-2:]]
    return sep.join(shown)


def settle_card(card: Card, lang: str, font: Font) -> bytes:
    """Date, table, preset, stake; each player's net in points and money; the fewest
    transfers; the biggest hand with its patterns. A night whose stake changed names its
    stakes and gives the transfers in money only (points at two stakes do not add up).
    Every text fits the card: long ones shrink or wrap, many rows tighten, then the card
    grows (see CARD_MAX_HEIGHT)."""

    def name(n: CardNet) -> str:
        return label(font, lang, n.name, n.seat)

    from matplotlib.font_manager import FontProperties
    from matplotlib.patches import Rectangle

    width = CARD_SIZE[0]

    def draw(fig: Figure) -> None:
        from matplotlib.backends.backend_agg import FigureCanvasAgg

        renderer = FigureCanvasAgg(fig).get_renderer()  # type: ignore[no-untyped-call]

        def measure(text: str, size: float, weight: str = "normal") -> float:
            key = (font, text, size, weight)
            width = _widths.get(key)
            if width is None:
                w, _h, _d = renderer.get_text_width_height_descent(
                    text, FontProperties(size=size, weight=weight), ismath=False)
                if len(_widths) >= _WIDTHS_KEPT:
                    _widths.clear()
                width = _widths[key] = float(w)
            return width

        def fit(text: str, size: float, room: float, weight: str = "normal") -> float:
            """The size at which ``text`` fits ``room`` pixels (at most ``size``)."""
            w = measure(text, size, weight)
            return size if w <= room else size * room / w * 0.98

        def wrap(text: str, size: float, room: float) -> list[str]:
            """``text`` in lines that fit ``room``, broken after spaces and list marks."""
            pieces, cur = [], ""
            for ch in text:
                cur += ch
                if ch in " 、，,":
                    pieces.append(cur)
                    cur = ""
            pieces.append(cur)
            lines = [""]
            for piece in pieces:
                if lines[-1] and measure((lines[-1] + piece).rstrip(), size) > room:
                    lines.append(piece.lstrip())
                else:
                    lines[-1] += piece
            return [x.rstrip() for x in lines]

        text_room = width * 0.88
        rows: list[_Row] = []
        table = card.table if card.table and font.can_draw(card.table) else ""
        preset = preset_label(font, lang, card.preset)
        if len(card.stakes) > 1:
            sep = "、" if is_chinese(lang) and font.can_draw("、") else ", "
            head = nui(font, lang, "Night {night} · {preset} · {hands} hand · each hand at "
                       "its own stake ({stakes})", "Night {night} · {preset} · {hands} hands · "
                       "each hand at its own stake ({stakes})", card.hands, night=card.night,
                       preset=preset, hands=card.hands, stakes=_stakes(card.stakes, sep))
        elif card.stake_table:  # Singapore: money in the stake table's terms
            head = nui(font, lang, "Night {night} · {preset} · {hands} hand · stake table "
                       "{table}", "Night {night} · {preset} · {hands} hands · stake table "
                       "{table}", card.hands, night=card.night, preset=preset,
                       hands=card.hands, table=card.stake_table)
        elif preset_in_cents(card.preset):  # Hong Kong: the amounts are money already
            head = nui(font, lang, "Night {night} · {preset} · {hands} hand · in dollars and "
                       "cents", "Night {night} · {preset} · {hands} hands · in dollars and "
                       "cents", card.hands, night=card.night, preset=preset, hands=card.hands)
        else:
            head = nui(font, lang, "Night {night} · {preset} · {hands} hand · stake {stake}",
                       "Night {night} · {preset} · {hands} hands · stake {stake}",
                       card.hands, night=card.night, preset=preset, hands=card.hands,
                       stake=amount(card.stake_cents))
        if table:
            title = table[:40]
            rows.append(_Row(((0.06, title, fit(title, 22, text_room, font.bold),
                               {"fontweight": font.bold}),), 54))
        lines = wrap(head, 18, text_room)
        for i, line in enumerate(lines):
            rows.append(_Row(((0.06, line, fit(line, 18, text_room), {"color": "#444444"}),),
                             94.5 if i == len(lines) - 1 else 36))

        mixed = len(card.stakes) > 1

        def net_row(n: CardNet) -> _Row:
            value = n.cents if mixed else n.points
            color = "#1a7f37" if value > 0 else "#b22222" if value < 0 else "#444444"
            if mixed:  # the money, and beside it the points at each stake
                points, money_ = signed_money(n.cents), points_at_stakes(lang, n.points_at)
                if not font.can_draw(money_):
                    money_ = points_at_stakes("en", n.points_at)
                money_size = fit(money_, 20, width * 0.3)
            else:
                points, money_ = signed(n.points), amount(n.cents)
                if preset_in_cents(card.preset):  # the money alone, in the points' place
                    points, money_ = signed_points(n.cents, True), " "
                money_size = fit(money_, 30, width * 0.26)
            money_left = width * 0.92 - measure(money_, money_size)
            points_right = min(width * 0.62, money_left - 30)
            points_size = fit(points, 30, points_right - width * 0.4, font.bold)
            name_room = points_right - measure(points, points_size, font.bold) - 30 - width * 0.08
            who = name(n)
            return _Row(((0.08, who, fit(who, 30, name_room), {}),
                         (points_right / width, points, points_size,
                          {"ha": "right", "color": color, "fontweight": font.bold}),
                         (0.92, money_, money_size, {"ha": "right", "color": color})), 87.75)

        def transfer_row(tr: CardTransfer) -> _Row:
            said = ui(font, lang, "{payer} pays {payee} {money}", payer=name(tr.payer),
                      payee=name(tr.payee), money=amount(tr.cents))
            texts: list[tuple[float, str, float, dict[str, object]]] = []
            room = width * 0.84
            if tr.points is not None and not preset_in_cents(card.preset):
                pts = nui(font, lang, "{points} point", "{points} points", tr.points,
                          points=tr.points)
                size = fit(pts, 20, width * 0.25)
                room -= measure(pts, size) + 30
                texts.append((0.92, pts, size, {"ha": "right", "color": "#666666"}))
            return _Row(((0.08, said, fit(said, 26, room), {}), *texts), 74.25)

        def more_row(said: str, size: float) -> _Row:
            return _Row(((0.08, said, size, {"color": "#666666"}),), 60)

        net_rows = [net_row(n) for n in card.nets[:CARD_MAX_ROWS]]
        transfer_rows = [transfer_row(tr) for tr in card.transfers[:CARD_MAX_ROWS]]
        settle = [_Row(((0.06, ui(font, lang, "To settle up"), 24, {"fontweight": font.bold}),),
                       74.25, gap=27)]
        if not card.transfers:
            said = ui(font, lang, "Nobody owes anybody.")
            settle.append(_Row(((0.08, said, fit(said, 24, text_room), {}),), 67.5))
        tail: list[_Row] = []
        if card.biggest is not None:
            who, points, number, patterns = card.biggest
            tail.append(_Row(((0.06, ui(font, lang, "Biggest hand"), 24,
                               {"fontweight": font.bold}),), 74.25, gap=27))
            said = ui(font, lang, "{player}: +{points} (hand {number})",
                      player=name(who), number=number,
                      points=money(points) if preset_in_cents(card.preset) else points)
            tail.append(_Row(((0.08, said, fit(said, 24, width * 0.86), {}),), 67.5))
            drawn = [p for p in patterns if font.can_draw(p)][:6]
            if drawn:
                for line in wrap(" · ".join(drawn), 24, width * 0.86):
                    tail.append(_Row(((0.08, line, fit(line, 24, width * 0.86),
                                       {"color": "#b22222"}),), 50))

        def every(nets: int, transfers: int) -> list[_Row]:
            out = rows + net_rows[:nets]
            if nets < len(card.nets):
                left = len(card.nets) - nets
                out.append(more_row(nui(font, lang, "…and {count} more player",
                                        "…and {count} more players", left, count=left), 26))
            out += settle + transfer_rows[:transfers]
            if transfers < len(card.transfers):
                left = len(card.transfers) - transfers
                out.append(more_row(nui(font, lang, "…and {count} more transfer",
                                        "…and {count} more transfers", left,
                                        count=left), 24))
            return out + tail

        top = CARD_BAND + 40.5

        def needs(rows: list[_Row], ease: float) -> float:
            """The card's height: the band, the rows, the last row's text, the footer."""
            last = rows[-1]
            moved = sum(r.moved(ease) for r in rows[:-1]) + last.gap * ease
            return top + moved + last.size + CARD_FOOT

        def laid(rows: list[_Row]) -> tuple[float, float, float]:
            """The ease of the rows' steps, the text's scale and the card's height."""
            loose, tight = needs(rows, 1.0), needs(rows, CARD_TIGHT)
            if loose <= CARD_SIZE[1]:
                return 1.0, 1.0, CARD_SIZE[1]
            if tight <= CARD_SIZE[1]:
                ease = CARD_TIGHT + (1 - CARD_TIGHT) * (CARD_SIZE[1] - tight) / (loose - tight)
                return ease, 1.0, CARD_SIZE[1]
            if tight <= CARD_MAX_HEIGHT:
                return CARD_TIGHT, 1.0, tight
            scale = (CARD_MAX_HEIGHT - top - CARD_FOOT) / (tight - top - CARD_FOOT)
            return CARD_TIGHT, scale, CARD_MAX_HEIGHT

        nets, transfers = len(net_rows), len(transfer_rows)
        shown = every(nets, transfers)
        ease, scale, height = laid(shown)
        while scale < CARD_MIN_SCALE and nets > 1:  # the last players as "and N more"
            nets -= 1
            transfers = min(transfers, nets)
            shown = every(nets, transfers)
            ease, scale, height = laid(shown)

        fig.set_size_inches(width / DPI, height / DPI)
        band = CARD_BAND / height
        fig.patches.append(Rectangle(
            (0, 1 - band), 1, band, transform=fig.transFigure, color="#b22222", zorder=0))
        middle = 1 - CARD_BAND / 2 / height
        fig.text(0.06, middle, ui(font, lang, "Settle-up"), fontsize=40, color="white",
                 fontweight=font.bold, va="center")
        fig.text(0.94, middle, card.date.strftime("%Y-%m-%d"), fontsize=24, color="white",
                 ha="right", va="center")
        y = top
        for row in shown:
            y += row.gap * ease * scale
            for x, text, size, kw in row.texts:
                fig.text(x, 1 - y / height, text, fontsize=size * scale, va="top",
                         **kw)  # type: ignore[arg-type]
            y += (row.moved(ease) - row.gap * ease) * scale
        fig.text(0.5, 40.5 / height, ui(font, lang, "Mahjong Tally"), fontsize=16,
                 ha="center", color="#999999")

    return _render(font, draw, CARD_SIZE)


# -- across nights ---------------------------------------------------------------------------


def standings_chart(series: StandingsSeries, lang: str, font: Font,
                    money: bool = False) -> bytes:
    """Each player's net over the nights (with ``money``: in cents, the nights played at
    more than one stake)."""

    def draw(fig: Figure) -> None:
        ax = fig.add_axes((0.07, 0.1, 0.72, 0.8))
        xs = list(series.nights)
        order = sorted(series.lines, key=lambda p: -series.lines[p][-1])
        for i, pid in enumerate(order):
            ys = series.lines[pid]
            color, style, marker = line_look(i)
            last = signed_money(ys[-1]) if money else signed(ys[-1])
            ax.plot(xs, [y / 100 for y in ys] if money else ys, color=color, linestyle=style,
                    linewidth=2.2, marker=marker if len(xs) <= 40 else None, markersize=4,
                    label=f"{label(font, lang, series.names[pid], None)} {last}")
        ax.axhline(0, color="black", linewidth=0.8)
        _never_flat(ax)
        ax.set_xlabel(ui(font, lang, "Night"))
        ax.set_ylabel(ui(font, lang, "Money") if money else ui(font, lang, "Points"))
        ax.grid(alpha=0.3)
        if not money:
            _counts(ax.yaxis)
        if len(xs) <= 30:
            ax.set_xticks(xs)
        else:
            _counts(ax.xaxis)
        nights = len(xs) - 1
        ax.set_title(nui(font, lang, "Standings over {nights} night",
                         "Standings over {nights} nights", nights, nights=nights),
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
        if counts:
            ax.set_xlabel(ui(font, lang, "Wins"))
            _counts(ax.xaxis)
            ax.grid(axis="x", alpha=0.3)
        else:  # no scale to read (it drew -0.045 … 0.045): the words alone
            ax.set_xticks([])
            ax.text(0.5, 0.5, ui(font, lang, "No wins yet."), transform=ax.transAxes,
                    ha="center", fontsize=16)
        who = label(font, lang, player, None)
        ax.set_title(nui(font, lang, "{player}: {wins} win by pattern",
                         "{player}: {wins} wins by pattern", wins, player=who, wins=wins),
                     fontsize=15)

    return _render(font, draw, CHART_SIZE)
