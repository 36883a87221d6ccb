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

    rng = random.Random(seed)
    cases = []
    bad = 0
    for _ in range(hands):
        ev = random_win(rng)
        s, args = ours(ev)
        total, named = oracle(args)
        if total != s.total or named != {f.zh: f.times for f in s.fans}:
            bad += 1
            if bad <= 5:
                print("disagreement:", ev, s.total, total, named)
        cases.append(args)
    # Speed: the counting alone on each side, the same hands.
    from engine.mcr.hand import tiles_of
    from engine.models import How, McrHand

    prepared = []
    rng = random.Random(seed)
    for _ in range(hands):
        ev = random_win(rng)
        how = How(ev["how"])
        prepared.append(tiles_of(McrHand.model_validate(ev["mcr"]), ev["winner"], "E",
                                 how in (How.SELF_DRAW, How.KONG_REPLACEMENT),
                                 how in (How.ROB_KONG, How.KONG_REPLACEMENT)))
    start = time.perf_counter()
    for t in prepared:
        count(t, ORACLE_RULES)
    mine = time.perf_counter() - start
    start = time.perf_counter()
    for args in cases:
        oracle(args)
    theirs = time.perf_counter() - start
    print(f"MCR: {hands:,} hands, {bad} disagreements; ours {mine:.2f} s, "
          f"oracle {theirs:.2f} s, ratio ours/oracle {mine / theirs:.1f}")


if __name__ == "__main__":
    run(int(sys.argv[1]) if len(sys.argv) > 1 else 100_000)
