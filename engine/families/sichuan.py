"""Sichuan family (sichuan, chengdu, yibin): fan, blood battle, kongs, 花猪, 查叫, 退税."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from engine.analysis import waits
from engine.book import Book
from engine.errors import ReportError, foreign
from engine.families.registry import Family
from engine.families.state import HandState, KongRecord
from engine.hand_facts import build, tile_facts
from engine.models import (
    PAID_BY_ONE,
    How,
    Kong,
    KongKind,
    Seat,
    WallEnd,
    WallEndPlayer,
    Win,
    WinnerHand,
)
from engine.options import SichuanOptions
from engine.patterns import SICHUAN
from engine.readings import KONG, Hand
from engine.report_checks import check_gen
from engine.shape_rules import FAMILY_SHAPES, held_counts, with_tile
from engine.tiles import compact
from engine.wildcards import tingyong_kinds

PATTERNS = SICHUAN
HOW_EXTRA = {
    How.KONG_REPLACEMENT: "杠上花",
    How.AFTER_KONG_DISCARD: "杠上炮",
    How.ROB_KONG: "抢杠",
}
_TIANDI = {"天胡", "地胡"}
_YAOJIU = {"带幺九", "将对", "清幺九", "将金钩钓"}
_MENQING = {"门清", "断幺九"}
# Extras counted from the hand's counts or how it was won, never from a named pattern.
_NOT_NAMED_EXTRAS = {"根", "杠", "自摸", *HOW_EXTRA.values()}


@dataclass
class Value:
    fan: int
    points: int
    lines: list[tuple[str, dict[str, str | int]]]


def wild_kinds(opts: SichuanOptions, indicator: int | None) -> tuple[int, ...]:
    """The 听用 kinds; reading tiles in a 听用 game needs the turned-up 本金."""
    if not opts.tingyong:
        return ()
    if indicator is None:
        raise ReportError("needs_indicator", "tiles in a 听用 game need the turned-up 本金")
    return tingyong_kinds(indicator, opts.tingyong_scope)


def option_off(opts: SichuanOptions, name: str) -> str | None:
    """The house-rule option that keeps the pattern ``name`` from counting, if one does."""
    if name in _TIANDI and not opts.tiandi_hu:
        return "tiandi_hu"
    if name in _YAOJIU and not opts.yaojiu_jiangdui:
        return "yaojiu_jiangdui"
    if name in _MENQING and not opts.menqing_zhongzhang and opts.fan_mode == "largest_base":
        return "menqing_zhongzhang"
    if name in ("龙七对", "清龙七对") and not opts.longqidui_bonus:
        return "longqidui_bonus"
    return None


def _allowed(opts: SichuanOptions, name: str) -> bool:
    return option_off(opts, name) is None


def _own_value(opts: SichuanOptions, name: str) -> bool:
    """Whether the preset gives ``name`` fan of its own (not only through what it implies)."""
    if opts.fan_mode == "additive":
        return bool(opts.fan.get(name, 0))
    return name in opts.fan or bool(opts.extras.get(name, 0))


def uncounted(opts: SichuanOptions, named: list[str], lines: list[tuple[str, dict[str, str | int]]],
              given: int | None = None) -> list[tuple[str, dict[str, str | int]]]:
    """A line for each pattern the player named that the value does not count, saying why:
    a house rule is off, only the largest base pattern counts, the preset gives it no fan,
    or the fan was given whole."""
    if given is not None:
        return [("not_counted_fan_given", {"name": n, "fan": given})
                for n in dict.fromkeys(named) if n != "平胡"]
    shown = [str(p["name"]) for code, p in lines if code in ("base", "pattern", "extra")]
    base = next((str(p["name"]) for code, p in lines if code == "base"), "平胡")
    covered = set(shown)  # additive: each line counts its own pattern only
    if opts.fan_mode == "largest_base" and base in PATTERNS.patterns:
        covered |= PATTERNS.expand([base])  # the base pattern holds what it needs
    names = PATTERNS.expand(named)

    def counted(name: str) -> bool:
        if name in covered:
            return True
        implies = PATTERNS[name].implies
        return bool(implies) and not _own_value(opts, name) and all(map(counted, implies))

    out: list[tuple[str, dict[str, str | int]]] = []
    for n in dict.fromkeys(named):
        if n == "平胡" or counted(n):
            continue
        option = option_off(opts, n)
        if option is None and n == "对对胡" and "金钩钓" in names and not opts.jingoudiao_duidui:
            option = "jingoudiao_duidui"
        if option is not None:
            out.append(("not_counted_option", {"name": n, "option": option}))
        elif opts.fan_mode == "largest_base" and n in opts.fan:
            out.append(("not_counted_largest", {"name": n, "base": base}))
        else:
            out.append(("not_counted_no_value", {"name": n}))
    return out


@cache
def _requires(name: str) -> frozenset[str]:
    """The detectable or reported patterns a base pattern needs (清对: 清一色 and 对对胡)."""
    p = PATTERNS[name]
    out = {name} if (p.detect is not None or not p.implies) else set()
    for sub in p.implies:
        out |= _requires(sub)
    return frozenset(out)


# Base-pattern candidates per options object: (fan, name, needs, min_gen, min_kongs, uses).
_BASES: dict[int, tuple[SichuanOptions, list[tuple[int, str, frozenset[str], int, int, int]]]] = {}


def _bases(opts: SichuanOptions) -> list[tuple[int, str, frozenset[str], int, int, int]]:
    hit = _BASES.get(id(opts))
    if hit is not None and hit[0] is opts:
        return hit[1]
    out = []
    for n, f in opts.fan.items():
        p = PATTERNS.patterns.get(n)
        if p is not None and _allowed(opts, n):
            out.append((f, n, _requires(n), p.min_gen, p.min_kongs, p.uses_gen))
    if len(_BASES) > 256:
        _BASES.clear()
    _BASES[id(opts)] = (opts, out)
    return out


def fan_of(opts: SichuanOptions, names: set[str], gen: int, kongs: int, how: How | None,
           self_draw: bool) -> tuple[int, list[tuple[str, dict[str, str | int]]]]:
    """The uncapped fan of a hand and its lines. ``names`` are expanded pattern names."""
    lines: list[tuple[str, dict[str, str | int]]] = []
    extras = opts.extras
    if opts.fan_mode == "additive":
        fan = 1
        lines.append(("base", {"name": "平胡", "fan": 1}))
        if "金钩钓" in names and not opts.jingoudiao_duidui:
            names = names - {"对对胡"}
        for n in sorted(names):
            inc = opts.fan.get(n, 0)
            if inc and _allowed(opts, n):
                fan += inc
                lines.append(("pattern", {"name": n, "fan": inc}))
        spare = gen + kongs
        gen_left, kong_left = gen, kongs
    else:
        best: tuple[int, str, int] | None = None
        for f, n, needs, min_gen, min_kongs, uses in _bases(opts):
            if gen < min_gen or kongs < min_kongs or not needs <= names:
                continue
            total = f + max(0, gen + kongs - uses)
            if best is None or total > best[0] + max(0, gen + kongs - best[2]):
                best = (f, n, uses)
        if best is None:
            best = (1, "平胡", 0)
        fan = best[0]
        lines.append(("base", {"name": best[1], "fan": best[0]}))
        spare = max(0, gen + kongs - best[2])
        kong_left = min(kongs, spare)
        gen_left = spare - kong_left
        for n in sorted(names - _NOT_NAMED_EXTRAS - opts.fan.keys()):  # 门清, 海底捞月 …
            if _allowed(opts, n) and extras.get(n, 0):
                fan += extras[n]
                lines.append(("extra", {"name": n, "fan": extras[n]}))
    del spare
    for name, count in (("根", gen_left), ("杠", kong_left)):
        if count and extras.get(name, 0):
            fan += count * extras[name]
            lines.append(("extra", {"name": name, "count": count, "fan": count * extras[name]}))
    if how in HOW_EXTRA and extras.get(HOW_EXTRA[how], 0):
        fan += extras[HOW_EXTRA[how]]
        lines.append(("extra", {"name": HOW_EXTRA[how], "fan": extras[HOW_EXTRA[how]]}))
    if self_draw and opts.zimo == "double":
        fan += extras.get("自摸", 1)
        lines.append(("extra", {"name": "自摸", "fan": extras.get("自摸", 1)}))
    return fan, lines


def points_of(opts: SichuanOptions, fan: int) -> int:
    if opts.fan_to_points == "linear":
        return opts.base * fan
    doubling: int = 2 ** (fan - 1)  # int ** int is typed Any (a negative power is a float)
    return opts.base * doubling


def cap(opts: SichuanOptions, fan: int) -> int:
    return min(fan, opts.cap_fan) if opts.cap_fan is not None else fan


def _named(hand: WinnerHand) -> set[str]:
    names = PATTERNS.expand(hand.patterns)
    PATTERNS.check_exclusions(names)
    return names


def _check_counts(hand: WinnerHand, names: set[str]) -> tuple[int, int]:
    min_gen = max((PATTERNS[n].min_gen for n in names), default=0)
    min_kongs = max((PATTERNS[n].min_kongs for n in names), default=0)
    gen, kongs = max(hand.gen, min_gen), max(hand.kongs, min_kongs)
    check_gen(gen, kongs)
    if "七对" in names and kongs:
        raise ReportError("patterns_exclude", "七对 cannot hold a declared kong",
                          first="七对", second="杠")
    return gen, kongs


def value_win(opts: SichuanOptions, hand: WinnerHand, how: How | None, self_draw: bool,
              indicator: int | None) -> Value:
    """The best value of a winning hand, from its tiles when given; a pattern the player
    named that it does not count gets a line saying why."""
    named = _named(hand)
    if hand.tiles is None:
        if hand.melds:
            raise ReportError("melds_without_tiles", "declared melds need the tiles too")
        gen, kongs = _check_counts(hand, named)
        fan, lines = fan_of(opts, named | {"平胡"}, gen, kongs, how, self_draw)
        value = _finish(opts, fan, lines)
    else:
        wild = wild_kinds(opts, indicator)
        built = build("sichuan", hand.tiles, hand.melds, wild)
        value = best_value(opts, built, named, hand.gen, how, self_draw, indicator)
    value.lines += uncounted(opts, [PATTERNS.resolve(n).name for n in hand.patterns],
                             value.lines)
    return value


def best_value(opts: SichuanOptions, built: Hand, named: set[str], reported_gen: int,
               how: How | None, self_draw: bool, indicator: int | None) -> Value:
    """The best value over every reading of a complete hand the family accepts."""
    wild = wild_kinds(opts, indicator)
    best: Value | None = None
    for facts, shown in tile_facts("sichuan", PATTERNS, built, named, wild, indicator):
        names = PATTERNS.expand(shown | named | {"平胡"})
        if "七对" in names:
            names -= {"对对胡"}
        gen = facts.reading.fours
        kongs = sum(1 for m in built.melds if m.shape == KONG)
        if reported_gen and reported_gen != gen:
            continue
        fan, lines = fan_of(opts, names, gen, kongs, how, self_draw)
        v = _finish(opts, fan, lines)
        if best is None or v.points > best.points:
            best = v
    if best is None:
        raise ReportError("tiles_contradict", f"根 {reported_gen} named, but the tiles hold "
                          "another count", pattern="根")
    return best


def _finish(opts: SichuanOptions, fan: int, lines: list[tuple[str, dict[str, str | int]]]
            ) -> Value:
    capped = cap(opts, fan)
    if capped != fan:
        lines.append(("cap", {"fan": fan, "cap": capped}))
    if opts.base != 1:
        lines.append(("per_unit", {"unit": opts.base}))
    pts = points_of(opts, capped)
    lines.append(("value", {"fan": capped, "points": pts}))
    return Value(capped, pts, lines)


# -- events ---------------------------------------------------------------------------


def on_kong(opts: SichuanOptions, state: HandState, ev: Kong, index: int, book: Book) -> None:
    if not opts.kong_payments:
        raise ReportError("kongs_not_paid", "this preset does not pay for kongs when made; "
                          "count the kong in the winner's report instead")
    if ev.seat not in state.still_in:
        raise ReportError("not_in_hand", f"{ev.seat} has already won this hand", seat=ev.seat)
    record = KongRecord(index, ev.seat, ev.kind)
    if ev.kind == KongKind.DIRECT:
        if ev.from_seat is None or ev.from_seat == ev.seat:
            raise ReportError("kong_needs_discarder", "a direct kong names whose discard it took")
        if ev.from_seat not in state.still_in:
            raise ReportError("not_in_hand", f"{ev.from_seat} has already won this hand",
                              seat=ev.from_seat)
        payers = {ev.from_seat: 2}
    elif ev.kind == KongKind.WILD:
        raise ReportError("bad_kong", "this family has no wildcard kong")
    else:
        each = 1 if ev.kind == KongKind.ADDED else 2
        payers = {s: each for s in state.still_in if s != ev.seat}
    book.line("kong", seat=ev.seat, kind=ev.kind.value)
    if opts.base != 1:
        book.line("per_unit", unit=opts.base)
    for payer, n in payers.items():
        amount = n * opts.base
        book.pay(payer, ev.seat, amount, "kong")
        record.received[payer] = amount
    state.kongs.append(record)


def on_win(opts: SichuanOptions, state: HandState, ev: Win, index: int, book: Book,
           indicator: int | None) -> None:
    seats = [w.seat for w in ev.winners]
    if ev.how in (How.SELF_DRAW, How.KONG_REPLACEMENT) and len(seats) > 1:
        raise ReportError("one_self_draw", "only one player wins a self-draw")
    for w in ev.winners:
        if w.seat not in state.still_in:
            raise ReportError("not_in_hand", f"{w.seat} has already won this hand", seat=w.seat)
        if w.feibao or w.kong_chain or w.feeder or w.wild_used is not None:
            raise foreign("jiangxi", {"wild_used": w.wild_used is not None or None,
                                      "feibao": w.feibao, "kong_chain": w.kong_chain,
                                      "feeder": w.feeder},
                          "飞宝, 连杠, 承包 and 有宝/无宝 belong to the Jiangxi family")
    if ev.birds:
        raise foreign("changsha", {"birds": ev.birds}, "birds belong to the Changsha family")
    if ev.loser_feibao or ev.jing:
        raise foreign("jiangxi", {"loser_feibao": ev.loser_feibao, "jing": ev.jing},
                      "飞宝 and 精 belong to the Jiangxi family")
    payer_one = ev.how in PAID_BY_ONE
    if payer_one or ev.from_seat is not None:
        if ev.from_seat is None:
            raise ReportError("needs_from", "say whose discard or kong it was")
        if ev.from_seat in seats:
            raise ReportError("pays_self", f"{ev.from_seat} cannot pay for their own win",
                              seat=ev.from_seat)
        if ev.from_seat not in state.still_in:
            raise ReportError("not_in_hand", f"{ev.from_seat} has already won this hand",
                              seat=ev.from_seat)
    if ev.how == How.SELF_DRAW and ev.from_seat is not None:
        raise ReportError("self_draw_from", "a self-draw has nobody to pay it alone")
    if ev.how == How.ROB_KONG:
        _void_robbed_kong(state, ev.from_seat, index, book)  # type: ignore[arg-type]
    discarder_pays = payer_one or (
        ev.how == How.KONG_REPLACEMENT and ev.from_seat is not None
        and opts.dianganghua == "discarder"
    )
    for w in ev.winners:
        self_draw = not discarder_pays
        w = with_recorded_kongs(state, w, ev.how)
        if w.fan is None:
            v = value_win(opts, w, ev.how, self_draw, indicator)
        else:
            v = _finish(opts, w.fan, [("given", {"fan": w.fan})])
            v.lines += uncounted(opts, [PATTERNS.resolve(n).name for n in w.patterns], [],
                                 given=w.fan)
        book.line("win", seat=w.seat, how=ev.how.value)
        for code, params in v.lines:
            book.line(code, seat=w.seat, **params)
        if discarder_pays:
            book.pay(ev.from_seat, w.seat, v.points, "win")  # type: ignore[arg-type]
        else:
            extra = opts.base if opts.zimo == "add_stake" else 0
            if extra:
                book.line("zimo_stake", seat=w.seat, amount=extra)
            for s in state.still_in:
                if s != w.seat:
                    book.pay(s, w.seat, v.points + extra, "win")
    if ev.how == How.AFTER_KONG_DISCARD and opts.hujiao_zhuanyi != "off":
        _hujiao_zhuanyi(opts, state, ev.from_seat, seats, book)  # type: ignore[arg-type]
    if state.first_win is None:
        state.first_win = (seats, ev.from_seat if len(seats) > 1 else None)
        # The first win decides the next dealer, even while the hand plays on.
        state.next_dealer = ev.from_seat if len(seats) > 1 else seats[0]
    for s in seats:
        state.winners.append(s)
        state.still_in.remove(s)
    if not opts.blood_battle or len(state.still_in) <= 1:
        close(opts, state)


def with_recorded_kongs(state: HandState, hand: WinnerHand, how: How) -> WinnerHand:
    """The winner's kongs: never fewer than the hand's recorded kongs of theirs, nor than
    one on a 杠上花 (the replacement tile follows their own kong). Tiles show their own."""
    if hand.tiles is not None:
        return hand
    recorded = sum(1 for r in state.kongs if r.seat == hand.seat and not r.void)
    least = max(recorded, 1 if how == How.KONG_REPLACEMENT else 0)
    if hand.kongs >= least:
        return hand
    return hand.model_copy(update={"kongs": min(least, 4)})


def _void_robbed_kong(state: HandState, robbed: Seat, index: int, book: Book) -> None:
    for record in reversed(state.kongs):
        if record.seat == robbed and record.kind == KongKind.ADDED and not record.void:
            if record.event == index - 1:
                record.void = True
                book.line("kong_robbed", seat=robbed)
                for payer, amount in record.received.items():
                    book.pay(robbed, payer, amount, "kong_void")
            return


def _hujiao_zhuanyi(opts: SichuanOptions, state: HandState, seat: Seat, winners: list[Seat],
                    book: Book) -> None:
    own = [r for r in state.kongs if r.seat == seat and not r.void and not r.handed_on]
    if opts.hujiao_zhuanyi == "last_kong":
        own = own[-1:]
    total = sum(sum(r.received.values()) for r in own)
    if not total:
        return
    for record in own:
        record.handed_on = True  # the money is the winner's now: 退税 cannot return it
    book.line("hujiao_zhuanyi", seat=seat, amount=total)
    share, rest = divmod(total, len(winners))
    order = [state.next_seat(seat, i) for i in range(1, len(state.seats))]
    for i, w in enumerate(sorted(winners, key=order.index)):
        book.pay(seat, w, share + (1 if i < rest else 0), "hujiao_zhuanyi")


def close(opts: SichuanOptions, state: HandState) -> None:
    state.closed = True
    if state.first_win is not None:
        winners, discarder = state.first_win
        state.next_dealer = discarder if discarder is not None else winners[0]
    else:
        state.next_dealer = state.dealer if opts.draw_dealer == "stay" else state.next_seat(
            state.dealer)


@dataclass(frozen=True)
class ReadyValue:
    """What a ready hand is worth at 查叫, and which wait and patterns set it."""

    points: int
    fan: int
    wait: int | None = None  # the tile kind, when found from tiles
    patterns: str = ""  # the counted patterns and extras, space-separated


def _counted(lines: list[tuple[str, dict[str, str | int]]]) -> str:
    names = [str(p["name"]) for code, p in lines if code in ("base", "pattern", "extra")]
    if len(names) > 1 and names[0] == "平胡" and lines[0][0] == "base":
        names = names[1:]  # additive: 平胡 is the start, the rest tell the story
    return " ".join(names)


def ready_value(opts: SichuanOptions, seat: Seat, info: WallEndPlayer, indicator: int | None,
                mode: str) -> ReadyValue:
    """A ready hand's 查叫 value: given as fan, or found from its tiles over every wait."""
    if info.fan is not None:
        capped = cap(opts, info.fan)
        return ReadyValue(points_of(opts, capped), capped)
    if info.tiles is None:
        raise ReportError("ready_needs_value", f"{seat} is ready: give their fan or tiles",
                          seat=seat)
    wild = wild_kinds(opts, indicator)
    hand = build("sichuan", info.tiles, info.melds, wild, size=13)
    rules = FAMILY_SHAPES["sichuan"]
    held = [a + b for a, b in zip(hand.counts, held_counts(hand), strict=True)]
    candidates = waits(hand.counts, hand.wild, kinds=rules.kinds)
    values: list[ReadyValue] = []
    for k in sorted(candidates):
        if held[k] >= 4:
            continue
        try:
            v = best_value(opts, with_tile(hand, k), {"平胡"}, 0, None, False, indicator)
        except ReportError:
            continue  # a standard shape, but not a win here (three suits)
        values.append(ReadyValue(v.points, v.fan, k, _counted(v.lines)))
        if mode == "max" and opts.cap_fan is not None and v.fan >= opts.cap_fan:
            break  # nothing is worth more than the cap
    if not values:
        raise ReportError("not_ready", f"{seat}'s tiles are not ready", seat=seat)
    pick = min if mode == "min" else max
    return pick(values, key=lambda r: r.points)  # the first wait of that value


def on_wall_end(opts: SichuanOptions, state: HandState, ev: WallEnd, book: Book,
                indicator: int | None) -> None:
    for seat in ev.players:
        if seat not in state.still_in:
            raise ReportError("not_in_hand", f"{seat} has already won this hand", seat=seat)
    info = {s: ev.players.get(s) for s in state.still_in}
    huazhu = [s for s, i in info.items() if i is not None and i.huazhu]
    if huazhu and opts.suits == 2:
        raise ReportError("huazhu_two_suits", "with two suits nobody can be 花猪: there is no "
                          "suit to lack", seat=huazhu[0])
    for s in huazhu:
        if ev.players[s].ready:
            raise ReportError("huazhu_ready", f"{s} cannot be both 花猪 and ready", seat=s)
    book.line("wall_end")
    if opts.base != 1:
        book.line("per_unit", unit=opts.base)  # 花猪's and 查叫's points count it
    if huazhu and opts.huazhu:
        fan = opts.cap_fan if opts.cap_fan is not None else opts.huazhu_fan
        amount = points_of(opts, fan)
        for s in huazhu:
            book.line("huazhu", seat=s, fan=fan)
            book.line("huazhu_value", seat=s, fan=fan, points=amount)
            for other in state.still_in:
                if other not in huazhu:
                    book.pay(s, other, amount, "huazhu")
    elif huazhu:
        book.line("huazhu_not_counted")
        huazhu = []  # not counted here: such a player is simply not ready
    ready = [s for s, i in info.items() if i is not None and i.ready]
    not_ready = [s for s in state.still_in if s not in ready and s not in huazhu]
    if opts.chajiao != "off" and ready and not_ready:
        for s in ready:
            rv = ready_value(opts, s, ev.players[s], indicator, opts.chajiao)
            params: dict[str, str | int] = {"fan": rv.fan}
            if rv.wait is not None:
                params |= {"wait": compact(rv.wait), "patterns": rv.patterns or "平胡"}
            book.line("chajiao", seat=s, mode=opts.chajiao, points=rv.points, **params)
            for payer in not_ready:
                book.pay(payer, s, rv.points, "chajiao")
    if opts.tuishui:
        for s in [*not_ready, *huazhu]:
            handed_on = 0
            for record in state.kongs:
                if record.seat != s or record.void:
                    continue
                if record.handed_on:
                    handed_on += sum(record.received.values())
                    continue
                for payer, amount in record.received.items():
                    book.pay(s, payer, amount, "tuishui")
            if handed_on:
                book.line("tuishui_handed_on", seat=s, amount=handed_on)
    close(opts, state)



FAMILY = Family("sichuan", SichuanOptions, {
    Win: lambda o, st, ev, c: on_win(o, st, ev, c.index, c.book, c.indicator),
    Kong: lambda o, st, ev, c: on_kong(o, st, ev, c.index, c.book),
    WallEnd: lambda o, st, ev, c: on_wall_end(o, st, ev, c.book, c.indicator),
})
