"""The end of the night and its record: the summary and the debts it leaves, the
history of hands, one hand's report and result."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import BigInteger, cast, delete, func, insert, select, update
from sqlalchemy.engine import Connection, Row

from engine.models import HandResult, Seat
from storage.errors import LedgerError
from storage.models import (
    HistoryItem,
    HistoryPage,
    NightInfo,
    Summary,
    Transfer,
)
from storage.services import rows as repo
from storage.services.chats import name_members
from storage.services.drafts import drop_night_drafts
from storage.services.hand_json import full_report, full_result, hand_deltas
from storage.services.match_seats import seat_points
from storage.services.money import debt_list
from storage.services.transfers import fewest_transfers
from storage.sql import tables as t
from storage.sql.clock import now
from storage.sql.store import Service


def history_items(conn: Connection, rows: Sequence[Row[Any]]) -> tuple[HistoryItem, ...]:
    """History lines for hand rows: each hand's moves, with its table's seat names."""
    sids = {r.night_id for r in rows}
    srows = {r.id: r for r in conn.execute(select(t.nights).where(
        t.nights.c.id.in_(sids))).all()} if sids else {}
    def played(r: Row[Any]) -> dict[Seat, int]:  # who sat where for the hand
        seats = getattr(r, "seats", None)
        if seats:
            return {s: int(pid) for s, pid in seats.items()}
        return repo.seated(srows[r.night_id])

    pids = {pid for r in rows for pid in played(r).values()}
    names = dict(conn.execute(select(t.players.c.id, t.players.c.name).where(
        t.players.c.id.in_(pids))).tuples().all()) if pids else {}
    return tuple(HistoryItem(
        night_id=r.night_id, number=r.number, dealer=r.dealer, status=r.status,
        deltas=hand_deltas(r.result) if r.status != "void" else dict.fromkeys(played(r), 0),
        seats={s: names[pid] for s, pid in played(r).items()},
        events=len(r.report["events"]), created_at=r.created_at) for r in rows)


# The audit's word for a night's end (taken back by :meth:`Nights.reopen`).
END = "end"


class Nights(Service):
    """A night's end (its summary and debts), its summary again later, the hands
    played (paged), and one hand's report and result."""

    async def end_night(self, chat_id: int, *, actor: int | None = None) -> Summary:
        """End the chat's table: its open hand closes, the debts of its transfers are
        written, and the drafts its dialogs left are dropped. The audit keeps the end
        (``end``, with the hand it closed) so that :meth:`reopen` can take it back."""

        def unit(conn: Connection) -> Summary:
            srow = repo.open_night_row(conn, chat_id)
            h = t.hands.c
            stamp = now()
            closed = conn.execute(select(h.id, h.number).where(
                h.night_id == srow.id, h.status == "open")).first()
            conn.execute(update(t.hands).where(h.night_id == srow.id,
                                               h.status == "open")
                         .values(status="closed", updated_at=stamp))
            name_members(self.store, conn, chat_id, actor)
            conn.execute(insert(t.audit).values(
                chat_id=chat_id, night_id=srow.id, hand_number=None, action=END,
                actor=actor, at=stamp, after=None,
                before={"open_hand": None if closed is None else closed.number}))
            conn.execute(update(t.nights).where(t.nights.c.id == srow.id).values(
                status="ended", ended_at=now()))
            drop_night_drafts(conn, chat_id)  # its dialogs' buttons are out of date now
            summary = self._summary(conn, chat_id, srow)
            for tr in summary.transfers:
                conn.execute(insert(t.debts).values(
                    chat_id=chat_id, night_id=srow.id, payer_id=tr.payer.id,
                    payee_id=tr.payee.id, points=tr.points, cents=tr.cents, paid=False))
            debts = debt_list(conn, chat_id, srow.id)
            return summary.model_copy(update={"debts": tuple(debts)})

        return await self.store.run(unit, write=True)

    async def reopen(self, chat_id: int, *, actor: int | None = None,
                     allow_others: bool = False) -> NightInfo:
        """Take back the chat's last ``/end`` when no table opened since and no debt of
        the night was paid: the night is open again, the hand it closed is open again, its
        debts are gone; audited as an ``undo``. Only who ended it, unless
        ``allow_others``. ``no_night_going`` when there is no such end to take back."""

        def unit(conn: Connection) -> NightInfo:
            s, a = t.nights.c, t.audit.c
            srow = conn.execute(select(t.nights).where(s.chat_id == chat_id)
                                .order_by(s.id.desc()).limit(1).with_for_update()).first()
            last = None if srow is None else conn.execute(
                select(t.audit).where(a.chat_id == chat_id, a.night_id == srow.id)
                .order_by(a.id.desc()).limit(1)).first()
            if srow is None or srow.status != "ended" or last is None or last.action != END:
                raise LedgerError("no_night_going", "no table is going in this chat; start one "
                                  "with /new")
            if not allow_others and last.actor is not None and last.actor != actor:
                raise LedgerError("not_reporter", "only the player who ended the night, or "
                                  "an admin, can take it back")
            d = t.debts.c
            if conn.execute(select(d.id).where(d.night_id == srow.id, (d.paid.is_(True)) | (
                    d.paid_cents != 0)).limit(1)).first() is not None:
                raise LedgerError("undo_end_paid", "a debt of that night was paid already")
            conn.execute(delete(t.debts).where(d.night_id == srow.id))
            conn.execute(update(t.nights).where(s.id == srow.id).values(
                status="open", ended_at=None))
            number = (last.before or {}).get("open_hand")
            stamp = now()
            if isinstance(number, int):
                h = t.hands.c
                conn.execute(update(t.hands).where(
                    h.night_id == srow.id, h.number == number, h.status == "closed")
                    .values(status="open", updated_at=stamp))
            name_members(self.store, conn, chat_id, actor)
            conn.execute(insert(t.audit).values(
                chat_id=chat_id, night_id=srow.id, hand_number=None, action="undo",
                actor=actor, at=stamp, before={"end": last.before}, after=None))
            return repo.night_info(conn, chat_id, srow.id)

        return await self.store.run(unit, write=True)

    async def summary(self, chat_id: int, night_id: int | None = None) -> Summary:
        def unit(conn: Connection) -> Summary:
            srow = repo.night_row(conn, chat_id, night_id)
            if srow is None:
                raise LedgerError("no_night_going", "no such table in this chat")
            summary = self._summary(conn, chat_id, srow)
            return summary.model_copy(update={
                "debts": tuple(debt_list(conn, chat_id, srow.id))})

        return await self.store.run(unit, write=False)

    async def history(self, chat_id: int, page: int = 1, page_size: int = 10,
                      night_id: int | None = None) -> HistoryPage:
        page = max(1, page)
        h = t.hands.c
        cond = [h.chat_id == chat_id]
        if night_id is not None:
            cond.append(h.night_id == night_id)

        def unit(conn: Connection) -> HistoryPage:
            total = conn.execute(select(func.count()).select_from(t.hands)
                                 .where(*cond)).scalar_one()
            rows = conn.execute(
                select(t.hands).where(*cond).order_by(h.id.desc())
                .limit(page_size).offset((page - 1) * page_size)).all()
            items = history_items(conn, rows)
            return HistoryPage(items=items, page=page, pages=max(1, -(-total // page_size)),
                               total=total)

        return await self.store.run(unit, write=False)

    async def hand(self, chat_id: int, number: int, night_id: int | None = None
                   ) -> tuple[dict[str, Any], HandResult]:
        """A hand's report and result, in the open night unless ``night_id``."""

        def unit(conn: Connection) -> tuple[dict[str, Any], HandResult]:
            srow = repo.night_row(conn, chat_id, night_id)
            if srow is None:
                raise LedgerError("no_night_going", "no table is going in this chat")
            h = t.hands.c
            row = conn.execute(select(t.hands).where(
                h.night_id == srow.id, h.number == number)).first()
            if row is None:
                raise LedgerError("no_hand", f"there is no hand {number}", number=number)
            return full_report(row.report), full_result(row.result, row.report, srow.rules,
                                                        row.dealer)

        return await self.store.run(unit, write=False)

    async def hand_view(self, chat_id: int, night_id: int, number: int
                        ) -> tuple[NightInfo, HandResult]:
        """A hand's result with its table (names, preset), in any night of the chat:
        what a "Details" button shows after the night has moved on or ended."""

        def unit(conn: Connection) -> tuple[NightInfo, HandResult]:
            info = repo.night_info(conn, chat_id, night_id)
            h = t.hands.c
            row = conn.execute(select(h.result, h.report, h.dealer, h.seats).where(
                h.night_id == night_id, h.number == number)).first()
            if row is None:
                raise LedgerError("no_hand", f"there is no hand {number}", number=number)
            return repo.as_played(conn, info, row.seats), full_result(
                row.result, row.report, info.rules, row.dealer)

        return await self.store.run(unit, write=False)

    def _summary(self, conn: Connection, chat_id: int, srow: Row[Any]) -> Summary:
        info = repo.night_info(conn, chat_id, srow.id)
        players = {p.id: p for p in info.seats.values()}
        nets = {info.seats[s].id: v for s, v in info.totals.items()}
        hp, h = t.hand_players.c, t.hands.c
        if srow.reseated:  # everyone who played, who left included, with their own hands
            nets = dict.fromkeys(nets, 0) | {int(pid): int(n) for pid, n in conn.execute(
                select(hp.player_id, func.sum(hp.delta)).join(t.hands, h.id == hp.hand_id)
                .where(h.night_id == srow.id).group_by(hp.player_id)).all()}
            gone = set(nets) - set(players)
            players |= {r.id: repo.player_info(r) for r in conn.execute(
                select(t.players).where(t.players.c.id.in_(gone))).all()} if gone else {}
        stake = func.coalesce(h.stake_cents, srow.stake_cents)
        money = dict.fromkeys(nets, 0)
        for pid, cents in conn.execute(
                select(hp.player_id, func.sum(cast(hp.delta, BigInteger) * stake))
                .join(t.hands, h.id == hp.hand_id).where(h.night_id == srow.id)
                .group_by(hp.player_id)).all():
            money[pid] = int(cents or 0)
        stakes = tuple(sorted(int(x) for x in conn.execute(
            select(stake).where(h.night_id == srow.id, h.status != "void")
            .distinct()).scalars()))
        points_at: dict[int, tuple[tuple[int, int], ...]] = {}
        if len(stakes) > 1:  # the stake changed during the night: settle the money
            at_stake: dict[int, dict[int, int]] = {}
            for pid, at, n in conn.execute(  # a hand without a stake of its own: the night's
                    select(hp.player_id, h.stake_cents, func.sum(hp.delta))
                    .join(t.hands, h.id == hp.hand_id).where(h.night_id == srow.id)
                    .group_by(hp.player_id, h.stake_cents)).all():
                by = at_stake.setdefault(int(pid), {})
                key = srow.stake_cents if at is None else int(at)
                by[key] = by.get(key, 0) + int(n or 0)
            points_at = {pid: tuple(sorted((at, n) for at, n in by.items() if n))
                         for pid, by in at_stake.items()}
            transfers = tuple(
                Transfer(payer=players[a], payee=players[b], points=0, cents=n)
                for a, b, n in fewest_transfers(money))
        else:
            at = stakes[0] if stakes else srow.stake_cents
            money = {pid: n * at for pid, n in nets.items()}
            transfers = tuple(
                Transfer(payer=players[a], payee=players[b], points=n, cents=n * at)
                for a, b, n in fewest_transfers(nets))
        best = conn.execute(
            select(hp.player_id, hp.win_points, h.number).join(t.hands, h.id == hp.hand_id)
            .where(h.night_id == srow.id, hp.win_points > 0)
            .order_by(hp.win_points.desc(), h.number).limit(1)).first()
        tally = conn.execute(
            select(hp.player_id, func.sum(hp.won).label("w")).join(t.hands, h.id == hp.hand_id)
            .where(h.night_id == srow.id).group_by(hp.player_id)
            .order_by(func.sum(hp.won).desc(), hp.player_id)).all()
        wins = tally[0] if tally else None
        top = tuple(players[r.player_id] for r in tally if wins and wins.w and r.w == wins.w)
        seats = seat_points(conn, srow) if len(info.seats) == 4 else {}
        missing = {pid for by in seats.values() for pid in by} - set(players)
        players |= {r.id: repo.player_info(r) for r in conn.execute(
            select(t.players).where(t.players.c.id.in_(missing))).all()} if missing else {}
        return Summary(
            night_id=srow.id, hands=info.hands,
            stake_cents=stakes[0] if len(stakes) == 1 else srow.stake_cents, nets=nets,
            players=players, transfers=transfers, money=money, stakes=stakes,
            points_at=points_at,
            biggest=(players[best.player_id], best.win_points, best.number) if best else None,
            most_wins=(players[wins.player_id], int(wins.w)) if wins and wins.w else None,
            most_winners=top,
            seat_points=seats,
        )
