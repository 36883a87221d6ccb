"""The series the pictures draw, computed from ledger rows by pure functions (no I/O, no
matplotlib), so that tests check what is drawn apart from the drawing."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.models import SEATS, HandResult, Seat
from storage.hand_stats import seat_facts
from storage.series import HandRow, NightNet

MAX_LINES = 8  # the standings chart draws at most this many players
MAX_BARS = 12  # the pattern picture shows the most frequent patterns


@dataclass(frozen=True)
class NightSeries:
    """Each seat's running total after every counted hand of a night.

    ``hands[0]`` is 0 (the start, or the totals before the first hand shown) and
    ``totals[seat][i]`` is the seat's total after hand ``hands[i]``. Voided hands move no
    points and are left out."""

    hands: tuple[int, ...]
    totals: dict[Seat, tuple[int, ...]]
    dealers: tuple[Seat, ...]  # who dealt hands[i] (i >= 1); dealers[0] is the first's
    dealer_changes: tuple[int, ...]  # hand numbers dealt by a new dealer
    biggest: tuple[int, Seat, int] | None  # (hand, winner, points won) — as /end says


def night_series(rows: Sequence[HandRow], final: Mapping[Seat, int] | None = None
                 ) -> NightSeries:
    """The series of a night's hands (in order). ``final`` is the night's totals when
    ``rows`` are only its last hands: the series then starts from what came before."""
    counted = [r for r in rows if r.status != "void"]
    results = [HandResult.model_validate(r.result) for r in counted]
    # the table's seats: four, or three (E S W)
    seats = tuple(final) if final is not None else (
        tuple(results[0].deltas) if results else SEATS)
    start = dict.fromkeys(seats, 0)
    if final is not None:
        moved = {s: sum(res.deltas.get(s, 0) for res in results) for s in seats}
        start = {s: final[s] - moved[s] for s in seats}
    running = dict(start)
    totals: dict[Seat, list[int]] = {s: [start[s]] for s in seats}
    changes: list[int] = []
    dealers: list[Seat] = []
    best: tuple[int, Seat, int] | None = None
    for row, res in zip(counted, results, strict=True):
        for s in seats:
            running[s] += res.deltas.get(s, 0)
            totals[s].append(running[s])
        if dealers and row.dealer != dealers[-1]:
            changes.append(row.number)
        dealers.append(row.dealer)
        for seat, facts in seat_facts(res).items():
            if facts.win_points > 0 and (best is None or facts.win_points > best[2]):
                best = (row.number, seat, facts.win_points)
    return NightSeries(
        hands=(0, *(r.number for r in counted)),
        totals={s: tuple(v) for s, v in totals.items()},
        dealers=tuple(dealers[:1] + dealers), dealer_changes=tuple(changes), biggest=best)


def winning_patterns(result: Mapping[str, Any] | HandResult, seat: Seat) -> list[str]:
    """The names of what ``seat`` won with in a hand (base patterns and big wins, not
    extras), each once, in the order the explanation gives them."""
    res = result if isinstance(result, HandResult) else HandResult.model_validate(result)
    names: list[str] = []
    for line in res.lines:
        if line.params.get("seat") != seat:
            continue
        if line.code in ("base", "pattern", "big_win", "hand_value", "starting_win"):
            name = str(line.params.get("name", ""))
        elif line.code == "small_win":
            name = "小胡"
        elif line.code == "given":
            name = f"{line.params.get('fan')}番"
        else:
            continue
        if name and name not in names:
            names.append(name)
    return names


def pattern_counts(wins: Sequence[tuple[Seat, Mapping[str, Any]]]) -> list[tuple[str, int]]:
    """How often each pattern appears in a player's wins, most frequent first (ties by
    name), at most MAX_BARS; the rest are summed as "…"."""
    counts: Counter[str] = Counter()
    for seat, result in wins:
        counts.update(winning_patterns(result, seat) or ["?"])
    ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    if len(ranked) > MAX_BARS:
        rest = sum(n for _, n in ranked[MAX_BARS - 1:])
        ranked = [*ranked[: MAX_BARS - 1], ("…", rest)]
    return ranked


@dataclass(frozen=True)
class StandingsSeries:
    nights: tuple[int, ...]  # night numbers; nights[0] is the start (0)
    lines: dict[int, tuple[int, ...]]  # player id -> cumulative net after each night
    names: dict[int, str]


def standings_series(nights: Sequence[NightNet], names: Mapping[int, str],
                     final: Mapping[int, int] | None = None) -> StandingsSeries:
    """Each player's cumulative net after every night. ``final`` (player id -> all-time
    net) anchors the end when ``nights`` are only the last ones. At most MAX_LINES
    players: those with the most nights played, then by id."""
    players = sorted({p for n in nights for p in n.nets})
    played = Counter(p for n in nights for p in n.nets)
    shown = sorted(players, key=lambda p: (-played[p], p))[:MAX_LINES]
    lines: dict[int, list[int]] = {}
    for p in sorted(shown):
        moved = sum(n.nets.get(p, 0) for n in nights)
        running = (final.get(p, moved) - moved) if final is not None else 0
        series = [running]
        for n in nights:
            running += n.nets.get(p, 0)
            series.append(running)
        lines[p] = series
    first = nights[0].night - 1 if nights else 0
    return StandingsSeries(nights=(first, *(n.night for n in nights)),
                           lines={p: tuple(v) for p, v in lines.items()},
                           names={p: names.get(p, str(p)) for p in lines})
