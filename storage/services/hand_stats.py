"""Per-player facts of one hand, derived from its engine result (for stats and totals)."""

from __future__ import annotations

from dataclasses import dataclass

from engine.families.hongkong import WIN_REASONS as HONGKONG_WIN_REASONS
from engine.models import HandResult, Seat

# A win's payments: "win", or Hong Kong's, which say how it was paid (半銃, 自摸, 包自摸…).
WIN_REASONS = frozenset(("win", *HONGKONG_WIN_REASONS))


@dataclass(frozen=True)
class SeatFacts:
    delta: int = 0
    won: int = 0
    self_draws: int = 0
    dealt_in: int = 0
    win_points: int = 0


def seat_facts(result: HandResult) -> dict[Seat, SeatFacts]:
    seats = tuple(result.deltas)  # the table's seats: four, or three
    won: dict[str, int] = dict.fromkeys(seats, 0)
    self_draws: dict[str, int] = dict.fromkeys(seats, 0)
    dealt_in: dict[str, int] = dict.fromkeys(seats, 0)
    win_points = dict.fromkeys(seats, 0)
    for ev in result.events:
        # A claim the MCR gate turned into a false win (错和) is no win.
        refused = {str(line.params["seat"]) for line in ev.lines
                   if line.code == "mcr_under_gate"}
        winners = [str(line.params["seat"]) for line in ev.lines
                   if line.code == "win" and line.params["seat"] not in refused]
        hows = {str(line.params["seat"]): str(line.params["how"])
                for line in ev.lines if line.code == "win"}
        for w in winners:
            won[w] += 1
            if hows[w] in ("self_draw", "kong_replacement"):
                self_draws[w] += 1
        payers = set()
        for line in ev.lines:
            if line.code == "pay" and line.params["reason"] in WIN_REASONS:
                win_points[line.params["payee"]] += int(line.params["amount"])
                payers.add(str(line.params["payer"]))
        # A win that names its discarder (Singapore without the shooter rule: the two others
        # pay too): only the discarder dealt in.
        named = {str(line.params["from_seat"]) for line in ev.lines
                 if line.code == "win" and "from_seat" in line.params}
        if named:
            payers = named
        owes = [line for line in ev.lines if line.code == "mcr_owes"]
        if owes:  # MCR: every player pays a discard's winner; the discarder pays the fan
            payers = {str(line.params["payer"]) for line in owes if line.params["fan"]}
        if winners and all(hows[w] not in ("self_draw", "kong_replacement") for w in winners):
            for p in payers:
                dealt_in[p] += 1
    return {s: SeatFacts(result.deltas[s], won[s], self_draws[s], dealt_in[s], win_points[s])
            for s in seats}
