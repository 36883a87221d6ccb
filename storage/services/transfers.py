"""The fewest transfers that settle a night: exact for up to 12 players, greedy beyond."""

from __future__ import annotations

from collections.abc import Mapping

EXACT_LIMIT = 12


def _greedy(balances: list[tuple[int, int]]) -> list[tuple[int, int, int]]:
    """(id, net) pairs -> (payer, payee, amount), matching the largest debtor and creditor."""
    debtors = sorted(((-n, i) for i, n in balances if n < 0), reverse=True)
    creditors = sorted(((n, i) for i, n in balances if n > 0), reverse=True)
    out = []
    while debtors and creditors:
        d_amt, d = debtors[0]
        c_amt, c = creditors[0]
        pay = min(d_amt, c_amt)
        out.append((d, c, pay))
        debtors[0] = (d_amt - pay, d)
        creditors[0] = (c_amt - pay, c)
        if debtors[0][0] == 0:
            debtors.pop(0)
        if creditors[0][0] == 0:
            creditors.pop(0)
        debtors.sort(reverse=True)
        creditors.sort(reverse=True)
    return out


def fewest_transfers(nets: Mapping[int, int]) -> list[tuple[int, int, int]]:
    """Transfers (payer, payee, amount) that settle ``nets`` (which sum to zero).

    The fewest possible is n minus the largest number of disjoint zero-sum groups the
    non-zero balances split into; up to 12 players a subset DP finds that split exactly.
    """
    if sum(nets.values()) != 0:
        raise ValueError("balances must sum to zero")
    items = sorted((i, n) for i, n in nets.items() if n)
    n = len(items)
    if n > EXACT_LIMIT:
        return _greedy(items)
    full = (1 << n) - 1
    sums = [0] * (1 << n)
    for mask in range(1, 1 << n):
        low = (mask & -mask).bit_length() - 1
        sums[mask] = sums[mask & (mask - 1)] + items[low][1]
    # groups[mask]: most zero-sum groups that mask splits into (mask itself zero-sum).
    groups = [0] * (1 << n)
    choice = [0] * (1 << n)
    for mask in range(1, 1 << n):
        if sums[mask] != 0:
            continue
        best, pick = 1, mask
        sub = (mask - 1) & mask
        while sub:
            if sums[sub] == 0 and groups[sub] and groups[mask ^ sub] and (
                groups[sub] + groups[mask ^ sub] > best
            ):
                best, pick = groups[sub] + groups[mask ^ sub], sub
            sub = (sub - 1) & mask
        groups[mask], choice[mask] = best, pick
    out: list[tuple[int, int, int]] = []
    stack = [full] if n else []
    while stack:
        mask = stack.pop()
        pick = choice[mask]
        if pick != mask:
            stack += [pick, mask ^ pick]
            continue
        out += _greedy([items[i] for i in range(n) if mask >> i & 1])
    return out
