"""Replies about money across nights: standings at each night's stake, netted debts, part
payments and settling up. All text goes through :func:`bot.text.i18n.t`."""

from __future__ import annotations

from html import escape

from bot.text.i18n import is_chinese, money, nt, signed, t
from bot.text.words import colon, listing, paren
from engine.families.registry import POINT_CENT
from storage.ledger import MoneyStanding, PairBalance, Payment, SettlePlan

MAX_LINES = 30
BUDGET = 3500  # characters of listed lines: a reply stays inside Telegram's 4,096


def _fit(lang: str, lines: list[str]) -> list[str]:
    """As many of ``lines`` as fit (at most :data:`MAX_LINES`), and how many were left."""
    shown: list[str] = []
    used = 0
    for line in lines[:MAX_LINES]:
        if used + len(line) > BUDGET:
            break
        shown.append(line)
        used += len(line) + 1
    if len(shown) < len(lines):
        shown.append(t(lang, "…and {n} more lines.", n=len(lines) - len(shown)))
    return shown


def signed_money(cents: int) -> str:
    return ("+" if cents > 0 else "") + money(cents)


def points_at_stakes(lang: str, points: tuple[tuple[int, int], ...]) -> str:
    """``+24 at 0.50 · -2 at 2.00``: points are never added across stakes."""
    parts = []
    for stake, n in points:
        if stake == POINT_CENT:  # a Singapore or Hong Kong night's: its points are cents
            parts.append(t(lang, "{money} as money", money=signed_money(n)))
        elif stake:
            parts.append(t(lang, "{points} at {stake}", points=signed(n), stake=money(stake)))
        else:
            parts.append(t(lang, "{points} unstaked", points=signed(n)))
    return " · ".join(parts) or "0"


def at_stakes(points: tuple[tuple[int, int], ...]) -> tuple[tuple[int, int], ...]:
    """The points behind a standing worth saying, by stake: none when every night was at a
    cent a point (POINT_CENT: a Singapore or Hong Kong table's points are cents, which the
    money already says); beside nights at a stake, those nights' money is one of the
    parts (said as money), so that the parts add up to the total."""
    return points if any(p[0] != POINT_CENT for p in points) else ()


def _at_stakes(lang: str, points: tuple[tuple[int, int], ...]) -> str:
    staked = at_stakes(points)
    return paren(lang, points_at_stakes(lang, staked)) if staked else ""


def standings_text(lang: str, rows: list[MoneyStanding], days: int | None = None) -> str:
    if not rows:
        return t(lang, "No hands recorded in this chat yet.")
    if not any(at_stakes(r.points) for r in rows):  # money only (Singapore, Hong Kong)
        head = (t(lang, "Standings, in money:") if days is None else
                t(lang, "Standings for the last {days} days, in money:", days=days))
    else:
        head = (t(lang, "Standings, each night at its own stake:") if days is None else
                t(lang, "Standings for the last {days} days, each night at its own stake:",
                  days=days))
    parts = [head]
    parts += _fit(lang, [
        f"{i}. {escape(r.player.name)}{colon(lang)}<b>{signed_money(r.cents)}</b>"
        + _at_stakes(lang, r.points) + " · "
        + t(lang, "hands {hands} · wins {wins}", hands=r.hands, wins=r.wins)
        for i, r in enumerate(rows, 1)])
    return "\n".join(parts)


def balances_text(lang: str, balances: list[PairBalance]) -> str:
    if not balances:
        return t(lang, "No unpaid debts in this chat.")
    parts = [t(lang, "Open debts, netted between each two players:")]
    lines = []
    for b in balances:
        nets = "" if len(b.debt_ids) == 1 else ("" if is_chinese(lang) else " ") + t(
            lang, "(nets {debts})", debts=listing(lang, (f"#{i}" for i in b.debt_ids[:4]))
            + (" …" if len(b.debt_ids) > 4 else ""))
        if b.cents:
            lines.append(f"  #{b.handle} {escape(b.payer.name)} → {escape(b.payee.name)}"
                         f"{colon(lang)}<b>{money(b.cents)}</b>{nets}")
        else:
            lines.append(f"  #{b.handle} {escape(b.payer.name)} ⇄ {escape(b.payee.name)}"
                         + colon(lang) + t(lang, "they cancel out") + nets)
    parts += _fit(lang, lines)
    parts.append(t(lang, "Paid: /paid N · part of it: /paid N 2.50 · everything at once: "
                         "/settle"))
    return "\n".join(parts)


def payment_text(lang: str, p: Payment) -> str:
    payer, payee = escape(p.payer.name), escape(p.payee.name)
    if p.cents == 0:
        return t(lang, "Cleared: the debts between {payer} and {payee} cancel out.",
                 payer=payer, payee=payee)
    head = t(lang, "Recorded: {payer} paid {payee} {amount}.", payer=payer, payee=payee,
             amount=money(p.cents))
    sep = "" if lang.startswith("zh") else " "
    if p.remaining:
        return head + sep + t(lang, "{payer} still owes {payee} {amount}.", payer=payer,
                              payee=payee, amount=money(p.remaining))
    return head + sep + t(lang, "They are square.")


def settle_plan_text(lang: str, plan: SettlePlan) -> str:
    if not plan.transfers:
        return t(lang, "The {debts} open debts cancel out: nobody needs to pay. A player "
                       "with a debt, or an admin, can clear them:", debts=plan.debts)
    parts = [t(lang, "To clear all {debts} open debts takes {n} transfer(s):",
               debts=plan.debts, n=len(plan.transfers))]
    parts += _fit(lang, [f"  {escape(x.payer.name)} → {escape(x.payee.name)}{colon(lang)}"
                         f"<b>{money(x.cents)}</b>" for x in plan.transfers])
    parts.append(t(lang, "Once paid, a player with a debt, or an admin, confirms here:"))
    return "\n".join(parts)


def settled_text(lang: str, plan: SettlePlan, by: str) -> str:
    return nt(lang, "Settled, confirmed by {player}: {debts} debt cleared.",
              "Settled, confirmed by {player}: {debts} debts cleared.", plan.debts,
              player=escape(by), debts=plan.debts)


def confirm_label(lang: str) -> str:
    return t(lang, "✅ Paid: clear them all")
