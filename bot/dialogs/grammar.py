"""The chat grammar: what players type after /hu, /kong, /draw, /qishou, /new and /set.

Parsing turns tokens into engine events (plain dicts the engine validates). A token that is
a player is resolved by the caller's ``players`` map (names, @usernames, seat letters, user
ids of text mentions). Mistakes raise :class:`GrammarError` with a code the catalogs
translate and an example of the right way to say it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.text.script import fold, simplified
from bot.text.words import STAKE_WORDS, VALUE_WORDS, option_key
from engine.errors import clip as clip  # re-exported: the handlers clip with it
from engine.errors import clip_params
from engine.families.singapore_stakes import DOUBLING, FIXED
from engine.models import MAX_FAN
from engine.patterns import FAMILY_PATTERNS
from engine.patterns.hongkong import MOST
from engine.patterns.singapore import COUNTED
from engine.tiles import TileError, parse_tokens
from storage.models import MAX_STAKE_CENTS


class GrammarError(Exception):
    def __init__(self, code: str, **params: str | int) -> None:
        super().__init__(code)
        self.code = code
        # Format fields of the refusal's text, spread as keywords into error_text().
        self.params: dict[str, Any] = clip_params(params)


@dataclass(frozen=True)
class Token:
    text: str
    user_id: int | None = None  # a text mention


# A resolver maps a token to a seat ("E".."N") or None when it is no player.
Resolver = Callable[[Token], str | None]

# Full-width letters, digits and signs from a Chinese keyboard (Ａ, ５, ＠, ．) and the
# ideographic space, as the ASCII they stand for: every typed line is read through this.
HALF_WIDTH = {**{c: c - 0xFEE0 for c in range(0xFF01, 0xFF5F)}, 0x3000: 0x20}


def half_width(text: str) -> str:
    """``＠ｂｏｂ 根１`` -> ``@bob 根1``."""
    return text.translate(HALF_WIDTH)


SELF_DRAW = {"自摸", "zimo", "self", "selfdraw", "self-draw", "tsumo", "摸", "self draw"}
DISCARD = {"from", "off", "点炮", "放炮", "炮", "dianpao", "点", "接炮", "jiepao",
           "出铳", "铳", "shooter"}  # 出銃: Hong Kong; shooter: Singapore
# Said after the player whose discard it was (``alice 点炮``), as well as before.
DISCARD_AFTER = {"点炮", "放炮", "dianpao", "fangpao",
                 # Hong Kong: 出銃 / 放銃 (Traditional and Simplified), Cantonese
                 "出銃", "放銃", "出铳", "放铳", "出冲", "出沖", "cheotsung", "fongcung"}
DISCARD |= DISCARD_AFTER
# Seats by name: 东/East deals first (names at the table come first, then these).
SEAT_WORDS = {
    "东": "E", "东家": "E", "東": "E", "east": "E", "南": "S", "南家": "S", "south": "S",
    "西": "W", "西家": "W", "west": "W", "北": "N", "北家": "N", "north": "N",
}
ROB = {"rob", "robs", "抢杠", "抢", "qianggang", "抢杠胡", "搶槓", "搶杠", "抢槓", "搶",
       "coenggong"}
KONG_DRAW = {"杠上花", "杠上开花", "gangshanghua", "gsh", "kongdraw", "kong-draw", "槓上開花",
             "槓上开花", "杠上開花", "槓上花", "gongsoenghoifaa"}
# Hong Kong: 食糊 says a win (the report says it already), the prevailing wind (圈風 南, or
# 南圈), the bonus tiles held (花 1f3g, or 1f3g alone) and how many 番 are flower 番 (花1).
WIN_WORDS = {"食糊", "食胡", "食", "sikwu"}
ROUND_WIND = {"圈風", "圈风"}  # round, prevailing: PREVAILING below
_ROUND = re.compile(r"^([東东南西北])(?:風|风)?圈$")
FLOWER_WORDS = {"花", "花牌", "flowers", "bonus"}
_BONUS = re.compile(r"^(?:[1-4]+[fg])+$", re.I)
KONG_DISCARD = {"杠上炮", "gangshangpao", "gsp", "kongdiscard", "kong-discard"}
WILD = {"有宝", "wild", "有精", "带宝", "youbao", "with bao", "with wild", "with wildcard",
        "with wildcards", "with jing"}
# (Not "no wild" or "no wildcard": those name Yibin's pattern 无听用.)
NO_WILD = {"无宝", "nowild", "no-wild", "无精", "wubao", "nobao", "no-bao", "没宝", "不带宝",
           "no bao", "without bao", "without wildcards", "no jing"}
# A pattern named off a discard whose next word is the discarder, like 杠上炮 <who>.
DISCARD_PATTERNS = {"海底炮", "七抢一"}  # 七抢一 <who>: the one whose eighth tile it was
# Patterns that are a self-draw by what they are: the way of winning need not be said.
SELF_DRAW_PATTERNS = {"海底捞月", "八仙过海"}
# Singapore's bonus tiles, as a win's ``bonus`` (the engine reads each): flowers, seasons,
# animals; none for no bonus tile at all.
BONUS_TILES = {*(f"f{n}" for n in "1234"), *(f"s{n}" for n in "1234"), *"梅兰菊竹春夏秋冬",
               "cat", "rat", "rooster", "centipede", "猫", "鼠", "老鼠", "鸡", "公鸡", "蜈蚣"}
NO_BONUS = {"none", "无", "无花", "nobonus", "no-bonus"}
# The prevailing (round) wind, said before it: prevailing S, 圈 南.
PREVAILING = {"prevailing", "round", "圈", "风圈"}
TAI_WORDS = {"台", "tai"}
# Points at a points-only table (free): a bare number is the win's amount.
MAX_AMOUNT = 1_000_000
# Words that go together (``no bao``, ``self draw``): the longest first.
PHRASES = {w for w in SELF_DRAW | WILD | NO_WILD if " " in w}
_PHRASE_WORDS = max(len(w.split()) for w in PHRASES)
FEEDER = {"承包", "feeder", "fed", "包", "bao"}
FOURTH = {"第四凑", "fourth", "第四"}  # 承包: who fed the fourth meld
INDICATOR = {"本金", "翻", "精牌", "indicator", "宝牌", "flip"}
KONG_KINDS = {
    "暗杠": "concealed", "an": "concealed", "concealed": "concealed", "自杠": "concealed",
    "补杠": "added", "bu": "added", "added": "added", "碰杠": "added", "加杠": "added",
    "巴杠": "added", "弯杠": "added", "面下杠": "added", "bagang": "added", "wangang": "added",
    "补": "added", "点杠": "direct", "diangang": "direct",
    "直杠": "direct", "明杠": "direct", "direct": "direct", "ming": "direct",
    "exposed": "direct",
    "宝杠": "wild", "wild": "wild",
}
HUAZHU = {"花猪", "huazhu", "pig", "三门"}
READY = {"听", "听牌", "ready", "ting", "叫"}
NOT_READY = {"未听", "没听", "notready", "not-ready", "无叫", "noting"}
_NUM = r"([0-9]+)"
# The most each count may be: what the game allows.
MAX_COUNT = {"gen": 4, "kongs": 4, "fan": MAX_FAN, "feibao": 8, "kong_chain": 4,
             "tai": MAX_FAN, "bonus_tai": MAX_FAN, "flower_fan": 8}
MAX_BIRDS = 6  # birds in one report (a preset draws at most 6)
BIRD_RANKS = (1, 9)  # a bird is a tile's rank
MAX_ROBBED = 4  # kongs robbed at once (连杠连抢)
MAX_JING = 4  # 正精 or 副精 one player holds
# Words in one report: three winners with every pattern, their tiles and melds fit well.
MAX_WORDS = 100
_COUNTS = [
    ("tai", re.compile(rf"^(?:台|tai){_NUM}$|^{_NUM}(?:台|tai)$", re.I)),
    ("bonus_tai", re.compile(rf"^(?:bonus_tai|花台)[=:]?{_NUM}$", re.I)),
    ("gen", re.compile(rf"^(?:根|gen){_NUM}$|^{_NUM}(?:根|gen)$", re.I)),
    ("kongs", re.compile(rf"^(?:杠|kong|kongs){_NUM}$|^{_NUM}(?:杠|kongs?)$", re.I)),
    ("fan", re.compile(rf"^(?:番|fan){_NUM}$|^{_NUM}(?:番|fan)$", re.I)),
    ("feibao", re.compile(rf"^(?:飞宝|feibao){_NUM}$|^{_NUM}(?:飞宝|feibao)$", re.I)),
    ("kong_chain", re.compile(rf"^(?:连杠|chain){_NUM}$", re.I)),
    ("flower_fan", re.compile(rf"^(?:花番?|flower){_NUM}$|^{_NUM}(?:花番?|flower)$", re.I)),
]
# Any number is read as a bird (鸟999), to be refused as out of range, not as a pattern.
_BIRD = re.compile(r"^(?:鸟|bird|birds|扎鸟)([0-9]+(?:[,，、/][0-9]+)*)$", re.I)
_DIGITS = re.compile(r"[0-9]+")
_NEGATIVE = re.compile(r"-[0-9]+")
# An option's value said in a report (shooter false), as /set takes it.
_OPTION_VALUES = {"true": "true", "false": "false", "yes": "true", "no": "false",
                  "on": "true", "off": "false", "是": "true", "否": "false", "开": "true",
                  "关": "false"}
_JING = re.compile(r"^(?:精|jing)[:=]?(.+)$", re.I)
_LOSER_FEIBAO = re.compile(r"^(?:飞宝|feibao)[:=](.+)$", re.I)  # 飞宝=alice:1,bob:2
_ROBBED = re.compile(r"^(?:连抢|robbed)([0-9]+)$", re.I)  # kongs robbed at once (连杠连抢)
_SPLIT = re.compile(r"\s*[,，;；]\s*")
# A count said as a word alone (根 1, gen 9): the field it sets.
COUNT_WORDS = {"根": "gen", "gen": "gen", "番": "fan", "fan": "fan", "飞宝": "feibao",
               "feibao": "feibao", "杠": "kongs", "kong": "kongs", "kongs": "kongs",
               "台": "tai", "tai": "tai"}
# Each count's own word, as a refusal names it (gen 9 -> 根 9).
COUNT_NAMES = {"gen": "根", "fan": "番", "feibao": "飞宝", "kongs": "杠", "tai": "台",
               "bonus_tai": "bonus_tai"}
JING_WORDS = {"精", "jing"}
# A count with a sign or a fraction (根-1, 番2.5): refused as that count, not as a pattern.
_ODD_COUNT = re.compile(rf"^({'|'.join(sorted(COUNT_WORDS, key=len, reverse=True))})"
                        r"(?:[+-][0-9.]+|[0-9]*\.[0-9]+)$", re.I)


# A count of 台 or 番 said with a Chinese numeral (三台, 两番, 十二番): read as digits.
_CN_COUNT = re.compile(r"^([一二两三四五六七八九十]{1,3})([台番])$")
_CN_DIGITS = {c: i for i, c in enumerate("零一二三四五六七八九")} | {"两": 2}


def _chinese_number(numeral: str) -> int | None:
    """一 … 九十九 (十二, 二十, 两): the number, or None for what is not one."""
    if "十" not in numeral:
        return _CN_DIGITS.get(numeral) if len(numeral) == 1 else None
    tens, _, ones = numeral.partition("十")
    if "十" in ones or len(tens) > 1 or len(ones) > 1:
        return None
    high = _CN_DIGITS.get(tens, 0) if tens else 1
    low = _CN_DIGITS.get(ones, 0) if ones else 0
    return None if (tens and tens not in _CN_DIGITS) or (ones and ones not in _CN_DIGITS) \
        else high * 10 + low


def _count(text: str) -> tuple[str, int] | None:
    m = _CN_COUNT.match(text)
    if m and (n := _chinese_number(m.group(1))) is not None:
        text = f"{n}{m.group(2)}"
    if (odd := _ODD_COUNT.match(text)) is not None:
        name = COUNT_WORDS[odd.group(1).lower()]
        raise GrammarError("count_usage", word=COUNT_NAMES[name], least=1 if name == "fan"
                           else 0, most=MAX_COUNT[name])
    for name, rx in _COUNTS:
        m = rx.match(text)
        if m:
            return name, bounded(text, next(g for g in m.groups() if g), MAX_COUNT[name],
                                 1 if name == "fan" else 0)
    return None


def bounded(token: str, digits: str, most: int, least: int = 0) -> int:
    """``digits`` (ASCII) as a number from ``least`` to ``most``, or a refusal naming it."""
    value = int(digits) if len(digits) <= 9 else most + 1
    if not least <= value <= most:
        raise GrammarError("number_out_of_range", token=token, least=least, most=most)
    return value


def number(text: str, most: int, least: int = 0) -> int | None:
    """A plain number the player typed (``3``, ``#3``), bounded; None when it is none."""
    digits = text.lstrip("#")
    if _DIGITS.fullmatch(digits) is None:
        return None
    return bounded(text, digits, most, least)


def is_tiles(text: str) -> bool:
    """A token made only of tiles, with at least two of them or a digit (not 东 alone)."""
    try:
        tiles = parse_tokens(text)
    except TileError:
        return False
    return bool(tiles) and (len(tiles) > 1 or any(c.isdigit() for c in text))


_THOUSANDS = re.compile(r"[0-9]{1,3}(?:,[0-9]{3})+")


def split_segments(tokens: list[Token]) -> list[list[Token]]:
    """Split on commas/semicolons (several winners on one discard). A line of more than
    :data:`MAX_WORDS` words is refused as that, before anything reads it."""
    if len(tokens) > MAX_WORDS:
        raise GrammarError("too_many_words", most=MAX_WORDS)
    segments: list[list[Token]] = [[]]
    for tok in tokens:
        if _THOUSANDS.fullmatch(tok.text):  # 1,000: a number, not two winners
            segments[-1].append(Token(tok.text.replace(",", ""), tok.user_id))
            continue
        keep = tok.user_id is not None or _JING.match(tok.text) is not None or \
            _LOSER_FEIBAO.match(tok.text) is not None or _BIRD.match(tok.text) is not None
        parts = [tok.text] if keep else _SPLIT.split(tok.text)
        for i, part in enumerate(parts):
            if i:
                segments.append([])
            if part:
                segments[-1].append(Token(part, tok.user_id))
    return [s for s in segments if s]


@dataclass
class WinDraft:
    how: str | None = None
    from_seat: str | None = None
    winners: list[dict[str, Any]] = field(default_factory=list)
    birds: list[int] = field(default_factory=list)
    indicator: str | None = None
    jing: dict[str, list[int]] = field(default_factory=dict)
    loser_feibao: dict[str, int] = field(default_factory=dict)
    robbed_kongs: int | None = None
    prevailing: str | None = None  # Singapore
    wind: str | None = None  # Hong Kong


def _wind(tok: Token) -> str | None:
    """A wind said as a letter (E), a word (east) or a character (东)."""
    text = tok.text.strip()
    return text.upper() if text.upper() in ("E", "S", "W", "N") and len(text) == 1 \
        else SEAT_WORDS.get(text.lower())


def parse_win(tokens: list[Token], resolve: Resolver) -> tuple[dict[str, Any], str | None]:
    """``/hu`` arguments -> (a win event, the indicator tile if one was named)."""
    tokens = read_words(tokens, resolve)
    d = WinDraft()
    self_draw = False
    said_self_draw = False
    segments = split_segments(tokens)
    if not segments:
        raise GrammarError("hu_empty")
    discard_word: str | None = None  # 点炮 or 接炮 said, the player maybe elsewhere

    def discarder(seat: str) -> None:
        d.from_seat = seat
        if d.how not in ("kong_replacement", "after_kong_discard", "self_draw", "rob_kong"):
            d.how = "discard"

    for seg in segments:
        # 点炮 alice (alone, or before a winner): the discarder said first.
        if seg[0].text.lower() in DISCARD and len(seg) > 1 \
                and (first := resolve(seg[1])) is not None:
            discarder(first)
            seg = seg[2:]
            if not seg:
                continue
        # alice 点炮, as its own part: /hu bob 七对，alice 点炮
        if len(segments) > 1 and len(seg) == 2 and seg[1].text.lower() in DISCARD_AFTER \
                and (first := resolve(seg[0])) is not None:
            discarder(first)
            continue
        winner = resolve(seg[0])
        if winner is None:
            if not _a_name(seg[0]):  # /hu 自摸: a word of the report, not a player
                raise GrammarError("hu_winner_first", token=seg[0].text)
            raise GrammarError("hu_no_winner", token=seg[0].text)
        hand: dict[str, Any] = {"seat": winner, "patterns": []}
        tiles: list[str] = []
        melds: list[str] = []
        i = 1
        while i < len(seg):
            tok = seg[i]
            low, used = phrase(seg, i)
            i += used - 1
            nxt = seg[i + 1] if i + 1 < len(seg) else None
            after = seg[i + 2] if i + 2 < len(seg) else None
            if (seat := resolve(tok)) is not None and nxt is not None \
                    and nxt.text.lower() in DISCARD_AFTER \
                    and (after is None or resolve(after) is None):
                discarder(seat)  # bob 七对 alice 点炮
                i += 1
            elif _DIGITS.fullmatch(tok.text) and nxt is not None \
                    and nxt.text.lower() in COUNT_WORDS:  # 3 tai, 3 台, 5 番, 8 fan
                name = COUNT_WORDS[nxt.text.lower()]
                hand[name] = bounded(f"{tok.text} {nxt.text}", tok.text, MAX_COUNT[name],
                                     1 if name == "fan" else 0)
                i += 1
            elif _DIGITS.fullmatch(tok.text.removeprefix("+")):  # an amount: 8 (or +8)
                if "amount" in hand:
                    raise GrammarError("pattern_repeated", word=tok.text)
                hand["amount"] = bounded(tok.text, tok.text.removeprefix("+"), MAX_AMOUNT, 1)
            elif _NEGATIVE.fullmatch(tok.text):  # -5: what the winner wins has no minus
                raise GrammarError("amount_signed", token=tok.text)
            elif low in BONUS_TILES or low in NO_BONUS:
                bonus = hand.get("bonus")
                hand["bonus"] = f"{bonus} {low}" if bonus else (
                    "none" if low in NO_BONUS else low)
            elif low in PREVAILING and nxt is not None and _wind(nxt) is not None:
                d.prevailing = _wind(nxt)
                i += 1
            elif low in SELF_DRAW:
                d.how = "self_draw"
                self_draw = True
            elif low in WIN_WORDS:
                pass  # 食糊: a win, as /hu says
            elif (low in ROUND_WIND and nxt is not None and _wind_text(nxt.text) is not None) \
                    or _ROUND.match(tok.text):
                m = _ROUND.match(tok.text)
                d.wind = _wind_text(m.group(1) if m else nxt.text if nxt else "")
                i += 0 if m else 1
            elif low in FLOWER_WORDS:
                if nxt is None:
                    raise GrammarError("needs_flowers", word=tok.text)
                if _DIGITS.fullmatch(nxt.text):  # 花 1: how many of the 番 are flowers
                    hand["flower_fan"] = bounded(f"{tok.text} {nxt.text}", nxt.text,
                                                 MAX_COUNT["flower_fan"])
                else:
                    hand["flowers"] = nxt.text
                i += 1
            elif _BONUS.match(tok.text):
                hand["flowers"] = " ".join(x for x in (hand.get("flowers"), tok.text) if x)
            elif low == "shooter" and nxt is not None and resolve(nxt) is None \
                    and _OPTION_VALUES.get(nxt.text.lower()) is not None:
                # shooter false: Singapore's option, not a word of one hand
                raise GrammarError("option_in_report", said=f"{tok.text} {nxt.text}",
                                   word=low, value=_OPTION_VALUES[nxt.text.lower()])
            elif low in DISCARD:
                # "杠上花 from X" is 点杠花; "杠上炮 from X" stays 杠上炮; "自摸 from X" is
                # left for the settler to refuse.
                if d.how not in ("kong_replacement", "after_kong_discard", "self_draw"):
                    d.how = "discard"
                if nxt is not None and resolve(nxt) is not None:
                    d.from_seat = resolve(nxt)
                    i += 1
                elif nxt is not None and _a_name(nxt):
                    raise GrammarError("hu_not_seated", token=nxt.text)
                else:  # bob 接炮 七对，alice 点炮: the player may come elsewhere
                    discard_word = discard_word or tok.text
            elif low in ROB:
                d.how, d.from_seat = "rob_kong", _player_after(tok, nxt, resolve, "rob")
                i += 1
            elif low in KONG_DRAW:
                d.how = "kong_replacement"
            elif low in KONG_DISCARD:
                d.how = "after_kong_discard"
                d.from_seat = _player_after(tok, nxt, resolve, "discard")
                i += 1
            elif low in WILD:
                hand["wild_used"] = True
            elif low in NO_WILD:
                hand["wild_used"] = False
            elif low in FEEDER:
                hand["feeder"] = _player_after(tok, nxt, resolve, "feeder")
                i += 1
            elif low in FOURTH:
                hand["fourth_feeder"] = _player_after(tok, nxt, resolve, "feeder")
                i += 1
            elif low in INDICATOR:
                if nxt is None or not is_tiles(nxt.text):
                    raise GrammarError("needs_tile", word=tok.text)
                if re.search(r"(?<![0-9])0[mpsz]", nxt.text.lower()):
                    raise GrammarError("no_tile_zero", token=nxt.text)
                d.indicator = nxt.text
                i += 1
            elif (c := _count(tok.text)) is not None:
                hand[c[0]] = c[1]
            elif low in COUNT_WORDS:  # 根 1: the number as its own word
                name = COUNT_WORDS[low]
                least = 1 if name == "fan" else 0
                if nxt is None or _DIGITS.fullmatch(nxt.text) is None:
                    raise GrammarError("count_usage", word=COUNT_NAMES[name], least=least,
                                       most=MAX_COUNT[name])
                hand[name] = bounded(f"{COUNT_NAMES[name]} {nxt.text}", nxt.text,
                                     MAX_COUNT[name], least)
                i += 1
            elif low in JING_WORDS:  # 精 alice:1/0, written apart
                raise GrammarError("jing_joined", token=tok.text,
                                   example=f"{tok.text}={nxt.text}" if nxt is not None
                                   else f"{tok.text}=alice:1/0")
            elif (m := _BIRD.match(tok.text) or _BIRD.match(
                    tok.text + (nxt.text if nxt is not None else ""))) is not None:
                said = m.group(0)  # 鸟3, or 鸟 3 said apart as 根 1 may be
                i += 0 if said == tok.text else 1
                d.birds += [bounded(said, x, BIRD_RANKS[1], BIRD_RANKS[0])
                            for x in re.split(r"[,，、/]", m.group(1))]
                if len(d.birds) > MAX_BIRDS:
                    raise GrammarError("too_many_birds_said", token=tok.text, most=MAX_BIRDS)
            elif (m := _LOSER_FEIBAO.match(tok.text)) is not None:
                d.loser_feibao.update(_parse_loser_feibao(tok.text, m.group(1), resolve))
            elif (m := _ROBBED.match(tok.text)) is not None:
                d.robbed_kongs = bounded(tok.text, m.group(1), MAX_ROBBED, 1)
            elif (m := _JING.match(tok.text)) is not None:
                d.jing.update(_parse_jing(m.group(1), resolve))
            elif tok.text.startswith("[") and tok.text.endswith("]"):
                melds.append(tok.text[1:-1])
            elif is_tiles(tok.text):
                tiles.append(tok.text)
            elif resolve(tok) is not None and tok.user_id is not None:
                raise GrammarError("unexpected_player", token=tok.text)
            elif (split := wild_suffix(tok.text)) is not None:  # 七对无宝
                _add_pattern(hand["patterns"], split[0])
                hand["wild_used"] = split[1]
            else:
                name, used = pattern_name(seg, i)
                _add_pattern(hand["patterns"], name)
                if canonical(name) & DISCARD_PATTERNS and nxt is not None \
                        and resolve(nxt) is None and d.from_seat is None and _a_name(nxt) \
                        and not any(x.text.lower() in DISCARD | ROB | KONG_DISCARD
                                    for x in seg[i + used:]):
                    # 海底炮 <who> names someone not at the table (nor is the discarder
                    # named otherwise).
                    raise GrammarError("hu_not_seated", token=nxt.text)
                if canonical(name) & DISCARD_PATTERNS and nxt is not None \
                        and resolve(nxt) is not None and not _known(nxt.text):
                    # 海底炮 <who>, like 杠上炮 <who>: won off that player's discard.
                    if d.how not in ("kong_replacement", "after_kong_discard", "self_draw"):
                        d.how = "discard"
                    d.from_seat = resolve(nxt)
                    used += 1
                elif canonical(name) & SELF_DRAW_PATTERNS:
                    said_self_draw = True
                i += used - 1
            i += 1
        if tiles:
            hand["tiles"] = " ".join(tiles)
        if melds:
            hand["melds"] = melds
        d.winners.append(hand)
    if self_draw and d.how == "discard":
        d.how = "self_draw"
    if not d.winners:  # only who discarded: /hu 点炮 alice
        raise GrammarError("hu_winner_first", token=tokens[0].text)
    if d.how == "discard" and d.from_seat is None and discard_word is not None:
        raise GrammarError("needs_player", word=discard_word, kind="discard")
    if d.how is None and said_self_draw:
        d.how = "self_draw"  # 海底捞月 is a self-draw on the wall's last tile
    if d.how is None:
        raise GrammarError("hu_no_how")
    event: dict[str, Any] = {"type": "win", "how": d.how, "winners": d.winners}
    if d.from_seat is not None:
        event["from_seat"] = d.from_seat
    if d.birds:
        event["birds"] = d.birds
    if d.jing:
        event["jing"] = d.jing
    if d.loser_feibao:
        event["loser_feibao"] = d.loser_feibao
    if d.robbed_kongs is not None:
        event["robbed_kongs"] = d.robbed_kongs
    if d.prevailing is not None:
        event["prevailing"] = d.prevailing
    if d.wind is not None:
        event["wind"] = d.wind
    return event, d.indicator


def _wind_text(text: str) -> str | None:
    """A wind as a seat letter (南, 南家, south, S), or None."""
    low = text.lower()
    return SEAT_WORDS.get(low) or (text.upper() if low in ("e", "s", "w", "n") else None)


def for_family(event: dict[str, Any], family: str) -> dict[str, Any]:
    """A report as the table's family reads it: 包 X is Jiangxi's 承包 (fed three melds)
    but Hong Kong's 包自摸 (fed the fourth exposed meld, 十二張); the bonus tiles after
    ``bonus`` or ``flowers`` are Hong Kong's 花 but Singapore's ``bonus``."""
    if family == "hongkong" and event.get("type") == "win":
        if "prevailing" in event:  # prevailing S, 圈 南: Hong Kong's 圈風
            event["wind"] = event.pop("prevailing")
        for hand in event["winners"]:
            if "feeder" in hand:
                hand["fourth_feeder"] = hand.pop("feeder")
            _hong_kong_bonus(hand)
    if family == "singapore" and event.get("type") == "win":
        for hand in event["winners"]:  # bonus none, flowers f1 s2: Singapore's bonus tiles
            if "flowers" in hand:
                said = str(hand.pop("flowers"))
                said = "none" if said.lower() in NO_BONUS else said
                hand["bonus"] = " ".join(x for x in (said, hand.get("bonus")) if x)
    return event


# Bonus tiles by their characters, which Hong Kong reads as its own 花 and 季.
_HK_BONUS = set("梅兰菊竹春夏秋冬")


def _hong_kong_bonus(hand: dict[str, Any]) -> None:
    """梅, 兰, 无 or 无花 at a Hong Kong table, read as Singapore's bonus tiles by the
    grammar: the bonus tiles after the tiles (花 梅 兰, or 无 for none), or 无花, the
    pattern, in a report by names. Singapore's own words (f1, cat) stay to be refused."""
    words = str(hand.get("bonus", "")).split()
    if not words or not all(w in _HK_BONUS or w in NO_BONUS for w in words):
        return
    del hand["bonus"]
    chars = "".join(w for w in words if w in _HK_BONUS)
    if chars or "tiles" in hand or "melds" in hand or "flowers" in hand:
        hand["flowers"] = " ".join(x for x in (hand.get("flowers"), chars or "無") if x)
    else:
        _add_pattern(hand["patterns"], "无花")


def phrase(seg: list[Token], i: int) -> tuple[str, int]:
    """The lower-cased word at ``seg[i]``, or the phrase of several words starting there
    (``no bao``), and how many words it takes."""
    for n in range(min(_PHRASE_WORDS, len(seg) - i), 1, -1):
        if any(tok.user_id is not None for tok in seg[i:i + n]):
            continue
        words = " ".join(tok.text.lower() for tok in seg[i:i + n])
        if words in PHRASES:
            return words, n
    return seg[i].text.lower(), 1


def _said(seg: list[Token], i: int) -> tuple[str | None, str, int]:
    """The report field the words at ``seg[i]`` set (of those one family alone counts),
    the words as typed, and how many there are."""
    low, used = phrase(seg, i)
    low = simplified(low)  # 無寶, 雞: the words as the sets hold them
    text = " ".join(tok.text for tok in seg[i:i + used])
    if low in WILD or low in NO_WILD or wild_suffix(seg[i].text) is not None:
        return "wild_used", text, used
    if low in FEEDER or low in FOURTH:
        return "feeder", text, used
    for name, rx in _COUNTS:
        if rx.match(seg[i].text):
            return name, text, 1
    if _DIGITS.fullmatch(seg[i].text) and i + 1 < len(seg) \
            and seg[i + 1].text.lower() in TAI_WORDS:
        return "tai", f"{seg[i].text} {seg[i + 1].text}", 2
    if _DIGITS.fullmatch(seg[i].text):
        return "amount", text, 1
    if low in BONUS_TILES or low in NO_BONUS:
        return "bonus", text, 1
    for name, rx in (("birds", _BIRD), ("jing", _JING), ("loser_feibao", _LOSER_FEIBAO)):
        if rx.match(seg[i].text):
            return name, text, 1
    return None, text, 1


def words_for(tokens: list[Token], field: str) -> list[str]:
    """The words of a report that set ``field`` (``wild_used``: 无宝, wubao, 七对有宝), each
    once, to name them when the table's rules do not count that field."""
    out: list[str] = []
    for seg in split_segments(tokens):
        i = 0
        while i < len(seg):
            said, text, used = _said(seg, i)
            if said == field and text not in out:
                out.append(text)
            i += used
    return out


def wild_suffix(text: str) -> tuple[str, bool] | None:
    """``七对无宝`` -> (``七对``, False): a pattern with 有宝/无宝 written onto it."""
    for words, used in ((NO_WILD, False), (WILD, True)):
        for word in words:
            if " " not in word and text.endswith(word) and len(text) > len(word) \
                    and _known(text[: -len(word)]):
                return text[: -len(word)], used
    return None


def _player_after(word: Token, nxt: Token | None, resolve: Resolver, kind: str) -> str:
    seat = resolve(nxt) if nxt is not None else None
    if seat is None:
        if nxt is not None and _a_name(nxt):
            raise GrammarError("hu_not_seated", token=nxt.text)
        raise GrammarError("needs_player", word=word.text, kind=kind)
    return seat


# The words a report reads as what they say, not as someone's name.
_WORDS = SELF_DRAW | DISCARD | ROB | KONG_DRAW | KONG_DISCARD | WILD | NO_WILD | FEEDER \
    | FOURTH | INDICATOR | set(COUNT_WORDS) | JING_WORDS | BONUS_TILES | NO_BONUS | PREVAILING \
    | WIN_WORDS | ROUND_WIND | FLOWER_WORDS
_FORMS = [*(rx for _, rx in _COUNTS), _BIRD, _LOSER_FEIBAO, _ROBBED, _JING, _ROUND, _BONUS]


def _a_name(tok: Token) -> bool:
    """Whether a word that is no player at the table names someone (a player who left, or
    was never seated), rather than being a word of the report or missing."""
    text = tok.text
    if tok.user_id is not None or text.startswith("@"):
        return True
    return not (text.lower() in _WORDS or _known(text) or is_tiles(text) or text.isdigit()
                or any(rx.match(text) for rx in _FORMS)
                or (text.startswith("[") and text.endswith("]"))
                or wild_suffix(text) is not None)


def _parse_loser_feibao(word: str, text: str, resolve: Resolver) -> dict[str, int]:
    """``alice:1,bob:2`` -> seat -> wildcards that loser discarded (飞宝)."""
    out: dict[str, int] = {}
    for part in re.split(r"[,，]", text):
        if not part:
            continue
        m = re.match(r"^(.+?)[:=]([0-9]+)$", part)
        seat = resolve(Token(m.group(1))) if m else None
        if m is not None and seat is None and _a_name(Token(m.group(1))):
            raise GrammarError("hu_not_seated", token=m.group(1))
        if m is None or seat is None:
            raise GrammarError("needs_player", word=word, kind="feibao")
        out[seat] = bounded(part, m.group(2), MAX_COUNT["feibao"])
    return out


def _parse_jing(text: str, resolve: Resolver) -> dict[str, list[int]]:
    """``alice:1/1,bob:0/2`` -> seat -> [正精, 副精]."""
    out: dict[str, list[int]] = {}
    for part in re.split(r"[,，]", text):
        if not part:
            continue
        m = re.match(r"^(.+?)[:=]([0-9]+)/([0-9]+)$", part)
        seat = resolve(Token(m.group(1))) if m else None
        if m is not None and seat is None and _a_name(Token(m.group(1))):
            raise GrammarError("hu_not_seated", token=m.group(1))
        if m is None or seat is None:
            raise GrammarError("bad_jing", token=part)
        out[seat] = [bounded(part, m.group(2), MAX_JING), bounded(part, m.group(3), MAX_JING)]
    return out


def parse_kong(tokens: list[Token], resolve: Resolver) -> dict[str, Any]:
    tokens = read_words(tokens, resolve)
    if not tokens or resolve(tokens[0]) is None:
        raise GrammarError("kong_usage")
    event: dict[str, Any] = {"type": "kong", "seat": resolve(tokens[0])}
    rest = tokens[1:]
    i = 0
    while i < len(rest):
        low = rest[i].text.lower()
        if low in KONG_KINDS:
            event["kind"] = KONG_KINDS[low]
        elif low in DISCARD and i + 1 < len(rest) and resolve(rest[i + 1]) is not None:
            event["from_seat"] = resolve(rest[i + 1])
            i += 1
        elif resolve(rest[i]) is not None and "from_seat" not in event:
            event["from_seat"] = resolve(rest[i])
        else:
            raise GrammarError("kong_usage")
        i += 1
    if "kind" not in event:
        raise GrammarError("kong_usage")
    return event


def parse_draw(tokens: list[Token], resolve: Resolver) -> dict[str, Any]:
    """``/draw alice 花猪, bob 听 3, carol 听 123m456m...`` -> a wall-end event."""
    players: dict[str, dict[str, Any]] = {}
    for seg in split_segments(read_words(tokens, resolve)):
        seat = resolve(seg[0])
        if seat is None:
            raise GrammarError("draw_usage", token=seg[0].text)
        if seat in players:
            raise GrammarError("draw_twice", token=seg[0].text)
        info: dict[str, Any] = {}
        tiles = []
        melds = []
        for tok in seg[1:]:
            low = tok.text.lower()
            if low in HUAZHU:
                info["huazhu"] = True
            elif low in READY or low in NOT_READY:
                ready = low in READY
                if info.get("ready", ready) != ready:
                    raise GrammarError("draw_contradicts", token=seg[0].text)
                info["ready"] = ready
            elif (c := _count(tok.text)) is not None and c[0] == "fan":
                info["fan"] = bounded(tok.text, str(c[1]), MAX_FAN, 1)
            elif (n := number(tok.text, MAX_FAN, 1)) is not None:
                info["fan"] = n
            elif tok.text.startswith("[") and tok.text.endswith("]"):
                melds.append(tok.text[1:-1])
            elif is_tiles(tok.text):
                tiles.append(tok.text)
            elif info.get("ready"):  # 听 清一色: 听 takes the fan, not the pattern
                raise GrammarError("ready_takes_fan", token=tok.text, most=MAX_FAN)
            else:
                raise GrammarError("draw_usage", token=tok.text)
        if tiles:
            info["tiles"] = " ".join(tiles)
        if ("tiles" in info or "fan" in info) and info.get("ready") is False:
            raise GrammarError("draw_contradicts", token=seg[0].text)
        if "tiles" in info or "fan" in info:
            info["ready"] = True
        if melds:
            info["melds"] = melds
        players[seat] = info
    return {"type": "wall_end", "players": players}


# The word that may open one event of a whole-hand /edit (with or without its slash).
EDIT_KONG = {"kong", "杠", "gang"}
EDIT_DRAW = {"draw", "流局", "荒庄"}
EDIT_WIN = {"hu", "胡"}
EDIT_STARTING = {"qishou", "起手"}


def parse_edit_event(tokens: list[Token], resolve: Resolver
                     ) -> tuple[dict[str, Any], str | None]:
    """One event of ``/edit N a | b | c`` (or of ``/edit N.M``), said as its own command
    says it, the command's name optional: ``frank 暗杠`` (or ``kong frank 暗杠``) is a
    kong, ``bob 听 2, dave 花猪`` (or ``draw …``) the wall's end, anything else a win.
    Returns (the event, the indicator tile a win named)."""
    head = fold(tokens[0].text).lstrip("/") if tokens else ""
    if head in EDIT_KONG:
        return parse_kong(tokens[1:], resolve), None
    if head in EDIT_DRAW:
        return parse_draw(tokens[1:], resolve), None
    if head in EDIT_STARTING:
        return parse_starting(tokens[1:], resolve), None
    if head in EDIT_WIN:
        return parse_win(tokens[1:], resolve)
    words = [fold(w.text).strip(",，;；") for w in tokens[1:]]
    if words and words[0] in KONG_KINDS and words[0] not in WILD:
        return parse_kong(tokens, resolve), None  # <who> <kind> [from <who>]
    if any(w in READY or w in NOT_READY or w in HUAZHU for w in words):
        return parse_draw(tokens, resolve), None
    return parse_win(tokens, resolve)


def parse_starting(tokens: list[Token], resolve: Resolver) -> dict[str, Any]:
    if len(tokens) < 2 or resolve(tokens[0]) is None:
        raise GrammarError("qishou_usage")
    return {"type": "starting_win", "seat": resolve(tokens[0]),
            "kinds": [simplified(t.text) for t in tokens[1:]]}


# A Singapore table's stake tables, by name: a stake said as one is that option.
STAKE_TABLES = frozenset((*DOUBLING, *FIXED, "custom"))


def set_words(words: list[str]) -> list[str]:
    """``/set``'s words with options and values said in Chinese as their keys: ``封顶 5``
    -> ``cap_fan=5``, ``底注 0.5`` -> ``stake 0.5``, ``查花猪=否`` -> ``huazhu=false``."""
    if len(words) == 2 and fold(words[0]) in STAKE_WORDS:
        value = VALUE_WORDS.get(words[1], words[1])
        # A number is the stake per point; a word, Hong Kong's tier (/set stake 五一), or a
        # Singapore stake table by its name (/set stake 10/20).
        named = value.lower() in STAKE_TABLES
        return ["stake", words[1]] if re.search(r"[0-9]", value) and not named \
            else [f"stake={value.lower() if named else value}"]
    if len(words) == 2 and "=" not in words[0] and (key := option_key(words[0])) is not None:
        words = [f"{key}={words[1]}"]
    out = []
    for word in words:
        name, eq, value = word.partition("=")
        head, dot, sub = name.partition(".")
        key = option_key(head) if eq else None
        out.append(f"{key}{dot}{sub}={VALUE_WORDS.get(simplified(value.strip()), value)}"
                   if key is not None else word)
    return out


def parse_stake(text: str) -> int:
    """``0.5`` or ``2`` (money per point) -> cents."""
    m = re.fullmatch(r"([0-9]+)(?:\.([0-9]{1,2}))?", text.strip().lstrip("¥$"))
    if m is None:
        raise GrammarError("bad_stake", token=text)
    whole = int(m.group(1)) if len(m.group(1)) <= 9 else MAX_STAKE_CENTS
    cents = whole * 100 + int((m.group(2) or "0").ljust(2, "0"))
    if cents > MAX_STAKE_CENTS:
        raise GrammarError("stake_too_big", token=text, most=MAX_STAKE_CENTS // 100)
    return cents


_PATTERN_WORDS = 4  # the longest pattern name in words ("one suit dragon seven pairs")


def _known(name: str) -> bool:
    return any(p.knows(simplified(name)) for p in FAMILY_PATTERNS.values())


def _add_pattern(patterns: list[str], name: str) -> None:
    """A winner's pattern, once: the same pattern named twice (or by two of its names) is
    refused as that, not left to fail as something else. A pattern that counts once for
    each time it holds (Hong Kong's 三元, 正花) may be named that many times."""
    same = canonical(name) or {name.lower()}
    if same & set(COUNTED):  # a Singapore name that counts each time (animal animal)
        patterns.append(name)
        return
    named = sum(1 for p in patterns if (canonical(p) or {p.lower()}) & same)
    if named >= max(MOST.get(n, 1) for n in same):
        raise GrammarError("pattern_repeated", word=name)
    patterns.append(name)


def canonical(name: str) -> set[str]:
    """What ``name`` stands for in each family that knows it (``haidipao`` -> 海底炮)."""
    name = simplified(name)
    return {p.resolve(name).name for p in FAMILY_PATTERNS.values() if p.knows(name)}


def pattern_name(seg: list[Token], i: int) -> tuple[str, int]:
    """The pattern name starting at ``seg[i]``: the longest run of words that names one in
    any family (``one suit``), else the one word. Returns the name and the words used."""
    for n in range(min(_PATTERN_WORDS, len(seg) - i), 1, -1):
        words = [tok.text for tok in seg[i : i + n]]
        if any(tok.user_id is not None for tok in seg[i : i + n]):
            continue
        name = " ".join(words)
        if _known(name):
            return name, n
    return seg[i].text, 1


def read_words(tokens: list[Token], resolve: Resolver) -> list[Token]:
    """A report's words as the grammar reads them: in Simplified characters (點炮 is 点炮,
    槓 is 杠, 對對糊 is 对对胡), a count's Chinese numeral in digits (三 番, 番 三, 花一 are
    3 番, 番 3, 花1), but a player's name as typed."""
    words = [tok if tok.user_id is not None or resolve(tok) is not None
             else Token(simplified(tok.text)) for tok in tokens]
    return [_in_digits(words, i, resolve) for i in range(len(words))]


# The words a count's number is said beside, as a word of its own (四 番, 番 三) or joined
# after it (花一, 番三; 三番 and 三台 are read by _count).
_NUMERAL_BESIDE = {"番", "台", "花", "花番"}
_CN_NUMERAL = re.compile(r"^[一二两三四五六七八九十]{1,3}$")
_CN_AFTER = re.compile(r"^(番|台|花番?)([一二两三四五六七八九十]{1,3})$")


def _in_digits(words: list[Token], i: int, resolve: Resolver) -> Token:
    """``words[i]`` with a count's Chinese numeral as digits, else as it is."""
    tok = words[i]
    if tok.user_id is not None or resolve(tok) is not None:
        return tok
    if (m := _CN_AFTER.match(tok.text)) and (n := _chinese_number(m.group(2))) is not None:
        return Token(f"{m.group(1)}{n}")
    if _CN_NUMERAL.match(tok.text) and (n := _chinese_number(tok.text)) is not None and any(
            0 <= j < len(words) and words[j].text in _NUMERAL_BESIDE for j in (i - 1, i + 1)):
        return Token(str(n))
    return tok


def seat_resolver(names: Mapping[str, str], user_ids: Mapping[int, str]) -> Resolver:
    """A resolver over ``names`` (names and @usernames as :func:`fold` reads them, seat
    letters -> seat): 陳 finds 陈, and the reverse."""

    def resolve(tok: Token) -> str | None:
        if tok.user_id is not None and tok.user_id in user_ids:
            return user_ids[tok.user_id]
        return names.get(fold(tok.text).lstrip("@")) or (
            tok.text.upper() if tok.text.upper() in ("E", "S", "W", "N") and len(tok.text) == 1
            else SEAT_WORDS.get(fold(tok.text)))

    return resolve
