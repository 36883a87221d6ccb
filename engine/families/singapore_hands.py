"""What a Singapore/Malaysia winner's tiles show: the patterns of each reading, in its
context (seat and prevailing wind, self-draw), and the bonus tiles' tai."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from engine.bonus_tiles import Bonus
from engine.errors import ReportError
from engine.hand_facts import build
from engine.readings import CHOW, KONG, PAIR, PUNG, Hand, Reading
from engine.shape_rules import family_readings
from engine.tiles import is_terminal_or_honor

THIRTEEN = "thirteen_wonders"
_ORPHANS = (0, 8, 9, 17, 18, 26, *range(27, 34))
_DRAGONS = {33: "红中", 32: "发财", 31: "白板"}
_GREEN = {19, 20, 21, 23, 25, 32}  # 2 3 4 6 8 条 and 发
# Patterns the tiles decide: named ones must be shown by the reading scored.
SHOWN_BY_TILES = frozenset({
    "红中", "发财", "白板", "门风", "圈风", "平胡", "对对胡", "混一色", "清一色", "小四喜",
    "小三元", "混幺九", "绿一色", "大三元", "大四喜", "十三幺", "字一色", "清幺九", "九莲宝灯",
    "十八罗汉",
})


@dataclass(frozen=True)
class Context:
    seat_wind: int  # the winner's wind, as a kind (27 东 .. 30 北): East is the dealer
    prevailing: int  # the round's wind, as a kind
    self_draw: bool


def winning_readings(tiles: str, melds: tuple[str, ...]) -> tuple[Hand, list[Reading]]:
    """Every reading of the winner's tiles as a win here: four sets and a pair, or
    thirteen wonders."""
    hand = build("singapore", tiles, melds, ())
    found = family_readings("singapore", hand)
    if not hand.melds and all(hand.counts[k] for k in _ORPHANS) and sum(hand.counts) == 14:
        loose = tuple(k for k, c in enumerate(hand.counts) for _ in range(c))
        found.append(Reading(THIRTEEN, (), loose))
    if not found:
        raise ReportError("tiles_not_a_win", "these tiles do not make a winning hand here")
    return hand, found


def shown(reading: Reading, hand: Hand, ctx: Context) -> Counter[str]:
    """The patterns one reading shows, each once (before "instead of" and values)."""
    out: Counter[str] = Counter()
    if reading.form == THIRTEEN:
        out["十三幺"] = 1
        return out
    counts = reading.all_counts
    kinds = [k for k, c in enumerate(counts) if c]
    sets = [m for m in reading.melds if m.shape != PAIR]
    pungs = [m for m in sets if m.shape in (PUNG, KONG)]
    pair = reading.pair
    assert pair is not None
    dragons = [m.first for m in pungs if m.first in _DRAGONS]
    winds = [m.first for m in pungs if 27 <= m.first <= 30]
    for k in dragons:
        out[_DRAGONS[k]] = 1
    if ctx.seat_wind in winds:
        out["门风"] = 1
    if ctx.prevailing in winds:
        out["圈风"] = 1
    if len(dragons) == 3:
        out["大三元"] = 1
    elif len(dragons) == 2 and pair.first in _DRAGONS:
        out["小三元"] = 1
    if len(winds) == 4:
        out["大四喜"] = 1
    elif len(winds) == 3 and 27 <= pair.first <= 30:
        out["小四喜"] = 1
    scoring_pair = pair.first in _DRAGONS or pair.first in (ctx.seat_wind, ctx.prevailing)
    if all(m.shape == CHOW for m in sets) and not scoring_pair:
        out["平胡"] = 1
    if len(pungs) == 4:
        out["对对胡"] = 1
    honours = any(k >= 27 for k in kinds)
    if not reading.suits:
        out["字一色"] = 1
    elif len(reading.suits) == 1:
        out["混一色" if honours else "清一色"] = 1
    if all(is_terminal_or_honor(k) for k in kinds) and reading.suits:
        out["混幺九" if honours else "清幺九"] = 1
    if set(kinds) <= _GREEN:
        out["绿一色"] = 1
    if sum(1 for m in sets if m.shape == KONG) == 4:
        out["十八罗汉"] = 1
    if not hand.melds:
        if ctx.self_draw:
            out["门清"] = 1
            if len(pungs) == 4:
                out["四暗刻"] = 1
        if len(reading.suits) == 1 and not honours and _nine_gates(counts):
            out["九莲宝灯"] = 1
    return out


def _nine_gates(counts: tuple[int, ...]) -> bool:
    suit = next(s for s in range(3) if any(counts[9 * s: 9 * s + 9]))
    c = counts[9 * suit: 9 * suit + 9]
    return c[0] >= 3 and c[8] >= 3 and all(x >= 1 for x in c[1:8])


def bonus_shown(bonus: Bonus, seat_number: int) -> Counter[str]:
    """The tai patterns of a winner's bonus tiles (seat_number: E 1 .. N 4)."""
    out: Counter[str] = Counter()
    if len(bonus.animals) == 4:
        out["四动物"] = 1
    elif bonus.animals:
        out["动物"] = len(bonus.animals)
    out["正花"] = (seat_number in bonus.flowers) + (seat_number in bonus.seasons)
    out["花杠"] = (len(bonus.flowers) == 4) + (len(bonus.seasons) == 4)
    if len(bonus.flowers) == 4 and len(bonus.seasons) == 4:
        out["八仙过海"] = 1
    return +out
