"""Settle a hand: every event in order, each seat's change, the lines, the next dealer.

``settle_hand`` is the one entry point. It raises :class:`~engine.errors.ReportError` for a
report it refuses, and nothing else for any report that validates as a model.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError

from engine.book import Book
from engine.errors import ReportError
from engine.families import changsha, jiangxi, sichuan
from engine.families.state import HandState
from engine.models import (
    SEATS,
    HandReport,
    HandResult,
    Kong,
    Seat,
    StartingWin,
    WallEnd,
    Win,
)
from engine.options import ChangshaOptions, JiangxiOptions, SichuanOptions
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


def _event(rules: Ruleset, state: HandState, ev: Any, index: int, book: Book,
           indicator: int | None) -> None:
    opts = rules.options
    if isinstance(opts, SichuanOptions):
        if isinstance(ev, Win):
            sichuan.on_win(opts, state, ev, index, book, indicator)
        elif isinstance(ev, Kong):
            sichuan.on_kong(opts, state, ev, index, book)
        elif isinstance(ev, WallEnd):
            sichuan.on_wall_end(opts, state, ev, book, indicator)
        else:
            raise ReportError("wrong_family", "starting-hand wins belong to Changsha")
    elif isinstance(opts, ChangshaOptions):
        if isinstance(ev, Win):
            changsha.on_win(opts, state, ev, book)
        elif isinstance(ev, StartingWin):
            changsha.on_starting_win(opts, state, ev, book)
        elif isinstance(ev, WallEnd):
            if ev.players:
                raise ReportError("wrong_family", "this family has no 花猪 or 查叫 at the wall")
            changsha.on_draw(opts, state, book)
        else:
            raise ReportError("kongs_not_paid", "this preset does not pay for kongs")
    elif isinstance(opts, JiangxiOptions):
        if isinstance(ev, Win):
            jiangxi.on_win(opts, state, ev, book, indicator)
        elif isinstance(ev, Kong):
            jiangxi.on_kong(opts, state, ev, index, book)
        elif isinstance(ev, WallEnd):
            jiangxi.on_wall_end(opts, state, ev, book)
        else:
            raise ReportError("wrong_family", "starting-hand wins belong to Changsha")


def settle_hand(rules: Ruleset, report: HandReport, dealer: Seat = "E") -> HandResult:
    """Settle every event of one hand, in order. A hand may be open (blood battle)."""
    state = HandState(dealer=dealer)
    indicator = parse_indicator(report.indicator)
    if isinstance(rules.options, SichuanOptions) and rules.options.tingyong and (
        indicator is None and _has_tiles(report)
    ):
        raise ReportError("needs_indicator", "tiles in a 听用 game need the turned-up 本金")
    results: list[dict[str, Any]] = []
    total = dict.fromkeys(SEATS, 0)
    for index, ev in enumerate(report.events):
        if state.closed:
            raise ReportError("hand_closed", f"event {index + 1} comes after the hand ended",
                              event=index + 1)
        book = Book()
        try:
            _event(rules, state, ev, index, book, indicator)
        except ReportError as exc:
            exc.params.setdefault("event", index + 1)
            raise
        if sum(book.deltas.values()) != 0:  # pragma: no cover - an engine bug, never input
            raise AssertionError(f"event {index + 1} does not sum to zero: {book.deltas}")
        for s in SEATS:
            total[s] += book.deltas[s]
        results.append({"index": index, "deltas": book.deltas, "lines": book.lines})
    return HandResult.model_validate({
        "deltas": total,
        "events": results,
        "open": not state.closed,
        "still_in": state.still_in,
        "next_dealer": state.next_dealer,
    })


def _has_tiles(report: HandReport) -> bool:
    for ev in report.events:
        if isinstance(ev, Win) and any(w.tiles for w in ev.winners):
            return True
        if isinstance(ev, WallEnd) and any(p.tiles for p in ev.players.values()):
            return True
    return False
