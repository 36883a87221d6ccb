"""Points only (preset ``free``, docs/rules/free.md): the table says what a hand is worth.

A win off a discard with an amount (the discarder pays it), a self-draw (each other player
pays it), or the hand as each player's change (zero-sum). Nothing is scored from patterns.
"""

from __future__ import annotations

from engine.book import Book
from engine.errors import ReportError
from engine.families.registry import Family
from engine.families.state import HandState
from engine.models import Amounts, How, Seat, WallEnd, Win
from engine.options import FreeOptions

_SELF_DRAWN = (How.SELF_DRAW, How.KONG_REPLACEMENT)


def _next_dealer(state: HandState, dealer_won: bool) -> Seat:
    """The dealer deals again after winning; otherwise the next seat deals."""
    return state.dealer if dealer_won else state.next_seat(state.dealer)


def on_win(opts: FreeOptions, state: HandState, ev: Win, book: Book) -> None:
    if ev.birds or ev.loser_feibao or ev.jing or ev.prevailing:
        raise ReportError("free_amount_only", "this table scores points only: say who won, "
                          "how, and the amount")
    self_drawn = ev.how in _SELF_DRAWN
    if self_drawn and len(ev.winners) > 1:
        raise ReportError("one_self_draw", "only one player wins a self-draw")
    if not self_drawn and ev.from_seat is None:
        raise ReportError("needs_from", "say whose discard or kong it was")
    for w in ev.winners:
        extra = (w.patterns or w.fan or w.gen or w.kongs or w.tiles or w.melds or w.tai
                 or w.bonus_tai or w.bonus or w.feibao or w.kong_chain or w.feeder
                 or w.fourth_feeder or w.wild_used is not None)
        if extra:
            raise ReportError("free_amount_only", "this table scores points only: give the "
                              "amount, not patterns, tai or tiles")
        if w.amount is None:
            raise ReportError("needs_amount", f"say how many points {w.seat} wins",
                              seat=w.seat)
        book.line("win", seat=w.seat, how=ev.how.value)
        if self_drawn:
            book.line("worth_each", seat=w.seat, amount=w.amount)
            for s in state.seats:
                if s != w.seat:
                    book.pay(s, w.seat, w.amount, "win")
        else:
            payer: Seat = ev.from_seat  # type: ignore[assignment]
            book.line("worth_one", seat=w.seat, payer=payer, amount=w.amount)
            book.pay(payer, w.seat, w.amount, "win")
    winners = [w.seat for w in ev.winners]
    state.winners.extend(winners)
    state.closed = True
    state.next_dealer = _next_dealer(state, state.dealer in winners)


def on_amounts(opts: FreeOptions, state: HandState, ev: Amounts, book: Book) -> None:
    """The hand as each player's change: the dealer deals again if the dealer gained."""
    book.line("amounts")
    for seat in state.seats:
        points = ev.deltas.get(seat, 0)
        if points:
            book.deltas[seat] += points
            book.line("adjusted", seat=seat, points=f"{points:+d}")
    state.closed = True
    state.next_dealer = _next_dealer(state, ev.deltas.get(state.dealer, 0) > 0)


def on_draw(opts: FreeOptions, state: HandState, ev: WallEnd, book: Book) -> None:
    if ev.players:
        raise ReportError("wrong_family", "this table has no 花猪 or 查叫 at the wall")
    book.line("wall_end")
    state.closed = True
    state.next_dealer = (state.dealer if opts.draw_dealer == "stay"
                         else state.next_seat(state.dealer))


FAMILY = Family("free", FreeOptions, {
    Win: lambda o, st, ev, c: on_win(o, st, ev, c.book),
    Amounts: lambda o, st, ev, c: on_amounts(o, st, ev, c.book),
    WallEnd: lambda o, st, ev, c: on_draw(o, st, ev, c.book),
})
