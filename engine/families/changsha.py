"""Changsha: small and big wins, dealer premium, birds, 起手胡, 抢杠 and 海底 penalties."""

from __future__ import annotations

from engine.book import Book
from engine.errors import ReportError, foreign
from engine.families.registry import Family
from engine.families.state import HandState
from engine.hand_facts import build, tile_facts
from engine.models import (
    How,
    Seat,
    StartingWin,
    WallEnd,
    Win,
    WinnerHand,
    next_seat,
)
from engine.options import ChangshaOptions
from engine.patterns import CHANGSHA, STARTING

PATTERNS = CHANGSHA
_FROM_HOW = {How.ROB_KONG: "抢杠胡", How.KONG_REPLACEMENT: "杠上开花",
             How.AFTER_KONG_DISCARD: "杠上炮"}
_PENALTY = ("抢杠胡", "海底炮")


def _named(hand: WinnerHand, how: How) -> set[str]:
    names = PATTERNS.expand(hand.patterns)
    if how in _FROM_HOW:
        names.add(_FROM_HOW[how])
    PATTERNS.check_exclusions(names)
    return names


def big_win_count(opts: ChangshaOptions, names: set[str]) -> tuple[int, list[str]]:
    """Big wins in the hand; a pattern implied by another named one is not counted again."""
    implied: set[str] = set()
    for n in names:
        implied |= PATTERNS.expand(PATTERNS[n].implies)
    counted = sorted(n for n in names if n in opts.big_wins and n not in implied)
    total = sum(opts.big_wins[n] for n in counted)
    if not opts.stack_big_wins:
        total = min(total, 1)
    return total, counted


def names_from_tiles(opts: ChangshaOptions, hand: WinnerHand, named: set[str]) -> set[str]:
    built = build("changsha", hand.tiles, hand.melds, ())  # type: ignore[arg-type]
    best: set[str] | None = None
    best_n = -1
    for _facts, shown in tile_facts("changsha", PATTERNS, built, named):
        names = PATTERNS.expand(shown | named)
        n, _ = big_win_count(opts, names)
        if n > best_n:
            best, best_n = names, n
    assert best is not None
    return best


def bird_seat(opts: ChangshaOptions, rank: int, dealer: Seat, winner: Seat) -> Seat:
    """Count the bird's rank round the table from its origin (1 is the origin itself):
    with four, 1 5 9 / 2 6 / 3 7 / 4 8; with three, 1 4 7 / 2 5 8 / 3 6 9."""
    origin = dealer if opts.bird_origin == "dealer" else winner
    return next_seat(origin, (rank - 1) % opts.players, opts.players)


def _with_birds(opts: ChangshaOptions, amount: int, hits: int) -> int:
    if opts.bird_mode == "double":
        doubling: int = 2**hits  # int ** int is typed Any (a negative power is a float)
        return amount * doubling
    return amount + hits * opts.base


def _pay(opts: ChangshaOptions, book: Book, payer: Seat, payee: Seat, units: int,
         premium: int, hits: int, reason: str) -> None:
    """One payment and the steps that make it: the dealer's premium, then the birds."""
    amount = (units + premium) * opts.base
    if premium:
        book.line("dealer_premium", payer=payer, payee=payee, amount=premium * opts.base,
                  total=amount)
    if hits:
        paid = _with_birds(opts, amount, hits)
        if opts.bird_mode == "double":
            book.line("bird_double", payer=payer, payee=payee, hits=hits, times=2**hits,
                      total=paid)
        else:
            book.line("bird_add", payer=payer, payee=payee, hits=hits,
                      amount=paid - amount, total=paid)
        amount = paid
    book.pay(payer, payee, amount, reason)


def uncounted(opts: ChangshaOptions, named: list[str], counted: list[str]
              ) -> list[tuple[str, dict[str, str | int]]]:
    """A line for each pattern the player named (or the way of winning named) that is no
    big win under these house rules."""
    covered = PATTERNS.expand(counted)
    out: list[tuple[str, dict[str, str | int]]] = []
    for n in dict.fromkeys(named):
        if n != "小胡" and n not in covered and not opts.big_wins.get(n, 0):
            out.append(("not_counted_no_value", {"name": n}))
    return out


def on_starting_win(opts: ChangshaOptions, state: HandState, ev: StartingWin, book: Book) -> None:
    if state.winners:
        raise ReportError("starting_after_win", "starting-hand wins come before the hand's win")
    for kind in ev.kinds:
        name = STARTING.resolve(kind).name
        if name not in opts.starting_wins:
            raise ReportError("starting_not_allowed", f"{name} is not played in this preset; "
                              f"allowed: {', '.join(opts.starting_wins)}", name=name)
        book.line("starting_win", seat=ev.seat, name=name)
        _unit_line(opts, book, ev.seat, opts.small_self_draw, None)
        for s in state.seats:
            if s != ev.seat:
                premium = opts.dealer_premium if state.dealer in (s, ev.seat) else 0
                _pay(opts, book, s, ev.seat, opts.small_self_draw, premium, 0, "starting_win")


def _unit_line(opts: ChangshaOptions, book: Book, seat: Seat, units: int,
               payer: Seat | None) -> None:
    """What the win is worth before the dealer's premium and the birds."""
    if opts.base != 1:
        book.line("per_unit", unit=opts.base)
    if payer is None:
        book.line("worth_each", seat=seat, amount=units * opts.base)
    else:
        book.line("worth_one", seat=seat, payer=payer, amount=units * opts.base)


def on_win(opts: ChangshaOptions, state: HandState, ev: Win, book: Book) -> None:
    seats = [w.seat for w in ev.winners]
    if len(set(seats)) != len(seats):
        raise ReportError("duplicate_winner", "a player is named twice as winner")
    one_payer = ev.how in (How.DISCARD, How.ROB_KONG, How.AFTER_KONG_DISCARD)
    if one_payer:
        if ev.from_seat is None:
            raise ReportError("needs_from", "say whose discard or kong it was")
        if ev.from_seat in seats:
            raise ReportError("pays_self", f"{ev.from_seat} cannot pay for their own win",
                              seat=ev.from_seat)
    elif len(seats) > 1:
        raise ReportError("one_self_draw", "only one player wins a self-draw")
    elif ev.from_seat is not None:
        raise ReportError("self_draw_from", "a self-draw has nobody to pay it alone")
    if ev.loser_feibao or ev.jing:
        raise foreign("jiangxi", {"loser_feibao": ev.loser_feibao, "jing": ev.jing},
                      "飞宝 and 精 belong to the Jiangxi family")
    if len(ev.birds) > opts.birds:
        raise ReportError("too_many_birds", f"this table draws {opts.birds} bird(s)",
                          birds=opts.birds)
    if len(ev.birds) < opts.birds:  # not said: scored as birds that hit nobody
        book.line("birds_unsaid" if not ev.birds else "birds_short", drawn=opts.birds,
                  said=len(ev.birds))
    dealer = state.dealer
    for w in ev.winners:
        # Kongs (杠1) may be named, as the bot advises after /kong; they change nothing here.
        if w.gen:
            raise foreign("sichuan", {"gen": w.gen}, "根 is not counted here")
        if w.fan is not None:  # 番3: a count this family never makes, not a small win
            raise ReportError("changsha_fan", "a Changsha win counts big wins, never fan")
        if w.feibao or w.kong_chain or w.feeder or w.wild_used is not None:
            raise foreign("jiangxi", {"wild_used": w.wild_used is not None or None,
                                      "feibao": w.feibao, "kong_chain": w.kong_chain,
                                      "feeder": w.feeder},
                          "飞宝, 连杠, 承包 and 有宝/无宝 are not counted here")
        named = _named(w, ev.how)
        names = names_from_tiles(opts, w, named) if w.tiles is not None else named
        if not one_payer and "全求人" not in named:
            names.discard("全求人")  # four melds shown, but 全求人 is won off a discard
        if w.tiles is None and w.melds:
            raise ReportError("melds_without_tiles", "declared melds need the tiles too")
        big, counted = big_win_count(opts, names)
        book.line("win", seat=w.seat, how=ev.how.value)
        for n in counted:
            book.line("big_win", seat=w.seat, name=n, count=opts.big_wins[n])
        if len(counted) > 1 and not opts.stack_big_wins:
            book.line("big_wins_one", seat=w.seat)
        if not big:
            book.line("small_win", seat=w.seat)
        said = [PATTERNS.resolve(n).name for n in w.patterns]
        if ev.how in _FROM_HOW:
            said.append(_FROM_HOW[ev.how])
        for code, params in uncounted(opts, said, counted):
            book.line(code, seat=w.seat, **params)
        hits_on = [bird_seat(opts, r, dealer, w.seat) for r in ev.birds]
        for r, s in zip(ev.birds, hits_on, strict=True):
            book.line("bird", rank=r, seat=s)
        if one_payer:
            payer: Seat = ev.from_seat  # type: ignore[assignment]
            premium = opts.dealer_premium if dealer in (payer, w.seat) else 0
            penalty = [n for n in _PENALTY if n in names]
            if penalty:  # seed 001: 庄家给十二分，闲家给十分 — by who pays
                base = opts.penalty_dealer if payer == dealer else opts.penalty
                book.line("penalty", name=penalty[0], amount=base * opts.base)
                more = opts.big_discard * max(0, big - 1)
                if more:
                    book.line("penalty_more", seat=w.seat, count=big - 1,
                              amount=more * opts.base, total=(base + more) * opts.base)
                units, premium = base + more, 0  # the penalty already says who deals
            else:
                units = opts.big_discard * big if big else opts.small_discard
                _unit_line(opts, book, w.seat, units, payer)
            hits = sum(1 for s in hits_on if s in (w.seat, payer))
            _pay(opts, book, payer, w.seat, units, premium, hits, "win")
        else:
            units = opts.big_self_draw * big if big else opts.small_self_draw
            _unit_line(opts, book, w.seat, units, None)
            for s in state.seats:
                if s == w.seat:
                    continue
                premium = opts.dealer_premium if dealer in (s, w.seat) else 0
                hits = sum(1 for h in hits_on if h in (w.seat, s))
                _pay(opts, book, s, w.seat, units, premium, hits, "win")
    state.winners.extend(seats)
    state.closed = True
    state.next_dealer = ev.from_seat if len(seats) > 1 else seats[0]


def on_draw(opts: ChangshaOptions, state: HandState, ev: WallEnd, book: Book) -> None:
    if ev.players:
        raise ReportError("wrong_family", "this family has no 花猪 or 查叫 at the wall")
    book.line("wall_end")
    state.closed = True
    state.next_dealer = (state.dealer if opts.draw_dealer == "stay"
                         else state.next_seat(state.dealer))


FAMILY = Family("changsha", ChangshaOptions, {
    Win: lambda o, st, ev, c: on_win(o, st, ev, c.book),
    StartingWin: lambda o, st, ev, c: on_starting_win(o, st, ev, c.book),
    WallEnd: lambda o, st, ev, c: on_draw(o, st, ev, c.book),
})
