"""The table's vocabulary in the chat's language: preset names, seats, ways to win, kong
kinds, why a payment is made, each family's own names for patterns, and option labels.
Message ids are English; the catalogs translate them (``make i18n`` adds them)."""

from __future__ import annotations

import re
from typing import Any

from bot.text.i18n import is_chinese, pt, t
from bot.text.script import simplified
from engine.patterns import FAMILY_PATTERNS
from engine.rules import get_preset, presets

SEAT_KEYS = {"E": "East", "S": "South", "W": "West", "N": "North"}
# An MCR match's rounds, by their prevalent wind.
ROUNDS = {"E": "East round", "S": "South round", "W": "West round", "N": "North round"}

PRESET_NAMES = {
    "sichuan": "Sichuan",
    "chengdu": "Chengdu blood battle",
    "yibin": "Yibin",
    "changsha": "Changsha",
    "feibao": "Shangrao Feibao",
    "liangfang": "三人两房 (three players, two suits)",
    "sanfang": "三人三房 (three players, three suits)",
    "singapore": "Singapore/Malaysia",
    "free": "Points only",
    "mcr": "Chinese Official (国标麻将)",
    "hongkong": "Hong Kong old style (廣東牌)",
}

PRESET_SUMMARIES = {
    "sichuan": "Seed 001's table: every pattern adds fan to 平胡's 1, no cap, 查叫 at the "
               "smallest value.",
    "chengdu": "血战到底: the largest base pattern, +1 fan for each extra, cap 7; 刮风下雨, "
               "花猪, 查叫, 退税, 呼叫转移.",
    "yibin": "听用 wildcards either side of the 本金; every pattern adds, cap 6; 花猪 and "
             "查叫 at the largest value.",
    "changsha": "Small wins need 2-5-8 eyes; big wins pay 6 off a discard or 3 each "
                "self-drawn; the dealer +1; birds.",
    "feibao": "Self-draw only; 精/宝 wildcards; base values doubled by each extra; kong "
              "points; 精 reward.",
    "liangfang": "Sichuan for three with two suits (72 tiles): no 缺一门, so no 花猪; "
                 "chengdu's scoring; a hand ends once two have won.",
    "sanfang": "Sichuan for three with all three suits (108 tiles): 缺一门 and 花猪 as at "
               "four; chengdu's scoring; a hand ends once two have won.",
    "singapore": "Tai from 1 to the cap (5), paid by the stake table (20/40: base and zimo "
                 "per tai); shooter pays; kongs, bites and sets paid at once.",
    "free": "Points only: each win says its amount (the discarder pays it, or each player "
            "on a self-draw), or a hand gives every player's change (/jifen).",
    "mcr": "81 fans from the tiles; a win needs 8 fan without flowers (else 错和, a false "
           "win); each payer pays 8, the discarder or every player on a self-draw 8 + fan.",
    "hongkong": "番 to a share of the share table, in dollars and cents: 3番 to win, 10番 "
                "the cap; 二五雞, 半辣上, 半銃; 包自摸 on 十二張; 搶槓 paid by the kong's "
                "owner; one winner per hand (截糊).",
}

HOW = {"self_draw": "self-draw", "discard": "off a discard", "rob_kong": "robbing a kong",
       "kong_replacement": "on a kong replacement", "after_kong_discard": "off a kong discard"}

# How a winner won, in a compact answer; {payer} is whose discard or kong it was.
HOW_SHORT = {
    "self_draw": "{seat} self-draws",
    "discard": "{seat} wins off {payer}'s discard",
    "rob_kong": "{seat} robs {payer}'s kong",
    "kong_replacement": "{seat} wins on a kong replacement",
    "after_kong_discard": "{seat} wins off {payer}'s discard after a kong",
}

# What an MCR penalty is for (engine.models.PenaltyKind): the Chinese word and the English.
FOULS = {"false_win": "错和 (a false win)", "wrong_chow": "错吃 (a wrong chow)",
         "wrong_pung": "错碰 (a wrong pung)", "wrong_kong": "错杠 (a wrong kong)",
         "slow_play": "超时 (slow play)", "shown_tiles": "亮牌 (showing tiles)",
         "foul": "犯规 (a foul)"}

KONG_KINDS = {"concealed": "concealed kong", "added": "added kong", "direct": "direct kong",
              "wild": "wildcard kong"}
# A kong declared, in an answer's headline (bob declares an added kong).
KONG_DECLARED = {"concealed": "a concealed kong", "added": "an added kong",
                 "direct": "a direct kong", "wild": "a wildcard kong"}

# One payment line per reason, saying why it is paid.
PAYMENTS = {
    "win": "{payer} → {payee} {amount} (the win)",
    "kong": "{payer} → {payee} {amount} (kong money)",
    "kong_void": "{payer} → {payee} {amount} (the robbed kong's money back)",
    "hujiao_zhuanyi": "{payer} → {payee} {amount} (呼叫转移: {payer}'s kong money goes to "
                      "the winner)",
    "huazhu": "{payer} → {payee} {amount} (花猪: {payer} still holds three suits)",
    "chajiao": "{payer} → {payee} {amount} (查叫: {payer} is not ready)",
    "tuishui": "{payer} → {payee} {amount} (退税: {payer} is not ready and returns the kong "
               "money)",
    "kong_points": "{payer} → {payee} {amount} (kong points)",
    "jing": "{payer} → {payee} {amount} (精 reward)",
    "chengbao": "{payer} → {payee} {amount} (承包: {payer} pays every share)",
    "starting_win": "{payer} → {payee} {amount} (starting-hand win)",
    "false_win": "{payer} → {payee} {amount} (诈胡: {payer}'s false win)",
    "mcr_false_win": "{payer} → {payee} {amount} (错和: {payer}'s false win)",
    "mcr_foul": "{payer} → {payee} {amount} ({payer}'s fine)",
    "instant": "{payer} → {payee} {amount} (paid at once)",
    "kong_robbed": "{payer} → {payee} {amount} (the robbed kong's payout back)",
    # Hong Kong
    "self_draw": "{payer} → {payee} {amount} (self-draw)",
    "half_shot": "{payer} → {payee} {amount} (半銃)",
    "full_shot": "{payer} → {payee} {amount} (全銃: {payer} pays for all)",
    "bao_zimo": "{payer} → {payee} {amount} (包自摸: {payer} fed the fourth meld)",
    "rob_kong": "{payer} → {payee} {amount} (搶槓: {payer}'s kong was robbed)",
    "flower_rob": "{payer} → {payee} {amount} (花糊: {payer}'s bonus tile was taken)",
}
PAYMENT_OTHER = "{payer} → {payee} {amount}"
# Why a Hong Kong share is paid, inside a line of the details (a payment's ``reason``).
REASONS = {"self_draw": "self-draw", "half_shot": "半銃", "full_shot": "全銃",
           "bao_zimo": "包自摸", "rob_kong": "搶槓", "flower_rob": "花糊"}

# Where a family calls a pattern by its own name.
PATTERN_NAMES = {"yibin": {"对对胡": "大对子"}}
# The catalogs' context of a word the bot shows as players type it (a pattern's name, a
# report's word): zh-Hant has each in its own script, the other catalogs leave it as it is.
PATTERN = "said"
# Report words the guided dialogs show as they would be typed.
# The tiles' words as the Mini App writes them: the suits (m, p, s), then 1z-7z.
TILE_WORDS = ["万", "筒", "条", "东", "南", "西", "北", "白", "发", "中"]
SAID_WORDS = [*TILE_WORDS, "暗杠", "补杠", "直杠", "宝杠", "未听", "听", "花猪", "根", "杠",
              "无宝", "有宝", "宝吊", "飞宝", "连杠", "承包", "第四凑", "连抢", "鸟", "精", "正精",
              "副精", "小胡", "不设", "零时区", "区",
              "二五鸡", "五一", "一二蚊", "半辣上", "辣辣上", "半铳", "全铳"]  # TYPED_NAMES


def said(lang: str, word: str) -> str:
    """A report's word as the chat's script writes it (杠 in zh-Hans, 槓 in zh-Hant)."""
    return pt(lang, PATTERN, word)


# The extras a hand's fan counts beside its patterns, in an English chat (with the Chinese).
EXTRA_ENGLISH = {"根": "root", "杠": "kong", "杠上花": "kong draw", "杠上开花": "kong draw",
                 "杠上炮": "kong discard", "抢杠": "robbed kong", "抢杠胡": "robbed kong",
                 "自摸": "self-draw"}

# Presets whose tables speak English first: an English chat sees their patterns' English
# names (a Chinese chat the Chinese ones; both are read in reports).
ENGLISH_FIRST = ("singapore",)

# House-rule options: label, and words for their values.
OPTIONS = {
    "base": "Points per unit",
    "draw_dealer": "Dealer after a drawn hand",
    "blood_battle": "血战到底 (play on until all but one have won)",
    "players": "Players",
    "suits": "Suits in the wall",
    "fan_mode": "How fan add up",
    "fan_to_points": "Fan to points",
    "cap_fan": "Fan cap",
    "zimo": "Self-draw bonus",
    "kong_payments": "刮风下雨 (kongs pay when made)",
    "huazhu": "花猪",
    "huazhu_fan": "花猪's fan without a cap",
    "chajiao": "查叫",
    "tuishui": "退税",
    "hujiao_zhuanyi": "呼叫转移",
    "dianganghua": "杠上花 off a direct kong",
    "menqing_zhongzhang": "门清 and 断幺九",
    "yaojiu_jiangdui": "带幺九 and 将对",
    "tiandi_hu": "天胡 and 地胡",
    "longqidui_bonus": "龙七对 as a pattern of its own",
    "jingoudiao_duidui": "金钩钓 also counts as 对对胡",
    "tingyong": "听用 wildcards",
    "tingyong_scope": "听用 in",
    "dealer_premium": "Dealer premium",
    "small_discard": "Small win off a discard",
    "small_self_draw": "Small self-draw, from each",
    "big_discard": "Each big win off a discard",
    "big_self_draw": "Each big win self-drawn, from each",
    "penalty": "抢杠胡 and 海底炮: the one player pays",
    "penalty_dealer": "… when that player deals",
    "stack_big_wins": "Several big wins add up",
    "birds": "Birds (扎鸟)",
    "bird_mode": "A bird hit",
    "bird_origin": "Bird 1 lands on",
    "discard_wins": "Wins off a discard",
    "wild_tiles": "精 tiles",
    "qingyise_fan": "清一色 doublings",
    "feibao_loser_doubles": "A loser's 飞宝 doubles what they pay",
    "qianggang_mult": "抢杠: the robbed player pays V times",
    "chengbao": "承包 (three melds fed)",
    "kong_points_on_draw": "Kong points when nobody wins",
    "jing_bonus": "精 reward",
    "false_win": "诈胡 (a false win): points to each other player",
    "mixed_kong": "明暗杠 (a melded and a concealed kong): fan",
    "knitted_straight_waits": "边张, 坎张 and 单钓将 inside a 组合龙",
    # Options that hold one number per name (fan.清一色=4): the label shows how (BY_NAME).
    "fan": "A pattern's fan, e.g. fan.清一色=4",
    "extras": "An extra's fan, e.g. extras.根=1",
    "big_wins": "How many big wins a pattern counts as, e.g. big_wins.清一色=1",
    "values": "A hand's base value, e.g. values.七对=4",
    "kong_points": "A kong's points, by kind, e.g. kong_points.concealed=2",
    "starting_wins": "起手胡 played",
    # Singapore/Malaysia (the stake table shows under /rules' own heading).
    "shooter": "Shooter pays (the discarder pays for all)",
    "cap_tai": "Tai cap",
    "min_tai": "Tai to win, at least",
    "min_counts_bonus": "Bonus tiles count toward the minimum",
    "animals": "Animal tiles",
    "instant_payouts": "Kongs, bites and sets paid at once",
    # Hong Kong
    "stake": "Stake tier (二五雞, 五一, 一二蚊)",
    "curve": "Above 4番 (半辣上 or 辣辣上)",
    "payment": "A discard pays (半銃 or 全銃)",
    "min_fan": "Fewest 番 to win",
    "flowers_count_min": "Flower 番 count toward the minimum",
    "twelve_bao": "包自摸 on 十二張",
    "rob_kong_bao": "搶槓: the robbed player pays for all",
    "dealer_double": "The dealer's shares count twice",
}
BY_NAME = ("fan", "extras", "big_wins", "values", "kong_points")
VALUES = {
    ("draw_dealer", "stay"): "stays", ("draw_dealer", "next"): "passes on",
    ("fan_mode", "additive"): "every pattern adds to 平胡's 1",
    ("fan_mode", "largest_base"): "the largest pattern, +1 per extra",
    ("fan_to_points", "exponential"): "doubling (1, 2, 4, 8 …)",
    ("fan_to_points", "linear"): "one point per fan",
    ("zimo", "none"): "none", ("zimo", "double"): "+1 fan",
    ("zimo", "add_stake"): "one base more from each",
    ("chajiao", "min"): "at the smallest wait", ("chajiao", "max"): "at the largest wait",
    ("chajiao", "off"): "not played",
    ("hujiao_zhuanyi", "off"): "not played", ("hujiao_zhuanyi", "last_kong"): "the last kong",
    ("hujiao_zhuanyi", "all_kongs"): "every kong",
    ("dianganghua", "zimo"): "everyone pays", ("dianganghua", "discarder"): "the discarder pays",
    ("tingyong_scope", "same_suit"): "the 本金's suit",
    ("tingyong_scope", "all_suits"): "every suit",
    ("bird_mode", "double"): "doubles", ("bird_mode", "add"): "adds one base",
    ("bird_origin", "dealer"): "the dealer", ("bird_origin", "winner"): "the winner",
    ("wild_tiles", "flipped_and_next"): "the flipped tile and the next",
    ("wild_tiles", "next"): "the next tile",
    ("players", 3): "three (East, South, West)", ("players", 4): "four",
    ("suits", 2): "two (72 tiles)", ("suits", 3): "three (108 tiles)",
    ("false_win", 0): "as the family's rules say",
    ("stake", "erwuji"): "二五雞 ($0.25 a 0番 share)", ("stake", "wuyi"): "五一 (x2)",
    ("stake", "yierwen"): "一二蚊 (x4)",
    ("curve", "half_spicy"): "半辣上 (x1.5 and x2 by turns)",
    ("curve", "full_spicy"): "辣辣上 (x2 each 番)",
    ("payment", "half"): "半銃 (the discarder 2 shares, the others 1)",
    ("payment", "full"): "全銃 (the discarder all 4 shares)",
}
YES, NO, NO_CAP = "yes", "no", "none"
# The stake as /set takes it (/set 底注 0.5).
STAKE_WORDS = ("stake", "注", "底注")
# Option values typed in Chinese, as /set reads them.
VALUE_WORDS = {"是": "true", "开": "true", "否": "false", "关": "false", "不设": "none",
               "不封顶": "none", "无": "none",
               # Hong Kong's tiers, curves and payments by their names
               "二五雞": "erwuji", "二五鸡": "erwuji", "五一": "wuyi", "一二蚊": "yierwen",
               "半辣上": "half_spicy", "辣辣上": "full_spicy", "半銃": "half", "半铳": "half",
               "全銃": "full", "全铳": "full"}
# Option values a Chinese chat types by their names (Hong Kong's tier, curve, payment).
TYPED_NAMES = {"erwuji": "二五鸡", "wuyi": "五一", "yierwen": "一二蚊", "half_spicy": "半辣上",
               "full_spicy": "辣辣上", "half": "半铳", "full": "全铳"}
UNITS = {"cap_fan": "{n} fan", "huazhu_fan": "{n} fan", "cap_tai": "{n} tai",
         "min_tai": "{n} tai", "min_fan": "{n} fan"}


def colon(lang: str) -> str:
    return "：" if is_chinese(lang) else ": "


def paren(lang: str, text: str) -> str:
    """``text`` in brackets after what it explains: ``（x）`` in Chinese, `` (x)`` else."""
    return f"（{text}）" if is_chinese(lang) else f" ({text})"


def listing(lang: str, items: Any) -> str:
    """Items in a row: ``a、b`` in Chinese, ``a, b`` else."""
    return ("、" if is_chinese(lang) else ", ").join(items)


def then(lang: str, head: str) -> str:
    """``head`` followed by what comes after it (no space after a Chinese colon)."""
    return head if head.endswith(("：", "。")) else head + " "


PRESET_ALIASES = {
    "四川": "sichuan", "四川麻将": "sichuan", "成都": "chengdu", "成都血战": "chengdu",
    "成都血战到底": "chengdu", "血战到底": "chengdu", "血战": "chengdu", "宜宾": "yibin",
    "宜宾麻将": "yibin", "长沙": "changsha", "长沙麻将": "changsha", "上饶飞宝": "feibao",
    "飞宝": "feibao", "上饶": "feibao", "上饶飞宝麻将": "feibao",
    "三人两房": "liangfang", "两房": "liangfang", "三人三房": "sanfang", "三房": "sanfang",
    "新马": "singapore", "新加坡": "singapore", "sg": "singapore", "malaysia": "singapore",
    "新马麻将": "singapore", "记分": "free", "只记分": "free",
    "国标": "mcr", "国标麻将": "mcr", "竞赛规则": "mcr", "中国国标": "mcr",
    "chinese-official": "mcr", "chinese_official": "mcr", "chinese official": "mcr",
    "港式": "hongkong", "港式麻雀": "hongkong", "港式麻将": "hongkong", "廣東牌": "hongkong",
    "广东牌": "hongkong", "hk": "hongkong", "香港": "hongkong",
}


def preset_key(word: str, known: Any) -> str | None:
    """A preset named by its key (chengdu) or its Chinese name (成都血战)."""
    low = word.strip().lower()
    if low in known:
        return low
    return PRESET_ALIASES.get(simplified(word.strip())) or PRESET_ALIASES.get(low)


def _edits(a: str, b: str) -> int:
    """How many single-character edits (insert, delete, replace, or two neighbours swapped)
    turn ``a`` into ``b``."""
    rows = [list(range(len(b) + 1))]
    for i, x in enumerate(a, 1):
        row = [i]
        for j, y in enumerate(b, 1):
            row.append(min(rows[-1][j] + 1, row[j - 1] + 1, rows[-1][j - 1] + (x != y)))
            if i > 1 and j > 1 and x == b[j - 2] and a[i - 2] == y:
                row[j] = min(row[j], rows[-2][j - 2] + 1)
        rows.append(row)
    return rows[-1][-1]


def near_preset(word: str, known: Any) -> str | None:
    """The preset name (its key, or the Chinese alias) that ``word`` looks like a typo of:
    one edit away (two letters swapped count as one), for names of three characters or
    more (chengdou, sichaun, yibin2, 成都血站); None for a preset itself, or for a word
    further off (cheng, chang: a player's name)."""
    low = word.strip().lower()
    if preset_key(low, known) is not None:
        return None
    for name in (*known, *PRESET_ALIASES):
        if len(name) >= 3 and abs(len(name) - len(low)) <= 1 and _edits(low, name) == 1:
            return str(name)
    return None


def preset_list(lang: str, keys: Any) -> str:
    if not is_chinese(lang):
        return ", ".join(keys)
    return "、".join(preset_name(lang, k) for k in keys)


def option_list(lang: str, keys: list[str]) -> str:
    """Options a player may set, as they type them (key=), each with its label."""
    if not is_chinese(lang):
        return ", ".join(keys)
    # One a line: several labels hold brackets and commas of their own.
    return "".join(f"\n  {k}=　{t(lang, OPTIONS[k])}" if k in OPTIONS else f"\n  {k}="
                   for k in keys)


def option_key(word: str) -> str | None:
    """The option a player names by its key (``cap_fan``) or by its Chinese name as
    /rules shows it (``封顶``; ``血战到底`` without what its brackets explain; ``门清断幺九``
    for ``门清、断幺九``)."""
    low = word.strip().lower()
    if low in OPTIONS:
        return low
    if simplified(low) in OPTION_WORDS:
        return OPTION_WORDS[simplified(low)]
    for key, label in [*OPTIONS.items(), *((k, v) for (_, k), v in FAMILY_OPTIONS.items())]:
        for lang in ("zh-Hans", "zh-Hant"):  # 封顶, or 爆棚 as a zh-Hant /rules says it
            name = t(lang, label)
            if word.strip() in (name, _short(name), _short(name).replace("、", "")):
                return key
    return None


def _short(name: str) -> str:
    """A Chinese option label as one word to type: without what its brackets explain,
    without spaces (``鸟 1 落在`` -> ``鸟1落在``)."""
    return name.split("（")[0].split("，")[0].replace(" ", "")


def typed_value(lang: str, word: str) -> str:
    """An option's value as a player of ``lang`` types it (``true`` -> ``是``)."""
    if not is_chinese(lang):
        return word
    return said(lang, {"true": "是", "false": "否", "none": "不设", **TYPED_NAMES}.get(word, word))


def typed_name(lang: str, key: str, family: str = "") -> str:
    """The option as a player of ``lang`` types it after /set (``封顶``, ``cap_fan``), at a
    table of ``family`` when given (错和…, not 诈胡…, at a Chinese Official table)."""
    if not is_chinese(lang) or key not in OPTIONS or key in BY_NAME:
        return key
    name = _short(t(lang, FAMILY_OPTIONS.get((family, key), OPTIONS[key]))).replace("、", "")
    return name if name.isalnum() and option_key(name) == key else key


# An option a family reads its own way: its label in /rules there (its Chinese name, up to
# its brackets, is still what /set takes).
FAMILY_OPTIONS = {
    ("singapore", "stake"): "Stake table (10/20, 20/40, 50/1, 1/2, 3-6, 3-6-half, custom)",
    # The Chinese Official rules call a false win 错和, not 诈胡.
    ("mcr", "false_win"): "错和 (a false win): points to each other player",
}
# An option by the one word a player says for it (/set 错和 20, /set 诈胡=10).
OPTION_WORDS = {"诈胡": "false_win", "诈糊": "false_win", "诈和": "false_win",
                "错和": "false_win"}
# /rules' and /set's examples of a change, per family: a Hong Kong table's cap and stake
# tier, a Singapore table's tai cap and stake table (neither has a stake per point), the
# Chinese Official rules' own options and a points-only table's dealer after a draw
# (neither has a cap).
RULES_EXAMPLES = {
    "hongkong": ("/set cap_fan 13", "/set stake wuyi"),
    "singapore": ("/set cap_tai 6", "/set stake 10/20"),
    "mcr": ("/set mixed_kong 6", "/set stake 0.5"),
    "free": ("/set draw_dealer=next", "/set stake 0.5"),
    "changsha": ("/set birds 2", "/set stake 0.5"),  # big and small wins: no 番, no cap
}
# /rules' heading over a family's patterns, where they are not counted in 番 or 台.
PATTERNS_HEADING = {"changsha": "Big wins, and the starting wins:"}


def rules_hint(lang: str, family: str = "") -> str:
    """How to change an option, under /rules' options."""
    examples = RULES_EXAMPLES.get(family, ("/set cap_fan 5", "/set stake 0.5"))
    return t(lang, "To change one (admins): /set {option} {value}, e.g. {example}.",
             option=t(lang, "<option>"), value=t(lang, "<value>"),
             example=listing(lang, [t(lang, e) for e in examples]))


def set_examples(lang: str, family: str = "") -> str:
    """Two changes /set takes at a table of ``family``, as ``lang`` types them."""
    examples = RULES_EXAMPLES.get(family, ("/set cap_fan 5", "/set stake 0.5"))
    return " · ".join(t(lang, e) for e in examples)


def option_label(lang: str, key: str, family: str = "") -> str:
    """An option in /rules: its label, and in English the key that /set takes (in
    Chinese the label is what /set takes)."""
    label = t(lang, FAMILY_OPTIONS.get((family, key), OPTIONS[key]))
    return label if is_chinese(lang) else f"{label} ({key})"


def value_list(lang: str, key: str, valid: str) -> str:
    """An option's valid values, as typed (key=value), each with its meaning."""
    if not is_chinese(lang):
        return valid
    if valid.startswith("a whole number"):
        span = re.search(r"from (-?[0-9]+) to (-?[0-9]+)", valid)
        number = t(lang, "a whole number") if span is None else t(
            lang, "a whole number from {least} to {most}", least=span[1], most=span[2])
        return number + ("" if "none" not in valid else
                         t(lang, ", or {key}=none (none)", key=typed_name(lang, key)))
    out = []
    for v in valid.split(", "):
        value: Any = {"true": True, "false": False}.get(v, v)
        typed, meaning = typed_value(lang, v), option_value(lang, key, value)
        # A value whose meaning starts with its name (二五鸡（0 番单份 0.25 元）) says it once.
        out.append(f"{typed_name(lang, key)}=" + (meaning if meaning.startswith(typed)
                                                   else f"{typed}（{meaning}）"))
    return "、".join(out)


def preset_name(lang: str, preset: str) -> str:
    return t(lang, PRESET_NAMES[preset]) if preset in PRESET_NAMES else preset


def pattern_name(preset: str, name: str, lang: str = "") -> str:
    """A pattern as the preset's players call it (in ``lang``'s script when given: 對對糊 in
    zh-Hant); several names keep their spacing."""
    table = PATTERN_NAMES.get(preset, {})
    return " ".join(pt(lang, PATTERN, table.get(word, word)) if lang else table.get(word, word)
                    for word in name.split(" "))


def pattern_shown(lang: str, preset: str, name: str, typed: bool = False) -> str:
    """A pattern as this chat sees it: a Chinese chat as :func:`pattern_name` calls it; an
    English chat in English, with the Chinese beside (``one suit 清一色``), or in English
    alone at an English-first table (Singapore: ``all pongs``). Several names keep their
    spacing; a word that is no pattern (根, 杠) stays as it is typed. ``typed``: the
    Chinese as a report types it (a button: 对对胡, not Yibin's 大对子)."""
    own = "" if typed else preset
    if is_chinese(lang):
        return pattern_name(preset, name, lang)
    table = FAMILY_PATTERNS[get_preset(preset).family] if preset in presets() else None
    if table is None:
        return pattern_name(preset, name, lang)

    def one(word: str) -> str:
        if not table.knows(word):
            extra = EXTRA_ENGLISH.get(word)
            said_as = pattern_name(own, word, lang)
            return said_as if extra is None else f"{extra} {said_as}"
        english = table.resolve(word).english
        return english if preset in ENGLISH_FIRST else \
            f"{english} {pattern_name(own, table.resolve(word).name, lang)}"

    return one(name) if table.knows(name) else " ".join(one(w) for w in name.split(" "))


def option_value(lang: str, key: str, value: Any) -> str:
    if isinstance(value, bool):
        return t(lang, YES if value else NO)
    if value is None:
        return t(lang, NO_CAP)
    if (key, value) in VALUES:
        return t(lang, VALUES[key, value])
    if key in UNITS:
        return t(lang, UNITS[key], n=value)
    return str(value)


def dynamic_msgids() -> list[str]:
    """Every message id used through the tables above (for the catalog extractor)."""
    return [*SEAT_KEYS.values(), *ROUNDS.values(), *PRESET_NAMES.values(),
            *PRESET_SUMMARIES.values(), *HOW.values(), *HOW_SHORT.values(),
            *KONG_KINDS.values(), *KONG_DECLARED.values(), *FOULS.values(),
            *PAYMENTS.values(), *REASONS.values(),
            PAYMENT_OTHER, *OPTIONS.values(), *VALUES.values(), YES, NO, NO_CAP,
            *UNITS.values(), "a whole number", ", or {key}=none (none)",
            "a whole number from {least} to {most}", "<option>", "<value>",
            "/set cap_fan 5", "/set stake 0.5", *FAMILY_OPTIONS.values(),
            *PATTERNS_HEADING.values(),
            *(e for pair in RULES_EXAMPLES.values() for e in pair)]
