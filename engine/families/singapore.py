"""Singapore/Malaysia (docs/rules/singapore.md): tai, stake tables, shooter, limit hands,
包, 八仙过海 and 七抢一, and the instant payouts for kongs, bites and sets.

Every amount is in cents of the table's money (a point is a cent). A win is valued in one
of three ways, each enough alone: the tai counted in (``tai``), the patterns by name, or
the tiles (with the bonus tiles, the seat and the prevailing wind).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from engine.bonus_tiles import names as bonus_names
from engine.bonus_tiles import parse_bonus
from engine.book import Book
from engine.errors import ReportError, foreign
from engine.families.registry import Family
from engine.families.singapore_hands import (
    SHOWN_BY_TILES,
    Context,
    bonus_shown,
    shown,
    winning_readings,
)
from engine.families.singapore_stakes import amounts, unit
from engine.families.state import HandState, KongRecord
from engine.models import (
    SEATS,
    Bite,
    BonusSet,
    How,
    Kong,
    KongKind,
    Seat,
    WallEnd,
    Win,
    WinnerHand,
)
from engine.options import SingaporeOptions
from engine.patterns.singapore import (
    BONUS,
    COUNTED,
    DRAGON_PONGS,
    INSTEAD,
    LIMITS,
    SINGAPORE,
    SPECIAL,
)

PATTERNS = SINGAPORE
_SELF_DRAWN = (How.SELF_DRAW, How.KONG_REPLACEMENT)
_FROM_HOW = {How.ROB_KONG: "抢杠", How.KONG_REPLACEMENT: "杠上开花"}
# Patterns only a self-drawn win holds.
_SELF_DRAWN_ONLY = ("门清", "四暗刻", "杠上开花", "杠上杠")
# "Instead of": 小三元 counts instead of its two dragon pongs.
_INSTEAD = {**INSTEAD, "小三元": DRAGON_PONGS}
Lines = list[tuple[str, dict[str, str | int]]]


@dataclass
class Value:
    """What a win counts: tai before and after the cap, and the lines that say why."""

    tai: int  # paid at, after the cap
    special: str | None = None  # 八仙过海 or 七抢一
    lines: Lines = field(default_factory=list)


def seat_number(seat: Seat, dealer: Seat) -> int:
    """The seat's wind as a number, E 1 .. N 4: the dealer is East."""
    return (SEATS.index(seat) - SEATS.index(dealer)) % 4 + 1


def _canonical(names: tuple[str, ...]) -> Counter[str]:
    out: Counter[str] = Counter(PATTERNS.resolve(n).name for n in names)
    return out


def count_tai(opts: SingaporeOptions, names: Counter[str]) -> tuple[int, int, Lines, str | None]:
    """(tai, of which from bonus tiles, lines, the limit hand if any) of canonical names,
    each with its count: implied patterns added, "instead of" applied, the exclusions
    checked."""
    names = Counter(names)
    if names["花杠"]:  # a complete set holds the seat flower
        names["正花"] = max(names["正花"], names["花杠"])
    for n in list(names):
        for implied in PATTERNS[n].implies:
            names[implied] = max(names[implied], 1)
    names = +names
    PATTERNS.check_exclusions(set(names))
    for n, c in names.items():
        most = COUNTED.get(n, 1)
        if c > most:
            raise ReportError("too_many_of", f"{n} counts at most {most} time(s) in a hand",
                              name=n, most=most)
    if not opts.animals and (names["动物"] or names["四动物"]):
        raise ReportError("no_animals", "this table plays without animal tiles (animals=off)")
    lines: Lines = []
    limit = next((n for n in PATTERNS.patterns if n in names and n in LIMITS), None)
    dropped = {small: big for big, smalls in _INSTEAD.items() if big in names
               for small in smalls if small in names}
    total = bonus = 0
    for n in PATTERNS.patterns:
        if n not in names or n in LIMITS:
            continue
        if n in dropped:
            lines.append(("tai_instead", {"name": n, "instead": dropped[n]}))
            continue
        value = opts.tai.get(n)
        if not value:
            lines.append(("not_counted_no_value", {"name": n}))
            continue
        tai = names[n] * value
        total += tai
        if n in BONUS:
            bonus += tai
        lines.append(("tai", {"name": n, "count": names[n], "tai": tai}))
    return total, bonus, lines, limit


def _tile_names(opts: SingaporeOptions, hand: WinnerHand, named: Counter[str], ctx: Context,
                how: How) -> Counter[str]:
    """The patterns of the best reading of the winner's tiles, with what was named that
    tiles cannot show."""
    assert hand.tiles is not None
    built, found = winning_readings(hand.tiles, hand.melds)
    checkable = {n for n in named if n in SHOWN_BY_TILES}
    best: tuple[int, Counter[str]] | None = None
    first_missing: str | None = None
    for reading in found:
        seen = shown(reading, built, ctx)
        missing = sorted(checkable - set(seen))
        if missing:
            first_missing = first_missing or missing[0]
            continue
        if how not in _SELF_DRAWN:
            seen.pop("门清", None)
            seen.pop("四暗刻", None)
        both = seen | Counter({n: c for n, c in named.items() if n not in SHOWN_BY_TILES})
        try:
            tai, _, _, limit = count_tai(opts, both)
        except ReportError:
            continue
        score = 1000 if limit else tai
        if best is None or score > best[0]:
            best = (score, both)
    if best is None:
        name = first_missing or next(iter(named), "")
        raise ReportError("tiles_contradict", f"{name} named, but the tiles do not show it",
                          pattern=name)
    return best[1]


def _bonus_names(opts: SingaporeOptions, hand: WinnerHand, named: Counter[str],
                 number: int) -> tuple[Counter[str], bool | None]:
    """The bonus-tile patterns, from the bonus tiles when given (the named ones must agree),
    and whether the hand is known to hold no bonus tile (None: not said)."""
    if hand.bonus is None:
        return Counter(), None
    bonus = parse_bonus(hand.bonus)
    if bonus.animals and not opts.animals:
        raise ReportError("no_animals", "this table plays without animal tiles (animals=off)")
    from_tiles = bonus_shown(bonus, number)
    for n in BONUS:
        if named[n] > from_tiles[n] and not (n == "动物" and from_tiles["四动物"]):
            raise ReportError("tiles_contradict", f"{n} named, but the bonus tiles "
                              f"({' '.join(bonus_names(bonus)) or 'none'}) do not show it",
                              pattern=n)
    return from_tiles, bonus.count == 0


def value_win(opts: SingaporeOptions, hand: WinnerHand, how: How, dealer: Seat,
              prevailing: Seat) -> Value:
    """The tai a win is paid at, with its lines; refuses a win below the minimum."""
    if hand.tiles is None and hand.melds:
        raise ReportError("melds_without_tiles", "declared melds need the tiles too")
    named = _canonical(hand.patterns)
    if how in _FROM_HOW:
        named[_FROM_HOW[how]] = 1
    number = seat_number(hand.seat, dealer)
    from_bonus, no_bonus = _bonus_names(opts, hand, named, number)
    special = next((n for n in SPECIAL if named[n] or from_bonus[n]), None)
    if hand.tai is not None:
        if hand.tiles is not None or hand.bonus is not None:
            raise ReportError("tai_and_tiles", "give the tai, or the tiles, not both")
        return _counted_in(opts, hand, named, special)
    if hand.bonus_tai is not None:
        raise ReportError("bonus_tai_without_tai", "bonus_tai is part of a tai count")
    names = Counter({n: c for n, c in named.items() if n not in BONUS}) | from_bonus \
        if hand.bonus is not None else named
    if hand.tiles is not None and special is None:
        ctx = Context(27 + number - 1, 27 + SEATS.index(prevailing), how in _SELF_DRAWN)
        names = _tile_names(opts, hand, names, ctx, how)
        if no_bonus and names["平胡"]:
            names["大平胡"] = 1
    for name in _SELF_DRAWN_ONLY:
        if names[name] and how not in _SELF_DRAWN:
            raise ReportError("self_drawn_only", f"{name} is a self-drawn win", name=name)
    total, bonus, lines, limit = count_tai(opts, names)
    if special:
        lines.append(("special_win", {"name": special, "cap": opts.cap_tai}))
        return Value(opts.cap_tai, special, lines)
    if limit:
        lines.append(("limit", {"name": limit, "cap": opts.cap_tai}))
        return Value(opts.cap_tai, None, lines)
    return _capped(opts, total, bonus, lines)


def _counted_in(opts: SingaporeOptions, hand: WinnerHand, named: Counter[str],
                special: str | None) -> Value:
    assert hand.tai is not None
    bonus = hand.bonus_tai or 0
    if bonus > hand.tai:
        raise ReportError("bonus_tai_too_many", "bonus_tai is part of the tai: it cannot be "
                          "more", tai=hand.tai, bonus=bonus)
    lines: Lines = [("not_counted_tai_given", {"name": n, "tai": hand.tai})
                    for n in named if n not in SPECIAL and n not in _FROM_HOW.values()]
    if special:
        lines.append(("special_win", {"name": special, "cap": opts.cap_tai}))
        return Value(opts.cap_tai, special, lines)
    lines.append(("tai_given", {"tai": hand.tai}))
    return _capped(opts, hand.tai, bonus, lines)


def _capped(opts: SingaporeOptions, total: int, bonus: int, lines: Lines) -> Value:
    counted = total if opts.min_counts_bonus else total - bonus
    if counted < opts.min_tai:
        raise ReportError("below_min_tai", f"{counted} tai: a win needs at least "
                          f"{opts.min_tai}" + ("" if opts.min_counts_bonus else
                                               " without the bonus tiles"),
                          tai=counted, min=opts.min_tai)
    lines.append(("tai_total", {"tai": total}))
    if total > opts.cap_tai:
        lines.append(("tai_cap", {"tai": total, "cap": opts.cap_tai}))
    return Value(min(total, opts.cap_tai), None, lines)


def _check_win(ev: Win) -> None:
    if len(ev.winners) > 1:
        raise ReportError("sg_one_winner", "one player wins a hand here: the first in turn "
                          "after the discarder")
    if ev.birds:
        raise foreign("changsha", {"birds": ev.birds}, "birds belong to the Changsha family")
    if ev.loser_feibao or ev.jing or ev.robbed_kongs != 1:
        raise foreign("jiangxi", {"loser_feibao": ev.loser_feibao, "jing": ev.jing,
                                  "robbed_kongs": ev.robbed_kongs - 1},
                      "飞宝 and 精 belong to the Jiangxi family")
    w = ev.winners[0]
    if w.gen or w.kongs or w.fan:
        raise foreign("sichuan", {"gen": w.gen, "kongs": w.kongs, "fan": w.fan},
                      "根, kong counts and fan are not used here: say the tai")
    if w.feibao or w.kong_chain or w.wild_used is not None or w.fourth_feeder:
        raise foreign("jiangxi", {"wild_used": w.wild_used is not None or None,
                                  "feibao": w.feibao, "kong_chain": w.kong_chain,
                                  "fourth_feeder": w.fourth_feeder},
                      "飞宝, 连杠 and 有宝/无宝 are not counted here")
    if w.amount is not None:
        raise foreign("free", {"amount": w.amount}, "an amount is for the points-only "
                      "preset; say the tai here")
    if ev.how not in _SELF_DRAWN and ev.from_seat is None:
        raise ReportError("needs_from", "say whose discard or kong it was")
    if w.feeder == w.seat:
        raise ReportError("bad_feeder", "包: the liable player is another player")


def on_win(opts: SingaporeOptions, state: HandState, ev: Win, book: Book) -> None:
    _check_win(ev)
    w = ev.winners[0]
    value = value_win(opts, w, ev.how, state.dealer, ev.prevailing or "E")
    # The discarder (or robbed player) named on the line: with shooter=false the others pay
    # too, and the ledger counts only this one as having dealt in.
    book.line("win", seat=w.seat, how=ev.how.value,
              **({"from_seat": ev.from_seat} if ev.from_seat is not None else {}))
    for code, params in value.lines:
        book.line(code, seat=w.seat, **params)
    base, zimo = amounts(opts, value.tai)
    book.line("stake_value", seat=w.seat, tai=value.tai, table=opts.stake, base=base,
              zimo=zimo)
    self_drawn = ev.how in _SELF_DRAWN
    if value.special == "八仙过海" and not self_drawn:
        raise ReportError("special_self_draw", "八仙过海 is paid as a self-draw: drop the "
                          "'from'")
    if value.special == "七抢一" and self_drawn:
        raise ReportError("needs_from", "七抢一: say who drew the eighth bonus tile")
    others = [s for s in state.seats if s != w.seat]
    shooter_pays = 2 * base + zimo
    if w.feeder is not None:
        book.line("liable", seat=w.feeder, winner=w.seat)
        book.pay(w.feeder, w.seat, 3 * zimo if self_drawn else shooter_pays, "win")
    elif self_drawn:
        for s in others:
            book.pay(s, w.seat, zimo, "win")
    elif opts.shooter or ev.how == How.ROB_KONG or value.special == "七抢一":
        payer: Seat = ev.from_seat  # type: ignore[assignment]
        if not opts.shooter:
            book.line("pays_as_shooter", seat=payer)
        book.pay(payer, w.seat, shooter_pays, "win")
    else:
        for s in others:
            book.pay(s, w.seat, zimo if s == ev.from_seat else base, "win")
    if ev.how == How.ROB_KONG:
        _revert_robbed(state, ev.from_seat, book)  # type: ignore[arg-type]
    state.winners.append(w.seat)
    state.closed = True
    state.next_dealer = state.dealer if w.seat == state.dealer else \
        state.next_seat(state.dealer)


def _revert_robbed(state: HandState, robbed: Seat, book: Book) -> None:
    """The robbed kong pays nothing: its instant payout goes back."""
    for record in reversed(state.kongs):
        if record.seat == robbed and record.kind == KongKind.ADDED and not record.void:
            record.void = True
            book.line("kong_robbed", seat=robbed)
            for payer, amount in record.received.items():
                book.pay(robbed, payer, amount, "kong_robbed")
            return


def _instant(opts: SingaporeOptions, state: HandState, book: Book, seat: Seat, what: str,
             units: int, from_seat: Seat | None) -> dict[Seat, int]:
    """An instant payout: ``units`` x u from ``from_seat`` alone, or from each other."""
    if not opts.instant_payouts:
        raise ReportError("instant_payouts_off", "this table pays no instant payouts "
                          "(instant_payouts=off)")
    if from_seat == seat:
        raise ReportError("pays_self", f"{seat} cannot pay themselves", seat=seat)
    amount = units * unit(opts)
    payers = [from_seat] if from_seat else [s for s in state.seats if s != seat]
    book.line("instant", seat=seat, what=what, amount=amount, unit=unit(opts),
              payer=from_seat or "each")
    for p in payers:
        book.pay(p, seat, amount, "instant")
    return dict.fromkeys(payers, amount)


def on_kong(opts: SingaporeOptions, state: HandState, ev: Kong, index: int, book: Book
            ) -> None:
    if ev.kind == KongKind.WILD:
        raise foreign("jiangxi", {"kind": "wild"}, "宝杠 belongs to the Jiangxi family")
    if not opts.instant_payouts:
        raise ReportError("kongs_not_paid", "this table pays nothing for a kong when made "
                          "(instant_payouts=off)", instant_payouts="off")
    if ev.kind == KongKind.DIRECT and (ev.from_seat is None or ev.from_seat == ev.seat):
        raise ReportError("kong_needs_discarder", "an exposed kong names whose discard it "
                          "took")
    book.line("kong", seat=ev.seat, kind=ev.kind.value)
    if ev.kind == KongKind.DIRECT:
        received = _instant(opts, state, book, ev.seat, "kong_direct", 3 if opts.shooter else 1,
                            ev.from_seat if opts.shooter else None)
    elif ev.kind == KongKind.ADDED:
        received = _instant(opts, state, book, ev.seat, "kong_added", 1, None)
    else:
        received = _instant(opts, state, book, ev.seat, "kong_concealed", 2, None)
    state.kongs.append(KongRecord(index, ev.seat, ev.kind, received))


def on_bite(opts: SingaporeOptions, state: HandState, ev: Bite, book: Book) -> None:
    if ev.pair != "seat_flowers" and not opts.animals:
        raise ReportError("no_animals", "this table plays without animal tiles (animals=off)")
    if ev.hidden:
        book.line("bite_hidden", seat=ev.seat)
    _instant(opts, state, book, ev.seat, f"bite_{ev.pair}", 2 if ev.hidden else 1,
             ev.from_seat)


def on_set(opts: SingaporeOptions, state: HandState, ev: BonusSet, book: Book) -> None:
    if ev.kind == "animals" and not opts.animals:
        raise ReportError("no_animals", "this table plays without animal tiles (animals=off)")
    _instant(opts, state, book, ev.seat, f"set_{ev.kind}", 2, None)


def on_draw(opts: SingaporeOptions, state: HandState, ev: WallEnd, book: Book) -> None:
    if ev.players:
        raise ReportError("wrong_family", "this family has no 花猪 or 查叫 at the wall")
    book.line("wall_end")
    if opts.instant_payouts:
        book.line("instant_kept")
    state.closed = True
    state.next_dealer = (state.dealer if opts.draw_dealer == "stay"
                         else state.next_seat(state.dealer))


FAMILY = Family("singapore", SingaporeOptions, {
    Win: lambda o, st, ev, c: on_win(o, st, ev, c.book),
    Kong: lambda o, st, ev, c: on_kong(o, st, ev, c.index, c.book),
    Bite: lambda o, st, ev, c: on_bite(o, st, ev, c.book),
    BonusSet: lambda o, st, ev, c: on_set(o, st, ev, c.book),
    WallEnd: lambda o, st, ev, c: on_draw(o, st, ev, c.book),
}, points_in_cents=True)
