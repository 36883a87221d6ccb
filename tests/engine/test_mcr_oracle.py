"""MCR scoring against ``pymahjonggb`` (ChineseOfficialMahjongHelper's calculator) on random
legal winning hands, checked by our engine before the oracle is asked: totals and fan lists
(names mapped) agree. A fixed seed and a few thousand hands here; ``python -m bench mcr``
runs 100,000 and measures the speed ratio."""

from __future__ import annotations

import random

import pytest

from tests.mcr_hands import random_win
from tests.mcr_oracle import disagreement, ours

pytest.importorskip("MahjongGB", reason="pymahjonggb (the MCR oracle, built with g++) is not "
                    "installed: pip install pymahjonggb")

HANDS = 1000


def test_random_hands_agree_with_the_oracle() -> None:
    rng = random.Random(34)
    found = [d for d in (disagreement(random_win(rng)) for _ in range(HANDS)) if d]
    assert not found, f"{len(found)} of {HANDS} hands disagree; first: {found[0]}"


def test_the_hands_cover_the_forms_and_the_flags() -> None:
    rng = random.Random(34)
    seen: set[str] = set()
    for _ in range(HANDS):
        s, _args = ours(random_win(rng))
        seen |= {f.zh for f in s.fans}
    assert {"七对", "十三幺", "全不靠", "七星不靠", "组合龙", "抢杠和", "杠上开花", "和绝张",
            "妙手回春", "海底捞月", "明暗杠", "边张", "坎张", "单钓将", "花牌",
            "连七对", "清一色"} <= seen
