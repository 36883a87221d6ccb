"""The guided reports' transitions: a draft and a press make the next draft, a
:class:`Record` (the press records the draft), or ``None`` (the press does not fit the
draft: a refusal). Pure functions, no Telegram: what a table's rules offer comes from the
engine (:func:`engine.offer.offer`), the buttons from :mod:`bot.dialogs.guided_keyboards`.

The common /hu takes four taps: winner and how in one tap (a row per winner: self-draw, or
off whose discard), one or two patterns, then Record. Everything else the preset scores is
one or two taps away: 根 and kongs (Sichuan family, kongs pre-filled from the ledger),
birds (Changsha, chosen with the Record tap), 有宝/无宝, 飞宝 of the winner and of each
loser, 精 counts, 承包 and 第四凑, 连杠/连抢 (Jiangxi), the 本金 or 精 tile, several
winners on one discard, a Hong Kong self-draw's 包自摸 (who fed the fourth meld), and every
pattern of the preset, paged. /kong: who, which kong, and for 直杠 whose discard; the tap
that completes it records it; so does an MCR /penalty: who, 错和 or which foul, and a
foul's fine. /draw: each player still
in steps through 未听, 听 and 花猪, and a ready player's fan.

A press is an action of one to three letters and an optional argument, as the buttons'
callback data carries them (:func:`bot.dialogs.keyboards.draft_data`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from bot.dialogs.guided_state import (
    BiteDraft,
    Draft,
    DrawDraft,
    HuDraft,
    KongDraft,
    KongKind,
    PenaltyDraft,
)
from engine.errors import ReportError
from engine.offer import FROM_ANOTHER, WAYS, Offer, offer
from engine.rules import Ruleset
from engine.settle import parse_report, settle_hand
from storage.models import NightInfo

PAGE = 9  # pattern buttons per page, three rows of three
MAX_WINNERS = 3
SUITS = ("m", "p", "s", "z")
# A kong's kind as its button names it.
KONG_LETTERS: dict[str, KongKind] = {"c": "concealed", "a": "added", "d": "direct",
                                     "w": "wild"}
FAN_TOP = 8  # the fan buttons step 1..FAN_TOP, or up to the cap
# A points-only win's amount, one tap (another amount is typed: /hu bob from carol 37).
AMOUNTS = (1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 16, 20, 24, 30, 32, 40, 50, 64, 100)
FAN_BUTTONS = range(1, 11)  # Hong Kong: a win's 番 count, one button each (十番爆棚)
# An MCR penalty's kind by its button's letter (engine.models.PenaltyKind), and the fines a
# referee gives most, one tap each (another is typed: /penalty dave 错碰 15).
PENALTY_LETTERS = {"f": "false_win", "c": "wrong_chow", "p": "wrong_pung", "k": "wrong_kong",
                   "t": "slow_play", "s": "shown_tiles", "o": "foul"}
FINES = (1, 2, 5, 10, 20, 30)
# Hong Kong: the ways to win a 包自摸 is paid on (a self-draw, or on a kong replacement).
SELF_DRAWN = ("self_draw", "kong_replacement")


def facts_of(night: NightInfo) -> Offer:
    """What a report at the table may say (the rules the table started with)."""
    return offer(Ruleset.from_snapshot(night.rules))


def still_in_before(night: NightInfo, report: Mapping[str, Any], index: int
                    ) -> tuple[str, ...]:
    """Who is still in a hand before its event ``index`` (0-based): what the engine leaves
    in after settling the events before it (a blood battle's earlier winners are out).
    ``night``: the table as it sat for that hand. Every seat when those events do not
    settle again (a hand imported as it was)."""
    seats = tuple(night.seats)
    if index <= 0:
        return seats
    try:
        parsed = parse_report(report)
        before = parsed.model_copy(update={"events": parsed.events[:index]})
        result = settle_hand(Ruleset.from_snapshot(night.rules), before, night.dealer)
    except (ReportError, ValueError):
        return seats
    return tuple(result.still_in) or seats


@dataclass(frozen=True)
class Table:
    """What a press is checked against: what the rules offer, every seat, and the seats
    still in the hand."""

    offer: Offer
    seats: tuple[str, ...]
    inside: tuple[str, ...]

    @classmethod
    def of(cls, night: NightInfo) -> Table:
        return cls(facts_of(night), tuple(night.seats),
                   tuple(night.still_in or night.seats))

    @property
    def kong_letters(self) -> tuple[str, ...]:
        """The kongs a player may declare, by their buttons' letters."""
        return tuple(k for k, kind in KONG_LETTERS.items() if kind in self.offer.kongs)

    @property
    def fan_top(self) -> int:
        """A ready player's fan at the wall's end steps 1..fan_top."""
        return min(self.offer.fan_cap or FAN_TOP, FAN_TOP)


@dataclass(frozen=True)
class Record:
    """The press records the draft (as it stands after the press)."""

    draft: Draft


Outcome = Draft | Record | None


def press(table: Table, draft: Draft, action: str, arg: str | None) -> Outcome:
    """The draft after a press, :class:`Record` when the press records it, or ``None``
    when the press does not fit the draft."""
    if isinstance(draft, HuDraft):
        return _press_hu(table, draft, action, arg)
    if isinstance(draft, KongDraft):
        kong = _press_kong(table, draft, action, arg)
        return Record(kong) if kong is not None and kong.ready else kong
    if isinstance(draft, BiteDraft):
        return _press_bite(table, draft, action, arg)
    if isinstance(draft, PenaltyDraft):
        penalty = _press_penalty(table, draft, action, arg)
        return Record(penalty) if penalty is not None and penalty.ready else penalty
    return _press_draw(table, draft, action, arg)


# -- /hu -----------------------------------------------------------------------------------

def ready(draft: HuDraft) -> bool:
    """Whether the draft says enough to be recorded."""
    return bool(draft.winners) and draft.how is not None and (
        draft.how not in FROM_ANOTHER or draft.from_seat is not None)


def has_more(facts: Offer) -> bool:
    """Whether the hand has facts beyond patterns and counts (the "More…" step)."""
    return bool(facts.indicator or facts.jiangxi or facts.birds > 1)


def winner_order(table: Table, draft: HuDraft) -> list[str]:
    """The seats still in, recent winners first."""
    recent = [s for s in draft.recent if s in table.inside]
    return list(dict.fromkeys([*recent, *table.inside]))


def _cycle(value: int, top: int, low: int = 0) -> int:
    return low if value >= top else value + 1


def _number(arg: str | None) -> int | None:
    return int(arg) if arg is not None and arg.isdigit() else None


def _among(arg: str | None, seats: tuple[str, ...], but: tuple[str | None, ...] = ()
           ) -> str | None:
    """``arg`` when it is one of ``seats`` and none of ``but``."""
    return arg if arg is not None and arg in seats and arg not in but else None


def _press_hu(table: Table, draft: HuDraft, action: str, arg: str | None) -> Outcome:
    if action == "y":
        return Record(draft) if ready(draft) else None
    step = _HU.get(action)
    new = step(table, draft, action, arg) if step is not None else None
    if new is not None and action == "yb":
        return Record(new)
    if new is not None and action in ("yt", "ya"):  # a tai count or an amount records
        waiting = [i for i, w in enumerate(new.winners) if w.tai is None and w.amount is None]
        return Record(new) if not waiting else new.model_copy(update={"cur": waiting[0]})
    return new


def _won(draft: HuDraft, seat: str) -> HuDraft:
    """The draft with ``seat`` its only winner."""
    return draft.model_copy(update={"winners": (draft.hand_for(seat),)})


def _winner_how(table: Table, d: HuDraft, action: str, arg: str | None) -> HuDraft | None:
    """ws: the winner self-drew; wo: the winner, the way asked next."""
    seat = _among(arg, table.inside)
    if d.step != "start" or seat is None:
        return None
    d = _won(d, seat)
    if action == "ws" and "self_draw" in table.offer.hows:
        return d.model_copy(update={"how": "self_draw", "step": "main"})
    return d.model_copy(update={"step": "how"})


def _winner_discard(table: Table, d: HuDraft, action: str, arg: str | None) -> HuDraft | None:
    """wd: the winner (the first seat) off the second seat's discard."""
    if d.step != "start" or arg is None or len(arg) != 2 or arg[0] not in table.inside \
            or arg[1] not in table.inside or arg[0] == arg[1] \
            or "discard" not in table.offer.hows:
        return None
    return _won(d, arg[0]).model_copy(update={"how": "discard", "from_seat": arg[1],
                                              "step": "main"})


def _how(table: Table, d: HuDraft, action: str, arg: str | None) -> HuDraft | None:
    """h: a way to win, by its index in the engine's ways; one that names another seat
    asks which, unless the draft already says."""
    i = _number(arg)
    if d.step != "how" or i is None or i >= len(WAYS) or WAYS[i] not in table.offer.hows \
            or not d.winners:
        return None
    how = WAYS[i]
    d = d.model_copy(update={"how": how})
    if how in FROM_ANOTHER and not any(d.may_be_from(s) for s in table.inside):
        return None  # nobody it could name (杠上炮 with no kong made)
    ok = how not in FROM_ANOTHER or (d.from_seat in table.inside
                                     and d.may_be_from(d.from_seat))
    update: dict[str, Any] = {"how": how, "step": "main" if ok else "from"}
    if how not in FROM_ANOTHER:
        update.update(from_seat=None, winners=d.winners[:1], cur=0)
    return _bao_kept(d.model_copy(update=update))


def _how_discard(table: Table, d: HuDraft, action: str, arg: str | None) -> HuDraft | None:
    """hd: off this seat's discard."""
    if d.step != "how" or arg not in table.inside or arg in d.seats_won \
            or "discard" not in table.offer.hows:
        return None
    return _bao_kept(d.model_copy(update={"how": "discard", "from_seat": arg,
                                          "step": "main"}))


def _bao_kept(d: HuDraft) -> HuDraft:
    """The draft without a Hong Kong 包自摸 once the win is no self-draw (包自摸 is paid
    on a self-draw only)."""
    if d.how in SELF_DRAWN or not any(w.fourth_feeder for w in d.winners):
        return d
    return d.model_copy(update={"winners": tuple(w.model_copy(update={"fourth_feeder": None})
                                                 for w in d.winners)})


def _from(table: Table, d: HuDraft, action: str, arg: str | None) -> HuDraft | None:
    """f: the seat that discarded, or whose kong was robbed."""
    if d.step != "from" or arg not in table.inside or not d.may_be_from(arg):
        return None
    return d.model_copy(update={"from_seat": arg, "step": "main"})


def _ask_how(table: Table, d: HuDraft, action: str, arg: str | None) -> HuDraft | None:
    """hw: back to how the hand was won."""
    return d.model_copy(update={"step": "how"}) if d.step == "main" else None


def _add_winner(table: Table, d: HuDraft, action: str, arg: str | None) -> HuDraft | None:
    """aw: from the patterns, ask who else won on the same tile; then add that winner."""
    if d.step == "main" and d.how in FROM_ANOTHER and len(d.winners) < MAX_WINNERS:
        return d.model_copy(update={"step": "add"})
    seat = _among(arg, table.inside, (*d.seats_won, d.from_seat))
    if d.step != "add" or seat is None:
        return None
    return d.model_copy(update={
        "winners": (*d.winners, d.hand_for(seat)), "cur": len(d.winners), "page": 0,
        "step": "main", "loser_feibao": {s: n for s, n in d.loser_feibao.items() if s != seat}})


def _choose_winner(table: Table, d: HuDraft, action: str, arg: str | None) -> HuDraft | None:
    """cw: the patterns and counts of another winner."""
    i = _number(arg)
    if d.step != "main" or i is None or i >= len(d.winners):
        return None
    return d.model_copy(update={"cur": i, "page": 0})


def _with_current(d: HuDraft, **changes: Any) -> HuDraft:
    hands = list(d.winners)
    hands[d.cur] = hands[d.cur].model_copy(update=changes)
    return d.model_copy(update={"winners": tuple(hands)})


def _pattern(table: Table, d: HuDraft, action: str, arg: str | None) -> HuDraft | None:
    """p: a pattern (by its index in the offer) on or off for the current winner."""
    i, cur = _number(arg), d.current
    if d.step != "main" or cur is None or i is None or i >= len(table.offer.patterns):
        return None
    name = table.offer.patterns[i]
    chosen = [n for n in cur.patterns if n != name] if name in cur.patterns \
        else [*cur.patterns, name]
    return _with_current(d, patterns=tuple(chosen))


def _page(table: Table, d: HuDraft, action: str, arg: str | None) -> HuDraft | None:
    """pg: another page of patterns."""
    i = _number(arg)
    if d.step != "main" or i is None or i * PAGE >= len(table.offer.patterns):
        return None
    return d.model_copy(update={"page": i})


def _count(table: Table, d: HuDraft, action: str, arg: str | None) -> HuDraft | None:
    """g, k (Sichuan): 根 and kongs, 0..4; wu, fb (Jiangxi): 有宝/无宝 and 飞宝 0..8."""
    cur = d.current
    if d.step != "main" or cur is None:
        return None
    if action in ("g", "k") and table.offer.counts:
        return _with_current(d, gen=_cycle(cur.gen, 4)) if action == "g" else \
            _with_current(d, kongs=_cycle(cur.kongs, 4))
    if action == "wu" and table.offer.jiangxi:
        return _with_current(d, wild_used=cur.wild_used is False)
    if action == "fb" and table.offer.jiangxi:
        return _with_current(d, feibao=_cycle(cur.feibao, 8))
    if action == "fl" and table.offer.family == "mcr":
        return _with_current(d, flowers=_cycle(cur.flowers, 8))
    return None


def _fan(table: Table, d: HuDraft, action: str, arg: str | None) -> HuDraft | None:
    """fn (Hong Kong): the 番 count; pressed again, the patterns say it."""
    cur = d.current
    if d.step != "main" or cur is None or table.offer.family != "hongkong" \
            or arg not in {str(n) for n in FAN_BUTTONS}:
        return None
    return _with_current(d, fan=0 if cur.fan == int(arg) else int(arg))


def _bao(table: Table, d: HuDraft, action: str, arg: str | None) -> HuDraft | None:
    """zb (Hong Kong): ask who fed a self-drawing winner's fourth exposed meld (包自摸);
    zp: that seat, or "0" for nobody, and back to the patterns."""
    cur = d.current
    if cur is None or not table.offer.bao_zimo or d.how not in SELF_DRAWN:
        return None
    if action == "zb":
        return d.model_copy(update={"step": "bao"}) if d.step == "main" else None
    if d.step != "bao" or not (arg == "0" or (arg in table.seats and arg != cur.seat)):
        return None
    return _with_current(d, fourth_feeder=None if arg == "0" else arg).model_copy(
        update={"step": "main"})


def _more(table: Table, d: HuDraft, action: str, arg: str | None) -> HuDraft | None:
    """mo: the hand's other facts."""
    return d.model_copy(update={"step": "more"}) if d.step == "main" and has_more(
        table.offer) else None


def _back(table: Table, d: HuDraft, action: str, arg: str | None) -> HuDraft | None:
    """bk: from a question back to the patterns, or to the other facts."""
    if d.step not in ("more", "jing", "feeder", "fourth", "ind", "indr", "how", "add",
                      "from", "bao") or not ready(d):
        return None
    return d.model_copy(update={"step": "main" if d.step in ("more", "how", "add", "from",
                                                             "bao") else "more"})


def _jing_step(table: Table, d: HuDraft, action: str, arg: str | None) -> HuDraft | None:
    """jv: each player's 精."""
    jx = table.offer.jiangxi
    if d.step != "more" or jx is None or not jx.jing_bonus:
        return None
    return d.model_copy(update={"step": "jing"})


def _jing(table: Table, d: HuDraft, action: str, arg: str | None) -> HuDraft | None:
    """jz, jf: a seat's 正精 or 副精, 0..4."""
    seat = _among(arg, table.seats)
    if d.step != "jing" or seat is None:
        return None
    pair = list(d.jing.get(seat, (0, 0)))
    i = 0 if action == "jz" else 1
    pair[i] = _cycle(pair[i], 4)
    jing = {s: v for s, v in d.jing.items() if s != seat}
    if pair != [0, 0]:
        jing[seat] = (pair[0], pair[1])
    return d.model_copy(update={"jing": jing})


def _loser_feibao(table: Table, d: HuDraft, action: str, arg: str | None) -> HuDraft | None:
    """lf: a loser's 飞宝, 0..8."""
    jx = table.offer.jiangxi
    seat = _among(arg, table.seats, d.seats_won)
    if d.step != "more" or jx is None or not jx.feibao_loser_doubles or seat is None:
        return None
    count = _cycle(int(d.loser_feibao.get(seat, 0)), 8)
    feibao = {s: n for s, n in d.loser_feibao.items() if s != seat}
    if count:
        feibao[seat] = count
    return d.model_copy(update={"loser_feibao": feibao})


def _feeder_step(table: Table, d: HuDraft, action: str, arg: str | None) -> HuDraft | None:
    """cb: who fed three melds (承包); fo: who fed the fourth (第四凑)."""
    jx, cur = table.offer.jiangxi, d.current
    if d.step != "more" or jx is None or not jx.chengbao or cur is None \
            or (action == "fo" and not cur.feeder):
        return None
    return d.model_copy(update={"step": "feeder" if action == "cb" else "fourth"})


def _feeder(table: Table, d: HuDraft, action: str, arg: str | None) -> HuDraft | None:
    """fd, ff: the feeder of three melds, or of the fourth ("0": nobody)."""
    cur = d.current
    if d.step != ("feeder" if action == "fd" else "fourth") or cur is None or not (
            arg == "0" or (arg in table.seats and arg not in d.seats_won)):
        return None
    seat = None if arg == "0" else arg
    cur = cur.model_copy(update={"feeder" if action == "fd" else "fourth_feeder": seat})
    if cur.feeder is None or cur.feeder == cur.fourth_feeder:
        cur = cur.model_copy(update={"fourth_feeder": None})
    hands = list(d.winners)
    hands[d.cur] = cur
    return d.model_copy(update={"winners": tuple(hands), "step": "more"})


def _chain(table: Table, d: HuDraft, action: str, arg: str | None) -> HuDraft | None:
    """kc: 连杠, kongs in the unbroken run, 1..4; rk: 连抢, kongs robbed, 1..4 (Jiangxi)."""
    cur = d.current
    if d.step != "more" or table.offer.jiangxi is None:
        return None
    if action == "kc" and cur is not None and d.how == "kong_replacement":
        return _with_current(d, kong_chain=_cycle(max(1, cur.kong_chain), 4, 1))
    if action == "rk" and d.how == "rob_kong":
        return d.model_copy(update={"robbed_kongs": _cycle(d.robbed_kongs, 4, 1)})
    return None


def _indicator(table: Table, d: HuDraft, action: str, arg: str | None) -> HuDraft | None:
    """in: the turned-up tile; is: its suit; ir: its rank."""
    if action == "in" and d.step == "more" and table.offer.indicator:
        return d.model_copy(update={"step": "ind"})
    if action == "is" and d.step == "ind" and arg in SUITS and (
            arg != "z" or table.offer.family == "jiangxi"):
        return d.model_copy(update={"step": "indr", "suit": arg})
    rank = _number(arg)
    if action == "ir" and d.step == "indr" and rank is not None \
            and 1 <= rank <= (7 if d.suit == "z" else 9):
        return d.model_copy(update={"indicator": f"{rank}{d.suit}", "step": "more"})
    return None


def _birds(table: Table, d: HuDraft, action: str, arg: str | None) -> HuDraft | None:
    """bd: a bird's rank; bc: no birds (Changsha, several birds); yb: the one bird's rank,
    with the Record tap."""
    rank, birds = _number(arg), table.offer.birds
    if action == "bd" and d.step == "more" and birds > 1 and rank is not None \
            and 1 <= rank <= 9 and len(d.birds) < birds:
        return d.model_copy(update={"birds": (*d.birds, rank)})
    if action == "bc" and d.step == "more" and birds > 1:
        return d.model_copy(update={"birds": ()})
    if action == "yb" and d.step == "main" and birds == 1 and rank is not None \
            and 1 <= rank <= 9 and ready(d):
        return d.model_copy(update={"birds": (rank,)})
    return None


def _value(table: Table, d: HuDraft, action: str, arg: str | None) -> HuDraft | None:
    """yt: the current winner's tai, counted in (Singapore); ya: the amount the win is
    worth (points only); with the Record tap."""
    n, cur = _number(arg), d.current
    if d.step != "main" or cur is None or n is None or not ready(d):
        return None
    if action == "yt" and table.offer.tai is not None \
            and table.offer.tai[0] <= n <= table.offer.tai[1]:
        return _with_current(d, tai=n, patterns=())
    if action == "ya" and table.offer.amount and n in AMOUNTS:
        return _with_current(d, amount=n)
    return None


_HU: dict[str, Callable[[Table, HuDraft, str, str | None], HuDraft | None]] = {
    "ws": _winner_how, "wo": _winner_how, "wd": _winner_discard, "h": _how,
    "hd": _how_discard, "f": _from, "hw": _ask_how, "aw": _add_winner, "cw": _choose_winner,
    "p": _pattern, "pg": _page, "g": _count, "k": _count, "wu": _count, "fb": _count,
    "fl": _count,
    "fn": _fan, "zb": _bao, "zp": _bao,
    "mo": _more, "bk": _back, "jv": _jing_step, "jz": _jing, "jf": _jing,
    "lf": _loser_feibao, "cb": _feeder_step, "fo": _feeder_step, "fd": _feeder,
    "ff": _feeder, "kc": _chain, "rk": _chain, "in": _indicator, "is": _indicator,
    "ir": _indicator, "bd": _birds, "bc": _birds, "yb": _birds, "yt": _value, "ya": _value,
}


# -- /kong and /draw ---------------------------------------------------------------------

def _press_kong(table: Table, d: KongDraft, action: str, arg: str | None) -> KongDraft | None:
    """ks: who; kk: which kong (by its letter); kf: whose discard, for 直杠."""
    if action == "ks" and d.seat is None and arg in table.inside:
        return d.model_copy(update={"seat": arg})
    if action == "kk" and d.seat is not None and d.kind is None and arg is not None \
            and arg in table.kong_letters:
        return d.model_copy(update={"kind": KONG_LETTERS[arg]})
    if action == "kf" and d.kind == "direct" and d.from_seat is None \
            and arg in table.inside and arg != d.seat:
        return d.model_copy(update={"from_seat": arg})
    return None


def _press_bite(table: Table, d: BiteDraft, action: str, arg: str | None) -> Outcome:
    """bs: who; bw: which bite, or set_ and a set (a set records); bo: an exposed bite from
    each, bh: a hidden one (both record); bf: an exposed bite charged to this seat."""
    if action == "bs" and d.seat is None and arg in table.inside:
        return d.model_copy(update={"seat": arg})
    if action == "bw" and d.seat is not None and d.what is None and arg is not None:
        if arg.startswith("set_") and arg[4:] in table.offer.sets:
            return Record(d.model_copy(update={"what": arg}))
        return d.model_copy(update={"what": arg}) if arg in table.offer.bites else None
    if d.what is None or d.what.startswith("set_"):
        return None
    if action in ("bo", "bh"):
        return Record(d.model_copy(update={"hidden": action == "bh"}))
    if action == "bf" and arg in table.seats and arg != d.seat:
        return Record(d.model_copy(update={"from_seat": arg}))
    return None


def _press_draw(table: Table, d: DrawDraft, action: str, arg: str | None) -> Outcome:
    """y: record; dz: a player's state (``S_ready``); df: a ready player's fan (``S_3``);
    ds, dn: the next state, the next fan (buttons sent before dz and df)."""
    if action == "y":
        return Record(d)
    if action in ("dz", "df"):
        return _draw_pick(table, d, action, arg)
    seat = _among(arg, tuple(d.players))
    if seat is None or not table.offer.wall:
        return None
    player = d.players[seat]
    if action == "ds":
        states = table.offer.wall
        player = player.model_copy(update={
            "state": states[(states.index(player.state) + 1) % len(states)]})
    elif action == "dn" and player.state == "ready":
        player = player.model_copy(update={"fan": player.fan % table.fan_top + 1})
    else:
        return None
    return d.model_copy(update={"players": {**d.players, seat: player}})


def _draw_pick(table: Table, d: DrawDraft, action: str, arg: str | None) -> Outcome:
    """A player's state, or a ready player's fan, set by the button naming it."""
    seat, _, value = (arg or "").partition("_")
    if seat not in d.players or not table.offer.wall:
        return None
    player = d.players[seat]
    if action == "dz" and value in table.offer.wall:
        player = player.model_copy(update={"state": value})
    elif action == "df" and player.state == "ready" and value.isdigit() \
            and 1 <= int(value) <= table.fan_top:
        player = player.model_copy(update={"fan": int(value)})
    else:
        return None
    return d.model_copy(update={"players": {**d.players, seat: player}})


def _press_penalty(table: Table, d: PenaltyDraft, action: str, arg: str | None
                   ) -> PenaltyDraft | None:
    """ps: who (any seat); pk: what for (by its letter); pp: a foul's fine."""
    if action == "ps" and d.seat is None and arg in table.seats:
        return d.model_copy(update={"seat": arg})
    if action == "pk" and d.seat is not None and d.kind is None and arg in PENALTY_LETTERS:
        return d.model_copy(update={"kind": PENALTY_LETTERS[arg]})
    points = _number(arg)
    if action == "pp" and d.kind not in (None, "false_win") and points in FINES:
        return d.model_copy(update={"points": points})
    return None
