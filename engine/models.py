"""Reports and settlements: the pydantic contracts between the engine and its callers.

A hand is an ordered list of events between four seats, E S W N (turn order), or three,
E S W, at a three-player table. Every model
is frozen; :func:`report_json_schema` exports the JSON Schema of a hand report.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, computed_field, model_validator

Seat = Literal["E", "S", "W", "N"]
Count4 = Annotated[int, Field(ge=0, le=4)]

# Bounds on every number a report can carry. No real hand counts more than 20 fan (the
# richest Sichuan hands reach about 16 with every extra), and 2^19 base units per payer
# keeps any settlement far inside the ledger's 32-bit point columns even with no cap.
MAX_FAN = 20
# The most one seat may gain or lose in one hand: a guard the settler enforces whatever
# the options, so that no hand can overflow a 32-bit column (2,147,483,647).
MAX_HAND_POINTS = 100_000_000
MAX_PATTERNS = 16  # pattern names one winner may list
MAX_TEXT = 200  # characters of a tile string
MAX_AMOUNT = 1_000_000  # points one player may pay or get in a points-only (free) hand
Fan = Annotated[int, Field(ge=1, le=MAX_FAN)]
SEATS: tuple[Seat, ...] = ("E", "S", "W", "N")


def table_seats(players: int = 4) -> tuple[Seat, ...]:
    """The seats of a table of ``players``: E S W N, or E S W for three (no North)."""
    return SEATS[:players]


def next_seat(seat: Seat, step: int = 1, players: int = 4) -> Seat:
    """The seat ``step`` places on in turn order, round a table of ``players``."""
    return SEATS[(SEATS.index(seat) + step) % players]


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class How(StrEnum):
    SELF_DRAW = "self_draw"  # 自摸
    DISCARD = "discard"  # 点炮: off X's discard
    ROB_KONG = "rob_kong"  # 抢杠: robbing X's kong
    KONG_REPLACEMENT = "kong_replacement"  # 杠上花: self-draw on a kong replacement
    AFTER_KONG_DISCARD = "after_kong_discard"  # 杠上炮: off X's discard right after X's kong


PAID_BY_ONE = (How.DISCARD, How.ROB_KONG, How.AFTER_KONG_DISCARD)


class KongKind(StrEnum):
    DIRECT = "direct"  # 直杠 / 明杠: off another player's discard
    ADDED = "added"  # 补杠 / 碰杠: the fourth tile added to one's own pong
    CONCEALED = "concealed"  # 暗杠 / 自杠
    WILD = "wild"  # 宝杠: four wildcards (Jiangxi)


# Chinese Official (MCR): a hand's fan reaches 88 and more; no real hand counts 400.
MAX_MCR_FAN = 400


class McrMeld(Frozen):
    """A declared set of an MCR hand: a chow (from the 上家), a pung or kong with the seat
    it was claimed from, or a concealed kong (no seat)."""

    tiles: str = Field(max_length=20, description='e.g. "123m", "555p", "5555s", "东东东"')
    from_seat: Seat | None = Field(None, description="claimed from; none: a concealed kong")
    added: bool = Field(False, description="加杠: the fourth tile added to one's own pung")


class McrHand(Frozen):
    """An MCR winner's hand: the fan count alone, or the tiles for the engine to count."""

    fan: int | None = Field(None, ge=0, le=MAX_MCR_FAN,
                            description="the total a table counted itself, flowers included")
    flowers: int = Field(0, ge=0, le=8, description="花牌: flowers and seasons")
    standing: str | None = Field(None, max_length=MAX_TEXT,
                                 description="the concealed tiles without the winning tile")
    melds: tuple[McrMeld, ...] = Field((), max_length=4)
    winning_tile: str | None = Field(None, max_length=10)
    last_tile: bool = Field(False, description="和绝张: the last tile of its kind")
    last_of_wall: bool = Field(False, description="妙手回春 / 海底捞月: the wall's last tile")
    prevalent: Seat = Field("E", description="the round's wind (圈风)")
    seat_wind: Seat | None = Field(None, description="门风; none: from the seat and dealer")


class WinnerHand(Frozen):
    """One winner's hand. Patterns are named as in the rules files (Chinese, pinyin or
    English); with ``tiles`` the engine derives patterns and counts itself."""

    seat: Seat
    patterns: tuple[Annotated[str, Field(max_length=40)], ...] = Field(
        (), max_length=MAX_PATTERNS)
    fan: Fan | None = Field(
        None, description="the hand's fan, when the table agreed it without patterns"
    )
    gen: int = Field(0, ge=0, le=4, description="根: fours held in hand, not declared as kongs")
    kongs: int = Field(0, ge=0, le=4, description="kongs this winner declared")
    tiles: str | None = Field(None, max_length=MAX_TEXT,
                              description="concealed tiles, winning tile included")
    melds: tuple[Annotated[str, Field(max_length=20)], ...] = Field(
        (), max_length=4, description='declared melds, e.g. "555p", "2222m"')
    # Jiangxi family
    wild_used: bool | None = Field(None, description="有宝: a wildcard stood in the hand")
    feibao: int = Field(0, ge=0, le=8, description="飞宝: wildcards this winner discarded")
    kong_chain: int = Field(0, ge=0, le=4, description="kongs in the unbroken run (连杠)")
    feeder: Seat | None = Field(None, description="承包: fed three of the winner's melds")
    fourth_feeder: Seat | None = Field(None, description="承包: fed the fourth meld; Hong "
                                       "Kong 包自摸: fed the fourth exposed meld (十二張)")
    # Singapore/Malaysia family (``feeder`` names the player liable for all, 包)
    tai: int | None = Field(None, ge=0, le=MAX_FAN,
                            description="the hand's tai, counted in (bonus tiles included)")
    bonus_tai: int | None = Field(None, ge=0, le=MAX_FAN,
                                  description="of ``tai``, how many come from bonus tiles")
    bonus: str | None = Field(None, max_length=MAX_TEXT,
                              description='bonus tiles: "f1 s1 cat rat" or "梅 春 猫 鼠"; '
                              '"none": no bonus tile at all')
    # Points-only family (free)
    amount: int | None = Field(None, ge=1, le=MAX_AMOUNT,
                               description="free: what the discarder, or each player, pays")
    # Chinese Official (MCR) family
    mcr: McrHand | None = Field(None, description="MCR: the fan count or the tiles")
    # Hong Kong family
    flowers: str | None = Field(None, max_length=40, description="bonus tiles held: 1f-4f "
                                "梅蘭菊竹, 1g-4g 春夏秋冬, or 無 for none")
    flower_fan: int = Field(0, ge=0, le=MAX_FAN, description="how much of ``fan`` is flower "
                            "番 (正花, 一台花, 無花)")


class Win(Frozen):
    type: Literal["win"] = "win"
    how: How
    from_seat: Seat | None = Field(
        None,
        description="the discarder, the robbed player, or for a kong replacement the player "
        "whose discard made the kong (点杠花)",
    )
    winners: tuple[WinnerHand, ...] = Field(min_length=1, max_length=3)
    birds: tuple[Annotated[int, Field(ge=1, le=9)], ...] = Field(
        (), max_length=6, description="Changsha: the ranks of the bird tiles"
    )
    loser_feibao: dict[Seat, Annotated[int, Field(ge=0, le=8)]] = Field(
        default_factory=dict, description="Jiangxi: wildcards each loser discarded"
    )
    jing: dict[Seat, tuple[Count4, Count4]] = Field(
        default_factory=dict, description="Jiangxi: each seat's (正精, 副精) count"
    )
    robbed_kongs: int = Field(1, ge=1, le=4, description="Jiangxi: kongs robbed (连杠连抢)")
    prevailing: Seat | None = Field(
        None, description="Singapore: the prevailing (round) wind, E unless said")
    wind: Seat | None = Field(None, description="Hong Kong: the prevailing wind (圈風); "
                              "East when not said")

    @model_validator(mode="before")
    @classmethod
    def _single_winner_shorthand(cls, data: Any) -> Any:
        """``{"winner": "S", "patterns": [...]}`` is short for one entry in ``winners``."""
        if isinstance(data, dict) and "winner" in data:
            data = dict(data)
            hand = {"seat": data.pop("winner")}
            for key in WinnerHand.model_fields:
                if key != "seat" and key in data:
                    hand[key] = data.pop(key)
            data["winners"] = [hand]
        return data


class Kong(Frozen):
    type: Literal["kong"] = "kong"
    seat: Seat
    kind: KongKind
    from_seat: Seat | None = Field(None, description="for a direct kong: whose discard")


class StartingWin(Frozen):
    """Changsha 起手胡: declared right after the deal, paid at once; play goes on."""

    type: Literal["starting_win"] = "starting_win"
    seat: Seat
    kinds: tuple[Annotated[str, Field(max_length=40)], ...] = Field(min_length=1,
                                                                     max_length=8)


class WallEndPlayer(Frozen):
    huazhu: bool = Field(False, description="花猪: still holds all three suits")
    ready: bool = False
    fan: Fan | None = Field(None, description="the ready hand's value, if known")
    tiles: str | None = Field(None, max_length=MAX_TEXT,
                              description="13 tiles; the engine finds every wait")
    melds: tuple[Annotated[str, Field(max_length=20)], ...] = Field((), max_length=4)


class WallEnd(Frozen):
    type: Literal["wall_end"] = "wall_end"
    players: dict[Seat, WallEndPlayer] = Field(default_factory=dict)


class Bite(Frozen):
    """Singapore 咬: a pair of bonus tiles exposed, paid at once (an instant payout)."""

    type: Literal["bite"] = "bite"
    seat: Seat
    pair: Literal["cat_rat", "rooster_centipede", "seat_flowers"] = Field(
        description="cat and rat, rooster and centipede, or one's seat flower and season")
    hidden: bool = Field(False, description="both were in the starting hand: paid double")
    from_seat: Seat | None = Field(None, description="charged to this one player only")


class BonusSet(Frozen):
    """Singapore: all four flowers, all four seasons or all four animals, paid at once."""

    type: Literal["bonus_set"] = "bonus_set"
    seat: Seat
    kind: Literal["flowers", "seasons", "animals"]


class Amounts(Frozen):
    """A points-only (free) hand given as each player's change; sums to zero."""

    type: Literal["amounts"] = "amounts"
    deltas: dict[Seat, Annotated[int, Field(ge=-3 * MAX_AMOUNT, le=3 * MAX_AMOUNT)]]

    @model_validator(mode="after")
    def _zero_sum(self) -> Amounts:
        if sum(self.deltas.values()) != 0:
            raise ValueError("the amounts must sum to zero")
        if not any(self.deltas.values()):
            raise ValueError("the amounts must move some points")
        return self


# The most points one adjustment may move for one player (far beyond any real correction).
MAX_ADJUST = 1_000_000


# What a penalty is for: a false win (诈胡/相公, MCR's 错和), or one of the fouls an MCR
# referee fines (docs/rules/mcr.md): 错吃, 错碰, 错杠, 超时 (slow play), 亮牌 (showing
# tiles), or any other foul (犯规).
PenaltyKind = Literal["false_win", "wrong_chow", "wrong_pung", "wrong_kong", "slow_play",
                      "shown_tiles", "foul"]


class Penalty(Frozen):
    """A penalty the table agreed on. A false win (诈胡/相公) costs the family's reading
    (engine.penalties), or the house rule ``false_win``; a foul at an MCR table costs the
    referee's fine, ``points`` to each other player."""

    type: Literal["penalty"] = "penalty"
    seat: Seat
    kind: PenaltyKind = "false_win"
    points: int | None = Field(None, ge=1, le=MAX_ADJUST)


class Adjustment(Frozen):
    """A correction that is not a hand: points moved between players, summing to zero."""

    type: Literal["adjust"] = "adjust"
    deltas: dict[Seat, Annotated[int, Field(ge=-MAX_ADJUST, le=MAX_ADJUST)]]
    reason: str | None = Field(None, max_length=100)

    @model_validator(mode="after")
    def _zero_sum(self) -> Adjustment:
        if sum(self.deltas.values()) != 0:
            raise ValueError("an adjustment must sum to zero")
        if not any(self.deltas.values()):
            raise ValueError("an adjustment must move some points")
        return self


Event = Annotated[Win | Kong | StartingWin | WallEnd | Penalty | Adjustment | Bite | BonusSet
                  | Amounts,
                  Field(discriminator="type")]


class HandReport(Frozen):
    events: tuple[Event, ...] = Field((), max_length=64)
    indicator: str | None = Field(
        None, max_length=20,
        description="the turned-up tile: Yibin 本金, Jiangxi 精 (wildcards follow it)"
    )


class Line(Frozen):
    """One line of explanation. ``code`` names a message in the bot's catalogs."""

    code: str
    params: dict[str, Any] = Field(default_factory=dict, description="strings and integers")


class EventResult(Frozen):
    index: int
    deltas: dict[Seat, int]
    lines: tuple[Line, ...]


class HandResult(Frozen):
    deltas: dict[Seat, int]
    events: tuple[EventResult, ...]
    open: bool = Field(description="a blood-battle hand still in play")
    still_in: tuple[Seat, ...]
    next_dealer: Seat | None = Field(
        description="known from the first win on; None while an open hand has no winner"
    )

    @model_validator(mode="before")
    @classmethod
    def _accept_own_json(cls, data: Any) -> Any:
        """``lines`` is computed from the events; a dump read back may carry it."""
        if isinstance(data, dict) and "lines" in data:
            data = {k: v for k, v in data.items() if k != "lines"}
        return data

    @computed_field  # type: ignore[prop-decorator]
    @property
    def lines(self) -> tuple[Line, ...]:
        """Every event's lines, in order."""
        return tuple(line for ev in self.events for line in ev.lines)


def report_json_schema() -> dict[str, Any]:
    return HandReport.model_json_schema()
