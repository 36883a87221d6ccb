"""What the Mini App's entry form sends, validated: a win, a kong, the wall's end or a bite,
every field bounded and every tile, bonus tile and name from a fixed set. The entry modules
(:mod:`bot.webapp.entry` and its families' parts) turn a valid form into the chat's words."""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, Field, field_validator

from engine.models import MAX_FAN, MAX_MCR_FAN
from engine.offer import WAYS

TILE = re.compile(r"^(?:[1-9][mps]|[1-7]z)$")
# Singapore's bonus tiles as the form sends them (flowers, seasons, animals).
BONUS_CODES = ("f1", "f2", "f3", "f4", "s1", "s2", "s3", "s4", "cat", "rat", "rooster",
               "centipede")
MAX_AMOUNT = 1_000_000
# Hong Kong's bonus tiles as the form sends them: 梅蘭菊竹 1f-4f, 春夏秋冬 1g-4g.
FLOWERS = ("1f", "2f", "3f", "4f", "1g", "2g", "3g", "4g")
HK_MAX_FAN = 13
# MCR: a tile as a pattern (the melds', the winning tile's), and the flowers at most.
MCR_TILE = r"^(?:[1-9][mps]|[1-7]z)$"
MAX_FLOWERS = 8


class Meld(BaseModel):
    """A meld: a chow (the 上家's), a pung or kong claimed off ``from_seat``, a concealed
    kong, or a kong added to a pung claimed off ``from_seat``."""

    kind: Literal["chow", "pung", "kong", "concealed", "added"]
    tiles: list[str] = Field(min_length=3, max_length=4)
    from_seat: str | None = Field(None, pattern=r"^[ESWN]$")

    @field_validator("tiles")
    @classmethod
    def _tiles(cls, value: list[str]) -> list[str]:
        if not all(isinstance(x, str) and re.match(MCR_TILE, x) for x in value):
            raise ValueError("not a tile")
        return value


class McrForm(BaseModel):
    melds: list[Meld] = Field(default_factory=list, max_length=4)
    winning_tile: str | None = Field(None, pattern=MCR_TILE)
    last_tile: bool = False  # 和绝张
    last_of_wall: bool = False  # 妙手回春 (self-drawn) or 海底捞月 (claimed)
    flowers: int = Field(0, ge=0, le=MAX_FLOWERS)
    fan: int | None = Field(None, ge=1, le=MAX_MCR_FAN)  # the table's own count, flowers in
    false_win: bool = False  # recorded even under the gate: as 错和


def _all_tiles(value: list[str]) -> list[str]:
    """A form's ``tiles``: each one a tile (5m, 7z)."""
    if not all(isinstance(x, str) and TILE.match(x) for x in value):
        raise ValueError("not a tile")
    return value


class DrawState(BaseModel):
    state: Literal["no", "ready", "pig"] = "no"
    fan: int = Field(1, ge=1, le=MAX_FAN)


class Other(BaseModel):
    """Another winner off the same discard (一炮多响): by patterns, or tiles."""

    winner: str = Field(pattern=r"^[ESWN]$")
    tiles: list[str] = Field(default_factory=list, max_length=14)
    patterns: list[str] = Field(default_factory=list, max_length=8)

    _tiles = field_validator("tiles")(_all_tiles)


class Form(BaseModel):
    """A win (``winner``, ``how``, ``from_seat``, tiles, patterns) or, with ``kind`` kong,
    a kong made by ``winner`` (``kong``: concealed, added, direct (off ``from_seat``), or
    wild)."""

    kind: Literal["win", "kong", "draw", "bite"] = "win"
    winner: str | None = Field(None, pattern=r"^[ESWN]$")
    how: str = "self_draw"
    kong: Literal["concealed", "added", "direct", "wild"] | None = None
    from_seat: str | None = Field(None, pattern=r"^[ESWN]$")
    tiles: list[str] = Field(default_factory=list, max_length=14)
    melds: list[list[str]] = Field(default_factory=list, max_length=4)
    patterns: list[str] = Field(default_factory=list, max_length=8)
    indicator: str | None = Field(None, pattern=r"^(?:[1-9][mps]|[1-7]z)$")  # 本金, 精牌
    others: list[Other] = Field(default_factory=list, max_length=2)
    # Singapore: the tai counted in (instead of patterns or tiles), and the bonus tiles;
    # points only: the amount the win is worth.
    tai: int | None = Field(None, ge=0, le=MAX_FAN)
    amount: int | None = Field(None, ge=1, le=MAX_AMOUNT)
    bonus: list[str] = Field(default_factory=list, max_length=12)
    # Singapore's bites and sets (``kind`` bite): which, hidden, and ``from_seat`` to charge
    # one player.
    bite: Literal["cat_rat", "rooster_centipede", "seat_flowers", "set_flowers",
                  "set_seasons", "set_animals"] | None = None
    hidden: bool = False
    # MCR: the melds with their sources, the winning tile, flags, flowers, or the fan count.
    mcr: McrForm | None = None
    # Hong Kong: the 番 count (and its flower 番), bonus tiles, prevailing wind, 包自摸;
    # ``feeder`` is also Singapore's 包 (the liable player, who pays for all).
    fan: int | None = Field(None, ge=0, le=HK_MAX_FAN)
    flower_fan: int = Field(0, ge=0, le=8)
    flowers: list[str] = Field(default_factory=list, max_length=8)
    wind: str | None = Field(None, pattern=r"^[ESWN]$")
    feeder: str | None = Field(None, pattern=r"^[ESWN]$")

    @field_validator("flowers")
    @classmethod
    def _flowers(cls, value: list[str]) -> list[str]:
        if not all(x in FLOWERS for x in value) or len(set(value)) != len(value):
            raise ValueError("not a bonus tile")
        return value

    @field_validator("bonus")
    @classmethod
    def _bonus(cls, value: list[str]) -> list[str]:
        if not all(x in BONUS_CODES for x in value) or len(set(value)) != len(value):
            raise ValueError("not a bonus tile")
        return value
    # The wall ran out (Sichuan): each player still in, not ready, ready for some fan, or 花猪.
    players: dict[Literal["E", "S", "W", "N"], DrawState] = Field(default_factory=dict)

    @field_validator("how")
    @classmethod
    def _how(cls, value: str) -> str:
        if value not in WAYS:
            raise ValueError("unknown way of winning")
        return value

    _tiles = field_validator("tiles")(_all_tiles)

    @field_validator("melds")
    @classmethod
    def _melds(cls, value: list[list[str]]) -> list[list[str]]:
        for meld in value:
            if not 3 <= len(meld) <= 4 or not all(TILE.match(x) for x in meld):
                raise ValueError("a meld is three or four tiles")
        return value
