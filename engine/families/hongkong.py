"""Hong Kong old style (廣東牌): 番 to a share (engine.share_table), paid 半銃 or 全銃, 包自摸
on 十二張, 搶槓 paid by the kong's owner; one winner per hand (截糊). Points are cents."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from engine.book import Book
from engine.errors import ReportError, foreign
from engine.families.hongkong_fan import (
    Fan,
    best,
    bonus_names,
    count,
    missing,
    named_counter,
    round_wind_kind,
    seat_number,
    seat_wind,
    tile_names,
)
from engine.families.registry import Family
from engine.families.state import HandState
from engine.models import How, Seat, WallEnd, Win, WinnerHand
from engine.options import HongKongOptions
from engine.share_table import CURVE_NAMES, TIER_NAMES, share

# The pattern that how the hand was won adds.
_FROM_HOW = {How.SELF_DRAW: "自摸", How.KONG_REPLACEMENT: "槓上開花", How.ROB_KONG: "搶槓"}
_SELF_DRAWN = (How.SELF_DRAW, How.KONG_REPLACEMENT)
_NEEDS_SELF_DRAW = ("自摸", "槓上開花", "坎坎糊", "天糊", "八仙過海")


@dataclass(frozen=True)
class Part:
    """One loser's part of a win: so many shares, paid by them or by another for them."""

    seat: Seat
    shares: int
    payer: Seat
    reason: str


def first_in_turn(state: HandState, discarder: Seat, seats: list[Seat]) -> Seat:
    """截糊: of several who could win on one discard, the first after the discarder."""
    return next(s for step in range(1, 4)
                if (s := state.next_seat(discarder, step)) in seats)


def _check(state: HandState, ev: Win) -> None:
    seats = [w.seat for w in ev.winners]
    if len(seats) > 1:
        first = first_in_turn(state, ev.from_seat, seats) if ev.from_seat else seats[0]
        raise ReportError("one_winner", "截糊: one winner per hand; the first in turn after "
                          f"the discarder takes the tile ({first})", first=first)
    if ev.how in _SELF_DRAWN and ev.from_seat is not None:
        raise ReportError("self_draw_from", "a self-draw has nobody to pay it alone")
    if ev.how not in _SELF_DRAWN and ev.from_seat is None:
        raise ReportError("needs_from", "say whose discard or kong it was")
    if ev.birds:
        raise foreign("changsha", {"birds": ev.birds}, "birds belong to the Changsha family")
    if ev.loser_feibao or ev.jing or ev.robbed_kongs != 1:
        raise foreign("jiangxi", {"loser_feibao": ev.loser_feibao, "jing": ev.jing,
                                  "robbed_kongs": ev.robbed_kongs - 1},
                      "飞宝, 精 and 连杠连抢 belong to the Jiangxi family")
    w = ev.winners[0]
    if w.gen:
        raise foreign("sichuan", {"gen": w.gen}, "根 is not counted here")
    if w.feibao or w.kong_chain or w.feeder or w.wild_used is not None:
        raise foreign("jiangxi", {"wild_used": w.wild_used is not None or None,
                                  "feibao": w.feibao, "kong_chain": w.kong_chain,
                                  "feeder": w.feeder},
                      "飞宝, 连杠, 承包 and 有宝/无宝 are not counted here")
    if w.fourth_feeder == w.seat:
        raise ReportError("bad_feeder", "包自摸: the feeder of the fourth meld is another "
                          "player", seat=w.seat)
    if w.fan is not None and w.tiles is not None:
        raise ReportError("fan_and_tiles", "give the 番 or the tiles, not both")
    if w.flower_fan and w.fan is None:
        raise ReportError("flower_fan_without_fan", "flower 番 go with a 番 count")
    if w.fan is not None and w.flower_fan > w.fan:
        raise ReportError("flower_fan_too_many", f"{w.flower_fan} flower 番 of {w.fan} 番",
                          fan=w.fan, flower_fan=w.flower_fan)
    if w.tiles is None and (w.melds or w.flowers is not None):
        raise ReportError("melds_without_tiles", "declared melds and bonus tiles go with "
                          "the tiles")


def _check_names(state: HandState, ev: Win, w: WinnerHand, said: set[str]) -> None:
    """What the named patterns say of how and by whom the hand was won."""
    if "天糊" in said and (w.seat != state.dealer or ev.how != How.SELF_DRAW):
        raise ReportError("tianhu_dealer", "天糊 is the dealer's self-draw on the deal",
                          seat=w.seat)
    if "地糊" in said and (w.seat == state.dealer or (
            ev.how not in _SELF_DRAWN and ev.from_seat != state.dealer)):
        raise ReportError("dihu_dealer", "地糊 is a non-dealer's win on the dealer's first "
                          "discard", seat=w.seat)
    taken = [n for n in _NEEDS_SELF_DRAW if n in said]
    if taken and ev.how not in _SELF_DRAWN:
        raise ReportError("how_contradicts", f"{taken[0]} is a self-draw", pattern=taken[0],
                          how=ev.how.value)
    if "搶槓" in said and ev.how != How.ROB_KONG:
        raise ReportError("how_contradicts", "搶槓 is a win on another's added kong",
                          pattern="搶槓", how=ev.how.value)
    if "花糊" in said and ev.how in _SELF_DRAWN:
        raise ReportError("how_contradicts", "花糊 takes another player's bonus tile: say "
                          "whose", pattern="花糊", how=ev.how.value)


def value(opts: HongKongOptions, state: HandState, ev: Win, w: WinnerHand
          ) -> tuple[Fan, set[str]]:
    """The win's 番 (uncapped) and the patterns it holds, by the 番 count, the patterns
    named or the tiles."""
    named, said = named_counter(w)
    _check_names(state, ev, w, set(said))
    how_name = _FROM_HOW.get(ev.how)
    if "花糊" in said:
        how_name = None  # taking a bonus tile is no 搶槓
    if w.fan is not None:
        fan = Fan(w.fan, w.flower_fan)
        fan.lines.append(("given", {"seat": w.seat, "fan": w.fan}))
        for n in dict.fromkeys(said):
            fan.lines.append(("not_counted_fan_given", {"seat": w.seat, "name": n,
                                                        "fan": w.fan}))
        limit = [n for n in said if n == "花糊"]
        fan.alone = limit[0] if limit else None
        return fan, set(said)
    extra: Counter[str] = Counter({how_name: 1} if how_name else {})
    if w.tiles is None:
        names = named + extra
        return count(names, said, w.seat), set(names)
    own = seat_wind(w.seat, state.dealer)
    readings = tile_names(w, set(said), ev.how in _SELF_DRAWN, own, round_wind_kind(ev.wind))
    bonus = (bonus_names(w.flowers, seat_number(w.seat, state.dealer))
             if w.flowers is not None else Counter())
    shown = [found for found in readings
             if missing(set(said), found + bonus, w.flowers is not None) is None]
    if not shown:
        name = missing(set(said), readings[0] + bonus, w.flowers is not None)
        raise ReportError("tiles_contradict", f"{name} named, but the tiles do not show it",
                          pattern=str(name))
    options = [found | bonus | extra | Counter({n: c for n, c in named.items()
                                                if n not in found}) for found in shown]
    names, fan = best(options, said, w.seat, opts.cap_fan)
    return fan, set(names)


# What a win's payments say they are for (each is a win's payment, as "win" elsewhere).
WIN_REASONS = ("bao_zimo", "self_draw", "flower_rob", "rob_kong", "full_shot", "half_shot")


def _parts(opts: HongKongOptions, ev: Win, winner: Seat, names: set[str],
           state: HandState, book: Book) -> list[Part]:
    """Each loser's shares and who pays them, with the reason."""
    others = [s for s in state.seats if s != winner]
    feeder = ev.winners[0].fourth_feeder
    if ev.how in _SELF_DRAWN:
        if feeder is not None and opts.twelve_bao:
            book.line("bao_zimo", seat=feeder, winner=winner)
            return [Part(s, 2, feeder, "bao_zimo") for s in others]
        if feeder is not None:
            book.line("not_counted_option", seat=winner, name="包自摸", option="twelve_bao")
        return [Part(s, 2, s, "self_draw") for s in others]
    source: Seat = ev.from_seat  # type: ignore[assignment]
    if feeder is not None:
        book.line("bao_only_self_draw", seat=feeder, winner=winner)
    robbed = ev.how == How.ROB_KONG or "花糊" in names
    if robbed and opts.rob_kong_bao:
        reason = "flower_rob" if "花糊" in names else "rob_kong"
        return [Part(s, 2, source, reason) for s in others]
    if robbed:
        book.line("rob_kong_no_bao", seat=source, winner=winner)
    if opts.payment == "full":
        return [Part(s, 2 if s == source else 1, source, "full_shot") for s in others]
    return [Part(s, 2 if s == source else 1, s, "half_shot") for s in others]


def on_win(opts: HongKongOptions, state: HandState, ev: Win, book: Book) -> None:
    _check(state, ev)
    w = ev.winners[0]
    fan, names = value(opts, state, ev, w)
    # The discarder named (as Singapore does): under 半銃 the others pay too, but only the
    # discarder dealt in.
    book.line("win", seat=w.seat, how=ev.how.value,
              **({"from_seat": ev.from_seat} if ev.from_seat is not None else {}))
    for code, params in fan.lines:
        book.line(code, **params)
    exempt = fan.alone is not None  # a limit hand or 花糊 wins whatever the minimum
    counted = fan.total if opts.flowers_count_min else fan.total - fan.flower
    if not exempt and counted < opts.min_fan:
        flowers = "" if opts.flowers_count_min or not fan.flower else \
            f" ({fan.flower} flower 番 not counted)"
        raise ReportError("below_minimum", f"{counted} 番{flowers}: this table wins from "
                          f"{opts.min_fan} 番; nothing recorded", fan=counted,
                          flower_fan=fan.flower if not opts.flowers_count_min else 0,
                          min=opts.min_fan, seat=w.seat)
    book.line("fan_total", seat=w.seat, fan=fan.total)
    if fan.flower and not opts.flowers_count_min and not exempt:
        book.line("flower_fan", seat=w.seat, fan=fan.flower, counted=counted)
    paid = min(fan.total, opts.cap_fan)
    if fan.total > opts.cap_fan:
        book.line("cap", seat=w.seat, fan=fan.total, cap=opts.cap_fan)
    s = share(paid, opts.stake, opts.curve)
    book.line("share", seat=w.seat, fan=paid, share=s, stake=TIER_NAMES[opts.stake],
              curve=CURVE_NAMES[opts.curve])
    owed: dict[Seat, int] = {}
    reasons: dict[Seat, str] = {}
    for part in _parts(opts, ev, w.seat, names, state, book):
        times = 2 if opts.dealer_double and state.dealer in (part.seat, w.seat) else 1
        amount = part.shares * s * times
        book.line("share_part", payer=part.payer, seat=part.seat, shares=part.shares,
                  times=times, amount=amount, reason=part.reason)
        owed[part.payer] = owed.get(part.payer, 0) + amount
        reasons[part.payer] = part.reason
    for payer, amount in owed.items():
        book.pay(payer, w.seat, amount, reasons[payer])
    state.winners.append(w.seat)
    state.closed = True
    state.next_dealer = state.dealer if w.seat == state.dealer else state.next_seat(
        state.dealer)


def on_draw(opts: HongKongOptions, state: HandState, ev: WallEnd, book: Book) -> None:
    if ev.players:
        raise ReportError("wrong_family", "this family has no 花猪 or 查叫 at the wall")
    book.line("wall_end")
    state.closed = True
    state.next_dealer = (state.dealer if opts.draw_dealer == "stay"
                         else state.next_seat(state.dealer))


FAMILY = Family("hongkong", HongKongOptions, {
    Win: lambda o, st, ev, c: on_win(o, st, ev, c.book),
    WallEnd: lambda o, st, ev, c: on_draw(o, st, ev, c.book),
}, points_in_cents=True)
