"""Jiangxi (Shangrao 飞宝): base values and doublings, 飞宝, 抢杠 x6, 承包, kong points, 精."""

from __future__ import annotations

from engine.book import Book
from engine.errors import ReportError, foreign
from engine.families.registry import Family
from engine.families.state import HandState, KongRecord
from engine.hand_facts import build, tile_facts
from engine.models import How, Kong, KongKind, Seat, WallEnd, Win, WinnerHand
from engine.options import JiangxiOptions
from engine.patterns import JIANGXI
from engine.patterns.jiangxi import HANDS
from engine.wildcards import jing_kinds

PATTERNS = JIANGXI
_EXTRAS = ("七字全", "单张", "宝吊还原", "豪华")
_BAODIAO_RAISES = ("平和", "七对", "碰对")  # the hands whose base value 宝吊 raises


def wild_kinds(opts: JiangxiOptions, indicator: int | None) -> tuple[int, ...]:
    if indicator is None:
        return ()
    zheng, fu = jing_kinds(indicator, opts.wild_tiles)
    return tuple(k for k in (zheng, fu) if k is not None)


def base_value(opts: JiangxiOptions, hand_type: str, wild_used: bool, bao_diao: bool) -> int:
    v = opts.values
    if not wild_used:
        return v.get(f"{hand_type}无宝", v[hand_type])
    if hand_type == "平和":
        return v["平和宝吊"] if bao_diao else v["平和"]
    if hand_type in ("七对", "碰对"):
        return v[hand_type] * (2 if bao_diao else 1)
    return v[hand_type]


def value_of(opts: JiangxiOptions, names: set[str], wild_used: bool, feibao: int,
             kong_chain: int, how: How) -> tuple[int, list[tuple[str, dict[str, str | int]]]]:
    """V = base x V0 x 2^extras for one winning hand, with its lines."""
    types = [h for h in HANDS if h in names]
    if not types:
        types = ["平和"]
    bao_diao = "宝吊" in names
    lines: list[tuple[str, dict[str, str | int]]] = []
    hand_type = max(types, key=lambda t: base_value(opts, t, wild_used, bao_diao))
    v0 = base_value(opts, hand_type, wild_used, bao_diao)
    lines.append(("hand_value", {"name": hand_type, "value": v0,
                                 "wild": "有宝" if wild_used else "无宝"}))
    if bao_diao and wild_used and hand_type in _BAODIAO_RAISES:
        lines.append(("in_base", {"name": "宝吊"}))  # 平和宝吊, 七对/碰对 x2
    doublings = 0
    for n in _EXTRAS:
        if n in names:
            doublings += 1
            lines.append(("doubling", {"name": n, "count": 1, "times": 2}))
    if feibao:
        doublings += feibao
        lines.append(("doubling", {"name": "飞宝", "count": feibao, "times": 2**feibao}))
    if how == How.KONG_REPLACEMENT:
        chain = max(1, kong_chain)
        doublings += chain
        lines.append(("doubling", {"name": "杠上花", "count": chain, "times": 2**chain}))
    if "清一色" in names:
        doublings += opts.qingyise_fan
        lines.append(("doubling", {"name": "清一色", "count": opts.qingyise_fan,
                                   "times": 2**opts.qingyise_fan}))
    value = opts.base * v0 * 2**doublings
    if opts.base != 1:
        lines.append(("per_unit", {"unit": opts.base}))
    lines.append(("doubled_value", {"value": opts.base * v0, "times": 2**doublings,
                                    "points": value}))
    return value, lines


def uncounted(named: list[str], lines: list[tuple[str, dict[str, str | int]]]
              ) -> list[tuple[str, dict[str, str | int]]]:
    """A line for each pattern the player named that the value does not count, saying why:
    only the best hand counts, 宝吊 needs a wildcard, or it changes nothing here."""
    hand = next(p for code, p in lines if code == "hand_value")
    counted = {str(hand["name"])} | {str(p["name"]) for code, p in lines
                                      if code in ("in_base", "doubling")}
    covered = PATTERNS.expand(n for n in counted if n in PATTERNS.patterns)
    out: list[tuple[str, dict[str, str | int]]] = []
    for n in dict.fromkeys(named):
        if n in covered:
            continue
        if n in HANDS:
            out.append(("not_counted_largest", {"name": n, "base": str(hand["name"])}))
        elif n == "宝吊" and hand["wild"] == "无宝":
            out.append(("not_counted_no_wild", {"name": n}))
        else:
            out.append(("not_counted_no_value", {"name": n}))
    return out


def _named(w: WinnerHand) -> set[str]:
    names = PATTERNS.expand(w.patterns)
    PATTERNS.check_exclusions(names)
    return names


def value_win(opts: JiangxiOptions, w: WinnerHand, how: How, indicator: int | None
              ) -> tuple[int, list[tuple[str, dict[str, str | int]]]]:
    named = _named(w)
    if w.tiles is None:
        if w.melds:
            raise ReportError("melds_without_tiles", "declared melds need the tiles too")
        wild_used = True if w.wild_used is None else w.wild_used
        return value_of(opts, named, wild_used, w.feibao, w.kong_chain, how)
    wild = wild_kinds(opts, indicator)
    built = build("jiangxi", w.tiles, w.melds, wild)
    best: tuple[int, list[tuple[str, dict[str, str | int]]]] | None = None
    for facts, shown in tile_facts("jiangxi", PATTERNS, built, named, wild):
        used = facts.reading.wild_used - facts.reading.restored > 0
        if w.wild_used is not None and w.wild_used != used:
            continue
        names = PATTERNS.expand(shown | named)
        # One hand type per reading: the tiles decide between 平和 and 碰对.
        v = value_of(opts, names, used, w.feibao, w.kong_chain, how)
        if best is None or v[0] > best[0]:
            best = v
    if best is None:
        raise ReportError("tiles_contradict", "the wildcard use named does not match the tiles",
                          pattern="有宝")
    return best


def on_kong(opts: JiangxiOptions, state: HandState, ev: Kong, index: int, book: Book) -> None:
    if ev.kind == KongKind.DIRECT and (ev.from_seat is None or ev.from_seat == ev.seat):
        raise ReportError("kong_needs_discarder", "a direct kong names whose discard it took")
    book.line("kong", seat=ev.seat, kind=ev.kind.value)
    state.kongs.append(KongRecord(index, ev.seat, ev.kind))


def on_win(opts: JiangxiOptions, state: HandState, ev: Win, book: Book,
           indicator: int | None) -> None:
    seats = [w.seat for w in ev.winners]
    if ev.how in (How.DISCARD, How.AFTER_KONG_DISCARD) and not opts.discard_wins:
        raise ReportError("self_draw_only", "this preset wins by self-draw only (or by robbing "
                          "a kong)")
    if ev.birds:
        raise foreign("changsha", {"birds": ev.birds}, "birds belong to the Changsha family")
    if ev.how != How.ROB_KONG and len(seats) > 1 and ev.how != How.DISCARD:
        raise ReportError("one_self_draw", "only one player wins a self-draw")
    one_payer = ev.how in (How.ROB_KONG, How.DISCARD, How.AFTER_KONG_DISCARD)
    if one_payer and (ev.from_seat is None or ev.from_seat in seats):
        raise ReportError("needs_from", "say whose kong was robbed (not the winner's own)")
    if not one_payer and ev.from_seat is not None:
        raise ReportError("self_draw_from", "a self-draw has nobody to pay it alone")
    for seat in ev.loser_feibao:
        if seat in seats:
            raise ReportError("feibao_winner", f"{seat} won: give their 飞宝 as the winner's")
    for w in ev.winners:
        if w.gen or w.kongs or w.fan:
            raise foreign("sichuan", {"gen": w.gen, "kongs": w.kongs, "fan": w.fan},
                          "根, kong counts and fan are not used here; report kongs as events")
        value, lines = value_win(opts, w, ev.how, indicator)
        lines = lines + uncounted([PATTERNS.resolve(n).name for n in w.patterns], lines)
        book.line("win", seat=w.seat, how=ev.how.value)
        for code, params in lines:
            book.line(code, seat=w.seat, **params)
        if ev.how == How.ROB_KONG:
            robbed: Seat = ev.from_seat  # type: ignore[assignment]
            amount = opts.qianggang_mult * value * ev.robbed_kongs
            book.line("qianggang", seat=robbed, mult=opts.qianggang_mult,
                      kongs=ev.robbed_kongs)
            book.pay(robbed, w.seat, amount, "win")
            continue
        if ev.how == How.DISCARD:
            book.pay(ev.from_seat, w.seat, value, "win")  # type: ignore[arg-type]
            continue
        shares: dict[Seat, int] = {}
        for s in state.seats:
            if s == w.seat:
                continue
            fb = ev.loser_feibao.get(s, 0) if opts.feibao_loser_doubles else 0
            shares[s] = value * 2**fb
            if fb:
                book.line("loser_feibao", seat=s, count=fb)
        _pay_shares(opts, w, shares, book)
    if ev.how == How.ROB_KONG:
        _void_robbed(state, ev.from_seat, book)  # type: ignore[arg-type]
    state.winners.extend(seats)
    finish(opts, state, book, ev.jing, won=True)
    dealer_won = state.dealer in seats
    state.next_dealer = state.dealer if dealer_won else state.next_seat(state.dealer)


def _pay_shares(opts: JiangxiOptions, w: WinnerHand, shares: dict[Seat, int], book: Book
                ) -> None:
    """Each loser pays their share, unless 承包 puts it on the feeder."""
    feeder, fourth = w.feeder, w.fourth_feeder
    if feeder is None or not opts.chengbao:
        if fourth is not None:
            raise ReportError("fourth_without_feeder", "承包: name the feeder of three melds")
        for s, amount in shares.items():
            book.pay(s, w.seat, amount, "win")
        return
    if feeder == w.seat or fourth == w.seat or feeder == fourth:
        raise ReportError("bad_feeder", "承包: the feeders must be two other players")
    book.line("chengbao", seat=feeder, winner=w.seat)
    for s, amount in shares.items():
        book.pay(feeder if s != fourth else s, w.seat, amount, "chengbao" if s != fourth
                 else "win")


def _void_robbed(state: HandState, robbed: Seat, book: Book) -> None:
    for record in reversed(state.kongs):
        if record.seat == robbed and not record.void:
            if record.kind != KongKind.WILD:
                record.void = True
                book.line("kong_robbed", seat=robbed)
            return


def chongguan(score: int) -> int:
    """冲冠: a 精 score of 5 or more becomes s x (s - 3): 5 -> 10, 6 -> 18, 10 -> 70."""
    return score * (score - 3) if score >= 5 else score


def finish(opts: JiangxiOptions, state: HandState, book: Book,
           jing: dict[Seat, tuple[int, int]], won: bool) -> None:
    """End of hand: kong points, then the 精 reward."""
    kongs = [r for r in state.kongs if not r.void and (won or opts.kong_points_on_draw)]
    if opts.base != 1 and (kongs or (won and opts.jing_bonus and jing)):
        book.line("per_unit", unit=opts.base)
    if won or opts.kong_points_on_draw:
        for record in state.kongs:
            if record.void:
                continue
            pts = opts.kong_points.get(record.kind.value, 0) * opts.base
            for s in state.seats:
                if s != record.seat:
                    book.pay(s, record.seat, pts, "kong_points")
    if won and opts.jing_bonus and jing:
        scores = {s: 2 * z + f for s, (z, f) in jing.items()}
        holders = [s for s, v in scores.items() if v > 0]
        for s in state.seats:
            score = scores.get(s, 0)
            if not score:
                continue
            if score >= 5:
                book.line("chongguan", seat=s, score=score, value=chongguan(score))
                score = chongguan(score)
            if len(holders) == 1:
                book.line("bawang_jing", seat=s, value=score * 2)
                score *= 2
            book.line("jing", seat=s, score=score)
            for other in state.seats:
                if other != s:
                    book.pay(other, s, score * opts.base, "jing")
    elif jing and not won:
        raise ReportError("jing_without_win", "the 精 reward is paid only when a hand is won")
    elif won and opts.jing_bonus:
        book.line("jing_unsaid")  # no counts given: scored as nobody holding 精
    state.closed = True


def on_wall_end(opts: JiangxiOptions, state: HandState, ev: WallEnd, book: Book) -> None:
    if ev.players:
        raise ReportError("wrong_family", "this family has no 花猪 or 查叫 at the wall")
    book.line("wall_end")
    finish(opts, state, book, {}, won=False)
    state.next_dealer = (state.dealer if opts.draw_dealer == "stay"
                         else state.next_seat(state.dealer))


FAMILY = Family("jiangxi", JiangxiOptions, {
    Win: lambda o, st, ev, c: on_win(o, st, ev, c.book, c.indicator),
    Kong: lambda o, st, ev, c: on_kong(o, st, ev, c.index, c.book),
    WallEnd: lambda o, st, ev, c: on_wall_end(o, st, ev, c.book),
})
