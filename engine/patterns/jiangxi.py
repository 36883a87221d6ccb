"""Jiangxi (Shangrao 飞宝) patterns: the five hands and their extras."""

from __future__ import annotations

from engine.patterns.base import (
    Facts,
    Pattern,
    PatternSet,
    seven_pairs,
)
from engine.patterns.common import QINGYISE
from engine.readings import JIUYAO, PAIR, SHISANLANG, STANDARD

HANDS = ("平和", "七对", "碰对", "九幺", "十三浪")


def _pinghe(f: Facts) -> bool:
    return f.reading.form == STANDARD


def _pengdui(f: Facts) -> bool:
    return f.all_pungs


def _wild_pair(f: Facts) -> bool:
    return any(m.shape == PAIR and len(m.wild) == 1 for m in f.reading.melds)


def _wild_pair_restored(f: Facts) -> bool:
    faces = f.reading.wild_faces
    return any(
        m.shape == PAIR and m.wild and m.first in faces for m in f.reading.melds
    )


def _all_honors(f: Facts) -> bool:
    return all(f.reading.all_counts[k] for k in range(27, 34))


JIANGXI = PatternSet("jiangxi")
JIANGXI.add(
    Pattern("平和", "pinghe", "plain win", "four sets and a pair",
            aliases=("平胡", "pinghu"), excludes=("七对", "九幺", "十三浪"), detect=_pinghe),
    Pattern("七对", "qidui", "seven pairs", "seven pairs", aliases=("七小对",),
            excludes=("碰对", "九幺", "十三浪"), detect=seven_pairs),
    Pattern("碰对", "pengdui", "all pongs", "every set a pong or kong",
            aliases=("碰碰胡", "对对胡", "pengpenghu"),
            excludes=("九幺", "十三浪"), detect=_pengdui),
    Pattern("九幺", "jiuyao", "terminals and honors", "every tile a 1, a 9 or an honor",
            aliases=("全九幺", "幺九"), excludes=("十三浪",),
            detect=lambda f: f.reading.form == JIUYAO),
    Pattern("十三浪", "shisanlang", "thirteen unrelated",
            "14 unrelated tiles: ranks 3 apart, honors all different",
            detect=lambda f: f.reading.form == SHISANLANG),
    Pattern("七字全", "qiziquan", "seven honors", "all seven honors, in 九幺 or 十三浪",
            detect=_all_honors),
    Pattern("单张", "danzhang", "single wait", "won on a single wait", aliases=("单吊",)),
    Pattern("宝吊", "baodiao", "wildcard pair", "a wildcard is the pair's wait",
            aliases=("掉头", "宝掉头"), detect=_wild_pair),
    Pattern("宝吊还原", "baodiaohuanyuan", "wildcard pair restored",
            "the wildcard pair stands as its own face", implies=("宝吊",),
            detect=_wild_pair_restored),
    Pattern("豪华", "haohua", "luxury seven pairs", "seven pairs holding a four",
            aliases=("豪华七对",), implies=("七对",), min_gen=1,
            detect=lambda f: seven_pairs(f) and f.reading.fours >= 1),
    QINGYISE,
)
