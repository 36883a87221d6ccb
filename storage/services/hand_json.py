"""How a hand's report and result are kept in ``hands.report`` and ``hands.result``.

A hand row keeps what the engine cannot give back, and no more:

- ``report``: the validated report without its defaults (each event keeps its ``type``,
  which tells the events apart). :func:`engine.settle.parse_report` reads it back as the
  same report.
- ``result``: the amounts recorded (each event's ``deltas``), whether the hand is still in
  play (``open``), who is still in and the next dealer. Not the explanation: its lines are
  the engine's from the report, the rules of the hand's night (``nights.rules``, frozen
  when the night started) and the hand's dealer, and are settled again when read
  (:func:`full_result`).

Rows written before (the whole engine result, lines and all) read as they are. So do the
rows this module keeps whole on purpose: a hand imported from a file whose lines the engine
does not give back as they are (:func:`pack_result` with ``keep_lines``).

The amounts shown always come from the row. Should the engine one day score a kept
report differently, that event's lines are left out rather than explain other amounts
(a change of scoring that matters for old hands comes with a migration that keeps their
lines).
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from typing import Any

from engine.errors import ReportError
from engine.models import EventResult, HandReport, HandResult, Line, Seat
from engine.rules import Ruleset
from engine.settle import parse_report, settle_hand


def pack_report(report: HandReport) -> dict[str, Any]:
    """The report as stored: no defaults, each event with its type."""
    events = [{"type": ev.type, **ev.model_dump(mode="json", exclude_defaults=True)}
              for ev in report.events]
    out: dict[str, Any] = {"events": events}
    if report.indicator is not None:
        out["indicator"] = report.indicator
    return out


def full_report(stored: Mapping[str, Any]) -> dict[str, Any]:
    """A stored report (either form) as the engine dumps it, every field present."""
    return parse_report(stored).model_dump(mode="json")


def pack_result(result: HandResult) -> dict[str, Any]:
    """The result as stored: the amounts and the state of play, not the lines."""
    return {"events": [{"deltas": ev.deltas} for ev in result.events],
            "open": result.open, "still_in": list(result.still_in),
            "next_dealer": result.next_dealer}


def whole(stored: Mapping[str, Any]) -> bool:
    """The stored result carries its lines (written before, or kept on purpose)."""
    return "lines" in stored or any("lines" in ev for ev in stored.get("events", ()))


def hand_deltas(stored: Mapping[str, Any]) -> dict[Seat, int]:
    """The hand's points per seat, from a stored result of either form."""
    if "deltas" in stored:
        return dict(stored["deltas"])
    total: dict[Seat, int] = {}
    for ev in stored["events"]:
        for seat, v in ev["deltas"].items():
            total[seat] = total.get(seat, 0) + int(v)
    return total


def full_result(stored: Mapping[str, Any], report: Mapping[str, Any],
                rules: Mapping[str, Any] | Ruleset, dealer: Seat,
                settled: Sequence[EventResult] | None = None) -> HandResult:
    """The engine result of a stored hand: its amounts as recorded, its lines settled
    again from its report at the rules of its night (``nights.rules``) and its dealer.
    ``settled``: its events as the caller settled them already (a report that adds an
    event to the hand settles the earlier ones first, the same way), not settled again."""
    if whole(stored):
        return HandResult.model_validate(stored)
    again: Sequence[EventResult] = ()
    if settled is not None:
        again = settled
    else:
        ruleset = rules if isinstance(rules, Ruleset) else Ruleset.from_snapshot(rules)
        with contextlib.suppress(ReportError):
            again = settle_hand(ruleset, parse_report(report), dealer).events
    events = []
    for i, ev in enumerate(stored["events"]):
        deltas = {s: int(v) for s, v in ev["deltas"].items()}
        lines: tuple[Line, ...] = ()
        if i < len(again) and again[i].deltas == deltas:
            lines = again[i].lines
        events.append(EventResult(index=i, deltas=deltas, lines=lines))
    return HandResult(deltas=hand_deltas(stored), events=tuple(events),
                      open=stored["open"], still_in=tuple(stored["still_in"]),
                      next_dealer=stored["next_dealer"])


def full_result_json(stored: Mapping[str, Any], report: Mapping[str, Any],
                     rules: Mapping[str, Any] | Ruleset, dealer: Seat) -> dict[str, Any]:
    """:func:`full_result` as the engine dumps it (what rows held before)."""
    return full_result(stored, report, rules, dealer).model_dump(mode="json")


def packed_or_whole(result: HandResult, report: HandReport, rules: Ruleset,
                    dealer: Seat) -> dict[str, Any]:
    """For a result that did not come from settling ``report`` here (an import): the
    packed form when the engine gives its lines back as they are, else the whole result."""
    try:
        again = settle_hand(rules, report, dealer)
    except ReportError:
        again = None
    if again is not None and again.events == result.events:
        return pack_result(result)
    return result.model_dump(mode="json", exclude={"lines"})
