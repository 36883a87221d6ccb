"""Typed options per family. A preset is data (``presets/*.toml``) over these defaults;
house rules are a preset plus overrides. Unknown options and values are refused, listing
the valid ones."""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator

from engine.models import MAX_FAN


class FamilyOptions(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    base: int = Field(1, ge=1, le=100,
                      description="points per unit: everything is multiplied by it")
    draw_dealer: Literal["stay", "next"] = Field(
        "stay", description="who deals after a hand nobody won"
    )
    players: Literal[3, 4] = Field(
        4, description="players at the table: 4 (E S W N) or 3 (E S W, no North)")
    false_win: int = Field(
        0, ge=0, le=10_000, description="诈胡: points a false winner pays each other player "
        "(times base); 0: the family's reading (docs/rules/penalties.md)")


class SichuanOptions(FamilyOptions):
    suits: Literal[2, 3] = Field(
        3, description="suits in the wall: 3 (108 tiles), or 2 (两房, 72 tiles: no 缺一门, "
        "so no 花猪)")
    blood_battle: bool = Field(True, description="血战到底: play on until three have won")
    fan_mode: Literal["additive", "largest_base"] = Field(
        "additive",
        description="additive: every pattern adds its fan to 平胡's 1; largest_base: only "
        "the largest base pattern counts, then each extra adds",
    )
    fan_to_points: Literal["exponential", "linear"] = Field(
        "exponential", description="exponential: base x 2^(fan-1); linear: base x fan"
    )
    cap_fan: int | None = Field(None, ge=1, le=MAX_FAN, description="the most fan a win can count")
    zimo: Literal["none", "double", "add_stake"] = Field(
        "none", description="self-draw: nothing, +1 fan, or one base more from each payer"
    )
    kong_payments: bool = Field(False, description="刮风下雨: kongs pay when made")
    huazhu: bool = Field(False, description="花猪 pays at an exhaustive draw")
    huazhu_fan: int = Field(6, ge=1, le=MAX_FAN, description="花猪's fan when there is no cap")
    chajiao: Literal["min", "max", "off"] = Field(
        "min", description="查叫: not-ready players pay ready ones their smallest/largest value"
    )
    tuishui: bool = Field(False, description="退税: not-ready and 花猪 players return kong money")
    hujiao_zhuanyi: Literal["off", "last_kong", "all_kongs"] = Field(
        "off", description="呼叫转移: on 杠上炮 the kong's earnings go to the winner"
    )
    dianganghua: Literal["zimo", "discarder"] = Field(
        "zimo", description="点杠花: 杠上花 off a 直杠 paid by all, or by the kong's discarder"
    )
    menqing_zhongzhang: bool = Field(False, description="门清 and 断幺九, +1 fan each")
    yaojiu_jiangdui: bool = Field(True, description="count 带幺九 and 将对")
    tiandi_hu: bool = Field(True, description="count 天胡 and 地胡")
    longqidui_bonus: bool = Field(True, description="龙七对 is a base pattern of its own")
    jingoudiao_duidui: bool = Field(
        True, description="additive fan: 金钩钓 also counts 对对胡/大对子 (its four declared "
        "sets are all pongs); off: 金钩钓 adds its own fan only"
    )
    tingyong: bool = Field(False, description="听用: the tiles either side of 本金 are wild")
    tingyong_scope: Literal["same_suit", "all_suits"] = Field(
        "same_suit", description="听用 in the 本金's suit only, or in every suit"
    )
    fan: dict[str, Annotated[int, Field(ge=0, le=MAX_FAN)]] = Field(
        default_factory=dict,
        description="pattern fan: increments (additive) or whole fan (largest_base)",
    )
    extras: dict[str, Annotated[int, Field(ge=0, le=MAX_FAN)]] = Field(
        default_factory=dict, description="fan of each extra")


class ChangshaOptions(FamilyOptions):
    dealer_premium: int = Field(1, ge=0, le=100,
        description="庄闲: +N when payer or receiver deals")
    small_discard: int = Field(1, ge=0, le=100, description="small win off a discard")
    small_self_draw: int = Field(1, ge=0, le=100,
        description="small self-draw, from each player")
    big_discard: int = Field(6, ge=0, le=100, description="each big win off a discard")
    big_self_draw: int = Field(3, ge=0, le=100,
        description="each big win self-drawn, from each player")
    penalty: int = Field(10, ge=0, le=1000,
        description="抢杠胡 and 海底炮: the one player pays this")
    penalty_dealer: int = Field(12, ge=0, le=1000,
        description="... or this when the payer deals")
    stack_big_wins: bool = Field(True, description="several big wins add up")
    birds: Literal[0, 1, 2, 4, 6] = Field(1, description="扎鸟: birds drawn after a win")
    bird_mode: Literal["double", "add"] = Field(
        "double", description="each bird hit doubles again, or adds one base"
    )
    bird_origin: Literal["dealer", "winner"] = Field(
        "dealer", description="bird rank 1 lands on the dealer or the winner"
    )
    big_wins: dict[str, Annotated[int, Field(ge=0, le=10)]] = Field(
        default_factory=dict, description="how many big wins each pattern counts as"
    )
    starting_wins: tuple[str, ...] = Field((), description="起手胡 kinds allowed")


class JiangxiOptions(FamilyOptions):
    draw_dealer: Literal["stay", "next"] = "next"
    players: Literal[4] = Field(4, description="飞宝 is played by four: no three-player form")
    discard_wins: bool = Field(False, description="allow wins off a discard")
    wild_tiles: Literal["flipped_and_next", "next"] = Field(
        "flipped_and_next", description="精: the flipped tile and the next, or the next only"
    )
    values: dict[str, Annotated[int, Field(ge=0, le=1000)]] = Field(
        default_factory=dict, description="base value V0 of each hand, with/without wildcards"
    )
    qingyise_fan: int = Field(2, ge=0, le=8, description="清一色 doublings")
    feibao_loser_doubles: bool = Field(True, description="a loser's 飞宝 doubles what they pay")
    qianggang_mult: int = Field(6, ge=1, le=12, description="抢杠: the robbed player pays this x V")
    chengbao: bool = Field(True, description="承包 (三凑牌): the feeder of three melds pays")
    kong_points: dict[str, Annotated[int, Field(ge=0, le=100)]] = Field(
        default_factory=dict, description="kong points by kind, from each other player"
    )
    kong_points_on_draw: bool = Field(True, description="pay kong points when nobody wins")
    jing_bonus: bool = Field(True, description="精 reward at the end of a won hand")



STAKE_TABLES = ("10/20", "20/40", "50/1", "1/2", "3-6", "3-6-half", "custom")
MAX_STAKE_AMOUNT = 1_000_000  # cents: the most one custom amount may be ($10,000)


class SingaporeOptions(FamilyOptions):
    """Singapore/Malaysia (docs/rules/singapore.md). Amounts are in cents of the table's
    money: a point is one cent, and the stake table says what a win of n tai pays."""

    base: int = Field(1, ge=1, le=1, description="not used: the stake table sets the money")
    players: Literal[4] = Field(4, description="played by four: no three-player form")
    stake: Literal["10/20", "20/40", "50/1", "1/2", "3-6", "3-6-half", "custom"] = Field(
        "20/40", description="the stake table: what a win of n tai pays (base / zimo)")
    custom: tuple[Annotated[int, Field(ge=0, le=MAX_STAKE_AMOUNT)], ...] = Field(
        (), validate_default=True,
        description="stake=custom: ten amounts, base and zimo for 1 to 5 tai "
        '("0.30/0.60 0.60/1.20 ..." in money, or ten whole cents)')
    shooter: bool = Field(True, description="the discarder pays for all (shooter); off: "
                          "the discarder pays zimo, the others base")
    cap_tai: int = Field(5, ge=5, le=10, description="the most tai a win counts; limit "
                         "hands pay it (above 5 only with a doubling stake table)")
    min_tai: int = Field(1, ge=1, le=3, description="the fewest tai a win needs")
    min_counts_bonus: bool = Field(True, description="bonus tiles count toward the minimum")
    animals: bool = Field(True, description="the four animal tiles (148 tiles); off: 144")
    instant_payouts: bool = Field(True, description="kongs, bites and sets paid at once")
    tai: dict[str, Annotated[int, Field(ge=0, le=MAX_FAN)]] = Field(
        default_factory=dict, description="tai of each pattern (limit hands pay the cap)")

    @field_validator("custom", mode="before")
    @classmethod
    def _amounts_in_money(cls, value: Any) -> Any:
        """``"0.30/0.60 0.60/1.20 ..."`` (money, as a player types it) becomes cents."""
        if not isinstance(value, str):
            return value
        words = [w for w in re.split(r"[\s,/;]+", value.strip()) if w]
        out = []
        for w in words:
            try:
                cents = Decimal(w.lstrip("$")) * 100
            except InvalidOperation:
                raise ValueError(f"{w!r} is not an amount") from None
            if cents != cents.to_integral_value():
                raise ValueError(f"{w!r}: at most two decimals")
            out.append(int(cents))
        return tuple(out)

    @field_validator("custom", mode="after")
    @classmethod
    def _ten_for_custom(cls, value: tuple[int, ...], info: ValidationInfo) -> tuple[int, ...]:
        stake = info.data.get("stake")
        if stake == "custom" and len(value) != 10:
            raise ValueError("stake=custom needs ten amounts: base and zimo for 1 to 5 tai")
        return value

    @field_validator("cap_tai", mode="after")
    @classmethod
    def _cap_fits_the_table(cls, value: int, info: ValidationInfo) -> int:
        stake = info.data.get("stake")
        if value > 5 and stake in ("3-6", "3-6-half", "custom"):
            raise ValueError(f"the {stake} table stops at 5 tai: cap_tai above 5 needs a "
                             "doubling table (10/20, 20/40, 50/1, 1/2)")
        return value


class FreeOptions(FamilyOptions):
    """Points only (docs/rules/free.md): the table says what each hand is worth."""

    base: int = Field(1, ge=1, le=1, description="not used: each hand says its points")


class McrOptions(FamilyOptions):
    """Chinese Official (MCR): one preset for every table; these are the readings that
    differ (docs/rules/mcr.md)."""

    draw_dealer: Literal["stay", "next"] = Field(
        "next", description="no 连庄: the deal moves on after every hand, a draw included")
    players: Literal[4] = Field(4, description="MCR is played by four")
    false_win: int = Field(10, ge=1, le=10_000,
                           description="错和: points the false winner pays each other player")
    mixed_kong: Literal[5, 6] = Field(
        5, description="明暗杠 (a concealed and a melded kong): 5 fan, or 6 (Green Book)")
    knitted_straight_waits: bool = Field(
        False, description="边张/坎张/单钓将 also for a winning tile inside the 组合龙")


class HongKongOptions(FamilyOptions):
    """Hong Kong old style (廣東牌): points are cents, paid from the share table."""

    base: Literal[1] = Field(1, description="the share table says every amount: no unit")
    players: Literal[4] = Field(4, description="played by four: no three-player form")
    stake: Literal["erwuji", "wuyi", "yierwen"] = Field(
        "erwuji", description="the tier: 二五雞 ($0.25 a 0番 share), 五一 (×2), 一二蚊 (×4)")
    curve: Literal["half_spicy", "full_spicy"] = Field(
        "half_spicy", description="above 4番: 半辣上 (×1.5 and ×2 by turns) or 辣辣上 (×2 each)")
    payment: Literal["half", "full"] = Field(
        "half", description="a discard: 半銃 (the discarder 2 shares, the others 1 each) or "
        "全銃 (the discarder all 4)")
    cap_fan: Literal[8, 10, 13] = Field(10, description="爆棚: the most 番 a win counts")
    min_fan: int = Field(3, ge=0, le=5, description="起糊: the fewest 番 that win")
    flowers_count_min: bool = Field(
        False, description="flower 番 (正花, 一台花, 無花) count toward the minimum")
    twelve_bao: bool = Field(
        True, description="包自摸 on 十二張: the feeder of the fourth exposed meld pays a "
        "self-draw alone")
    rob_kong_bao: bool = Field(
        True, description="搶槓: the robbed player pays the whole self-draw (off: as a discarder)")
    dealer_double: bool = Field(False, description="every share between the dealer and "
                                "another seat counts twice")
