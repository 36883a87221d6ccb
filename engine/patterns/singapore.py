"""Singapore/Malaysia patterns: the tai table of docs/rules/singapore.md.

Values are preset data (``tai`` in presets/singapore.toml); limit hands pay the cap. What a
hand shows needs its context (seat and prevailing wind, how it was won), so the tiles are
read in :mod:`engine.families.singapore_hands`, not by ``detect`` here.
"""

from __future__ import annotations

from engine.patterns.base import Pattern, PatternSet
from engine.patterns.common import DIHU, TIANHU

# Patterns a hand may hold more than once, and how often at most.
COUNTED = {"动物": 4, "正花": 2, "花杠": 2}
# Patterns from bonus tiles (what ``min_counts_bonus=false`` leaves out of the minimum).
BONUS = ("动物", "四动物", "正花", "花杠")
DRAGON_PONGS = ("红中", "发财", "白板")
WIND_PONGS = ("门风", "圈风")
# Special wins: paid at the cap, and not by the usual split (see the family).
SPECIAL = ("八仙过海", "七抢一")
LIMITS = ("大三元", "大四喜", "十三幺", "字一色", "清幺九", "九莲宝灯", "十八罗汉", "四暗刻",
          "杠上杠", "天胡", "地胡", *SPECIAL)
# What a larger pattern counts instead of (docs: "instead of ...").
INSTEAD: dict[str, tuple[str, ...]] = {
    "大平胡": ("平胡",),
    "四动物": ("动物",),
    "小四喜": WIND_PONGS,
    "混幺九": (*DRAGON_PONGS, *WIND_PONGS),
}

_BONUS_TAI = ("动物", "四动物", "正花", "花杠")

SINGAPORE = PatternSet("singapore")
SINGAPORE.add(
    Pattern("动物", "dongwu", "animal", "an animal tile: cat, rat, rooster or centipede",
            aliases=("animals", "cat", "rat", "rooster", "centipede", "猫", "鼠", "老鼠",
                     "鸡", "公鸡", "蜈蚣")),
    Pattern("四动物", "sidongwu", "all four animals", "all four animals: 4 + 1 for the set",
            aliases=("动物杠", "four animals", "all animals")),
    Pattern("正花", "zhenghua", "seat flower", "the flower or season numbered as one's seat",
            aliases=("seat season", "flower", "花", "本花", "own flower")),
    Pattern("花杠", "huagang", "flower set", "all four flowers or all four seasons "
            "(counts the seat flower in it too)",
            aliases=("一台花", "complete set", "season set", "set"), implies=("正花",)),
    Pattern("红中", "hongzhong", "red dragon", "a pong of 中",
            aliases=("中", "red dragon pong", "red")),
    Pattern("发财", "facai", "green dragon", "a pong of 发",
            aliases=("发", "green dragon pong", "green")),
    Pattern("白板", "baiban", "white dragon", "a pong of 白",
            aliases=("白", "white dragon pong", "white")),
    Pattern("门风", "menfeng", "seat wind", "a pong of one's seat wind",
            aliases=("seat wind pong", "本风", "自风")),
    Pattern("圈风", "quanfeng", "prevailing wind", "a pong of the prevailing wind",
            aliases=("round wind", "prevailing wind pong", "场风", "圈风台")),
    Pattern("平胡", "pinghu", "all chows", "four chows and a pair that scores nothing",
            aliases=("平和", "ping hu", "lesser sequence", "sequence"),
            excludes=("对对胡",)),
    Pattern("大平胡", "dapinghu", "full all chows", "平胡 with no bonus tile at all",
            aliases=("full sequence", "大平和"), implies=("平胡",),
            excludes=_BONUS_TAI),
    Pattern("门清", "menqing", "concealed self-draw", "nothing declared, self-drawn",
            aliases=("门前清", "fully concealed", "concealed")),
    Pattern("花上", "huashang", "flower replacement", "winning on a bonus tile's replacement",
            aliases=("花上开花", "flower bloom")),
    Pattern("杠上开花", "gangshangkaihua", "kong replacement",
            "winning on a kong's replacement tile", aliases=("杠上", "杠上花", "kong bloom")),
    Pattern("抢杠", "qianggang", "robbing a kong", "winning on another's added kong",
            aliases=("抢杠胡", "rob kong", "robbing the kong")),
    Pattern("海底捞月", "haidilaoyue", "last tile", "winning on the wall's last tile",
            aliases=("海底", "haidi", "last tile draw")),
    Pattern("对对胡", "duiduihu", "all pongs", "every set a pong or kong",
            aliases=("碰碰胡", "all pungs", "dui dui", "duidui")),
    Pattern("混一色", "hunyise", "half flush", "one suit and honours",
            aliases=("半色", "mixed one suit", "half colour", "half color"),
            excludes=("清一色", "字一色")),
    Pattern("清一色", "qingyise", "full flush", "every tile of one suit",
            aliases=("one suit", "pure one suit", "full colour", "full color"),
            excludes=("字一色",)),
    Pattern("小四喜", "xiaosixi", "small four winds", "three wind pongs and a wind pair",
            aliases=("small winds",)),
    Pattern("小三元", "xiaosanyuan", "small three dragons",
            "two dragon pongs and a dragon pair (counts instead of those two pongs)",
            aliases=("small dragons",)),
    Pattern("混幺九", "hunyaojiu", "mixed terminals", "only 1s, 9s and honours",
            aliases=("混老头", "mixed terminals and honours")),
    Pattern("绿一色", "lvyise", "all green", "only 2 3 4 6 8 条 and 发",
            aliases=("all green",)),
    Pattern("大三元", "dasanyuan", "big three dragons", "three dragon pongs",
            aliases=("big dragons",), excludes=("小三元",)),
    Pattern("大四喜", "dasixi", "big four winds", "four wind pongs",
            aliases=("big winds",), excludes=("小四喜",)),
    Pattern("十三幺", "shisanyao", "thirteen wonders", "one of each terminal and honour "
            "and a pair of one", aliases=("十三么", "thirteen orphans", "13 wonders")),
    Pattern("字一色", "ziyise", "all honours", "only winds and dragons",
            aliases=("all honors",)),
    Pattern("清幺九", "qingyaojiu", "pure terminals", "only 1s and 9s",
            aliases=("清老头", "all terminals")),
    Pattern("九莲宝灯", "jiulianbaodeng", "nine gates", "1112345678999 of one suit and one "
            "more, concealed", aliases=("nine gates",)),
    Pattern("十八罗汉", "shibaluohan", "eighteen arhats", "four kongs",
            aliases=("four kongs",)),
    Pattern("四暗刻", "siananke", "hidden treasure", "four concealed pongs, self-drawn",
            aliases=("坎坎胡", "four concealed pongs")),
    Pattern("杠上杠", "gangshanggang", "kong on kong",
            "a kong on a kong's replacement, then the win on its replacement",
            aliases=("double kong bloom",)),
    TIANHU,
    DIHU,
    Pattern("八仙过海", "baxianguohai", "eight immortals", "all eight flowers and seasons",
            aliases=("all flowers", "eight flowers")),
    Pattern("七抢一", "qiqiangyi", "robbing the eighth",
            "holding seven flowers and seasons, taking the eighth as another draws it",
            aliases=("seven rob one",)),
)
