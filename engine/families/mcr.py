"""Chinese Official (MCR): a win is worth its fans; under 8 without flowers it is a false
win (错和); the discarder pays 8 + fan, the others 8; a self-draw 8 + fan from each.
No dealer premium, no 连庄: the deal moves on after every hand."""

from __future__ import annotations

from engine.book import Book
from engine.errors import ReportError, foreign
from engine.families.registry import Family
from engine.families.state import HandState
from engine.mcr.count import Rules
from engine.mcr.fans import value_of
from engine.mcr.hand import GATE, Scored, score
from engine.models import How, McrHand, Seat, WallEnd, Win, WinnerHand
from engine.options import McrOptions
from engine.patterns import FAMILY_PATTERNS

BASE = 8  # 8 base points from every payer
_SELF_DRAWN = (How.SELF_DRAW, How.KONG_REPLACEMENT)


def rules_of(opts: McrOptions) -> Rules:
    return Rules(mixed_kong=opts.mixed_kong,
                 knitted_straight_waits=opts.knitted_straight_waits)


def _refuse_foreign(w: WinnerHand, ev: Win) -> None:
    if w.gen or w.kongs:
        raise foreign("sichuan", {"gen": w.gen, "kongs": w.kongs},
                      "根 and kong counts are not MCR's: give the melds")
    if w.feibao or w.kong_chain or w.feeder or w.fourth_feeder or w.wild_used is not None:
        raise foreign("jiangxi", {"wild_used": w.wild_used is not None or None,
                                  "feibao": w.feibao, "kong_chain": w.kong_chain,
                                  "feeder": w.feeder or w.fourth_feeder},
                      "飞宝, 连杠, 承包 and wildcards are not MCR's")
    if ev.birds:
        raise foreign("changsha", {"birds": ev.birds}, "birds are not MCR's")
    if ev.loser_feibao or ev.jing:
        raise foreign("jiangxi", {"loser_feibao": ev.loser_feibao, "jing": ev.jing},
                      "飞宝 and 精 belong to the Jiangxi family")
    if w.tiles is not None or w.melds:
        raise ReportError("mcr_tiles_field", "give an MCR hand's tiles as standing tiles, "
                          "melds and the winning tile")


def _hand(w: WinnerHand) -> McrHand:
    """The MCR hand of a report: its own part, or a fan count given as ``fan``."""
    if w.mcr is not None:
        if w.fan is not None:
            raise ReportError("mcr_two_counts", "give the fan count once")
        return w.mcr
    if w.fan is not None:
        return McrHand(fan=w.fan)
    raise ReportError("mcr_needs_fan", "give the tiles or the fan count")


def scored(opts: McrOptions, w: WinnerHand, how: How, dealer: Seat) -> Scored:
    """The winner's fans and total at these options (refusals as ReportError)."""
    for name in w.patterns:
        FAMILY_PATTERNS["mcr"].resolve(name)  # an unknown name is refused
    return score(_hand(w), w.seat, dealer, how in _SELF_DRAWN,
                 how in (How.ROB_KONG, How.KONG_REPLACEMENT), rules_of(opts))


def _named(opts: McrOptions, w: WinnerHand, s: Scored) -> list[tuple[str, str, int]]:
    """A fan count's named fans (Chinese, English, value), each once: what the table said
    it counted, never more than the count without flowers."""
    if s.from_tiles:
        return []
    named: list[tuple[str, str, int]] = []
    for name in w.patterns:
        p = FAMILY_PATTERNS["mcr"].resolve(name)
        if all(p.name != zh for zh, _, _ in named):
            named.append((p.name, p.english, value_of(p.name, opts.mixed_kong)))
    said = sum(v for _, _, v in named)
    if said > s.without_flowers:
        raise ReportError("mcr_named_over_fan", f"the fans named make {said} fan, more than "
                          f"the {s.without_flowers} counted without flowers", named=said,
                          fan=s.without_flowers)
    return named


def _explain(book: Book, seat: Seat, s: Scored, named: list[tuple[str, str, int]]) -> None:
    for f in s.fans:
        book.line("mcr_fan", seat=seat, zh=f.zh, en=f.en, value=f.value, times=f.times,
                  fan=f.value * f.times)
    for zh, en, fan in named:  # a fan count: the fans the table named, as it said them
        book.line("mcr_fan", seat=seat, zh=zh, en=en, value=fan, times=1, fan=fan)
    book.line("mcr_total", seat=seat, fan=s.total, flowers=s.flowers,
              without_flowers=s.without_flowers)


def on_win(opts: McrOptions, state: HandState, ev: Win, book: Book) -> None:
    if len(ev.winners) != 1:
        raise ReportError("mcr_one_winner", "one player wins a discard: the first in turn "
                          "after the discarder (截和)")
    w = ev.winners[0]
    _refuse_foreign(w, ev)
    if ev.how == How.KONG_REPLACEMENT and ev.from_seat is not None:
        raise ReportError("mcr_replacement_from", "杠上开花 is a self-draw: every other player "
                          "pays it")
    one_payer = ev.how in (How.DISCARD, How.ROB_KONG, How.AFTER_KONG_DISCARD)
    if one_payer and ev.from_seat is None:
        raise ReportError("needs_from", "say whose discard or kong it was")
    if w.seat in state.barred:
        raise ReportError("mcr_barred", f"{w.seat} made a false win this hand and may not win "
                          "in it", seat=w.seat)
    s = scored(opts, w, ev.how, state.dealer)
    named = _named(opts, w, s)
    book.line("win", seat=w.seat, how=ev.how.value)
    _explain(book, w.seat, s, named)
    if not s.passes_gate:
        fine = opts.false_win * opts.base
        book.line("mcr_under_gate", seat=w.seat, fan=s.without_flowers, gate=GATE,
                  amount=fine)
        for other in state.seats:
            if other != w.seat:
                book.pay(w.seat, other, fine, "mcr_false_win")
        state.barred.append(w.seat)  # the hand goes on without them
        return
    if opts.base != 1:
        book.line("per_unit", unit=opts.base)
    for payer in state.seats:
        if payer == w.seat:
            continue
        fan = s.total if not one_payer or payer == ev.from_seat else 0
        book.line("mcr_owes", payer=payer, payee=w.seat, base=BASE, fan=fan,
                  amount=(BASE + fan) * opts.base)
        book.pay(payer, w.seat, (BASE + fan) * opts.base, "win")
    state.winners.append(w.seat)
    state.still_in = [x for x in state.still_in if x != w.seat]
    state.closed = True
    state.next_dealer = state.next_seat(state.dealer)


def on_draw(opts: McrOptions, state: HandState, ev: WallEnd, book: Book) -> None:
    if ev.players:
        raise ReportError("wrong_family", "this family has no 花猪 or 查叫 at the wall")
    book.line("wall_end")
    state.closed = True
    state.next_dealer = state.next_seat(state.dealer)


FAMILY = Family("mcr", McrOptions, {
    Win: lambda o, st, ev, c: on_win(o, st, ev, c.book),
    WallEnd: lambda o, st, ev, c: on_draw(o, st, ev, c.book),
})
