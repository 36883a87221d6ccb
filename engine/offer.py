"""What a table's rules let a report say: the patterns a winner may name (the usual ones
first), the ways to win, and the facts a report carries beyond patterns (根 and kongs,
birds, the turned-up tile, Jiangxi's options); the kongs a player may declare, and what the
wall's end says of the players still in. The guided report's buttons
(:mod:`bot.dialogs.guided_steps`) and the Mini App ask this, so that no rule stays in ``bot/``."""

from __future__ import annotations

from dataclasses import dataclass

from engine.families.sichuan import option_off
from engine.options import (
    ChangshaOptions,
    FreeOptions,
    HongKongOptions,
    JiangxiOptions,
    McrOptions,
    SichuanOptions,
    SingaporeOptions,
)
from engine.patterns import FAMILY_PATTERNS
from engine.patterns.singapore import LIMITS
from engine.report_checks import records_kongs
from engine.rules import Ruleset
from engine.shape_rules import FAMILY_SHAPES

# Every way to win, in the order a report offers them.
WAYS = ("self_draw", "discard", "rob_kong", "kong_replacement", "after_kong_discard")
# The ways that take a discard (a win off another player's tile).
OFF_A_DISCARD = ("discard", "after_kong_discard")
# The ways a report names another player by: the discarder, or whose kong was robbed.
FROM_ANOTHER = ("discard", "rob_kong", "after_kong_discard")
# The kongs every family declares; Jiangxi adds 宝杠 ("wild", four wildcards).
KONGS = ("concealed", "added", "direct")
# How a player still in stands when the wall runs out (Sichuan: 未听, 听, 花猪).
WALL = ("no", "ready", "pig")
# Each family's usual patterns come first; the rest follow in the preset's own order.
USUAL = {
    "sichuan": ("清一色", "对对胡", "七对", "龙七对", "无听用", "清对", "清七对", "金钩钓",
                "将对", "带幺九", "碰本金"),
    "changsha": ("碰碰胡", "清一色", "七小对", "将将胡", "豪华七小对", "海底捞月", "全求人"),
    "hongkong": ("對對糊", "混一色", "清一色", "三元", "門風", "圈風", "正花", "無花", "平糊",
                 "門前清", "小三元", "大三元", "一台花", "花么", "海底撈月"),
    "jiangxi": ("七对", "碰对", "宝吊", "清一色", "九幺", "十三浪", "单张", "豪华", "七字全",
                "宝吊还原"),
    "singapore": ("动物", "正花", "红中", "发财", "白板", "门风", "圈风", "平胡", "对对胡",
                  "混一色", "清一色", "小三元", "门清"),
    "free": (),
    # the fans most hands hold, the 8-fan ones that pass the gate first
    "mcr": ("花龙", "混一色", "碰碰和", "清一色", "三色三步高", "五门齐", "全求人", "平和",
            "断幺", "门前清", "自摸", "不求人", "箭刻", "一般高", "喜相逢", "连六", "老少副",
            "幺九刻", "缺一门", "无字", "边张", "坎张", "单钓将", "明杠"),
}
PLAIN = {"sichuan": "平胡", "changsha": "小胡", "jiangxi": "平和", "singapore": "平胡",
         "free": "", "mcr": "无番和", "hongkong": "雞糊"}
# Singapore: the ways to win (no 杠上炮 tai: a win off a discard after a kong is a discard).
SINGAPORE_WAYS = ("self_draw", "discard", "rob_kong", "kong_replacement")
# Singapore: the instant payouts a player may report besides kongs (bites, then sets).
BITES = ("cat_rat", "rooster_centipede", "seat_flowers")
SETS = ("flowers", "seasons", "animals")
# The tiles of the suits (1m-9m, 1p-9p, 1s-9s), and the honours (1z-7z: 东南西北中发白).
SUIT_TILES = tuple(f"{rank}{suit}" for suit in "mps" for rank in range(1, 10))
HONOUR_TILES = tuple(f"{rank}z" for rank in range(1, 8))
# Sichuan extras that come from how the hand was won or from counts, not from a pattern.
_NOT_PATTERNS = {"平胡", "根", "杠", "杠上花", "杠上炮", "抢杠", "自摸"}
# The Jiangxi hands a winner names (the rest of its options are counts and toggles).
_JIANGXI_HANDS = ("七对", "碰对", "九幺", "十三浪", "清一色", "宝吊", "单张", "七字全", "宝吊还原",
                  "豪华")


@dataclass(frozen=True)
class Offer:
    """What a report at these rules may say."""

    family: str
    patterns: tuple[str, ...]
    hows: tuple[str, ...]
    birds: int = 0  # Changsha: birds drawn after a win
    counts: bool = False  # Sichuan: 根 and kongs add fan
    indicator: str | None = None  # the word for the turned-up tile, where it matters
    jiangxi: JiangxiOptions | None = None
    kongs: tuple[str, ...] = KONGS  # the kongs a player may declare
    wall: tuple[str, ...] = ()  # a player's states at the wall's end; empty: none is said
    fan_cap: int | None = None  # Sichuan: the cap on fan (what a ready player may be paid)
    tai: tuple[int, int] | None = None  # Singapore: the tai a count may say (min, cap)
    bites: tuple[str, ...] = ()  # Singapore: the bites a player may report
    sets: tuple[str, ...] = ()  # Singapore: the bonus-tile sets a player may report
    amount: bool = False  # free: a win says its amount, a hand every player's change
    kong_events: bool = False  # kongs are reported as events: a hand knows who made one
    bao_zimo: bool = False  # Hong Kong: 包自摸 on 十二張 (who fed the fourth meld) is paid

    @property
    def tiles(self) -> tuple[str, ...]:
        """The tiles a hand may hold here, as tile codes: the suits, and the honours where
        the family plays them (not Sichuan or Changsha)."""
        if self.family not in FAMILY_SHAPES:
            return ()  # points only: no tiles
        return SUIT_TILES + (HONOUR_TILES if FAMILY_SHAPES[self.family].honors else ())

    @property
    def plain(self) -> str:
        """The name of a win with no pattern."""
        return PLAIN[self.family]


def _ordered(family: str, names: list[str]) -> tuple[str, ...]:
    usual = [n for n in USUAL[family] if n in names]
    return tuple(dict.fromkeys([*usual, *names]))


def offer(rules: Ruleset) -> Offer:
    """What a report at ``rules`` may say: the patterns its scorer counts at these
    options, the ways to win it allows, and the facts it asks for."""
    known = FAMILY_PATTERNS[rules.family].patterns
    opts = rules.options
    if isinstance(opts, SichuanOptions):
        names = [n for n in [*opts.fan, *opts.extras] if n in known and n not in _NOT_PATTERNS
                 and option_off(opts, n) is None]
        return Offer("sichuan", _ordered("sichuan", names), WAYS, counts=True,
                     indicator="本金" if opts.tingyong else None,
                     wall=tuple(s for s in WALL if s != "pig" or opts.huazhu),
                     fan_cap=opts.cap_fan, kong_events=records_kongs(rules))
    if isinstance(opts, ChangshaOptions):
        names = [n for n in opts.big_wins if n in known]
        return Offer("changsha", _ordered("changsha", names), WAYS, birds=opts.birds)
    if isinstance(opts, SingaporeOptions):
        names = [p.name for p in FAMILY_PATTERNS["singapore"]
                 if p.name in opts.tai or p.name in LIMITS]
        names = [n for n in names if opts.animals or n not in ("动物", "四动物")]
        instant = opts.instant_payouts
        return Offer("singapore", _ordered("singapore", names), SINGAPORE_WAYS,
                     kongs=KONGS if instant else (),
                     tai=(opts.min_tai, opts.cap_tai),
                     bites=tuple(b for b in BITES if opts.animals or b == "seat_flowers")
                     if instant else (),
                     sets=tuple(k for k in SETS if opts.animals or k != "animals")
                     if instant else ())
    if isinstance(opts, FreeOptions):
        return Offer("free", (), ("self_draw", "discard"), kongs=(), amount=True)
    if isinstance(opts, McrOptions):  # the fans are counted from the tiles, or the total
        fans = [n for n in known if n != "花牌"]  # flowers are counted, not tapped
        return Offer("mcr", _ordered("mcr", fans), ("self_draw", "discard", "rob_kong",
                                           "kong_replacement"), kongs=())
    if isinstance(opts, HongKongOptions):  # 自摸, 搶槓 and 槓上開花 come from how it was won
        names = [n for n in known if n not in ("自摸", "搶槓", "槓上開花", "雞糊")]
        return Offer("hongkong", _ordered("hongkong", names), WAYS[:4],
                     bao_zimo=opts.twelve_bao)
    assert isinstance(opts, JiangxiOptions)
    hows = tuple(h for h in WAYS if opts.discard_wins or h not in OFF_A_DISCARD)
    names = [n for n in _JIANGXI_HANDS if n in known]
    return Offer("jiangxi", _ordered("jiangxi", names), hows, indicator="精牌", jiangxi=opts,
                 kongs=(*KONGS, "wild"), kong_events=records_kongs(rules))
