"""The 81 fans of the Chinese Official rules, 明暗杠 and 花牌: value, Chinese and English name.

``Fan`` keeps the order of the rules' fan list (largest first), which is also the order a
report lists them in. 明暗杠 (one concealed and one melded kong) is not one of the 81; its
value is the option ``mixed_kong``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum


class Fan(IntEnum):
    BIG_FOUR_WINDS = 1
    BIG_THREE_DRAGONS = 2
    ALL_GREEN = 3
    NINE_GATES = 4
    FOUR_KONGS = 5
    SEVEN_SHIFTED_PAIRS = 6
    THIRTEEN_ORPHANS = 7
    ALL_TERMINALS = 8
    LITTLE_FOUR_WINDS = 9
    LITTLE_THREE_DRAGONS = 10
    ALL_HONORS = 11
    FOUR_CONCEALED_PUNGS = 12
    PURE_TERMINAL_CHOWS = 13
    QUADRUPLE_CHOW = 14
    FOUR_PURE_SHIFTED_PUNGS = 15
    FOUR_PURE_SHIFTED_CHOWS = 16
    THREE_KONGS = 17
    ALL_TERMINALS_AND_HONORS = 18
    SEVEN_PAIRS = 19
    GREATER_HONORS_AND_KNITTED = 20
    ALL_EVEN_PUNGS = 21
    FULL_FLUSH = 22
    PURE_TRIPLE_CHOW = 23
    PURE_SHIFTED_PUNGS = 24
    UPPER_TILES = 25
    MIDDLE_TILES = 26
    LOWER_TILES = 27
    PURE_STRAIGHT = 28
    THREE_SUITED_TERMINAL_CHOWS = 29
    PURE_SHIFTED_CHOWS = 30
    ALL_FIVES = 31
    TRIPLE_PUNG = 32
    THREE_CONCEALED_PUNGS = 33
    LESSER_HONORS_AND_KNITTED = 34
    KNITTED_STRAIGHT = 35
    UPPER_FOUR = 36
    LOWER_FOUR = 37
    BIG_THREE_WINDS = 38
    MIXED_STRAIGHT = 39
    REVERSIBLE_TILES = 40
    MIXED_TRIPLE_CHOW = 41
    MIXED_SHIFTED_PUNGS = 42
    CHICKEN_HAND = 43
    LAST_TILE_DRAW = 44
    LAST_TILE_CLAIM = 45
    OUT_WITH_REPLACEMENT = 46
    ROBBING_THE_KONG = 47
    ALL_PUNGS = 48
    HALF_FLUSH = 49
    MIXED_SHIFTED_CHOWS = 50
    ALL_TYPES = 51
    MELDED_HAND = 52
    TWO_CONCEALED_KONGS = 53
    TWO_DRAGON_PUNGS = 54
    OUTSIDE_HAND = 55
    FULLY_CONCEALED = 56
    TWO_MELDED_KONGS = 57
    LAST_TILE = 58
    DRAGON_PUNG = 59
    PREVALENT_WIND = 60
    SEAT_WIND = 61
    CONCEALED_HAND = 62
    ALL_CHOWS = 63
    TILE_HOG = 64
    DOUBLE_PUNG = 65
    TWO_CONCEALED_PUNGS = 66
    CONCEALED_KONG = 67
    ALL_SIMPLES = 68
    PURE_DOUBLE_CHOW = 69
    MIXED_DOUBLE_CHOW = 70
    SHORT_STRAIGHT = 71
    TWO_TERMINAL_CHOWS = 72
    PUNG_OF_TERMINALS = 73
    MELDED_KONG = 74
    ONE_VOIDED_SUIT = 75
    NO_HONORS = 76
    EDGE_WAIT = 77
    CLOSED_WAIT = 78
    SINGLE_WAIT = 79
    SELF_DRAWN = 80
    FLOWERS = 81
    MIXED_KONG = 82  # 明暗杠: not one of the 81; option mixed_kong


TABLE_SIZE = 83


@dataclass(frozen=True)
class FanInfo:
    value: int
    zh: str
    en: str


def _rows() -> dict[Fan, FanInfo]:
    rows: list[tuple[int, str, str]] = [
        (88, "大四喜", "Big Four Winds"), (88, "大三元", "Big Three Dragons"),
        (88, "绿一色", "All Green"), (88, "九莲宝灯", "Nine Gates"), (88, "四杠", "Four Kongs"),
        (88, "连七对", "Seven Shifted Pairs"), (88, "十三幺", "Thirteen Orphans"),
        (64, "清幺九", "All Terminals"), (64, "小四喜", "Little Four Winds"),
        (64, "小三元", "Little Three Dragons"), (64, "字一色", "All Honors"),
        (64, "四暗刻", "Four Concealed Pungs"), (64, "一色双龙会", "Pure Terminal Chows"),
        (48, "一色四同顺", "Quadruple Chow"), (48, "一色四节高", "Four Pure Shifted Pungs"),
        (32, "一色四步高", "Four Pure Shifted Chows"), (32, "三杠", "Three Kongs"),
        (32, "混幺九", "All Terminals and Honors"),
        (24, "七对", "Seven Pairs"), (24, "七星不靠", "Greater Honors and Knitted Tiles"),
        (24, "全双刻", "All Even Pungs"), (24, "清一色", "Full Flush"),
        (24, "一色三同顺", "Pure Triple Chow"), (24, "一色三节高", "Pure Shifted Pungs"),
        (24, "全大", "Upper Tiles"), (24, "全中", "Middle Tiles"), (24, "全小", "Lower Tiles"),
        (16, "清龙", "Pure Straight"), (16, "三色双龙会", "Three-Suited Terminal Chows"),
        (16, "一色三步高", "Pure Shifted Chows"), (16, "全带五", "All Fives"),
        (16, "三同刻", "Triple Pung"), (16, "三暗刻", "Three Concealed Pungs"),
        (12, "全不靠", "Lesser Honors and Knitted Tiles"), (12, "组合龙", "Knitted Straight"),
        (12, "大于五", "Upper Four"), (12, "小于五", "Lower Four"),
        (12, "三风刻", "Big Three Winds"),
        (8, "花龙", "Mixed Straight"), (8, "推不倒", "Reversible Tiles"),
        (8, "三色三同顺", "Mixed Triple Chow"), (8, "三色三节高", "Mixed Shifted Pungs"),
        (8, "无番和", "Chicken Hand"), (8, "妙手回春", "Last Tile Draw"),
        (8, "海底捞月", "Last Tile Claim"), (8, "杠上开花", "Out with Replacement Tile"),
        (8, "抢杠和", "Robbing the Kong"),
        (6, "碰碰和", "All Pungs"), (6, "混一色", "Half Flush"),
        (6, "三色三步高", "Mixed Shifted Chows"), (6, "五门齐", "All Types"),
        (6, "全求人", "Melded Hand"), (6, "双暗杠", "Two Concealed Kongs"),
        (6, "双箭刻", "Two Dragon Pungs"),
        (4, "全带幺", "Outside Hand"), (4, "不求人", "Fully Concealed Hand"),
        (4, "双明杠", "Two Melded Kongs"), (4, "和绝张", "Last Tile"),
        (2, "箭刻", "Dragon Pung"), (2, "圈风刻", "Prevalent Wind"), (2, "门风刻", "Seat Wind"),
        (2, "门前清", "Concealed Hand"), (2, "平和", "All Chows"), (2, "四归一", "Tile Hog"),
        (2, "双同刻", "Double Pung"), (2, "双暗刻", "Two Concealed Pungs"),
        (2, "暗杠", "Concealed Kong"), (2, "断幺", "All Simples"),
        (1, "一般高", "Pure Double Chow"), (1, "喜相逢", "Mixed Double Chow"),
        (1, "连六", "Short Straight"), (1, "老少副", "Two Terminal Chows"),
        (1, "幺九刻", "Pung of Terminals or Honors"), (1, "明杠", "Melded Kong"),
        (1, "缺一门", "One Voided Suit"), (1, "无字", "No Honors"), (1, "边张", "Edge Wait"),
        (1, "坎张", "Closed Wait"), (1, "单钓将", "Single Wait"), (1, "自摸", "Self-Drawn"),
        (1, "花牌", "Flower Tiles"), (5, "明暗杠", "Concealed Kong and Melded Kong"),
    ]
    assert len(rows) == len(Fan)
    return {fan: FanInfo(*row) for fan, row in zip(Fan, rows, strict=True)}


FANS: dict[Fan, FanInfo] = _rows()
# Other names players write for a fan (the canonical one is FANS[fan].zh).
ALIASES: dict[str, Fan] = {
    "嵌张": Fan.CLOSED_WAIT, "单钓": Fan.SINGLE_WAIT, "单骑": Fan.SINGLE_WAIT,
    "花": Fan.FLOWERS, "平胡": Fan.ALL_CHOWS, "碰碰胡": Fan.ALL_PUNGS,
    "抢杠胡": Fan.ROBBING_THE_KONG, "七小对": Fan.SEVEN_PAIRS, "一条龙": Fan.PURE_STRAIGHT,
    "门清": Fan.CONCEALED_HAND, "断幺九": Fan.ALL_SIMPLES, "鸡和": Fan.CHICKEN_HAND,
}


def value(fan: Fan, mixed_kong: int = 5) -> int:
    """What one count of ``fan`` is worth (明暗杠 by the option ``mixed_kong``)."""
    return mixed_kong if fan == Fan.MIXED_KONG else FANS[fan].value


def value_of(name: str, mixed_kong: int = 5) -> int:
    """The value of the fan of this Chinese name."""
    return value(next(f for f, info in FANS.items() if info.zh == name), mixed_kong)


# What each fan is, in a few words (the pattern table's "what"; docs/rules/mcr.md has the
# fans each one leaves out).
WHAT: dict[Fan, str] = {
    Fan.BIG_FOUR_WINDS: "pungs or kongs of all four winds",
    Fan.BIG_THREE_DRAGONS: "pungs or kongs of all three dragons",
    Fan.ALL_GREEN: "only 2 3 4 6 8 条 and 发",
    Fan.NINE_GATES: "1112345678999 of one suit, concealed, and any tile of it",
    Fan.FOUR_KONGS: "four kongs",
    Fan.SEVEN_SHIFTED_PAIRS: "seven consecutive pairs of one suit",
    Fan.THIRTEEN_ORPHANS: "one of each terminal and honor, and a pair of one",
    Fan.ALL_TERMINALS: "only 1s and 9s",
    Fan.LITTLE_FOUR_WINDS: "three wind pungs and a wind pair",
    Fan.LITTLE_THREE_DRAGONS: "two dragon pungs and a dragon pair",
    Fan.ALL_HONORS: "only winds and dragons",
    Fan.FOUR_CONCEALED_PUNGS: "four concealed pungs or kongs",
    Fan.PURE_TERMINAL_CHOWS: "123 123 789 789 and a pair of 5, one suit",
    Fan.QUADRUPLE_CHOW: "four identical chows",
    Fan.FOUR_PURE_SHIFTED_PUNGS: "four pungs one apart in one suit",
    Fan.FOUR_PURE_SHIFTED_CHOWS: "four chows one or two apart in one suit",
    Fan.THREE_KONGS: "three kongs",
    Fan.ALL_TERMINALS_AND_HONORS: "only 1s, 9s and honors",
    Fan.SEVEN_PAIRS: "seven pairs",
    Fan.GREATER_HONORS_AND_KNITTED: "all seven honors and seven knitted tiles",
    Fan.ALL_EVEN_PUNGS: "pungs of 2 4 6 8 and an even pair",
    Fan.FULL_FLUSH: "one suit only",
    Fan.PURE_TRIPLE_CHOW: "three identical chows",
    Fan.PURE_SHIFTED_PUNGS: "three pungs one apart in one suit",
    Fan.UPPER_TILES: "only 7 8 9",
    Fan.MIDDLE_TILES: "only 4 5 6",
    Fan.LOWER_TILES: "only 1 2 3",
    Fan.PURE_STRAIGHT: "123 456 789 of one suit",
    Fan.THREE_SUITED_TERMINAL_CHOWS: "123 and 789 in two suits, a pair of 5 in the third",
    Fan.PURE_SHIFTED_CHOWS: "three chows one or two apart in one suit",
    Fan.ALL_FIVES: "a 5 in every set and the pair",
    Fan.TRIPLE_PUNG: "pungs of one number in three suits",
    Fan.THREE_CONCEALED_PUNGS: "three concealed pungs or kongs",
    Fan.LESSER_HONORS_AND_KNITTED: "single honors and knitted 147/258/369 tiles",
    Fan.KNITTED_STRAIGHT: "147, 258 and 369 in three different suits",
    Fan.UPPER_FOUR: "only 6 7 8 9",
    Fan.LOWER_FOUR: "only 1 2 3 4",
    Fan.BIG_THREE_WINDS: "pungs of three winds",
    Fan.MIXED_STRAIGHT: "123, 456 and 789 in three different suits",
    Fan.REVERSIBLE_TILES: "only tiles that look the same upside down",
    Fan.MIXED_TRIPLE_CHOW: "the same chow in three suits",
    Fan.MIXED_SHIFTED_PUNGS: "pungs one apart in three suits",
    Fan.CHICKEN_HAND: "no other fan (flowers aside)",
    Fan.LAST_TILE_DRAW: "self-drawn on the wall's last tile",
    Fan.LAST_TILE_CLAIM: "won on the last discard",
    Fan.OUT_WITH_REPLACEMENT: "self-drawn on a kong's replacement tile",
    Fan.ROBBING_THE_KONG: "won on the tile another player adds to a pung",
    Fan.ALL_PUNGS: "four pungs or kongs",
    Fan.HALF_FLUSH: "one suit and honors",
    Fan.MIXED_SHIFTED_CHOWS: "chows one apart in three suits",
    Fan.ALL_TYPES: "all three suits, winds and dragons",
    Fan.MELDED_HAND: "four melds, won on a discard as a single wait",
    Fan.TWO_CONCEALED_KONGS: "two concealed kongs",
    Fan.TWO_DRAGON_PUNGS: "two dragon pungs",
    Fan.OUTSIDE_HAND: "a terminal or honor in every set and the pair",
    Fan.FULLY_CONCEALED: "no melds, self-drawn",
    Fan.TWO_MELDED_KONGS: "two melded kongs",
    Fan.LAST_TILE: "won on the last tile of its kind",
    Fan.DRAGON_PUNG: "a dragon pung",
    Fan.PREVALENT_WIND: "a pung of the round's wind",
    Fan.SEAT_WIND: "a pung of one's own wind",
    Fan.CONCEALED_HAND: "no melds (concealed kongs aside), won on a discard",
    Fan.ALL_CHOWS: "four chows and a suited pair",
    Fan.TILE_HOG: "all four of a tile, not as a kong",
    Fan.DOUBLE_PUNG: "pungs of one number in two suits",
    Fan.TWO_CONCEALED_PUNGS: "two concealed pungs or kongs",
    Fan.CONCEALED_KONG: "a concealed kong",
    Fan.ALL_SIMPLES: "no terminals or honors",
    Fan.PURE_DOUBLE_CHOW: "two identical chows",
    Fan.MIXED_DOUBLE_CHOW: "the same chow in two suits",
    Fan.SHORT_STRAIGHT: "two chows making six in a row",
    Fan.TWO_TERMINAL_CHOWS: "123 and 789 of one suit",
    Fan.PUNG_OF_TERMINALS: "a pung of 1s, 9s or a wind",
    Fan.MELDED_KONG: "a melded kong",
    Fan.ONE_VOIDED_SUIT: "one suit missing",
    Fan.NO_HONORS: "no winds or dragons",
    Fan.EDGE_WAIT: "waited on 3 of 12 or 7 of 89 alone",
    Fan.CLOSED_WAIT: "waited on the middle of a chow alone",
    Fan.SINGLE_WAIT: "waited on the pair's tile alone",
    Fan.SELF_DRAWN: "self-drawn",
    Fan.FLOWERS: "each flower or season, not toward the 8-fan gate",
    Fan.MIXED_KONG: "one concealed and one melded kong (option mixed_kong)",
}
assert set(WHAT) == set(Fan)
