"""Singapore/Malaysia stake tables: what a win of n tai pays, base and zimo, in cents.

The four doubling tables double exactly from their 1-tai base (``base x 2^(n-1)``, zimo
twice that) up to any cap; ``3-6`` and ``3-6-half`` are fixed lists for 1 to 5 tai, and
``custom`` is the table's own ten amounts (docs/rules/singapore.md, "Money").
"""

from __future__ import annotations

from engine.options import SingaporeOptions

# The 1-tai base of each doubling table, in cents.
DOUBLING: dict[str, int] = {"10/20": 10, "20/40": 20, "50/1": 50, "1/2": 100}
# (base, zimo) for 1 to 5 tai, in cents, as P5's tables store them.
FIXED: dict[str, tuple[tuple[int, int], ...]] = {
    "3-6": ((100, 200), (200, 300), (300, 500), (500, 1000), (1000, 2000)),
    "3-6-half": ((50, 100), (100, 150), (150, 250), (250, 500), (500, 1000)),
}


def amounts(opts: SingaporeOptions, tai: int) -> tuple[int, int]:
    """(base, zimo) in cents for a win of ``tai`` (1 to the cap, after the cap)."""
    if not 1 <= tai <= opts.cap_tai:
        raise ValueError(f"{tai} tai is outside 1..{opts.cap_tai}")
    if opts.stake in DOUBLING:
        base = DOUBLING[opts.stake] << (tai - 1)  # exact doubling: 9 tai is x256, not more
        return base, 2 * base
    rows = FIXED.get(opts.stake) or tuple(zip(opts.custom[0::2], opts.custom[1::2],
                                              strict=True))
    return rows[tai - 1]


def unit(opts: SingaporeOptions) -> int:
    """u: the unit of the instant payouts, the table's 1-tai base."""
    return amounts(opts, 1)[0]


def stake_table(opts: SingaporeOptions) -> list[tuple[int, int, int]]:
    """(tai, base, zimo) for every tai the table pays, 1 to the cap: for /rules and the
    Mini App, which show the table by name (``opts.stake``) and these amounts."""
    return [(n, *amounts(opts, n)) for n in range(1, opts.cap_tai + 1)]
