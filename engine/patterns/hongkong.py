"""Hong Kong (廣東牌) patterns: names in zh-Hant, zh-Hans, Cantonese and English; their 番.

``implies`` lists what a pattern includes: named together, the larger counts alone. Seat
and prevailing winds, bonus tiles, 坎坎糊 and 十三么 need more than one reading of the
tiles; the family (engine.families.hongkong) finds those.
"""

from __future__ import annotations

from engine.patterns.base import Facts, Pattern, PatternSet, all_pungs, nothing_declared, one_suit
from engine.readings import CHOW, KONG, PUNG, STANDARD
from engine.tiles import DRAGONS, WINDS, is_terminal_or_honor

LIMIT = 13  # a limit hand (爆棚牌) counts 13 番 and so pays the cap
# Patterns that count once for each time they hold (三元: each dragon pong).
MOST = {"三元": 3, "正花": 2}
# Bonus-tile 番: they do not count toward the minimum unless the table says so.
FLOWER_FAN = ("正花", "一台花", "無花")


def _pungs_of(f: Facts, kinds: range) -> int:
    return sum(1 for m in f.sets if m.shape in (PUNG, KONG) and m.first in kinds)


def _pair_of(f: Facts, kinds: range) -> bool:
    pair = f.reading.pair
    return pair is not None and pair.first in kinds


def dragon_pungs(f: Facts) -> int:
    return _pungs_of(f, DRAGONS)


def _half_flush(f: Facts) -> bool:
    return len(f.reading.suits) == 1 and f.reading.has_honors


def _all_honours(f: Facts) -> bool:
    return not f.reading.suits


def _all_terminals(f: Facts) -> bool:
    return all(k < 27 and k % 9 in (0, 8) for k in f.kinds)


def _mixed_orphans(f: Facts) -> bool:
    return (all(is_terminal_or_honor(k) for k in f.kinds) and f.reading.has_honors
            and bool(f.reading.suits))


def _common_hand(f: Facts) -> bool:
    return f.reading.form == STANDARD and all(m.shape == CHOW for m in f.sets)


def _nine_gates(f: Facts) -> bool:
    if f.declared or not f.one_suit:
        return False
    suit = next(iter(f.reading.suits))
    counts = f.reading.all_counts[9 * suit: 9 * suit + 9]
    return all(c >= need for c, need in zip(counts, (3, 1, 1, 1, 1, 1, 1, 1, 3), strict=True))


def _four_kongs(f: Facts) -> bool:
    return sum(1 for m in f.reading.melds if m.shape == KONG) == 4


HONGKONG = PatternSet("hongkong")
HONGKONG.add(
    # Limit hands (爆棚牌)
    Pattern("大四喜", "daai sei hei", "big four winds", "a pong of each wind",
            aliases=("big winds",), implies=("小四喜", "門風", "圈風", "對對糊"),
            detect=lambda f: _pungs_of(f, WINDS) == 4),
    Pattern("小四喜", "siu sei hei", "small four winds",
            "pongs of three winds and a pair of the fourth", aliases=("small winds",),
            implies=("門風", "圈風"),
            detect=lambda f: _pungs_of(f, WINDS) == 3 and _pair_of(f, WINDS)),
    Pattern("十三么", "sap saam jiu", "thirteen orphans",
            "one of each terminal and honour, and a pair of one of them",
            aliases=("十三幺", "thirteen terminals", "sap saam yiu")),
    Pattern("清么九", "cing jiu gau", "all terminals", "pongs of 1s and 9s only",
            aliases=("清幺九", "么九", "幺九", "orphans"), implies=("對對糊", "花么"),
            detect=_all_terminals),
    Pattern("十八羅漢", "sap baat lo hon", "four kongs", "four kongs and a pair",
            aliases=("十八罗汉", "all kongs", "eighteen arhats"), implies=("對對糊",),
            detect=_four_kongs),
    Pattern("字一色", "zi jat sik", "all honours", "winds and dragons only",
            aliases=("all honors",), implies=("對對糊", "花么"), detect=_all_honours),
    Pattern("九子連環", "gau zi lin waan", "nine gates",
            "1112345678999 of one suit and one more, concealed",
            aliases=("九子连环", "九蓮寶燈", "九莲宝灯"), implies=("清一色", "門前清"),
            detect=_nine_gates),
    Pattern("坎坎糊", "kam kam wu", "four concealed pongs",
            "four concealed pongs, self-drawn", aliases=("坎坎胡", "kaan kaan wu"),
            implies=("對對糊", "門前清", "自摸")),
    Pattern("天糊", "tin wu", "heavenly hand", "the dealer wins on the deal",
            aliases=("天胡",)),
    Pattern("地糊", "dei wu", "earthly hand", "a player wins on the dealer's first discard",
            aliases=("地胡",)),
    Pattern("八仙過海", "baat sin gwo hoi", "eight immortals", "all eight bonus tiles",
            aliases=("八仙过海",), implies=("一台花", "正花", "花糊")),
    # Counted hands
    Pattern("大三元", "daai saam jyun", "great dragons", "a pong of each dragon",
            aliases=("big dragons", "big three dragons"), implies=("小三元", "三元"),
            detect=lambda f: dragon_pungs(f) == 3),
    Pattern("清一色", "cing jat sik", "full flush", "one suit, no honours",
            aliases=("all one suit", "pure one suit"), implies=("混一色",), detect=one_suit),
    Pattern("小三元", "siu saam jyun", "small dragons",
            "pongs of two dragons and a pair of the third",
            aliases=("small three dragons",), implies=("三元",),
            detect=lambda f: dragon_pungs(f) == 2 and _pair_of(f, DRAGONS)),
    Pattern("對對糊", "deoi deoi wu", "all pongs", "every set a pong or kong",
            aliases=("对对胡", "对对糊", "對對胡", "碰碰糊", "碰碰胡", "all triplets"),
            implies=("平糊",), detect=all_pungs),
    Pattern("混一色", "wan jat sik", "half flush", "one suit and honours",
            aliases=("mixed one suit",), detect=_half_flush),
    Pattern("花糊", "faa wu", "flower hand",
            "seven bonus tiles, taking the eighth as another draws it",
            aliases=("花胡", "七搶一", "七抢一"), implies=("一台花", "正花")),
    Pattern("一台花", "jat toi faa", "a set of bonus tiles",
            "all four 花 or all four 季"),
    Pattern("槓上開花", "gong soeng hoi faa", "win on a kong replacement",
            "self-drawing the replacement tile of a kong",
            aliases=("杠上开花", "槓上自摸", "杠上自摸", "kong bloom"), implies=("自摸",)),
    Pattern("平糊", "ping wu", "common hand", "four chows and a pair",
            aliases=("平胡", "平和", "all chows"), detect=_common_hand),
    Pattern("門前清", "mun cin cing", "concealed hand", "nothing declared",
            aliases=("门前清", "門清", "门清", "fully concealed"), detect=nothing_declared),
    Pattern("自摸", "zi mo", "self-draw", "drawing the winning tile",
            aliases=("self drawn",)),
    Pattern("三元", "saam jyun", "dragon pong", "a pong of 中, 發 or 白, each",
            aliases=("番子", "紅中", "红中", "發財", "发财", "白板", "dragon pung"),
            detect=lambda f: dragon_pungs(f) > 0),
    Pattern("門風", "mun fung", "seat wind", "a pong of one's seat wind",
            aliases=("门风", "seat wind pong")),
    Pattern("圈風", "hyun fung", "prevailing wind", "a pong of the round's wind",
            aliases=("圈风", "round wind", "prevailing wind pong")),
    Pattern("花么", "faa jiu", "mixed orphans", "terminal and honour pongs only",
            aliases=("花幺", "混么九", "混幺九"), detect=_mixed_orphans),
    Pattern("海底撈月", "hoi dai laau jyut", "last tile", "winning on the wall's last tile",
            aliases=("海底捞月", "海底")),
    Pattern("搶槓", "coeng gong", "robbing a kong", "winning on another's added kong",
            aliases=("抢杠", "搶杠", "搶槓糊", "抢杠胡", "rob kong"), implies=("自摸",)),
    Pattern("正花", "zing faa", "seat flower", "the 花 or 季 of one's seat number, each",
            aliases=("seat flowers",)),
    Pattern("無花", "mou faa", "no flowers", "no bonus tiles at all",
            aliases=("无花", "no bonus tiles")),
    Pattern("雞糊", "gai wu", "chicken hand", "a win worth no 番",
            aliases=("鸡胡", "雞胡", "鸡糊")),
)

FAN: dict[str, int] = {
    "大四喜": LIMIT, "小四喜": LIMIT, "十三么": LIMIT, "清么九": LIMIT, "十八羅漢": LIMIT,
    "字一色": LIMIT, "九子連環": LIMIT, "坎坎糊": LIMIT, "天糊": LIMIT, "地糊": LIMIT,
    "八仙過海": LIMIT,
    "大三元": 8, "清一色": 7, "小三元": 5, "對對糊": 3, "混一色": 3, "花糊": 3, "一台花": 2,
    "槓上開花": 2, "平糊": 1, "門前清": 1, "自摸": 1, "三元": 1, "門風": 1, "圈風": 1,
    "花么": 1, "海底撈月": 1, "搶槓": 1, "正花": 1, "無花": 1, "雞糊": 0,
}
# A win that counts alone, whatever else the hand holds: the limit hands, and 花糊 (its
# hand is not complete: 3番, and a win whatever the minimum).
ALONE = (*(n for n, v in FAN.items() if v == LIMIT), "花糊")
