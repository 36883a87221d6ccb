"""Changsha patterns: big wins (大胡) and starting-hand wins (起手胡)."""

from __future__ import annotations

from collections.abc import Callable

from engine.patterns.base import (
    Facts,
    Pattern,
    PatternSet,
    all_258,
    all_pungs,
    four_declared,
    nothing_declared,
    seven_pairs,
)
from engine.patterns.common import DIHU, QINGYISE, TIANHU


def _fours(n: int) -> Callable[[Facts], bool]:
    return lambda f: seven_pairs(f) and f.reading.fours >= n


def _jiangjiang(f: Facts) -> bool:
    return all_258(f)


CHANGSHA = PatternSet("changsha")
CHANGSHA.add(
    Pattern("小胡", "xiaohu", "small win", "four sets and a 2-5-8 pair",
            aliases=("平胡", "屁胡", "pinghu")),
    Pattern("碰碰胡", "pengpenghu", "all pongs", "every set a pong or kong",
            aliases=("对对胡", "大对子"), detect=all_pungs),
    Pattern("将将胡", "jiangjianghu", "all 2-5-8", "every tile a 2, 5 or 8",
            detect=_jiangjiang),
    QINGYISE,
    Pattern("七小对", "qixiaodui", "seven pairs", "seven pairs", aliases=("七对", "qidui"),
            excludes=("碰碰胡",), detect=seven_pairs),
    Pattern("豪华七小对", "haohuaqixiaodui", "luxury seven pairs",
            "seven pairs holding a four", aliases=("豪华七对", "龙七对"),
            implies=("七小对",), min_gen=1, detect=_fours(1)),
    Pattern("双豪华七小对", "shuanghaohuaqixiaodui", "double luxury seven pairs",
            "seven pairs holding two fours", aliases=("双豪华七对",),
            implies=("豪华七小对",), min_gen=2, detect=_fours(2)),
    Pattern("海底捞月", "haidilaoyue", "last tile", "winning on the last tile of the wall",
            aliases=("海底", "haidi")),
    Pattern("杠上开花", "gangshangkaihua", "kong bloom", "winning on a kong replacement",
            aliases=("杠上花", "gangshanghua")),
    Pattern("抢杠胡", "qiangganghu", "robbing a kong", "winning on another's added kong",
            aliases=("抢杠", "qianggang")),
    Pattern("全求人", "quanqiuren", "all melded", "four sets declared, won off a discard",
            aliases=("全球人",), detect=four_declared),
    TIANHU,
    DIHU,
    Pattern("海底炮", "haidipao", "last-tile discard",
            "the player who took the last tile cannot win; another wins on it"),
    Pattern("杠上炮", "gangshangpao", "kong discard", "winning on the discard after a kong"),
    Pattern("门清", "menqing", "concealed hand", "nothing declared",
            detect=nothing_declared),
)

STARTING = PatternSet("changsha starting-hand")
STARTING.add(
    Pattern("四喜", "sixi", "four of a kind", "four of one tile in the starting hand"),
    Pattern("板板胡", "banbanhu", "no 2-5-8", "no 2, 5 or 8 in the starting hand"),
    Pattern("缺一色", "queyise", "missing suit", "a suit missing from the starting hand"),
    Pattern("六六顺", "liuliushun", "two triplets", "two concealed triplets at the start"),
)
