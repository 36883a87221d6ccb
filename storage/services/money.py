"""Money across nights: standings at each night's own stake, debts netted between two
people, part payments, and settling every open debt of a chat at once.

Money is counted in cents. A night's points are worth its stake, so points from nights
with different stakes are never added together: standings carry the points per stake and
the money they make. Debts are the transfers an ended night left; a night played at stake
0 leaves none worth money, so those never show as open.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from sqlalchemy import and_, func, insert, or_, select, union_all, update
from sqlalchemy.engine import Connection, Row

from storage.errors import LedgerError
from storage.models import Contract, Debt, PlayerInfo
from storage.services import rows as repo
from storage.services.transfers import fewest_transfers
from storage.sql import tables as t
from storage.sql.clock import now
from storage.sql.store import Service


def debt_row(conn: Connection, chat_id: int, debt_id: int) -> Row[Any]:
    """Debt ``debt_id`` of this chat (what /paid N names), or the refusal ``no_debt``."""
    row = conn.execute(select(t.debts).where(
        t.debts.c.chat_id == chat_id, t.debts.c.id == debt_id)).first()
    if row is None:
        raise LedgerError("no_debt", f"no debt {debt_id} in this chat", id=debt_id)
    return row


class MoneyStanding(Contract):
    player: PlayerInfo
    cents: int  # the money won (lost if negative), each night at its stake
    points: tuple[tuple[int, int], ...]  # (stake in cents per point, points at it)
    hands: int
    wins: int


class PairBalance(Contract):
    """What one player owes another once their open debts are netted."""

    handle: int  # the lowest open debt number between them: /paid takes it
    payer: PlayerInfo
    payee: PlayerInfo
    cents: int  # 0: their debts cancel out
    debt_ids: tuple[int, ...]


class Payment(Contract):
    payer: PlayerInfo
    payee: PlayerInfo
    cents: int  # paid now
    remaining: int  # what the payer still owes the payee
    debt_ids: tuple[int, ...]  # the debts this cleared or reduced


class SettleTransfer(Contract):
    payer: PlayerInfo
    payee: PlayerInfo
    cents: int


class SettlePlan(Contract):
    transfers: tuple[SettleTransfer, ...]
    parties: tuple[PlayerInfo, ...]  # everyone with an open debt
    debts: int  # how many open debts it clears
    token: str  # names the open debts it was made from; a confirm must match it


def _remaining(row: Row[Any]) -> int:
    return int(row.cents) - int(row.paid_cents)


def plan_token(rows: Iterable[Row[Any]]) -> str:
    text = ";".join(f"{r.id}:{_remaining(r)}" for r in sorted(rows, key=lambda r: r.id))
    return hashlib.sha256(text.encode()).hexdigest()[:12]




def debt_list(conn: Connection, chat_id: int, night_id: int | None = None,
        unpaid_only: bool = False) -> list[Debt]:
    d = t.debts.c
    q = select(t.debts).where(d.chat_id == chat_id)
    if night_id is not None:
        q = q.where(d.night_id == night_id)
    if unpaid_only:
        q = q.where(d.paid.is_(False))
    rows = conn.execute(q.order_by(d.id)).all()
    ids = {r.payer_id for r in rows} | {r.payee_id for r in rows}
    players = {r.id: repo.player_info(r) for r in conn.execute(
        select(t.players).where(t.players.c.id.in_(ids))).all()} if ids else {}
    return [Debt(id=r.id, night_id=r.night_id, payer=players[r.payer_id],
                 payee=players[r.payee_id], points=r.points, cents=r.cents, paid=r.paid)
            for r in rows]


class Money(Service):
    """Debts and money: what each player won or lost in money, the open debts netted
    per pair, paying them and settling them all."""

    async def debts(self, chat_id: int, unpaid_only: bool = True) -> list[Debt]:
        def unit(conn: Connection) -> list[Debt]:
            return debt_list(conn, chat_id, unpaid_only=unpaid_only)

        return await self.store.run(unit, write=False)

    async def mark_paid(self, chat_id: int, debt_id: int) -> Debt:
        d = t.debts.c

        def unit(conn: Connection) -> Debt:
            debt_row(conn, chat_id, debt_id)
            conn.execute(update(t.debts).where(d.id == debt_id).values(
                paid=True, paid_cents=d.cents))
            return next(x for x in debt_list(conn, chat_id) if x.id == debt_id)

        return await self.store.run(unit, write=True)

    async def money_standings(self, chat_id: int, since: datetime | None = None
                              ) -> list[MoneyStanding]:
        """Per player: points per stake and their money; all time, or since a moment."""

        def unit(conn: Connection) -> list[MoneyStanding]:
            by: dict[int, dict[int, int]] = {}
            hands: dict[int, int] = {}
            wins: dict[int, int] = {}
            if since is None:
                s = t.nights.c
                parts = [select(getattr(s, f"seat_{x}").label("pid"),
                                s.stake_cents.label("stake"), getattr(s, f"net_{x}").label("net"))
                         .where(s.chat_id == chat_id, getattr(s, f"seat_{x}").is_not(None),
                                s.reseated.is_(False))
                         for x in "eswn"]  # a table of three has no North
                u = union_all(*parts).subquery()
                for r in conn.execute(select(u.c.pid, u.c.stake, func.sum(u.c.net))
                                      .group_by(u.c.pid, u.c.stake)).all():
                    by.setdefault(r[0], {})[int(r[1])] = int(r[2])
                hp, h = t.hand_players.c, t.hands.c
                at = func.coalesce(h.stake_cents, s.stake_cents)
                # A night where a seat changed: each player's own hands, at their stakes.
                for pid, stake, n in conn.execute(
                        select(hp.player_id, at, func.sum(hp.delta))
                        .select_from(t.hand_players.join(t.hands, h.id == hp.hand_id)
                                     .join(t.nights, s.id == h.night_id))
                        .where(s.chat_id == chat_id, s.reseated.is_(True))
                        .group_by(hp.player_id, at)).all():
                    mine = by.setdefault(pid, {})
                    mine[int(stake)] = mine.get(int(stake), 0) + int(n)
                # Hands played at another stake than their night's (the stake changed
                # during the night) move their points from the night's stake to their own.
                for pid, night, own, n in conn.execute(
                        select(hp.player_id, s.stake_cents, h.stake_cents, func.sum(hp.delta))
                        .select_from(t.hand_players.join(t.hands, h.id == hp.hand_id)
                                     .join(t.nights, s.id == h.night_id))
                        .where(h.chat_id == chat_id, h.stake_cents != s.stake_cents,
                               s.reseated.is_(False))
                        .group_by(hp.player_id, s.stake_cents, h.stake_cents)).all():
                    mine = by.setdefault(pid, {})
                    mine[int(night)] = mine.get(int(night), 0) - int(n)
                    mine[int(own)] = mine.get(int(own), 0) + int(n)
                tc = t.totals.c
                for r in conn.execute(select(tc.player_id, tc.hands, tc.wins)
                                      .where(tc.chat_id == chat_id)).all():
                    hands[r.player_id], wins[r.player_id] = r.hands, r.wins
            else:
                hp, h, s = t.hand_players.c, t.hands.c, t.nights.c
                stake = func.coalesce(h.stake_cents, s.stake_cents).label("stake")
                rows = conn.execute(
                    select(hp.player_id, stake, func.sum(hp.delta), func.count(),
                           func.sum(hp.won))
                    .select_from(t.hand_players.join(t.hands, h.id == hp.hand_id)
                                 .join(t.nights, s.id == h.night_id))
                    .where(hp.chat_id == chat_id, h.created_at >= since)
                    .group_by(hp.player_id, stake)).all()
                for pid, at, net, n, won in rows:
                    by.setdefault(pid, {})[int(at)] = int(net)
                    hands[pid] = hands.get(pid, 0) + int(n)
                    wins[pid] = wins.get(pid, 0) + int(won or 0)
            ids = [pid for pid in by if hands.get(pid) or any(by[pid].values())]
            if not ids:
                return []
            players = {r.id: repo.player_info(r) for r in conn.execute(
                select(t.players).where(t.players.c.id.in_(ids))).all()}
            out = [MoneyStanding(
                player=players[pid], cents=sum(stake * n for stake, n in by[pid].items()),
                points=tuple(sorted((st, n) for st, n in by[pid].items() if n)),
                hands=hands.get(pid, 0), wins=wins.get(pid, 0)) for pid in ids]
            out.sort(key=lambda m: (-m.cents, -sum(n for st, n in m.points if st == 0),
                                    m.player.name))
            return out

        return await self.store.run(unit, write=False)

    async def open_balances(self, chat_id: int) -> list[PairBalance]:
        """Every pair with open debts, netted: one line per two people."""

        def unit(conn: Connection) -> list[PairBalance]:
            rows = self._open_debts(conn, chat_id)
            pairs = self._pairs(rows)
            players = repo.players_by_id(conn, [p for key in pairs for p in key])
            out = []
            for (lo, hi), (bal, ids) in pairs.items():
                payer, payee = (lo, hi) if bal >= 0 else (hi, lo)
                out.append(PairBalance(handle=min(ids), payer=players[payer],
                                       payee=players[payee], cents=abs(bal),
                                       debt_ids=tuple(sorted(ids))))
            out.sort(key=lambda b: (-b.cents, b.handle))
            return out

        return await self.store.run(unit, write=False)

    async def debt_parties(self, chat_id: int, debt_id: int) -> tuple[PlayerInfo, PlayerInfo
                                                                     ] | None:
        """The payer and payee of debt ``debt_id`` in this chat, or None."""
        d = t.debts.c

        def unit(conn: Connection) -> tuple[PlayerInfo, PlayerInfo] | None:
            row = conn.execute(select(d.payer_id, d.payee_id).where(
                d.chat_id == chat_id, d.id == debt_id)).first()
            if row is None:
                return None
            players = repo.players_by_id(conn, [row.payer_id, row.payee_id])
            return players[row.payer_id], players[row.payee_id]

        return await self.store.run(unit, write=False)

    async def pay(self, chat_id: int, debt_id: int, cents: int | None = None, *,
                  actor: int | None = None) -> Payment:
        """Pay what the two people of debt ``debt_id`` owe each other, netted: all of it, or
        ``cents`` of it. Debts the other way are set against it first, then the oldest are
        paid. Refused when nothing is open between them any more (``debt_paid``)."""
        d = t.debts.c

        def unit(conn: Connection) -> Payment:
            row = debt_row(conn, chat_id, debt_id)
            # The debt names its two people: while anything is open between them, /paid N
            # still pays it, even after N itself was set off against the other way.
            rows = self._open_debts(conn, chat_id, (row.payer_id, row.payee_id), lock=True)
            if not rows:
                raise LedgerError("debt_paid", f"debt {debt_id} is already paid", id=debt_id)
            (lo, hi), (bal, _ids) = next(iter(self._pairs(rows).items()))
            payer, payee = (lo, hi) if bal >= 0 else (hi, lo)
            owed = abs(bal)
            amount = owed if cents is None else cents
            players = repo.players_by_id(conn, [payer, payee])
            if amount <= 0 and cents is not None:
                raise LedgerError("bad_amount", "pay more than nothing")
            if amount > owed:
                raise LedgerError("pay_too_much", "that is more than is owed",
                                  payer=players[payer].name, payee=players[payee].name,
                                  owed=owed)
            against = [r for r in rows if r.payer_id == payee]  # the other way: set off
            toward = [r for r in rows if r.payer_id == payer]
            left = sum(_remaining(r) for r in against) + amount
            touched: list[int] = []
            for r in against:
                conn.execute(update(t.debts).where(d.id == r.id).values(
                    paid=True, paid_cents=r.cents))
                touched.append(r.id)
            for r in toward:
                if left <= 0:
                    break
                part = min(left, _remaining(r))
                left -= part
                conn.execute(update(t.debts).where(d.id == r.id).values(
                    paid=part == _remaining(r), paid_cents=r.paid_cents + part))
                touched.append(r.id)
            self._log(conn, chat_id, "paid", actor, {"debt": debt_id, "owed": owed},
                      {"payer": payer, "payee": payee, "cents": amount, "debts": touched})
            return Payment(payer=players[payer], payee=players[payee], cents=amount,
                           remaining=owed - amount, debt_ids=tuple(sorted(touched)))

        return await self.store.run(unit, write=True)

    async def settle_plan(self, chat_id: int) -> SettlePlan:
        """The fewest transfers that clear every open debt of the chat."""

        def unit(conn: Connection) -> SettlePlan:
            return self._plan(conn, self._open_debts(conn, chat_id))

        return await self.store.run(unit, write=False)

    async def settle(self, chat_id: int, token: str, *, actor: int | None = None
                     ) -> SettlePlan:
        """Clear every open debt by the plan named ``token``; refused if they changed."""
        d = t.debts.c

        def unit(conn: Connection) -> SettlePlan:
            rows = self._open_debts(conn, chat_id, lock=True)
            if not rows:
                raise LedgerError("no_debts", "no open debts in this chat")
            plan = self._plan(conn, rows)
            if plan.token != token:
                raise LedgerError("settle_stale", "the debts changed since that proposal")
            conn.execute(update(t.debts).where(d.id.in_([r.id for r in rows])).values(
                paid=True, paid_cents=d.cents))
            self._log(conn, chat_id, "settle", actor, {"debts": [r.id for r in rows]},
                      {"transfers": [[x.payer.id, x.payee.id, x.cents]
                                     for x in plan.transfers]})
            return plan

        return await self.store.run(unit, write=True)

    def _open_debts(self, conn: Connection, chat_id: int, pair: tuple[int, int] | None = None,
                    lock: bool = False) -> list[Row[Any]]:
        d = t.debts.c
        q = select(t.debts).where(d.chat_id == chat_id, d.paid.is_(False),
                                  d.cents > d.paid_cents)
        if pair is not None:
            a, b = pair
            q = q.where(or_(and_(d.payer_id == a, d.payee_id == b),
                            and_(d.payer_id == b, d.payee_id == a)))
        q = q.order_by(d.id)
        if lock:
            q = q.with_for_update()
        return list(conn.execute(q).all())

    @staticmethod
    def _pairs(rows: list[Row[Any]]) -> dict[tuple[int, int], tuple[int, list[int]]]:
        """(low id, high id) -> (what low owes high, negative if high owes low; debt ids)."""
        pairs: dict[tuple[int, int], tuple[int, list[int]]] = {}
        for r in rows:
            key = (min(r.payer_id, r.payee_id), max(r.payer_id, r.payee_id))
            bal, ids = pairs.get(key, (0, []))
            amount = _remaining(r)
            pairs[key] = (bal + (amount if r.payer_id == key[0] else -amount), [*ids, r.id])
        return pairs

    def _plan(self, conn: Connection, rows: list[Row[Any]]) -> SettlePlan:
        nets: dict[int, int] = {}
        for r in rows:
            nets[r.payer_id] = nets.get(r.payer_id, 0) - _remaining(r)
            nets[r.payee_id] = nets.get(r.payee_id, 0) + _remaining(r)
        players = repo.players_by_id(conn, nets)
        transfers = tuple(SettleTransfer(payer=players[a], payee=players[b], cents=n)
                          for a, b, n in fewest_transfers(nets))
        parties = tuple(sorted(players.values(), key=lambda p: p.name))
        return SettlePlan(transfers=transfers, parties=parties, debts=len(rows),
                          token=plan_token(rows))

    def _log(self, conn: Connection, chat_id: int, action: str, actor: int | None,
             before: Any, after: Any) -> None:
        conn.execute(insert(t.audit).values(
            chat_id=chat_id, night_id=None, hand_number=None, action=action, actor=actor,
            at=now(), before=before, after=after))
