"""The Hong Kong share table (單份): a win's 番 to one share, in cents, by tier and curve.

二五雞 pays $0.25 for 0番 and doubles each 番 to 4番 ($4); above 4番 辣辣上 keeps doubling,
半辣上 goes ×1.5 and ×2 by turns (6, 8, 12, 16 …). 五一 is twice 二五雞, 一二蚊 four times.
"""

from __future__ import annotations

from typing import Literal

Stake = Literal["erwuji", "wuyi", "yierwen"]
Curve = Literal["half_spicy", "full_spicy"]

# The 0番 share of each tier, in cents.
TIER_CENTS: dict[str, int] = {"erwuji": 25, "wuyi": 50, "yierwen": 100}
TIER_NAMES = {"erwuji": "二五雞", "wuyi": "五一", "yierwen": "一二蚊"}
CURVE_NAMES = {"half_spicy": "半辣上", "full_spicy": "辣辣上"}
TOP_FAN = 13  # the table's last row: a limit hand with cap_fan 13


def share(fan: int, stake: Stake, curve: Curve) -> int:
    """One share in cents for a win of ``fan`` 番 (0 to 13, already capped)."""
    if not 0 <= fan <= TOP_FAN:
        raise ValueError(f"no share for {fan} 番")
    unit = TIER_CENTS[stake]
    if fan <= 4 or curve == "full_spicy":
        doubling: int = 2**fan  # int ** int is typed Any (a negative power is a float)
        return unit * doubling
    above = fan - 4
    doubled: int = 2 ** (above // 2)
    return unit * 16 * doubled * (3 if above % 2 else 2) // 2


def share_rows(stake: Stake, curve: Curve, low: int, cap: int) -> list[tuple[int, int]]:
    """The table a Hong Kong table plays, for /rules and the Mini App: (番, one share in
    cents) from ``low`` 番 to the cap."""
    return [(fan, share(fan, stake, curve)) for fan in range(low, cap + 1)]
