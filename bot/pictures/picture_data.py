"""The series the pictures draw, computed from ledger rows by pure functions (no I/O, no
matplotlib), so that tests check what is drawn apart from the drawing."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.models import HandResult, Seat
from storage.ledger import HandRow, NightNet, seat_facts

MAX_LINES = 8  # the standings chart draws at most this many players
MAX_BARS = 12  # the pattern picture shows the most frequent patterns


@dataclass(frozen=True)
class NightSeries:
    """Each player's running total after every counted hand of a night: one line per
    person, not per seat (after a seat change, who left and who joined each have theirs).

    ``hands[0]`` is 0 (the start, or the totals before the first hand shown) and
    ``totals[player][i]`` is the player's total after hand ``hands[i]``, or None where they
    were not at the table: a line starts just before their first hand (at what they had),
    ends with their last hand, and, for who sits at the table now, runs to the end. A
    voided hand keeps its column (the hands are numbered as /hand and /end number them)
    and moves no points: its players' lines stay flat across it (``void`` lists them)."""

    hands: tuple[int, ...]
    totals: dict[int, tuple[int | None, ...]]  # player id -> running total
    seats: dict[int, Seat]  # player id -> the seat they sat in (the last, if several)
    dealers: tuple[Seat, ...]  # who dealt hands[i] (i >= 1); dealers[0] is the first's
    dealer_changes: tuple[int, ...]  # hand numbers dealt by a new dealer
    biggest: tuple[int, int, int] | None  # (hand, winner's id, points won) — as /end says
    void: tuple[int, ...] = ()  # the numbers of the voided hands among ``hands``


def night_series(rows: Sequence[HandRow], table: Mapping[Seat, int],
                 final: Mapping[int, int] | None = None, *, money: bool = False
                 ) -> NightSeries:
    """The series of a night's hands (in order); ``table`` is who sits where now (seat ->
    player id). ``final`` is each player's points for the night when ``rows`` are only
    its last hands: the series then starts from what came before. With ``money`` the
    totals are money in cents, each hand at its own stake (``final`` too): a night whose
    stake changed, whose points at two stakes do not add up. ``biggest`` stays in points
    (one hand's, at one stake)."""
    counted = list(rows)  # void hands too, flat: the axis numbers every hand
    results = [HandResult.model_validate(r.result) for r in counted]
    seats: dict[int, Seat] = {}
    for row in counted:
        seats |= {pid: seat for seat, pid in row.players.items()}
    seats |= {pid: seat for seat, pid in table.items()}
    # Each hand's points by player: who played it, in the seat they played it in (a void
    # hand: 0 for each of its players).
    moves = [{row.players[s]: 0 if row.status == "void" else d * (row.stake_cents if money
                                                                   else 1)
              for s, d in res.deltas.items() if s in row.players}
             for row, res in zip(counted, results, strict=True)]
    totals: dict[int, tuple[int | None, ...]] = {}
    for pid in seats:
        running = final.get(pid, 0) - sum(m.get(pid, 0) for m in moves) if final else 0
        line: list[int | None] = []
        for i in range(len(counted) + 1):
            played = i > 0 and pid in moves[i - 1]
            running += moves[i - 1].get(pid, 0) if played else 0
            shown = played or (i < len(counted) and pid in moves[i]) or (
                i == len(counted) and pid in table.values())
            line.append(running if shown else None)
        totals[pid] = tuple(line)
    changes: list[int] = []
    dealers: list[Seat] = []
    best: tuple[int, int, int] | None = None
    dealt: Seat | None = None  # who dealt the last hand that counts
    for row, res in zip(counted, results, strict=True):
        if row.status == "void":  # it counts for nothing: the dealer before it goes on
            dealers.append(dealt or row.dealer)
            continue
        if dealt is not None and row.dealer != dealt:
            changes.append(row.number)
        dealers.append(dealt := row.dealer)
        for seat, facts in seat_facts(res).items():
            if facts.win_points > 0 and (best is None or facts.win_points > best[2]):
                best = (row.number, row.players[seat], facts.win_points)
    return NightSeries(
        hands=(0, *(r.number for r in counted)), totals=totals, seats=seats,
        dealers=tuple(dealers[:1] + dealers), dealer_changes=tuple(changes), biggest=best,
        void=tuple(r.number for r in counted if r.status == "void"))


EXTRAS = ("extra", "doubling", "in_base")  # 根, 杠, 杠上花, 海底捞月…: what adds to a hand


def winning_patterns(result: Mapping[str, Any] | HandResult, seat: Seat, *,
                     extras: bool = False) -> list[str]:
    """The names of what ``seat`` won with in a hand (base patterns and big wins; with
    ``extras``, what added to them too, as the hand's answer lists them: ``根×2``), each
    once, in the order the explanation gives them."""
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
        elif line.code == "mcr_fan":  # MCR: each fan by its Chinese name
            name = str(line.params.get("zh", ""))
        elif line.code == "mcr_total" and not names:  # a fan count that names no fan
            name = f"{line.params.get('fan')}番"
        elif extras and line.code in EXTRAS:
            name, count = str(line.params.get("name", "")), line.params.get("count")
            name += f"×{count}" if isinstance(count, int) and count > 1 else ""
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


def played_at_stakes(nights: Sequence[NightNet]) -> bool:
    """Whether ``nights`` were played at more than one stake: then their points do not
    add up, and the standings are drawn in money."""
    return len({s for n in nights for s in n.stakes}) > 1


def standings_series(nights: Sequence[NightNet], names: Mapping[int, str],
                     final: Mapping[int, int] | None = None, *, money: bool = False
                     ) -> StandingsSeries:
    """Each player's cumulative net after every night (with ``money``: in cents, each
    hand at its stake). ``final`` (player id -> all-time net, or money) anchors the end
    when ``nights`` are only the last ones. At most MAX_LINES players: those with the
    most nights played, then by id."""
    players = sorted({p for n in nights for p in n.nets})
    played = Counter(p for n in nights for p in n.nets)
    nights = [n for n in nights if n.nets]  # a night without a hand is no point on the axis
    shown = sorted(players, key=lambda p: (-played[p], p))[:MAX_LINES]
    lines: dict[int, list[int]] = {}
    for p in sorted(shown):
        moved = sum((n.money if money else n.nets).get(p, 0) for n in nights)
        running = (final.get(p, moved) - moved) if final is not None else 0
        series = [running]
        for n in nights:
            running += (n.money if money else n.nets).get(p, 0)
            series.append(running)
        lines[p] = series
    first = nights[0].night - 1 if nights else 0
    return StandingsSeries(nights=(first, *(n.night for n in nights)),
                           lines={p: tuple(v) for p, v in lines.items()},
                           names={p: names.get(p, str(p)) for p in lines})
