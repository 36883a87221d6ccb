"""Settle a hand: every event in order, each seat's change, the lines, the next dealer.

``settle_hand`` is the one entry point. It raises :class:`~engine.errors.ReportError` for a
report it refuses, and nothing else for any report that validates as a model.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError

from engine.book import Book
from engine.errors import ReportError, foreign
from engine.families import FAMILIES, EventContext
from engine.families.state import HandState
from engine.models import (
    MAX_HAND_POINTS,
    PAID_BY_ONE,
    Adjustment,
    Amounts,
    Bite,
    BonusSet,
    HandReport,
    HandResult,
    How,
    Kong,
    KongKind,
    Penalty,
    Seat,
    StartingWin,
    WallEnd,
    Win,
)
from engine.pattern_table import counted_patterns
from engine.patterns import FAMILY_PATTERNS, STARTING
from engine.penalties import settle_adjustment, settle_penalty
from engine.report_checks import check as check_possible
from engine.rules import Ruleset
from engine.wildcards import parse_indicator


def parse_report(data: Mapping[str, Any] | str) -> HandReport:
    """Validate a report from JSON (text or parsed), as a ReportError when it is bad."""
    try:
        if isinstance(data, str):
            return HandReport.model_validate_json(data)
        return HandReport.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(x) for x in err["loc"])
        raise ReportError("bad_report", f"{where}: {err['msg']}", where=where,
                          detail=err["msg"]) from None


# What a family without a handler for an event says about it.
_UNHANDLED: dict[type, tuple[str, str]] = {
    Kong: ("kongs_not_paid", "this preset does not pay for kongs when made; count the kong "
           "in the winner's report instead"),
    StartingWin: ("starting_not_changsha", "starting-hand wins belong to the Changsha family"),
    Bite: ("wrong_family", "bites are paid at Singapore/Malaysia tables only"),
    BonusSet: ("wrong_family", "bonus-tile sets are paid at Singapore/Malaysia tables only"),
    Amounts: ("wrong_family", "a hand given as amounts belongs to the points-only preset "
              "(free)"),
}

# The family an event of one family only belongs to.
_OWNER: dict[type, str] = {Bite: "singapore", BonusSet: "singapore", Amounts: "free"}


def _named(family: str, patterns: tuple[str, ...]) -> set[str]:
    """The canonical pattern names a winner listed (unknown ones are the family's to refuse)."""
    table = FAMILY_PATTERNS[family]
    out: set[str] = set()
    for name in patterns:
        try:
            out.add(table.resolve(name).name)
        except ReportError:
            continue
    return out


# What a win may say only in one family (the rest ignore nothing: they refuse it).
_OWN_FIELDS = {"singapore": ("tai", "bonus_tai", "bonus"), "free": ("amount",)}


def _foreign_fields(family: str, ev: Win) -> None:
    for owner, fields in _OWN_FIELDS.items():
        if owner == family:
            continue
        for w in ev.winners:
            said = {f: getattr(w, f) for f in fields}
            if any(v is not None for v in said.values()):
                raise foreign(owner, said, f"{', '.join(fields)} belong to the {owner} "
                              "preset's family")
    if ev.prevailing is not None and family != "singapore":
        raise foreign("singapore", {"prevailing": ev.prevailing}, "the prevailing wind is "
                      "counted at Singapore/Malaysia tables only")


def check_event(family: str, state: HandState, ev: Any) -> None:
    """What no family allows: facts that contradict each other or the table."""
    if isinstance(ev, Win):
        _foreign_fields(family, ev)
        seats = [w.seat for w in ev.winners]
        if len(set(seats)) != len(seats):
            raise ReportError("duplicate_winner", "a player is named twice as winner")
        if ev.how == How.SELF_DRAW and ev.from_seat is not None:
            raise ReportError("self_draw_from", "a self-draw has nobody to pay it alone")
        if ev.from_seat is not None and ev.from_seat in seats:  # in every family
            if ev.how in (How.DISCARD, How.AFTER_KONG_DISCARD):
                raise ReportError("own_discard", f"{ev.from_seat} cannot win off their own "
                                  "discard", seat=ev.from_seat)
            if ev.how == How.ROB_KONG:
                raise ReportError("own_kong", f"{ev.from_seat} cannot rob their own kong",
                                  seat=ev.from_seat)
            raise ReportError("pays_self", f"{ev.from_seat} cannot pay for their own win",
                              seat=ev.from_seat)
        for w in ev.winners:
            names = _named(family, w.patterns)
            if "天胡" in names and (w.seat != state.dealer or ev.how != How.SELF_DRAW):
                raise ReportError("tianhu_dealer", "天胡 is the dealer's self-draw on the deal",
                                  seat=w.seat)
            if "地胡" in names and (w.seat == state.dealer or (
                    ev.how in PAID_BY_ONE and ev.from_seat != state.dealer)):
                raise ReportError("dihu_dealer", "地胡 is a non-dealer's win on the dealer's "
                                  "first discard", seat=w.seat)
    elif isinstance(ev, Kong):
        if ev.kind != KongKind.DIRECT and ev.from_seat is not None:
            raise ReportError("kong_not_from", "only a direct kong takes someone's discard; "
                              "drop the 'from'")
    elif isinstance(ev, WallEnd):
        for seat, info in ev.players.items():
            if not info.ready and (info.fan is not None or info.tiles is not None):
                raise ReportError("draw_contradicts", f"{seat} is given a ready hand but "
                                  "reported not ready", seat=seat)


def _seats_named(ev: Any) -> set[Seat]:
    """Every seat an event names."""
    if isinstance(ev, Win):
        named = {w.seat for w in ev.winners} | set(ev.loser_feibao) | set(ev.jing)
        named |= {s for w in ev.winners for s in (w.feeder, w.fourth_feeder) if s}
        return named | ({ev.from_seat} if ev.from_seat else set())
    if isinstance(ev, Kong | StartingWin):
        return {ev.seat} | ({ev.from_seat} if isinstance(ev, Kong) and ev.from_seat else set())
    if isinstance(ev, WallEnd):
        return set(ev.players)
    if isinstance(ev, Penalty):
        return {ev.seat}
    if isinstance(ev, Adjustment | Amounts):
        return set(ev.deltas)
    if isinstance(ev, Bite):
        return {ev.seat} | ({ev.from_seat} if ev.from_seat else set())
    if isinstance(ev, BonusSet):
        return {ev.seat}
    return set()  # pragma: no cover - every event kind is above


def _event(rules: Ruleset, state: HandState, ev: Any, index: int, book: Book,
           indicator: int | None) -> None:
    absent = sorted(_seats_named(ev) - set(state.seats))
    if absent:
        raise ReportError("no_such_seat", f"{absent[0]}: this table seats only "
                          f"{' '.join(state.seats)}", seat=absent[0])
    check_event(rules.family, state, ev)
    check_possible(rules, state, ev, index)
    if isinstance(ev, Penalty):  # not play: the same for every family
        settle_penalty(rules, state, ev, book)
        return
    if isinstance(ev, Adjustment):
        settle_adjustment(ev, book)
        return
    handler = FAMILIES[rules.family].handlers.get(type(ev))
    if handler is None:
        code, message = _UNHANDLED.get(type(ev), ("wrong_family", "not part of these rules"))
        family = _OWNER.get(type(ev))  # the family the event belongs to, to name it
        raise ReportError(code, message, preset=rules.preset,
                          **({"family": family} if family else {}))
    handler(rules.options, state, ev, EventContext(index, book, indicator))


def _unknown_pattern(rules: Ruleset, ev: Any, exc: ReportError) -> ReportError:
    """An unknown name, refused with what this table counts: the closest names
    (``suggestions``, maybe none), then every pattern (or starting-hand win) the table's
    rules count, whole (``names``)."""
    if isinstance(ev, StartingWin):
        table, among = STARTING, list(getattr(rules.options, "starting_wins", ()))
    else:
        table, among = FAMILY_PATTERNS[rules.family], counted_patterns(rules)
    if not among:
        return exc
    name = str(exc.params.get("name", ""))
    close = table.closest(name, among)
    return ReportError("unknown_pattern", f"unknown pattern {name!r}; this table counts: "
                       f"{', '.join(among)}", name=name, suggestions=", ".join(close),
                       names=", ".join(among), preset=rules.preset)


def settle_hand(rules: Ruleset, report: HandReport, dealer: Seat = "E") -> HandResult:
    """Settle every event of one hand, in order. A hand may be open (blood battle)."""
    seats = rules.seats
    if dealer not in seats:
        raise ReportError("no_such_seat", f"{dealer}: this table seats only {' '.join(seats)}",
                          seat=dealer)
    state = HandState(dealer=dealer, seats=seats)
    indicator = parse_indicator(report.indicator)
    results: list[dict[str, Any]] = []
    total = dict.fromkeys(seats, 0)
    for index, ev in enumerate(report.events):
        if state.closed:
            raise ReportError("hand_closed", f"event {index + 1} comes after the hand ended",
                              event=index + 1)
        book = Book(seats)
        try:
            _event(rules, state, ev, index, book, indicator)
        except ReportError as exc:
            if exc.code == "unknown_pattern":
                exc = _unknown_pattern(rules, ev, exc)
            exc.params.setdefault("event", index + 1)
            raise exc from None
        if sum(book.deltas.values()) != 0:  # pragma: no cover - an engine bug, never input
            raise AssertionError(f"event {index + 1} does not sum to zero: {book.deltas}")
        for s in seats:
            total[s] += book.deltas[s]
        if any(abs(v) > MAX_HAND_POINTS for v in total.values()):
            raise ReportError("too_many_points", f"event {index + 1} moves more than "
                              f"{MAX_HAND_POINTS} points; check the fan and the options",
                              event=index + 1, limit=MAX_HAND_POINTS)
        results.append({"index": index, "deltas": book.deltas, "lines": book.lines})
    return HandResult.model_validate({
        "deltas": total,
        "events": results,
        "open": not state.closed,
        "still_in": state.still_in,
        "next_dealer": state.next_dealer,
    })

