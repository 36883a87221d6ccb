"""What the tiles and the hand so far make impossible, whatever the family scores: a kong
robbed by a shape that holds its tile twice, a 杠上炮 off a player who made no kong, more
根 than the tiles leave room for, a fifth kong, more 精 or 飞宝 than the wall holds.

Pure checks over one event and the hand's state before it; each refusal is a
:class:`~engine.errors.ReportError` whose code the bot says in the chat's language
(docs/rules/README.md, "What a report cannot say")."""

from __future__ import annotations

from typing import Protocol

from engine.errors import ReportError
from engine.families.state import HandState
from engine.models import How, Kong, KongKind, Seat, Win, WinnerHand
from engine.options import FamilyOptions, JiangxiOptions, SichuanOptions
from engine.patterns import FAMILY_PATTERNS
from engine.tiles import KINDS, TileError, parse_tokens


class Ruleset(Protocol):
    """What these checks read of a table's rules (:class:`engine.rules.Ruleset`, which
    imports the families, which import this module)."""

    @property
    def family(self) -> str: ...

    @property
    def options(self) -> FamilyOptions: ...

# The most 根 (fours held, not declared) a winning hand holds beside its declared kongs:
# 14 tiles hold three fours (1111 2222 3333m 44p); each kong takes a set's place and leaves
# fewer tiles for fours (one kong: 11 tiles, two fours; two: 8 tiles, one; three or four:
# only a set and a pair, or a pair, and no four).
MOST_GEN = (3, 2, 1, 0, 0)
MOST_KONGS = 4  # a hand holds four sets: at most four kongs
# The shapes in which every tile is in a pair or a pong: the winning tile is held at least
# twice, so it cannot be the fourth tile of another player's pong (抢杠).
PAIRED_SHAPES = {"sichuan": ("七对", "对对胡"), "changsha": ("七小对", "碰碰胡"),
                 "jiangxi": ("七对", "碰对")}


def records_kongs(rules: Ruleset) -> bool:
    """Whether a table at ``rules`` reports kongs as events (they pay when made, or score at
    the hand's end), so that a hand knows who made a kong."""
    opts = rules.options
    if isinstance(opts, SichuanOptions):
        return opts.kong_payments
    return isinstance(opts, JiangxiOptions)


def most_gen(kongs: int) -> int:
    """The most 根 a hand with ``kongs`` declared kongs can hold."""
    return MOST_GEN[min(max(kongs, 0), MOST_KONGS)]


def check_gen(gen: int, kongs: int) -> None:
    if kongs > MOST_KONGS or gen > most_gen(kongs):
        raise ReportError("too_many_gen", f"{gen} 根 and {kongs} kongs: the tiles leave room "
                          f"for at most {most_gen(kongs)} 根 beside {kongs} kong(s)",
                          gen=gen, kongs=kongs, most=most_gen(kongs))


def kongs_of(state: HandState, seat: Seat) -> int:
    """The kongs ``seat`` made in this hand and still holds (a robbed one went back)."""
    return sum(1 for r in state.kongs if r.seat == seat and not r.void)


def check(rules: Ruleset, state: HandState, ev: object, index: int) -> None:
    """Refuse ``ev`` (event ``index`` of the hand) when the hand so far or its tiles make
    it impossible."""
    if isinstance(ev, Kong):
        if kongs_of(state, ev.seat) >= MOST_KONGS:
            raise ReportError("too_many_kongs", f"{ev.seat} already made four kongs this hand",
                              seat=ev.seat)
    elif isinstance(ev, Win):
        _check_win(rules, state, ev, index)


def _check_win(rules: Ruleset, state: HandState, ev: Win, index: int) -> None:
    kongs_known = records_kongs(rules)
    if ev.how == How.AFTER_KONG_DISCARD and ev.from_seat is not None and kongs_known \
            and kongs_of(state, ev.from_seat) == 0:
        raise ReportError("no_kong_made", f"{ev.from_seat} made no kong in this hand",
                          seat=ev.from_seat)
    if ev.how == How.ROB_KONG:
        if ev.from_seat is not None and kongs_known:
            # The kong being robbed, reported just before, is the pong it was added to.
            robbed = [r for r in state.kongs if r.seat == ev.from_seat and not r.void
                      and not (r.event == index - 1 and r.kind == KongKind.ADDED)]
            if len(robbed) >= MOST_KONGS:
                raise ReportError("rob_no_pong", f"{ev.from_seat} made four kongs: no pong "
                                  "is left to add a tile to", seat=ev.from_seat)
        for w in ev.winners:
            _check_robbing_hand(rules.family, w)
    if isinstance(rules.options, JiangxiOptions):
        _check_wildcards(rules.options, ev)


def _check_robbing_hand(family: str, w: WinnerHand) -> None:
    """A robbed tile is the fourth of its kind: the robber holds it once."""
    table = FAMILY_PATTERNS[family]
    try:
        names = table.expand(w.patterns)
    except ReportError:
        return  # an unknown name: the family refuses it with the names it counts
    for shape in PAIRED_SHAPES.get(family, ()):
        if shape in names:
            raise ReportError("rob_kong_shape", f"{shape} holds every tile at least twice: it "
                              "cannot win on a robbed kong's tile", seat=w.seat, pattern=shape)
    if w.tiles is None:
        return
    counts = [0] * KINDS
    try:
        for text in (w.tiles, *w.melds):
            for tile in parse_tokens(text):
                counts[tile.kind] += 1
    except TileError:
        return  # bad tiles: the family says what is wrong with them
    if not any(c == 1 for c in counts):
        raise ReportError("rob_kong_tiles", "these tiles hold every kind at least twice: none "
                          "of them can be a robbed kong's fourth tile", seat=w.seat)


def _check_wildcards(opts: JiangxiOptions, ev: Win) -> None:
    """The wall holds four of each wildcard kind: 正精 and 副精 (or 宝 alone)."""
    copies = 4 if opts.wild_tiles == "next" else 8
    held = [z for z, _ in ev.jing.values()], [f for _, f in ev.jing.values()]
    thrown = sum(w.feibao for w in ev.winners) + sum(ev.loser_feibao.values())
    if max(sum(held[0]), sum(held[1])) > 4 or sum(map(sum, held)) + thrown > copies:
        raise ReportError("too_many_jing", f"the wall holds {copies} wildcards; the 精 held "
                          "and the 飞宝 thrown add up to more", copies=copies)
