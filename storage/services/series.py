"""What the pictures need from the ledger: a night's hands in order, each night's net per
player, a player's winning hands. Plain rows, bounded in number; the bot turns them into
the series it draws (:mod:`bot.pictures.picture_data`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import BigInteger, cast, func, select
from sqlalchemy.engine import Connection

from engine.models import Seat
from engine.rules import Ruleset
from storage.errors import LedgerError
from storage.models import NightInfo
from storage.services import rows as repo
from storage.services.hand_json import full_result_json
from storage.services.rows import SEAT_COLUMNS
from storage.sql import tables as t
from storage.sql.store import Service

MAX_NIGHT_HANDS = 1000  # a chart shows a night's last 1,000 hands at most
MAX_NIGHTS = 200  # the standings chart: the last 200 nights
MAX_WINS = 2000  # the pattern picture: a player's last 2,000 wins

_s, _h, _hp = t.nights.c, t.hands.c, t.hand_players.c


@dataclass(frozen=True)
class HandRow:
    number: int
    dealer: Seat
    status: str  # open | closed | void
    result: dict[str, Any]  # the engine's HandResult, as it dumps it
    players: dict[Seat, int]  # who played it, seat -> player id (a seat may change later)
    stake_cents: int = 0  # what a point of it is worth


@dataclass(frozen=True)
class NightChart:
    number: int  # 1 = the chat's first night
    of: int  # nights in the chat
    night: NightInfo
    hands: tuple[HandRow, ...]  # in order; at most MAX_NIGHT_HANDS, the last ones
    ended_at: datetime | None
    # Everyone who played the night or sits at its table, who left included: player id ->
    # their points that night, and their names (of every hand's players too).
    nets: dict[int, int]
    names: dict[int, str]
    # Each one's money that night, each hand at its stake, and the stakes its counted hands
    # were played at (more than one: the stake changed, and points at two never add up).
    money: dict[int, int] = field(default_factory=dict)
    stakes: tuple[int, ...] = ()


@dataclass(frozen=True)
class Left:
    """Someone who played a night and left its table (/seat), with their points."""
    id: int
    name: str
    points: int


@dataclass(frozen=True)
class NightNet:
    night: int
    started_at: datetime
    nets: dict[int, int]  # player id -> points that night
    money: dict[int, int] = field(default_factory=dict)  # player id -> cents, at each stake
    stakes: frozenset[int] = frozenset()  # the stakes its counted hands were played at


class Series(Service):
    """The pictures' rows (``ledger.series``)."""

    async def night_chart(self, chat_id: int, number: int | None = None) -> NightChart:
        """Night ``number`` (1 = the first), or the open one, or else the last one."""

        def unit(conn: Connection) -> NightChart:
            ids = list(conn.execute(select(_s.id, _s.status).where(_s.chat_id == chat_id)
                                    .order_by(_s.id)).all())
            if not ids:
                raise LedgerError("no_nights", "no night has been played in this chat")
            if number is None:
                index = next((i for i, r in enumerate(ids) if r.status == "open"), len(ids) - 1)
            elif 1 <= number <= len(ids):
                index = number - 1
            else:
                raise LedgerError("night_out_of_range", f"there is no night {number} in this chat",
                                  number=number, nights=len(ids))
            sid = ids[index].id
            night = repo.night_info(conn, chat_id, sid)
            rules = Ruleset.from_snapshot(night.rules)
            rows = conn.execute(select(_h.number, _h.dealer, _h.status, _h.result, _h.report,
                                       _h.seats, _h.stake_cents)
                                .where(_h.night_id == sid).order_by(_h.number.desc())
                                .limit(MAX_NIGHT_HANDS)).all()
            ended = conn.execute(select(_s.ended_at).where(_s.id == sid)).scalar_one()
            seated = {seat: p.id for seat, p in night.seats.items()}
            nets = dict.fromkeys(seated.values(), 0) | {
                int(pid): int(net) for pid, net in conn.execute(
                    select(_hp.player_id, func.sum(_hp.delta)).join(t.hands, _h.id == _hp.hand_id)
                    .where(_h.night_id == sid).group_by(_hp.player_id)).all()}
            stake = func.coalesce(_h.stake_cents, night.stake_cents)
            money = dict.fromkeys(nets, 0) | {
                int(pid): int(cents or 0) for pid, cents in conn.execute(
                    select(_hp.player_id, func.sum(cast(_hp.delta, BigInteger) * stake))
                    .join(t.hands, _h.id == _hp.hand_id)
                    .where(_h.night_id == sid).group_by(_hp.player_id)).all()}
            stakes = tuple(sorted(int(x) for x in conn.execute(
                select(stake).where(_h.night_id == sid, _h.status != "void")
                .distinct()).scalars()))
            names = {p.id: p.name for p in night.seats.values()}
            played = {int(p) for r in rows if r.seats for p in r.seats.values()}
            gone = (set(nets) | played) - set(names)
            if gone:  # who left the table during the night (/seat), void hands' players too
                names |= dict(conn.execute(select(t.players.c.id, t.players.c.name).where(
                    t.players.c.id.in_(gone))).tuples().all())
            return NightChart(number=index + 1, of=len(ids), night=night,
                         hands=tuple(HandRow(r.number, r.dealer, r.status, full_result_json(
                             r.result, r.report, rules, r.dealer),
                             {s: int(p) for s, p in r.seats.items()} if r.seats else seated,
                             night.stake_cents if r.stake_cents is None
                             else int(r.stake_cents))
                             for r in reversed(rows)),
                         ended_at=ended, nets=nets, names=names, money=money, stakes=stakes)

        return await self.store.run(unit, write=False)

    async def left_table(self, night: NightInfo) -> list[Left]:
        """Who played the night and no longer sits at its table, with their points that night,
        in the order they first played. None unless a seat changed, without a query (the Mini
        App's board asks every second); else one, on an index."""
        e, p = t.entries.c, t.players.c
        if not night.reseated:
            return []

        def unit(conn: Connection) -> list[Left]:
            rows = conn.execute(
                select(e.player_id, p.name, func.sum(e.delta))
                .join(t.players, p.id == e.player_id)
                .where(e.night_id == night.id,
                       e.player_id.not_in([x.id for x in night.seats.values()]))
                .group_by(e.player_id, p.name).order_by(func.min(e.id))).all()
            return [Left(int(pid), name, int(net)) for pid, name, net in rows]

        return await self.store.run(unit, write=False)

    async def night_nets(self, chat_id: int) -> tuple[list[NightNet], dict[int, str]]:
        """Each of the last MAX_NIGHTS nights' net per player, in order, and the players'
        names."""

        def unit(conn: Connection) -> tuple[list[NightNet], dict[int, str]]:
            nights = list(conn.execute(select(_s.id, _s.started_at).where(
                _s.chat_id == chat_id).order_by(_s.id)).all())
            first = max(0, len(nights) - MAX_NIGHTS)
            shown = nights[first:]
            nets: dict[int, dict[int, int]] = {r.id: {} for r in shown}
            money: dict[int, dict[int, int]] = {r.id: {} for r in shown}
            stakes: dict[int, set[int]] = {r.id: set() for r in shown}
            if shown:
                stake = func.coalesce(_h.stake_cents, _s.stake_cents)
                rows = conn.execute(
                    select(_h.night_id, _hp.player_id, func.sum(_hp.delta),
                           func.sum(cast(_hp.delta, BigInteger) * stake))
                    .join(t.hands, _h.id == _hp.hand_id)
                    .join(t.nights, _s.id == _h.night_id)
                    .where(_hp.chat_id == chat_id, _h.night_id >= shown[0].id)
                    .group_by(_h.night_id, _hp.player_id)).all()
                for sid, pid, net, cents in rows:
                    if sid in nets:
                        nets[sid][pid] = int(net)
                        money[sid][pid] = int(cents or 0)
                for sid, at in conn.execute(
                        select(_h.night_id, stake).join(t.nights, _s.id == _h.night_id)
                        .where(_h.chat_id == chat_id, _h.night_id >= shown[0].id,
                               _h.status != "void").distinct()).all():
                    if sid in stakes:
                        stakes[sid].add(int(at))
            names = dict(conn.execute(select(t.players.c.id, t.players.c.name).where(
                t.players.c.chat_id == chat_id)).tuples().all())
            return [NightNet(first + i + 1, r.started_at, nets[r.id], money[r.id],
                             frozenset(stakes[r.id])) for i, r in enumerate(shown)], names

        return await self.store.run(unit, write=False)

    async def player_wins(self, chat_id: int, player_id: int
                          ) -> list[tuple[Seat, dict[str, Any]]]:
        """The player's last MAX_WINS winning hands: (their seat, the hand's result)."""
        seat_of = [(_s.seat_e, "E"), (_s.seat_s, "S"), (_s.seat_w, "W"), (_s.seat_n, "N")]
        assert [c.name for c, _ in seat_of] == list(SEAT_COLUMNS.values())

        def unit(conn: Connection) -> list[tuple[Seat, dict[str, Any]]]:
            rows = conn.execute(
                select(_h.result, _h.report, _h.dealer, _h.seats, _s.id.label("sid"), _s.rules,
                       *(c for c, _ in seat_of))
                .join(t.hand_players, _hp.hand_id == _h.id)
                .join(t.nights, _s.id == _h.night_id)
                .where(_hp.chat_id == chat_id, _hp.player_id == player_id, _hp.won > 0)
                .order_by(_h.id.desc()).limit(MAX_WINS)).all()
            out: list[tuple[Seat, dict[str, Any]]] = []
            rules: dict[int, Ruleset] = {}
            for r in rows:
                if r.seats:  # a seat changed after the hand: who sat where for it
                    seat = next(s for s, pid in r.seats.items() if int(pid) == player_id)
                else:
                    seat = next(s for (c, s) in seat_of if r._mapping[c.name] == player_id)
                if r.sid not in rules:
                    rules[r.sid] = Ruleset.from_snapshot(r.rules)
                out.append((seat, full_result_json(r.result, r.report, rules[r.sid], r.dealer)))
            return out

        return await self.store.run(unit, write=False)
