"""Scoring: 10,000 random reports per preset, and a Yibin 查叫 with 8 wildcards.

Run: ``python -m bench.scoring_bench``. The anchor, measured in the same run, is the
``mahjong`` package's ``HandCalculator.estimate_hand_value`` on one Riichi hand.
"""

from __future__ import annotations

import random
import time

from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig
from mahjong.tile import TilesConverter

from engine.rules import presets, ruleset
from engine.settle import parse_report, settle_hand
from tests.reportgen import random_report

N = 10_000


def _anchor(n: int) -> float:
    calc = HandCalculator()
    tiles = TilesConverter.string_to_136_array(man="234", pin="555", sou="666789", honors="11")
    win = TilesConverter.string_to_136_array(sou="9")[0]
    config = HandConfig(is_tsumo=True)
    t0 = time.perf_counter()
    for _ in range(n):
        calc.estimate_hand_value(tiles, win, config=config)
    return (time.perf_counter() - t0) / n


def run() -> dict[str, float]:
    anchor = _anchor(2_000)
    print(f"anchor HandCalculator.estimate_hand_value: {anchor * 1e6:.0f} us per hand")
    total = 0.0
    out: dict[str, float] = {}
    for name in presets():
        rules = ruleset(name)
        rng = random.Random(7)
        reports = [parse_report(random_report(rng, rules)) for _ in range(N)]
        spent = float("inf")
        for _ in range(3):  # best of three passes: this machine's timings wander
            t0 = time.perf_counter()
            for r in reports:
                settle_hand(rules, r)
            spent = min(spent, time.perf_counter() - t0)
        total += spent
        per = spent / N
        out[name] = per / anchor
        print(f"{name:9s} {N:,} reports: {spent * 1e3:6.0f} ms  "
              f"({per * 1e6:.0f} us each = {per / anchor:.2f}x the anchor's one hand)")
    print(f"all presets: {total:.2f} s for {N * len(presets()):,} reports (goal: < 1 s in "
          "total per 10,000 in each preset)")
    out["total_seconds"] = total
    # Yibin 查叫: 本金 5p, so 4p and 6p are wild; the 13 tiles hold all eight of them.
    report = parse_report({"indicator": "5p", "events": [{"type": "wall_end", "players": {
        "S": {"ready": True, "tiles": "4444p 6666p 1m 3m 9m 9m 2p"}}}]})
    rules = ruleset("yibin")
    t0 = time.perf_counter()
    result = settle_hand(rules, report)
    chajiao = time.perf_counter() - t0
    t0 = time.perf_counter()
    settle_hand(rules, report)
    warm = time.perf_counter() - t0
    out["yibin_chajiao_8_wild_ms"] = chajiao * 1e3
    print(f"Yibin 查叫 with 8 wildcards: {chajiao * 1e3:.0f} ms first, {warm * 1e3:.0f} ms "
          f"again = {chajiao / anchor:.0f}x the anchor (S receives {result.deltas['S']})")
    return out


if __name__ == "__main__":
    run()
