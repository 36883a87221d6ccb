"""MCR scoring against ``pymahjonggb``: 100,000 random legal winning hands, the
disagreements in totals and fan lists, and the speed of our count over the oracle's.

Run: ``python -m bench.mcr_bench [hands]``.
"""

from __future__ import annotations

import random
import sys
import time

from tests.mcr_hands import random_win
from tests.mcr_oracle import ORACLE_RULES, oracle, ours


def run(hands: int = 100_000, seed: int = 2026) -> None:
    from engine.mcr.count import count
    from engine.mcr.hand import tiles_of
    from engine.models import How, McrHand

    rng = random.Random(seed)
    bad = 0
    mine = theirs = 0.0
    chunk: list[tuple[object, dict[str, object]]] = []

    def timed() -> tuple[float, float]:
        # The two sides in alternation, a thousand hands at a time, so that the load of a
        # shared machine falls on both alike.
        start = time.perf_counter()
        for tiles, _args in chunk:
            count(tiles, ORACLE_RULES)  # type: ignore[arg-type]
        middle = time.perf_counter()
        for _tiles, args in chunk:
            oracle(args)
        return middle - start, time.perf_counter() - middle

    for i in range(hands):
        ev = random_win(rng)
        s, args = ours(ev)
        total, named = oracle(args)
        if total != s.total or named != {f.zh: f.times for f in s.fans}:
            bad += 1
            if bad <= 5:
                print("disagreement:", ev, s.total, total, named)
        how = How(ev["how"])
        chunk.append((tiles_of(McrHand.model_validate(ev["mcr"]), ev["winner"], "E",
                               how in (How.SELF_DRAW, How.KONG_REPLACEMENT),
                               how in (How.ROB_KONG, How.KONG_REPLACEMENT)), args))
        if len(chunk) == 1000 or i == hands - 1:
            a, b = timed()
            mine, theirs = mine + a, theirs + b
            chunk = []
    print(f"MCR: {hands:,} hands, {bad} disagreements; counting ours {mine:.2f} s "
          f"({mine / hands * 1e6:.0f} µs a hand), oracle {theirs:.2f} s "
          f"({theirs / hands * 1e6:.0f} µs); ratio ours/oracle {mine / theirs:.1f}")


if __name__ == "__main__":
    run(int(sys.argv[1]) if len(sys.argv) > 1 else 100_000)
