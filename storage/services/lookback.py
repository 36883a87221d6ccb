"""Looking back: nights by their label, one night's (or a day's, or every) hands paged, one
hand with every event and who reported and changed it, and a player's recent record.

A night is labelled by the UTC date it started, ``2026-11-20``; a second night started the
same day is ``2026-11-20/2``. The label is what players type to name an earlier night.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta, tzinfo
from itertools import groupby
from typing import Any

from pydantic import Field
from sqlalchemy import and_, func, select
from sqlalchemy.engine import Connection, Row

from engine.mcr.match import MatchSeat
from engine.models import HandResult, Seat
from storage.errors import LedgerError
from storage.models import Contract, HistoryItem, NightInfo, PlayerInfo, PlayerStats, Standing
from storage.services import rows as repo
from storage.services.hand_json import full_report, full_result
from storage.services.match_seats import seat_points
from storage.services.nights import history_items
from storage.sql import tables as t
from storage.sql.clock import local, zone
from storage.sql.store import Service

# Which nights: "current" (the night going, else the latest night), "all", a day, or one
# night by its label (a day and which night of it, from 1).
Scope = str | date | tuple[date, int]


class Night(Contract):
    night_id: int
    label: str
    started_at: datetime
    preset: str
    stake_cents: int
    hands: int
    status: str


class NightHistory(Contract):
    nights: tuple[Night, ...]  # the nights in scope, latest first (none listed for "all")
    items: tuple[HistoryItem, ...]
    labels: dict[int, str]  # night id -> its night's label, for the items shown
    # night id -> its night's preset, for the items shown (its points may be cents)
    presets: dict[int, str] = Field(default_factory=dict)
    several: bool  # the items may come from more than one night
    page: int
    pages: int
    total: int


class NightLine(Contract):
    """One night in the list of every night (/history all): its name and its size."""

    night: Night
    void: int  # its hands voided (counted among its hands)


class NightList(Contract):
    lines: tuple[NightLine, ...]  # latest first
    page: int
    pages: int
    total: int


class AuditNote(Contract):
    action: str  # undo | void | amend (| seat)
    actor: str | None  # a player's name; None when not a player here
    at: datetime
    # What an undo took back: "event" (the hand's last one; "adjust" and "penalty" are
    # named), "amend" (a correction, /edit) or "void" (/void); None for other actions.
    undid: str | None = None
    undid_event: int | None = None  # an undone /edit N.M: the event it changed (1-based)


def undone(before: Any, after: Any) -> tuple[str, int | None]:
    """What an undo recorded in the audit as ``before``/``after`` took back: an event
    (``{"event": {...}}`` before, by its type) or a correction (the corrected hand before;
    its ``event``, 0-based, when one event was edited) or a void (nothing before: the
    hand was void, and counts again after)."""
    if isinstance(before, dict) and isinstance(before.get("event"), dict):
        kind = before["event"].get("type")
        return (kind if kind in ("adjust", "penalty") else "event"), None
    if before is None:
        return "void", None
    event = before.get("event") if isinstance(before, dict) else None
    return "amend", (event + 1 if isinstance(event, int) else None)


class HandDetail(Contract):
    entry: Night  # its line in the list of nights: its label
    night: NightInfo
    number: int
    dealer: Seat
    status: str
    report: dict[str, Any]
    result: HandResult
    reporters: tuple[str | None, ...]  # per event: a player's name, None if not a player
    changes: tuple[AuditNote, ...]
    created_at: datetime
    time_zone: str | None = None  # the chat's (None: its language's)


class RecentHand(Contract):
    night: str
    number: int
    delta: int
    won: int
    self_draws: int
    dealt_in: int
    win_points: int
    names: tuple[str, ...] = ()  # the winner's patterns and extras (best hand only)
    preset: str = ""  # the night's (its family may count points in cents)


class PlayerRecord(Contract):
    stats: PlayerStats
    last: tuple[RecentHand, ...]
    best: RecentHand | None


def _day_of(started_at: datetime, where: tzinfo) -> date:
    return local(started_at, where).date()


def _zone_of(conn: Connection, chat_id: int) -> tzinfo:
    """The chat's time zone: its days (a night's name) are told there."""
    row = conn.execute(select(t.chats.c.language, t.chats.c.time_zone).where(
        t.chats.c.id == chat_id)).first()
    return zone(row.time_zone, row.language) if row is not None else UTC


def _night(row: Row[Any], label: str) -> Night:
    return Night(night_id=row.id, label=label, started_at=row.started_at,
                 preset=row.preset, stake_cents=row.stake_cents, hands=row.hands,
                 status=row.status)


def _label(day: date, k: int) -> str:
    return day.isoformat() + ("" if k == 1 else f"/{k}")


_s = t.nights.c
_NIGHT = select(_s.id, _s.started_at, _s.preset, _s.stake_cents, _s.hands, _s.status)




def hands_with(conn: Connection, chat_id: int, player_id: int) -> tuple[int, int]:
    """How many of a player's hands had a win, and a deal-in: the rates are out of hands,
    and in a blood battle one hand can hold two of either."""
    hp = t.hand_players.c
    won, dealt = conn.execute(select(
        func.count().filter(hp.won > 0), func.count().filter(hp.dealt_in > 0))
        .where(hp.chat_id == chat_id, hp.player_id == player_id)).one()
    return int(won), int(dealt)



def _player_and_totals(conn: Connection, chat_id: int, player_id: int
                       ) -> tuple[Row[Any], Row[Any]]:
    """A player of this chat and their running totals; refused for another chat's."""
    prow = conn.execute(select(t.players).where(
        t.players.c.chat_id == chat_id, t.players.c.id == player_id)).first()
    if prow is None:
        raise LedgerError("no_player", "no such player in this chat")
    return prow, conn.execute(select(t.totals).where(t.totals.c.player_id == player_id)).one()


class Lookback(Service):
    """Looking back over the chat's nights: standings, a player's statistics and record,
    a night's hands, one hand in detail."""

    async def standings(self, chat_id: int, since: datetime | None = None,
                        until: datetime | None = None) -> list[Standing]:
        """Net per player: all time from running totals, or summed over a date range."""

        def unit(conn: Connection) -> list[Standing]:
            players = {r.id: r for r in conn.execute(
                select(t.players).where(t.players.c.chat_id == chat_id)).all()}
            tc = t.totals.c
            if since is None and until is None:
                rows = conn.execute(select(t.totals).where(
                    tc.chat_id == chat_id, tc.hands > 0).order_by(tc.net.desc())).all()
                return [Standing(player=repo.player_info(players[r.player_id]), net=r.net,
                                 hands=r.hands, wins=r.wins) for r in rows]
            e = t.entries.c
            cond = [e.chat_id == chat_id]
            if since is not None:
                cond.append(e.created_at >= since)
            if until is not None:
                cond.append(e.created_at < until)
            rows = conn.execute(
                select(e.player_id, func.sum(e.delta).label("net"),
                       func.count(func.distinct(e.hand_id)).label("hands"))
                .where(and_(*cond)).group_by(e.player_id)
                .order_by(func.sum(e.delta).desc())).all()
            return [Standing(player=repo.player_info(players[r.player_id]), net=int(r.net),
                             hands=int(r.hands), wins=0) for r in rows]

        return await self.store.run(unit, write=False)

    async def match_games(self, chat_id: int, presets: tuple[str, ...]
                          ) -> list[list[MatchSeat]]:
        """Each ended table of four at one of ``presets`` (an MCR match), oldest first: its
        four seats, each with the name of the player whose seat it is and the table points
        of everyone who played it, by name."""

        def unit(conn: Connection) -> list[list[MatchSeat]]:
            sc, p = t.nights.c, t.players.c
            srows = conn.execute(select(t.nights).where(
                sc.chat_id == chat_id, sc.status == "ended", sc.preset.in_(presets),
                sc.seat_n.is_not(None)).order_by(sc.id)).all()
            if not srows:
                return []
            names = {r.id: r.name for r in conn.execute(
                select(p.id, p.name).where(p.chat_id == chat_id)).all()}
            games: list[list[MatchSeat]] = []
            for srow in srows:
                seats = seat_points(conn, srow)
                games.append([(names[next(iter(by))], {names[pid]: n for pid, n in by.items()})
                              for by in seats.values()])
            return games

        return await self.store.run(unit, write=False)

    async def player_stats(self, chat_id: int, player_id: int) -> PlayerStats:
        def unit(conn: Connection) -> PlayerStats:
            prow, tot = _player_and_totals(conn, chat_id, player_id)
            hp = t.hand_players.c
            biggest = conn.execute(select(func.max(hp.win_points)).where(
                hp.chat_id == chat_id, hp.player_id == player_id)).scalar() or 0
            won, dealt = hands_with(conn, chat_id, player_id)
            return PlayerStats(
                player=repo.player_info(prow), hands=tot.hands, wins=tot.wins,
                self_draws=tot.self_draws, dealt_in=tot.dealt_in, net=tot.net,
                biggest=int(biggest),
                average_win=round(tot.win_points / tot.wins, 2) if tot.wins else 0.0,
                hands_won=won, hands_dealt_in=dealt)

        return await self.store.run(unit, write=False)

    async def night_history(self, chat_id: int, scope: Scope = "current", page: int = 1,
                            page_size: int = 10) -> NightHistory:
        """The hands of the nights in ``scope``, latest first, a page at a time."""
        page = max(1, page)
        h = t.hands.c

        def unit(conn: Connection) -> NightHistory:
            nights = self._scope(conn, chat_id, scope)
            cond = [h.chat_id == chat_id]
            order = [h.id.desc()]  # walks ix_hands_chat_id backwards
            if nights is not None:
                if not nights:
                    return NightHistory(nights=(), items=(), labels={}, presets={}, several=False,
                                        page=page, pages=1, total=0)
                if len(nights) == 1:  # walks uq_hands_night_number backwards
                    cond.append(h.night_id == nights[0].night_id)
                    order = [h.number.desc()]
                else:
                    cond.append(h.night_id.in_([n.night_id for n in nights]))
            total = conn.execute(select(func.count()).select_from(t.hands)
                                 .where(*cond)).scalar_one()
            pages = max(1, -(-total // page_size))
            rows = [] if page > pages else conn.execute(
                select(t.hands).where(*cond).order_by(*order)
                .limit(page_size).offset((page - 1) * page_size)).all()
            sids = {r.night_id for r in rows}
            known = {n.night_id: n for n in nights or ()}
            shown = known if sids <= set(known) else self._nights_by_id(conn, chat_id, sids)
            labels = {sid: n.label for sid, n in shown.items()}
            items = history_items(conn, rows)
            return NightHistory(nights=tuple(nights or ()), items=items, labels=labels,
                                presets={sid: n.preset for sid, n in shown.items()},
                                several=nights is None or len(nights) > 1, page=page,
                                pages=pages, total=total)

        return await self.store.run(unit, write=False)

    async def night_list(self, chat_id: int, page: int = 1, page_size: int = 20
                         ) -> NightList:
        """Every night of the chat, latest first, a line each, a page at a time."""
        page = max(1, page)
        h = t.hands.c

        def unit(conn: Connection) -> NightList:
            rows = conn.execute(_NIGHT.where(_s.chat_id == chat_id).order_by(_s.id)).all()
            where = _zone_of(conn, chat_id)
            labelled: list[Night] = []
            for day, group in groupby(rows, key=lambda r: _day_of(r.started_at, where)):
                labelled += [_night(r, _label(day, k)) for k, r in enumerate(group, 1)]
            total = len(labelled)
            pages = max(1, -(-total // page_size))
            shown = labelled[::-1][(page - 1) * page_size:page * page_size]
            void = dict(conn.execute(
                select(h.night_id, func.count()).where(
                    h.chat_id == chat_id, h.status == "void",
                    h.night_id.in_([n.night_id for n in shown]))
                .group_by(h.night_id)).tuples().all()) if shown else {}
            return NightList(lines=tuple(NightLine(night=n, void=int(void.get(n.night_id, 0)))
                                         for n in shown),
                             page=page, pages=pages, total=total)

        return await self.store.run(unit, write=False)

    async def hand_detail(self, chat_id: int, number: int, scope: Scope = "current"
                          ) -> HandDetail:
        """Hand ``number`` of one night (the current or latest unless ``scope`` names a
        night; a day names its first night, as the bot labels it): its events, result,
        reporters and changes."""

        def unit(conn: Connection) -> HandDetail:
            named = (scope, 1) if isinstance(scope, date) else scope
            nights = self._scope(conn, chat_id, named) or []
            if not nights:
                raise LedgerError("no_night", "no such night in this chat")
            entry = nights[0]
            h = t.hands.c
            row = conn.execute(select(t.hands).where(
                h.night_id == entry.night_id, h.number == number)).first()
            if row is None:
                raise LedgerError("no_hand_here", f"there is no hand {number}", number=number,
                                  night=entry.label)
            night = repo.night_info(conn, chat_id, entry.night_id)
            night = repo.as_played(conn, night, row.seats)
            p = t.players.c
            who = dict(conn.execute(select(p.telegram_id, p.name).where(
                p.chat_id == chat_id, p.telegram_id.is_not(None))).tuples().all())
            a = t.audit.c
            notes = tuple(
                AuditNote(action=r.action, actor=who.get(r.actor), at=r.at,
                          **(dict(zip(("undid", "undid_event"), undone(r.before, r.after),
                                      strict=True)) if r.action == "undo" else {}))
                for r in conn.execute(select(a.action, a.actor, a.at, a.before, a.after).where(
                    a.chat_id == chat_id, a.night_id == entry.night_id,
                    a.hand_number == number).order_by(a.id)).all())
            return HandDetail(
                entry=entry, night=night, number=row.number, dealer=row.dealer,
                status=row.status, report=full_report(row.report),
                result=full_result(row.result, row.report, night.rules, row.dealer),
                reporters=tuple(who.get(r) if r is not None else None for r in row.reporters),
                changes=notes, created_at=row.created_at,
                time_zone=conn.execute(select(t.chats.c.time_zone).where(
                    t.chats.c.id == chat_id)).scalar())

        return await self.store.run(unit, write=False)

    async def player_record(self, chat_id: int, player_id: int, last: int = 5
                            ) -> PlayerRecord:
        """A player's totals, rates, last hands and best hand (at the chat's preset if they
        won a hand at it)."""

        def unit(conn: Connection) -> PlayerRecord:
            prow, tot = _player_and_totals(conn, chat_id, player_id)
            hp, h = t.hand_players.c, t.hands.c
            cols = (hp.delta, hp.won, hp.self_draws, hp.dealt_in, hp.win_points, h.number,
                    h.night_id, h.id)  # not the result: a sort would carry it along
            base = select(*cols).join(t.hands, h.id == hp.hand_id).where(
                hp.chat_id == chat_id, hp.player_id == player_id)
            recent = conn.execute(base.order_by(h.id.desc()).limit(last)).all()
            # The best hand at the chat's game (points of two presets do not compare), or,
            # with no win at it, at any (its answer names the preset it was played at).
            wins = base.where(hp.win_points > 0).order_by(hp.win_points.desc(), h.id).limit(1)
            chat_preset = select(t.chats.c.preset).where(t.chats.c.id == chat_id)
            best = conn.execute(wins.join(t.nights, t.nights.c.id == h.night_id).where(
                t.nights.c.preset == chat_preset.scalar_subquery())).first() \
                or conn.execute(wins).first()
            played_in = self._nights_by_id(
                conn, chat_id, {r.night_id for r in [*recent, *([best] if best else [])]})

            def hand(r: Row[Any], names: tuple[str, ...] = ()) -> RecentHand:
                night = played_in[r.night_id]
                return RecentHand(night=night.label, number=r.number,
                                  delta=r.delta, won=r.won, self_draws=r.self_draws,
                                  dealt_in=r.dealt_in, win_points=r.win_points, names=names,
                                  preset=night.preset)

            best_hand = None
            if best is not None:
                srow = repo.night_row(conn, chat_id, best.night_id)
                assert srow is not None
                found = conn.execute(select(h.result, h.report, h.dealer, h.seats).where(
                    h.id == best.id)).one()
                played = repo.hand_seats(srow, found)  # a seat may have changed since
                seat = next(s for s, pid in played.items() if pid == player_id)
                result = full_result(found.result, found.report, srow.rules, found.dealer)
                names = tuple(str(line.params["name"]) for ev in result.events
                              for line in ev.lines
                              if line.params.get("seat") == seat and "name" in line.params
                              and line.code in ("base", "pattern", "extra", "big_win",
                                                "hand_value"))
                best_hand = hand(best, names)
            won, dealt = hands_with(conn, chat_id, player_id)
            stats = PlayerStats(
                player=repo.player_info(prow), hands=tot.hands, wins=tot.wins,
                self_draws=tot.self_draws, dealt_in=tot.dealt_in, net=tot.net,
                biggest=best.win_points if best else 0,
                average_win=round(tot.win_points / tot.wins, 2) if tot.wins else 0.0,
                hands_won=won, hands_dealt_in=dealt)
            return PlayerRecord(stats=stats, last=tuple(hand(r) for r in recent),
                                best=best_hand)

        return await self.store.run(unit, write=False)

    def _nights_of_day(self, conn: Connection, chat_id: int, day: date) -> list[Night]:
        """The nights started on ``day`` (in the chat's time zone), oldest first."""
        where = _zone_of(conn, chat_id)
        start = datetime(day.year, day.month, day.day, tzinfo=where).astimezone(UTC)
        end = (datetime(day.year, day.month, day.day, tzinfo=where)
               + timedelta(days=1)).astimezone(UTC)
        rows = conn.execute(_NIGHT.where(
            _s.chat_id == chat_id, _s.started_at >= start,
            _s.started_at < end).order_by(_s.id)).all()
        return [_night(r, _label(day, k)) for k, r in enumerate(rows, 1)]

    def _nights_by_id(self, conn: Connection, chat_id: int, ids: set[int]
                      ) -> dict[int, Night]:
        if not ids:
            return {}
        rows = conn.execute(_NIGHT.where(_s.chat_id == chat_id, _s.id.in_(ids))).all()
        out: dict[int, Night] = {}
        where = _zone_of(conn, chat_id)
        for day in {_day_of(r.started_at, where) for r in rows}:
            out |= {n.night_id: n for n in self._nights_of_day(conn, chat_id, day)}
        return {sid: out[sid] for sid in ids if sid in out}

    def _scope(self, conn: Connection, chat_id: int, scope: Scope) -> list[Night] | None:
        """The nights in ``scope``, latest first; None for every night."""
        if scope == "all":
            return None
        if scope == "current":  # the night going, else the latest night
            row = conn.execute(_NIGHT.where(_s.chat_id == chat_id).order_by(
                (_s.status == "open").desc(), _s.id.desc()).limit(1)).first()
            if row is None:
                return []
            day = _day_of(row.started_at, _zone_of(conn, chat_id))
            return [n for n in self._nights_of_day(conn, chat_id, day)
                    if n.night_id == row.id]
        if isinstance(scope, tuple):
            day, k = scope
            nights = self._nights_of_day(conn, chat_id, day)
            return nights[k - 1 : k]
        if isinstance(scope, date):
            return self._nights_of_day(conn, chat_id, scope)[::-1]
        raise ValueError(f"bad scope {scope!r}")


__all__ = ["HandDetail", "Lookback", "Night", "NightHistory", "NightLine", "NightList",
           "PlayerInfo", "PlayerRecord", "RecentHand", "Scope"]
