"""Penalties and adjustments: events that are not play, settled the same for every family.

A false win (诈胡, also called 相公 at some tables) costs the false winner, to each other
player, what the family's reading in docs/rules/penalties.md says, unless the house rule
``false_win`` names the points:

- Sichuan: the most one win can cost, the cap (封顶; without one, 花猪's fan), as 花猪 pays.
- Changsha: a big self-draw (大胡自摸), with the dealer's premium where the dealer pays or
  is paid.
- Jiangxi (上饶飞宝): the largest base value of the table's hands (V0).
- Singapore/Malaysia: a self-draw at the cap (the stake table's zimo at ``cap_tai``).
- Points only (free): no reading; the house rule ``false_win`` must name the points.
- Hong Kong: a limit self-draw, two shares at the cap, in cents.

At an MCR table a false win is 错和 (``false_win`` to each other player, the offender out
of the hand), and a referee's fine for a foul (错吃, 错碰, 错杠, 超时, 亮牌, any other) is
paid by the offender to each other player, as many points as the referee says.

An adjustment moves the points it names; it must sum to zero.
"""

from __future__ import annotations

from engine.book import Book
from engine.errors import ReportError
from engine.families.singapore_stakes import amounts
from engine.families.state import HandState
from engine.models import Adjustment, Penalty, Seat
from engine.options import (
    ChangshaOptions,
    FreeOptions,
    HongKongOptions,
    JiangxiOptions,
    SichuanOptions,
    SingaporeOptions,
)
from engine.rules import Ruleset
from engine.share_table import share


def false_win_amount(rules: Ruleset, payer: Seat, payee: Seat, dealer: Seat
                     ) -> tuple[int, str]:
    """What the false winner pays one other player, and the reading it comes from."""
    opts = rules.options
    if opts.false_win:
        return opts.false_win * opts.base, "house"
    if isinstance(opts, SichuanOptions):
        fan = opts.cap_fan if opts.cap_fan is not None else opts.huazhu_fan
        points = opts.base * fan if opts.fan_to_points == "linear" else \
            opts.base * 2 ** (fan - 1)
        return points, "cap"
    if isinstance(opts, ChangshaOptions):
        premium = opts.dealer_premium if dealer in (payer, payee) else 0
        return opts.base * (opts.big_self_draw + premium), "big_self_draw"
    if isinstance(opts, JiangxiOptions):
        return opts.base * max(opts.values.values(), default=1), "top_value"
    if isinstance(opts, SingaporeOptions):
        return amounts(opts, opts.cap_tai)[1], "cap_self_draw"
    if isinstance(opts, FreeOptions):
        raise ReportError("false_win_unset", "this table scores points only: set the points "
                          "a false win costs (/set false_win=N), or use an adjustment")
    if isinstance(opts, HongKongOptions):
        return 2 * share(opts.cap_fan, opts.stake, opts.curve), "limit_self_draw"
    raise AssertionError(f"no false-win reading for {rules.family}")  # pragma: no cover


def _mcr_penalty(rules: Ruleset, state: HandState, ev: Penalty, book: Book) -> None:
    """MCR: a false win (错和) costs ``false_win`` to each other player and bars the
    offender from winning the hand; a foul costs the referee's fine to each other player.
    Either is a signed entry per player, summing to zero, in the hand's (and so the
    match's) table points."""
    opts = rules.options
    if ev.kind == "false_win":
        if ev.points is not None:
            raise ReportError("mcr_false_win_points", "错和 costs what the table's false_win "
                              "option says", points=opts.false_win * opts.base)
        amount = opts.false_win * opts.base
    elif ev.points is None:
        raise ReportError("mcr_fine_points", "say the fine: the points the offender pays "
                          "each other player", foul=ev.kind)
    else:
        amount = ev.points * opts.base
    book.line("mcr_penalty", seat=ev.seat, foul=ev.kind, amount=amount)
    reason = "mcr_false_win" if ev.kind == "false_win" else "mcr_foul"
    for other in state.seats:
        if other != ev.seat:
            book.pay(ev.seat, other, amount, reason)
    if ev.kind == "false_win" and ev.seat not in state.barred:
        state.barred.append(ev.seat)  # the hand goes on without them


def settle_penalty(rules: Ruleset, state: HandState, ev: Penalty, book: Book) -> None:
    """诈胡: the false winner pays each other player; play goes on. At an MCR table also
    the referee's fines for fouls (错吃, 错碰 …)."""
    if rules.family == "mcr":
        _mcr_penalty(rules, state, ev, book)
        return
    if ev.kind != "false_win" or ev.points is not None:
        raise ReportError("wrong_family", "fouls fined by a referee are the Chinese Official "
                          "rules' (MCR)", family="mcr", preset=rules.preset)
    amounts = {other: false_win_amount(rules, ev.seat, other, state.dealer)
               for other in state.seats if other != ev.seat}
    reading = next(iter(amounts.values()))[1]
    book.line("false_win", seat=ev.seat, reading=reading,
              amount=max(a for a, _ in amounts.values()))
    for other, (amount, _) in amounts.items():
        book.pay(ev.seat, other, amount, "false_win")


def settle_adjustment(ev: Adjustment, book: Book) -> None:
    """A correction: the points it names, with its reason."""
    if ev.reason:
        book.line("adjust", note=ev.reason)
    else:
        book.line("adjust_plain")
    for seat in book.deltas:
        if ev.deltas.get(seat):
            book.deltas[seat] += ev.deltas[seat]
            book.line("adjusted", seat=seat, points=f"{ev.deltas[seat]:+d}")
