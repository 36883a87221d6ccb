"""Sichuan family patterns (sichuan, chengdu, yibin). Fan values are preset data."""

from __future__ import annotations

from engine.patterns.base import (
    Facts,
    Pattern,
    PatternSet,
    all_258,
    all_pungs,
    four_declared,
    no_terminals,
    nothing_declared,
    seven_pairs,
    terminals_everywhere,
)
from engine.patterns.common import DIHU, QINGYISE, TIANHU
from engine.readings import KONG, PUNG


def _no_wildcard(f: Facts) -> bool:
    return f.reading.wild_used - f.reading.restored == 0


def _benjin_pung(f: Facts) -> bool:
    return f.special_kind is not None and any(
        m.shape in (PUNG, KONG) and m.first == f.special_kind for m in f.reading.melds
    )


SICHUAN = PatternSet("sichuan")
SICHUAN.add(
    Pattern("平胡", "pinghu", "plain win", "four sets and a pair, lacking a suit",
            aliases=("平和", "屁胡"), detect=lambda f: True),
    Pattern("对对胡", "duiduihu", "all pongs", "every set a pong or kong",
            aliases=("大对子", "碰碰胡", "大对", "pengpenghu", "dadui"), detect=all_pungs),
    QINGYISE,
    Pattern("带幺九", "daiyaojiu", "terminals everywhere",
            "every set and the pair hold a 1 or a 9", aliases=("幺九", "全带幺", "yaojiu"),
            detect=terminals_everywhere),
    Pattern("七对", "qidui", "seven pairs", "seven pairs, nothing declared",
            aliases=("七小对", "暗七对", "qixiaodui"), excludes=("对对胡", "金钩钓"),
            detect=seven_pairs),
    Pattern("将对", "jiangdui", "2-5-8 pongs", "all pongs of 2, 5 or 8 and a 2/5/8 pair",
            implies=("对对胡",), detect=lambda f: f.all_pungs and all_258(f)),
    Pattern("金钩钓", "jingoudiao", "golden hook", "four sets declared, one tile left in hand",
            aliases=("金钩吊", "单钓"), implies=("对对胡",), detect=four_declared),
    Pattern("门清", "menqing", "concealed hand", "nothing declared but concealed kongs",
            detect=nothing_declared),
    Pattern("断幺九", "duanyaojiu", "all simples", "no 1 or 9 anywhere",
            aliases=("中张", "断幺"), detect=no_terminals),
    TIANHU,
    DIHU,
    Pattern("清对", "qingdui", "one-suit pongs", "清一色 and 对对胡",
            implies=("清一色", "对对胡")),
    Pattern("龙七对", "longqidui", "dragon seven pairs", "seven pairs holding a four",
            aliases=("豪华七对", "龙七"), implies=("七对",), min_gen=1, uses_gen=1),
    Pattern("双龙七对", "shuanglongqidui", "double dragon seven pairs",
            "seven pairs holding two fours", implies=("龙七对",), min_gen=2),
    Pattern("清七对", "qingqidui", "one-suit seven pairs", "清一色 and 七对",
            implies=("清一色", "七对")),
    Pattern("清龙七对", "qinglongqidui", "one-suit dragon seven pairs", "清一色 and 龙七对",
            implies=("清一色", "龙七对"), min_gen=1, uses_gen=1),
    Pattern("清幺九", "qingyaojiu", "one-suit terminals", "清一色 and 带幺九",
            implies=("清一色", "带幺九")),
    Pattern("将金钩钓", "jiangjingoudiao", "2-5-8 golden hook", "将对 and 金钩钓",
            implies=("将对", "金钩钓")),
    Pattern("清金钩钓", "qingjingoudiao", "one-suit golden hook", "清一色 and 金钩钓",
            implies=("清一色", "金钩钓")),
    Pattern("十八罗汉", "shibaluohan", "eighteen arhats", "four kongs and a pair",
            implies=("金钩钓",), min_kongs=4, uses_gen=4),
    Pattern("清十八罗汉", "qingshibaluohan", "one-suit eighteen arhats", "清一色 and 十八罗汉",
            implies=("清一色", "十八罗汉"), min_kongs=4, uses_gen=4),
    Pattern("海底捞月", "haidilaoyue", "last tile", "self-drawing the wall's last tile",
            aliases=("海底", "haidi", "海底摸月")),
    Pattern("海底炮", "haidipao", "last-tile discard", "winning on the last tile discarded"),
    Pattern("无听用", "wutingyong", "no wildcard", "no 听用 stands for another tile",
            aliases=("无听", "no wild"), detect=_no_wildcard),
    Pattern("碰本金", "pengbenjin", "本金 pong", "a pong or kong of the turned-up 本金",
            aliases=("本金", "benjin"), detect=_benjin_pung),
)
