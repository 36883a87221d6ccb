"""Random legal MCR winning hands, as a Win event's JSON (the property and differential
tests, and bench/mcr_bench.py): every form (four sets and a pair, seven pairs, thirteen
orphans, honors and knitted tiles, knitted straight), melds with the seat each was
claimed from, flags only where the tiles allow them."""

from __future__ import annotations

import random
from typing import Any

from engine.models import SEATS
from engine.tiles import compact

KNITTED = [[s * 9 + r - 1 for s, start in zip(order, (1, 2, 3), strict=True)
            for r in (start, start + 3, start + 6)]
           for order in ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0))]
ORPHANS = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33]


def _text(kinds: list[int]) -> str:
    return " ".join(compact(k) for k in sorted(kinds))


def _pool(rng: random.Random) -> list[int]:
    """The kinds a hand draws from: mostly all, sometimes one suit (with or without the
    honors), the terminals and honors, or the green tiles, for the rarer fans."""
    roll = rng.random()
    first = 9 * rng.randrange(3)
    suit = list(range(first, first + 9))
    if roll < 0.7:
        return list(range(34))
    if roll < 0.8:
        return suit
    if roll < 0.88:
        return suit + list(range(27, 34))
    if roll < 0.95:
        return [0, 8, 9, 17, 18, 26, *range(27, 34)]
    return [19, 20, 21, 23, 25, 32]  # 23468s 发


def _set(rng: random.Random, counts: list[int], kong_ok: bool = True,
         pool: list[int] | None = None) -> tuple[str, list[int]] | None:
    """A random chow, pung or kong of ``pool``'s kinds that fits in ``counts`` (updated),
    or None."""
    kinds_ok = pool or list(range(34))
    roll = rng.random()
    if roll < 0.5:
        first = rng.choice(kinds_ok)
        if first >= 27 or first % 9 > 6:
            return None
        kinds = [first, first + 1, first + 2]
        if any(k not in kinds_ok for k in kinds):
            return None
        shape = "chow"
    else:
        k = rng.choice(kinds_ok)
        shape = "kong" if kong_ok and roll > 0.88 else "pung"
        kinds = [k] * (4 if shape == "kong" else 3)
    if any(counts[k] + kinds.count(k) > 4 for k in set(kinds)):
        return None
    for k in kinds:
        counts[k] += 1
    return shape, kinds


def _regular(rng: random.Random, winner: str) -> tuple[list[int], list[dict[str, Any]]] | None:
    counts = [0] * 34
    pool = _pool(rng)
    pair = rng.choice(pool)
    counts[pair] += 2
    sets: list[tuple[str, list[int]]] = []
    tries = 0
    while len(sets) < 4:
        tries += 1
        if tries > 200:
            return None
        got = _set(rng, counts, pool=pool)
        if got is not None:
            sets.append(got)
    standing = [pair, pair]
    melds: list[dict[str, Any]] = []
    left = SEATS[(SEATS.index(winner) - 1) % 4]
    others = [s for s in SEATS if s != winner]
    for shape, kinds in sets:
        if shape == "kong":
            meld: dict[str, Any] = {"tiles": _text(kinds)}
            roll = rng.random()
            if roll < 0.4:
                pass  # concealed
            else:
                meld["from_seat"] = rng.choice(others)
                if roll < 0.6:
                    meld["added"] = True
            melds.append(meld)
        elif rng.random() < 0.35:
            melds.append({"tiles": _text(kinds),
                          "from_seat": left if shape == "chow" else rng.choice(others)})
        else:
            standing.extend(kinds)
    return standing, melds


def _special(rng: random.Random) -> list[int]:
    roll = rng.random()
    if roll < 0.08:  # nine gates, or seven shifted pairs, in a random suit
        base = 9 * rng.randrange(3)
        if roll < 0.04:
            return [base + r for r in (0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8)] + \
                [base + rng.randrange(9)]
        start = base + rng.randrange(3)
        return [start + i for i in range(7) for _ in range(2)]
    if roll < 0.5:  # seven pairs
        counts = [0] * 34
        tiles: list[int] = []
        while len(tiles) < 14:
            k = rng.randrange(34) if rng.random() < 0.7 else rng.randrange(9) + 9 * rng.randrange(3)
            if counts[k] <= 2:
                counts[k] += 2
                tiles += [k, k]
        return tiles
    if roll < 0.6:
        return [*ORPHANS, rng.choice(ORPHANS)]
    seq = rng.choice(KNITTED)
    if roll < 0.8:  # honors and knitted tiles
        honors = rng.randint(5, 7)
        return rng.sample(seq, 14 - honors) + rng.sample(range(27, 34), honors)
    return list(seq)  # knitted straight: a set and a pair are added by the caller


def random_win(rng: random.Random) -> dict[str, Any]:
    """One legal winning hand as a Win event (dealer E)."""
    while True:
        winner = rng.choice(SEATS)
        melds: list[dict[str, Any]] = []
        if rng.random() < 0.88:
            got = _regular(rng, winner)
            if got is None:
                continue
            standing, melds = got
        else:
            standing = _special(rng)
            if len(standing) == 9:  # knitted straight, then a set and a pair
                counts = [0] * 34
                for k in standing:
                    counts[k] += 1
                extra = _set(rng, counts, kong_ok=False)
                pair = rng.randrange(34)
                if extra is None or counts[pair] > 2:
                    continue
                if rng.random() < 0.3:
                    left = SEATS[(SEATS.index(winner) - 1) % 4]
                    others = [s for s in SEATS if s != winner]
                    melds = [{"tiles": _text(extra[1]), "from_seat": left
                              if extra[0] == "chow" else rng.choice(others)}]
                else:
                    standing += extra[1]
                standing += [pair, pair]
        win = rng.choice(standing)
        standing.remove(win)
        held_elsewhere = win in standing or any(
            compact(win) in m["tiles"].split() for m in melds)
        kongs = any(len(m["tiles"].split()) == 4 for m in melds)
        roll = rng.random()
        ev: dict[str, Any] = {"type": "win", "winner": winner}
        if roll < 0.06 and kongs:
            ev["how"] = "kong_replacement"
        elif roll < 0.1 and not held_elsewhere:
            ev["how"] = "rob_kong"
        elif roll < 0.55:
            ev["how"] = "self_draw"
        else:
            ev["how"] = "discard"
        if ev["how"] in ("rob_kong", "discard"):
            ev["from_seat"] = rng.choice([s for s in SEATS if s != winner])
        hand: dict[str, Any] = {
            "standing": _text(standing), "melds": melds, "winning_tile": compact(win),
            "prevalent": rng.choice(SEATS), "flowers": rng.choice([0, 0, 0, 1, 2, 3, 8])}
        if win not in standing and rng.random() < 0.15:
            hand["last_tile"] = True
        if ev["how"] != "rob_kong" and rng.random() < 0.06:
            hand["last_of_wall"] = True
        if rng.random() < 0.2:
            hand["seat_wind"] = rng.choice(SEATS)
        ev["mcr"] = hand
        return ev
