"""The ledger's operations: the only API the bot calls.

Every write is one transaction (a unit of work): on SQLite it starts with BEGIN IMMEDIATE,
on PostgreSQL it locks the session row first, so two writers on one table queue instead of
interleaving. Every read and write is scoped by chat id.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import and_, bindparam, delete, func, insert, select, update
from sqlalchemy.engine import Row
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from engine.models import SEATS, HandReport, HandResult, Seat
from engine.rules import Ruleset, ruleset
from engine.settle import parse_report, settle_hand
from storage import tables as t
from storage.db import create_engine, migrate
from storage.errors import LedgerError
from storage.hand_stats import seat_facts
from storage.models import (
    ChatInfo,
    Debt,
    EditOutcome,
    HandChange,
    HistoryItem,
    HistoryPage,
    PlayerInfo,
    PlayerRef,
    PlayerStats,
    RecordOutcome,
    SessionInfo,
    Standing,
    Summary,
    Transfer,
    UndoOutcome,
)
from storage.transfers import fewest_transfers

SEAT_COLUMNS = {"E": "seat_e", "S": "seat_s", "W": "seat_w", "N": "seat_n"}
DEFAULT_PRESET = "chengdu"


def now() -> datetime:
    return datetime.now(UTC)


UNKNOWN = object()  # "the caller does not know": look it up


class _Prefixed:
    """The ``h_``-labelled columns of a joined row, read as a hand row."""

    def __init__(self, row: Row[Any], prefix: str) -> None:
        self._row, self._prefix = row, prefix

    def __getattr__(self, name: str) -> Any:
        return getattr(self._row, self._prefix + name)


def _player(row: Row[Any]) -> PlayerInfo:
    return PlayerInfo(id=row.id, name=row.name, telegram_id=row.telegram_id,
                      username=row.username)


class Ledger:
    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self.dialect = engine.dialect.name

    @classmethod
    async def open(cls, url: str, *, run_migrations: bool = True, **kw: Any) -> Ledger:
        engine = create_engine(url, **kw)
        if run_migrations:
            await migrate(engine)
        return cls(engine)

    async def close(self) -> None:
        await self.engine.dispose()

    def _upsert(self, table: Any) -> Any:
        """The dialect's INSERT that supports ON CONFLICT DO NOTHING."""
        if self.dialect == "postgresql":
            from sqlalchemy.dialects.postgresql import insert as pg_insert

            return pg_insert(table)
        from sqlalchemy.dialects.sqlite import insert as sqlite_insert

        return sqlite_insert(table)

    # -- units of work ----------------------------------------------------------------

    @asynccontextmanager
    async def write(self) -> AsyncIterator[AsyncConnection]:
        async with self.engine.connect() as conn:
            conn = await conn.execution_options(write=True)
            async with conn.begin():
                yield conn

    @asynccontextmanager
    async def read(self) -> AsyncIterator[AsyncConnection]:
        async with self.engine.connect() as conn, conn.begin():
            yield conn

    # -- chats and players --------------------------------------------------------------

    async def chat(self, chat_id: int, language: str = "zh-Hans") -> ChatInfo:
        """The chat's settings, created on first use."""
        async with self.write() as conn:
            return await self._chat(conn, chat_id, language)

    async def _chat(self, conn: AsyncConnection, chat_id: int, language: str = "zh-Hans"
                    ) -> ChatInfo:
        row = (await conn.execute(select(t.chats).where(t.chats.c.id == chat_id))).first()
        if row is None:
            values = {"id": chat_id, "language": language, "preset": DEFAULT_PRESET,
                      "overrides": {}, "stake_cents": 100, "created_at": now()}
            await conn.execute(self._upsert(t.chats).values(**values).on_conflict_do_nothing())
            row = (await conn.execute(select(t.chats).where(t.chats.c.id == chat_id))).one()
        return ChatInfo(id=row.id, language=row.language, preset=row.preset,
                        overrides=row.overrides, stake_cents=row.stake_cents)

    async def update_chat(self, chat_id: int, *, language: str | None = None,
                          preset: str | None = None, overrides: dict[str, Any] | None = None,
                          stake_cents: int | None = None) -> ChatInfo:
        async with self.write() as conn:
            chat = await self._chat(conn, chat_id)
            values: dict[str, Any] = {}
            if language is not None:
                values["language"] = language
            if preset is not None or overrides is not None:
                new_preset = preset or chat.preset
                new_over = chat.overrides if overrides is None else overrides
                if preset is not None and overrides is None:
                    new_over = {}
                ruleset(new_preset, new_over)  # validates, or raises ReportError
                values["preset"], values["overrides"] = new_preset, new_over
            if stake_cents is not None:
                if stake_cents < 0:
                    raise LedgerError("bad_stake", "the stake cannot be negative")
                values["stake_cents"] = stake_cents
            if values:
                await conn.execute(update(t.chats).where(t.chats.c.id == chat_id)
                                   .values(**values))
            return await self._chat(conn, chat_id)

    async def _find_or_add_player(self, conn: AsyncConnection, chat_id: int, ref: PlayerRef
                                  ) -> PlayerInfo:
        p = t.players.c
        if ref.telegram_id is not None:
            row = (await conn.execute(select(t.players).where(
                p.chat_id == chat_id, p.telegram_id == ref.telegram_id))).first()
            if row is not None:
                if ref.username and row.username != ref.username:
                    await conn.execute(update(t.players).where(p.id == row.id)
                                       .values(username=ref.username))
                return _player(row)
            if ref.username:  # seated earlier by @username: link the account now
                row = (await conn.execute(select(t.players).where(
                    p.chat_id == chat_id, p.telegram_id.is_(None),
                    func.lower(p.username) == ref.username.lower()))).first()
                if row is not None:
                    await conn.execute(update(t.players).where(p.id == row.id).values(
                        telegram_id=ref.telegram_id))
                    return PlayerInfo(id=row.id, name=row.name, telegram_id=ref.telegram_id,
                                      username=row.username)
        key = ref.name.strip().lower()
        if not key:
            raise LedgerError("bad_name", "a player needs a name")
        row = (await conn.execute(select(t.players).where(
            p.chat_id == chat_id, p.name_key == key))).first()
        if row is not None:
            if ref.telegram_id is None or row.telegram_id == ref.telegram_id:
                return _player(row)
            if row.telegram_id is None:  # a guest of that name: link them
                await conn.execute(update(t.players).where(p.id == row.id).values(
                    telegram_id=ref.telegram_id, username=ref.username))
                return PlayerInfo(id=row.id, name=row.name, telegram_id=ref.telegram_id,
                                  username=ref.username)
            key = f"{key}#{ref.telegram_id}"  # two members with one display name
        result = await conn.execute(insert(t.players).values(
            chat_id=chat_id, telegram_id=ref.telegram_id, name=ref.name.strip()[:64],
            name_key=key[:64], username=ref.username, created_at=now()).returning(p.id))
        pid = result.scalar_one()
        await conn.execute(insert(t.totals).values(
            player_id=pid, chat_id=chat_id, net=0, hands=0, wins=0, self_draws=0,
            dealt_in=0, win_points=0))
        return PlayerInfo(id=pid, name=ref.name.strip()[:64], telegram_id=ref.telegram_id,
                          username=ref.username)

    async def player(self, chat_id: int, ref: PlayerRef) -> PlayerInfo:
        async with self.write() as conn:
            await self._chat(conn, chat_id)
            return await self._find_or_add_player(conn, chat_id, ref)

    async def find_player(self, chat_id: int, name: str) -> PlayerInfo | None:
        """A player of this chat by name, @username, or Telegram id."""
        p = t.players.c
        key = name.strip().lstrip("@").lower()
        async with self.read() as conn:
            rows = (await conn.execute(select(t.players).where(p.chat_id == chat_id))).all()
        for row in rows:
            if row.name_key == key or (row.username or "").lower() == key:
                return _player(row)
        return None

    async def link_guest(self, chat_id: int, guest_name: str, telegram_id: int,
                         username: str | None = None) -> PlayerInfo:
        p = t.players.c
        async with self.write() as conn:
            row = (await conn.execute(select(t.players).where(
                p.chat_id == chat_id, p.name_key == guest_name.strip().lower()))).first()
            if row is None or row.telegram_id is not None:
                raise LedgerError("no_guest", f"no guest named {guest_name!r} here",
                                  name=guest_name)
            taken = (await conn.execute(select(p.id).where(
                p.chat_id == chat_id, p.telegram_id == telegram_id))).first()
            if taken is not None:
                raise LedgerError("already_linked", "that account already plays here")
            await conn.execute(update(t.players).where(p.id == row.id).values(
                telegram_id=telegram_id, username=username))
            return PlayerInfo(id=row.id, name=row.name, telegram_id=telegram_id,
                              username=username)

    # -- sessions -----------------------------------------------------------------------

    async def open_session(self, chat_id: int, seats: Sequence[PlayerRef], *,
                           preset: str | None = None, overrides: dict[str, Any] | None = None,
                           stake_cents: int | None = None) -> SessionInfo:
        if len(seats) != 4:
            raise LedgerError("four_players", "a table has four players", count=len(seats))
        async with self.write() as conn:
            chat = await self._chat(conn, chat_id)
            s = t.sessions.c
            if (await conn.execute(select(s.id).where(
                    s.chat_id == chat_id, s.status == "open"))).first() is not None:
                raise LedgerError("session_open", "this chat already has a table going; "
                                  "end it first")
            rules = ruleset(preset or chat.preset,
                            {**(chat.overrides if preset is None else {}), **(overrides or {})})
            players = [await self._find_or_add_player(conn, chat_id, ref) for ref in seats]
            if len({p.id for p in players}) != 4:
                raise LedgerError("same_player_twice", "a player cannot sit twice")
            try:
                result = await conn.execute(insert(t.sessions).values(
                    chat_id=chat_id, preset=rules.preset, rules=rules.snapshot(),
                    stake_cents=chat.stake_cents if stake_cents is None else stake_cents,
                    seat_e=players[0].id, seat_s=players[1].id, seat_w=players[2].id,
                    seat_n=players[3].id, dealer="E", status="open", hands=0,
                    started_at=now()).returning(s.id))
            except IntegrityError:  # another writer opened a table a moment ago
                raise LedgerError("session_open", "this chat already has a table going; "
                                  "end it first") from None
            sid = result.scalar_one()
            return await self._session_info(conn, chat_id, sid)

    async def _session_row(self, conn: AsyncConnection, chat_id: int,
                           session_id: int | None = None, lock: bool = False
                           ) -> Row[Any] | None:
        s = t.sessions.c
        q = select(t.sessions).where(s.chat_id == chat_id)
        q = q.where(s.id == session_id) if session_id is not None else q.where(
            s.status == "open")
        if lock:
            q = q.with_for_update()
        return (await conn.execute(q)).first()

    async def _open_session_row(self, conn: AsyncConnection, chat_id: int) -> Row[Any]:
        row = await self._session_row(conn, chat_id, lock=True)
        if row is None:
            raise LedgerError("no_session", "no table is going in this chat; start one "
                              "with /new")
        return row

    async def _session_info(self, conn: AsyncConnection, chat_id: int, session_id: int,
                            row: Row[Any] | None = None, dealer: str | None = None,
                            hands: int | None = None,
                            open_hand: tuple[int, tuple[Seat, ...]] | object | None = UNKNOWN
                            ) -> SessionInfo:
        """The table as players see it. A caller that already holds the session row and
        knows the dealer, hand count and open hand passes them to spare queries."""
        if row is None:
            row = await self._session_row(conn, chat_id, session_id)
        if row is None:
            raise LedgerError("no_session", "no such table in this chat")
        ids = {seat: getattr(row, col) for seat, col in SEAT_COLUMNS.items()}
        prow = {r.id: r for r in (await conn.execute(
            select(t.players).where(t.players.c.id.in_(list(ids.values()))))).all()}
        seats = {seat: _player(prow[pid]) for seat, pid in ids.items()}
        e = t.entries.c
        sums = dict((await conn.execute(
            select(e.player_id, func.coalesce(func.sum(e.delta), 0))
            .where(e.session_id == session_id).group_by(e.player_id))).all())
        if open_hand is UNKNOWN:
            h = t.hands.c
            found = (await conn.execute(select(h.number, h.result).where(
                h.session_id == session_id, h.status == "open"))).first()
            open_hand = (found.number, tuple(found.result["still_in"])) if found else None
        number, still_in = open_hand if open_hand else (None, ())  # type: ignore[misc]
        return SessionInfo(
            id=row.id, chat_id=row.chat_id, preset=row.preset, rules=row.rules,
            stake_cents=row.stake_cents, seats=seats,
            dealer=dealer if dealer is not None else row.dealer,
            hands=hands if hands is not None else row.hands,
            status=row.status, started_at=row.started_at,
            totals={seat: int(sums.get(p.id, 0)) for seat, p in seats.items()},
            open_hand=number, still_in=still_in,
            board_message_id=row.board_message_id,
        )

    async def current_session(self, chat_id: int) -> SessionInfo | None:
        async with self.read() as conn:
            row = await self._session_row(conn, chat_id)
            return None if row is None else await self._session_info(conn, chat_id, row.id)

    async def last_event(self, chat_id: int) -> tuple[int, int, int, int | None] | None:
        """(session id, hand number, event index, reporter) of the open table's last event."""
        async with self.read() as conn:
            srow = await self._session_row(conn, chat_id)
            if srow is None:
                return None
            h = t.hands.c
            row = (await conn.execute(select(h.number, h.reporters).where(
                h.session_id == srow.id, h.status != "void").order_by(h.number.desc())
                .limit(1))).first()
            if row is None or not row.reporters:
                return None
            return srow.id, row.number, len(row.reporters) - 1, row.reporters[-1]

    async def set_board_message(self, chat_id: int, session_id: int, message_id: int) -> None:
        async with self.write() as conn:
            await conn.execute(update(t.sessions).where(
                t.sessions.c.chat_id == chat_id, t.sessions.c.id == session_id)
                .values(board_message_id=message_id))

    # -- recording --------------------------------------------------------------------

    async def _seen_update(self, conn: AsyncConnection, update_id: int | None,
                           chat_id: int) -> bool:
        """Note the update id; True if it was noted before (a re-delivery). One statement."""
        if update_id is None:
            return False
        result = await conn.execute(self._upsert(t.processed_updates).values(
            update_id=update_id, chat_id=chat_id, at=now()).on_conflict_do_nothing())
        return result.rowcount == 0

    async def mark_update(self, update_id: int, chat_id: int | None = None) -> bool:
        """Record an update id; False when it was already processed (a re-delivery)."""
        async with self.write() as conn:
            try:
                return not await self._seen_update(conn, update_id, chat_id or 0)
            except IntegrityError:
                return False

    async def record(self, chat_id: int, event: dict[str, Any], *, reporter: int | None = None,
                     update_id: int | None = None, indicator: str | None = None
                     ) -> RecordOutcome:
        """Record one event: it joins the open hand, or starts the next one. Atomic."""
        async with self.write() as conn:
            if await self._seen_update(conn, update_id, chat_id):
                return RecordOutcome(duplicate=True)
            srow, hrow = await self._open_session_and_hand(conn, chat_id)
            rules = Ruleset.from_snapshot(srow.rules)
            h = t.hands.c
            if hrow is None:
                number, dealer, events, reporters = srow.hands + 1, srow.dealer, [], []
                base_indicator = indicator
            else:
                number, dealer = hrow.number, hrow.dealer
                events, reporters = list(hrow.report["events"]), list(hrow.reporters)
                base_indicator = indicator or hrow.report.get("indicator")
            report = parse_report({"events": [*events, event], "indicator": base_indicator})
            result = settle_hand(rules, report, dealer)
            index = len(events)
            stamp = now()
            closed = not result.open
            if hrow is None:  # the hand's first event: insert it whole
                ins = await conn.execute(insert(t.hands).values(
                    chat_id=chat_id, session_id=srow.id, number=number, dealer=dealer,
                    report=report.model_dump(mode="json"),
                    result=result.model_dump(mode="json"),
                    status="closed" if closed else "open",
                    next_dealer=result.next_dealer if closed else None,
                    reporters=[reporter], created_at=stamp, updated_at=stamp)
                    .returning(h.id))
                hand_id = ins.scalar_one()
                await self._write_hand(conn, srow, hand_id, report, result, [reporter], stamp,
                                       only_event=index, previous=None, stored=True)
            else:
                hand_id = hrow.id
                await self._write_hand(conn, srow, hand_id, report, result,
                                       [*reporters, reporter], stamp, only_event=index,
                                       previous=HandResult.model_validate(hrow.result))
            changes: dict[str, Any] = {}
            if hrow is None:
                changes["hands"] = number
            if closed:
                changes["dealer"] = result.next_dealer
            if changes:
                await conn.execute(update(t.sessions).where(t.sessions.c.id == srow.id)
                                   .values(**changes))
            info = await self._session_info(
                conn, chat_id, srow.id, row=srow, dealer=changes.get("dealer", srow.dealer),
                hands=changes.get("hands", srow.hands),
                open_hand=None if closed else (number, tuple(result.still_in)))
            return RecordOutcome(hand_number=number, event_index=index,
                                 event=result.events[index], hand=result, closed=closed,
                                 next_dealer=result.next_dealer, session=info)

    async def _open_session_and_hand(self, conn: AsyncConnection, chat_id: int
                                     ) -> tuple[Row[Any], Row[Any] | None]:
        """The open table, locked for writing, and its open hand if any: one query."""
        s, h = t.sessions, t.hands
        hand_cols = [c.label(f"h_{c.name}") for c in h.c]
        q = (select(s, *hand_cols)
             .outerjoin(h, and_(h.c.session_id == s.c.id, h.c.status == "open"))
             .where(s.c.chat_id == chat_id, s.c.status == "open")
             .with_for_update(of=s))
        row = (await conn.execute(q)).first()
        if row is None:
            raise LedgerError("no_session", "no table is going in this chat; start one "
                              "with /new")
        if row.h_id is None:
            return row, None
        hand = _Prefixed(row, "h_")
        return row, hand  # type: ignore[return-value]

    async def _write_hand(self, conn: AsyncConnection, srow: Row[Any], hand_id: int,
                          report: HandReport, result: HandResult, reporters: list[Any],
                          stamp: datetime, only_event: int | None = None,
                          previous: HandResult | object | None = UNKNOWN,
                          stored: bool = False) -> None:
        """Store a hand's report, result, entries, per-player facts and running totals.

        ``only_event`` adds the entries of that event alone (earlier ones are unchanged,
        since settlement is sequential); otherwise all entries are rewritten. ``previous``
        is the hand's result before this write when the caller knows it (None: a new hand);
        ``stored`` says the hand row already holds this report and result.
        """
        seats = {seat: getattr(srow, col) for seat, col in SEAT_COLUMNS.items()}
        e = t.entries.c
        if only_event is None:
            await conn.execute(delete(t.entries).where(e.hand_id == hand_id))
            todo = list(enumerate(result.events))
        else:
            todo = [(only_event, result.events[only_event])]
        rows = [
            {"chat_id": srow.chat_id, "session_id": srow.id, "hand_id": hand_id,
             "event_index": i, "player_id": seats[seat], "delta": ev.deltas[seat],
             "created_at": stamp}
            for i, ev in todo for seat in SEATS
        ]
        if rows:
            await conn.execute(insert(t.entries), rows)
        if not stored:
            await conn.execute(update(t.hands).where(t.hands.c.id == hand_id).values(
                report=report.model_dump(mode="json"), result=result.model_dump(mode="json"),
                status="open" if result.open else "closed",
                next_dealer=result.next_dealer if not result.open else None,
                reporters=reporters, updated_at=stamp))
        await self._set_hand_facts(conn, srow.chat_id, hand_id, seats, result, previous)

    async def _set_hand_facts(self, conn: AsyncConnection, chat_id: int, hand_id: int,
                              seats: dict[Seat, int], result: HandResult | None,
                              previous: HandResult | object | None = UNKNOWN) -> None:
        """Replace the hand's per-player facts and move the running totals by the change.
        ``previous`` (the hand's former result, or None for a new hand) spares a query."""
        hp = t.hand_players.c
        old: dict[int, Any]
        if previous is UNKNOWN:
            old = {r.player_id: r for r in (await conn.execute(
                select(t.hand_players).where(hp.hand_id == hand_id))).all()}
        elif previous is None:
            old = {}
        else:
            old = {seats[s]: f for s, f in seat_facts(previous).items()}  # type: ignore[arg-type]
        new = seat_facts(result) if result is not None else {}
        if old:
            await conn.execute(delete(t.hand_players).where(hp.hand_id == hand_id))
        if new:
            await conn.execute(insert(t.hand_players), [
                {"hand_id": hand_id, "player_id": seats[s], "chat_id": chat_id,
                 "delta": f.delta, "won": f.won, "self_draws": f.self_draws,
                 "dealt_in": f.dealt_in, "win_points": f.win_points}
                for s, f in new.items()])
        tc = t.totals.c
        changes = []
        for seat, pid in seats.items():
            o = old.get(pid)
            f = new.get(seat)
            diff = {
                "d_net": (f.delta if f else 0) - (o.delta if o else 0),
                "d_hands": (1 if f else 0) - (1 if o else 0),
                "d_wins": (f.won if f else 0) - (o.won if o else 0),
                "d_self_draws": (f.self_draws if f else 0) - (o.self_draws if o else 0),
                "d_dealt_in": (f.dealt_in if f else 0) - (o.dealt_in if o else 0),
                "d_win_points": (f.win_points if f else 0) - (o.win_points if o else 0),
            }
            if any(diff.values()):
                changes.append({"pid": pid, **diff})
        if changes:  # one statement for every player whose totals moved
            await conn.execute(
                update(t.totals).where(tc.player_id == bindparam("pid")).values(
                    **{k: getattr(tc, k) + bindparam("d_" + k) for k in (
                        "net", "hands", "wins", "self_draws", "dealt_in", "win_points")}),
                changes)

    # -- corrections --------------------------------------------------------------------

    async def undo(self, chat_id: int, *, actor: int | None = None,
                   allow_others: bool = False) -> UndoOutcome:
        """Take back the session's last event. Only its reporter, unless ``allow_others``."""
        async with self.write() as conn:
            srow = await self._open_session_row(conn, chat_id)
            h = t.hands.c
            hrow = (await conn.execute(select(t.hands).where(
                h.session_id == srow.id, h.status != "void").order_by(h.number.desc())
                .limit(1))).first()
            if hrow is None:
                raise LedgerError("nothing_to_undo", "nothing has been recorded at this table")
            reporters = list(hrow.reporters)
            if not allow_others and reporters and reporters[-1] not in (None, actor):
                raise LedgerError("not_reporter", "only the player who reported it, or an "
                                  "admin, can undo it")
            events = list(hrow.report["events"])
            removed = events.pop()
            index = len(events)
            e = t.entries.c
            deltas_rows = (await conn.execute(select(e.player_id, e.delta).where(
                e.hand_id == hrow.id, e.event_index == index))).all()
            seats = {seat: getattr(srow, col) for seat, col in SEAT_COLUMNS.items()}
            by_pid = dict(deltas_rows)
            deltas = {seat: -int(by_pid.get(pid, 0)) for seat, pid in seats.items()}
            await conn.execute(delete(t.entries).where(e.hand_id == hrow.id,
                                                       e.event_index == index))
            stamp = now()
            if not events:
                await self._set_hand_facts(conn, chat_id, hrow.id, seats, None)
                await conn.execute(delete(t.hands).where(h.id == hrow.id))
                await conn.execute(update(t.sessions).where(t.sessions.c.id == srow.id)
                                   .values(hands=hrow.number - 1, dealer=hrow.dealer))
            else:
                rules = Ruleset.from_snapshot(srow.rules)
                report = parse_report({"events": events,
                                       "indicator": hrow.report.get("indicator")})
                result = settle_hand(rules, report, hrow.dealer)
                await conn.execute(update(t.hands).where(h.id == hrow.id).values(
                    report=report.model_dump(mode="json"),
                    result=result.model_dump(mode="json"), status="open", next_dealer=None,
                    reporters=reporters[:-1], updated_at=stamp))
                await self._set_hand_facts(conn, chat_id, hrow.id, seats, result)
                await conn.execute(update(t.sessions).where(t.sessions.c.id == srow.id)
                                   .values(dealer=hrow.dealer))
            await self._audit(conn, chat_id, srow.id, hrow.number, "undo", actor,
                              {"event": removed}, None)
            return UndoOutcome(hand_number=hrow.number, event_index=index, removed=removed,
                               deltas=deltas,
                               session=await self._session_info(conn, chat_id, srow.id))

    async def void(self, chat_id: int, number: int, *, actor: int | None = None
                   ) -> EditOutcome:
        return await self._edit(chat_id, number, None, actor)

    async def amend(self, chat_id: int, number: int, events: list[dict[str, Any]], *,
                    actor: int | None = None, indicator: str | None = None) -> EditOutcome:
        return await self._edit(chat_id, number, events, actor, indicator)

    async def _edit(self, chat_id: int, number: int, events: list[dict[str, Any]] | None,
                    actor: int | None, indicator: str | None = None) -> EditOutcome:
        async with self.write() as conn:
            srow = await self._open_session_row(conn, chat_id)
            h = t.hands.c
            target = (await conn.execute(select(t.hands).where(
                h.session_id == srow.id, h.number == number))).first()
            if target is None or target.status == "void":
                raise LedgerError("no_hand", f"there is no hand {number} to change",
                                  number=number)
            rules = Ruleset.from_snapshot(srow.rules)
            seats = {seat: getattr(srow, col) for seat, col in SEAT_COLUMNS.items()}
            stamp = now()
            before = {"report": target.report, "deltas": target.result["deltas"]}
            if events is None:
                await conn.execute(delete(t.entries).where(t.entries.c.hand_id == target.id))
                await self._set_hand_facts(conn, chat_id, target.id, seats, None)
                await conn.execute(update(t.hands).where(h.id == target.id).values(
                    status="void", updated_at=stamp))
                after = None
                action = "void"
            else:
                report = parse_report({"events": events,
                                       "indicator": indicator or target.report.get("indicator")})
                result = settle_hand(rules, report, target.dealer)
                if result.open and target.status == "closed":
                    later = (await conn.execute(select(h.id).where(
                        h.session_id == srow.id, h.number > number, h.status != "void"))).first()
                    if later is not None:
                        raise LedgerError("amend_reopens", "that correction leaves the hand "
                                          "unfinished, but later hands were played")
                await self._write_hand(conn, srow, target.id, report, result,
                                       list(target.reporters)[: len(events)]
                                       + [actor] * max(0, len(events) - len(target.reporters)),
                                       stamp)
                after = {"report": report.model_dump(mode="json"), "deltas": result.deltas}
                action = "amend"
            changes = await self._replay_dealers(conn, srow, rules, seats, number, stamp)
            if events is not None:
                changes.insert(0, HandChange(
                    number=number, dealer_before=target.dealer, dealer_after=target.dealer,
                    deltas_before=target.result["deltas"], deltas_after=after["deltas"]))
            else:
                changes.insert(0, HandChange(
                    number=number, dealer_before=target.dealer, dealer_after=target.dealer,
                    deltas_before=target.result["deltas"],
                    deltas_after=dict.fromkeys(SEATS, 0)))
            await self._audit(conn, chat_id, srow.id, number, action, actor, before, after)
            return EditOutcome(action=action, hand_number=number, changes=tuple(changes),
                               session=await self._session_info(conn, chat_id, srow.id))

    async def _replay_dealers(self, conn: AsyncConnection, srow: Row[Any], rules: Ruleset,
                              seats: dict[Seat, int], from_number: int, stamp: datetime
                              ) -> list[HandChange]:
        """Walk the session's hands in order, giving each the dealer its predecessor left,
        and re-score those whose dealer changed. Sets the session's current dealer."""
        h = t.hands.c
        rows = (await conn.execute(select(t.hands).where(
            h.session_id == srow.id, h.status != "void").order_by(h.number))).all()
        dealer: Seat = "E"
        changes: list[HandChange] = []
        for row in rows:
            if row.dealer != dealer:
                report = parse_report(row.report)
                result = settle_hand(rules, report, dealer)
                await conn.execute(update(t.hands).where(h.id == row.id).values(dealer=dealer))
                await self._write_hand(conn, srow, row.id, report, result, list(row.reporters),
                                       stamp)
                changes.append(HandChange(
                    number=row.number, dealer_before=row.dealer, dealer_after=dealer,
                    deltas_before=row.result["deltas"], deltas_after=result.deltas))
                nxt = result.next_dealer if not result.open else None
            else:
                nxt = row.next_dealer
            if row.status == "open" or nxt is None:
                break
            dealer = nxt
        await conn.execute(update(t.sessions).where(t.sessions.c.id == srow.id)
                           .values(dealer=dealer))
        return [c for c in changes if c.number > from_number]

    async def _audit(self, conn: AsyncConnection, chat_id: int, session_id: int | None,
                     number: int | None, action: str, actor: int | None,
                     before: Any, after: Any) -> None:
        await conn.execute(insert(t.audit).values(
            chat_id=chat_id, session_id=session_id, hand_number=number, action=action,
            actor=actor, at=now(), before=before, after=after))

    async def audit_trail(self, chat_id: int, limit: int = 50) -> list[dict[str, Any]]:
        a = t.audit.c
        async with self.read() as conn:
            rows = (await conn.execute(select(t.audit).where(a.chat_id == chat_id)
                                       .order_by(a.id.desc()).limit(limit))).all()
        return [dict(r._mapping) for r in rows]

    # -- the end of the night -------------------------------------------------------------

    async def end_session(self, chat_id: int, *, actor: int | None = None) -> Summary:
        async with self.write() as conn:
            srow = await self._open_session_row(conn, chat_id)
            h = t.hands.c
            await conn.execute(update(t.hands).where(h.session_id == srow.id,
                                                     h.status == "open")
                               .values(status="closed", updated_at=now()))
            await conn.execute(update(t.sessions).where(t.sessions.c.id == srow.id).values(
                status="ended", ended_at=now()))
            summary = await self._summary(conn, chat_id, srow)
            for tr in summary.transfers:
                await conn.execute(insert(t.debts).values(
                    chat_id=chat_id, session_id=srow.id, payer_id=tr.payer.id,
                    payee_id=tr.payee.id, points=tr.points, cents=tr.cents, paid=False))
            debts = await self._debts(conn, chat_id, srow.id)
            return summary.model_copy(update={"debts": tuple(debts)})

    async def _summary(self, conn: AsyncConnection, chat_id: int, srow: Row[Any]) -> Summary:
        info = await self._session_info(conn, chat_id, srow.id)
        players = {p.id: p for p in info.seats.values()}
        nets = {info.seats[s].id: v for s, v in info.totals.items()}
        transfers = tuple(
            Transfer(payer=players[a], payee=players[b], points=n,
                     cents=n * srow.stake_cents)
            for a, b, n in fewest_transfers(nets))
        hp, h = t.hand_players.c, t.hands.c
        best = (await conn.execute(
            select(hp.player_id, hp.win_points, h.number).join(t.hands, h.id == hp.hand_id)
            .where(h.session_id == srow.id, hp.win_points > 0)
            .order_by(hp.win_points.desc(), h.number).limit(1))).first()
        wins = (await conn.execute(
            select(hp.player_id, func.sum(hp.won).label("w")).join(t.hands, h.id == hp.hand_id)
            .where(h.session_id == srow.id).group_by(hp.player_id)
            .order_by(func.sum(hp.won).desc()).limit(1))).first()
        return Summary(
            session_id=srow.id, hands=info.hands, stake_cents=srow.stake_cents, nets=nets,
            players=players, transfers=transfers,
            biggest=(players[best.player_id], best.win_points, best.number) if best else None,
            most_wins=(players[wins.player_id], int(wins.w)) if wins and wins.w else None,
        )

    async def summary(self, chat_id: int, session_id: int | None = None) -> Summary:
        async with self.read() as conn:
            srow = await self._session_row(conn, chat_id, session_id)
            if srow is None:
                raise LedgerError("no_session", "no such table in this chat")
            summary = await self._summary(conn, chat_id, srow)
            return summary.model_copy(update={
                "debts": tuple(await self._debts(conn, chat_id, srow.id))})

    async def _debts(self, conn: AsyncConnection, chat_id: int, session_id: int | None = None,
                     unpaid_only: bool = False) -> list[Debt]:
        d = t.debts.c
        q = select(t.debts).where(d.chat_id == chat_id)
        if session_id is not None:
            q = q.where(d.session_id == session_id)
        if unpaid_only:
            q = q.where(d.paid.is_(False))
        rows = (await conn.execute(q.order_by(d.id))).all()
        ids = {r.payer_id for r in rows} | {r.payee_id for r in rows}
        players = {r.id: _player(r) for r in (await conn.execute(
            select(t.players).where(t.players.c.id.in_(ids)))).all()} if ids else {}
        return [Debt(id=r.id, session_id=r.session_id, payer=players[r.payer_id],
                     payee=players[r.payee_id], points=r.points, cents=r.cents, paid=r.paid)
                for r in rows]

    async def debts(self, chat_id: int, unpaid_only: bool = True) -> list[Debt]:
        async with self.read() as conn:
            return await self._debts(conn, chat_id, unpaid_only=unpaid_only)

    async def mark_paid(self, chat_id: int, debt_id: int) -> Debt:
        d = t.debts.c
        async with self.write() as conn:
            row = (await conn.execute(select(t.debts).where(
                d.chat_id == chat_id, d.id == debt_id))).first()
            if row is None:
                raise LedgerError("no_debt", f"no debt {debt_id} in this chat", id=debt_id)
            await conn.execute(update(t.debts).where(d.id == debt_id).values(paid=True))
            return next(x for x in await self._debts(conn, chat_id) if x.id == debt_id)

    # -- reading the ledger ---------------------------------------------------------------

    async def standings(self, chat_id: int, since: datetime | None = None,
                        until: datetime | None = None) -> list[Standing]:
        """Net per player: all time from running totals, or summed over a date range."""
        async with self.read() as conn:
            players = {r.id: r for r in (await conn.execute(
                select(t.players).where(t.players.c.chat_id == chat_id))).all()}
            tc = t.totals.c
            if since is None and until is None:
                rows = (await conn.execute(select(t.totals).where(
                    tc.chat_id == chat_id, tc.hands > 0).order_by(tc.net.desc()))).all()
                return [Standing(player=_player(players[r.player_id]), net=r.net,
                                 hands=r.hands, wins=r.wins) for r in rows]
            e = t.entries.c
            cond = [e.chat_id == chat_id]
            if since is not None:
                cond.append(e.created_at >= since)
            if until is not None:
                cond.append(e.created_at < until)
            rows = (await conn.execute(
                select(e.player_id, func.sum(e.delta).label("net"),
                       func.count(func.distinct(e.hand_id)).label("hands"))
                .where(and_(*cond)).group_by(e.player_id)
                .order_by(func.sum(e.delta).desc()))).all()
            return [Standing(player=_player(players[r.player_id]), net=int(r.net),
                             hands=int(r.hands), wins=0) for r in rows]

    async def player_stats(self, chat_id: int, player_id: int) -> PlayerStats:
        async with self.read() as conn:
            prow = (await conn.execute(select(t.players).where(
                t.players.c.chat_id == chat_id, t.players.c.id == player_id))).first()
            if prow is None:
                raise LedgerError("no_player", "no such player in this chat")
            tot = (await conn.execute(select(t.totals).where(
                t.totals.c.player_id == player_id))).one()
            hp = t.hand_players.c
            biggest = (await conn.execute(select(func.max(hp.win_points)).where(
                hp.chat_id == chat_id, hp.player_id == player_id))).scalar() or 0
            return PlayerStats(
                player=_player(prow), hands=tot.hands, wins=tot.wins,
                self_draws=tot.self_draws, dealt_in=tot.dealt_in, net=tot.net,
                biggest=int(biggest),
                average_win=round(tot.win_points / tot.wins, 2) if tot.wins else 0.0)

    async def history(self, chat_id: int, page: int = 1, page_size: int = 10,
                      session_id: int | None = None) -> HistoryPage:
        page = max(1, page)
        h = t.hands.c
        cond = [h.chat_id == chat_id]
        if session_id is not None:
            cond.append(h.session_id == session_id)
        async with self.read() as conn:
            total = (await conn.execute(select(func.count()).select_from(t.hands)
                                        .where(*cond))).scalar_one()
            rows = (await conn.execute(
                select(t.hands).where(*cond).order_by(h.id.desc())
                .limit(page_size).offset((page - 1) * page_size))).all()
            sids = {r.session_id for r in rows}
            srows = {r.id: r for r in (await conn.execute(select(t.sessions).where(
                t.sessions.c.id.in_(sids)))).all()} if sids else {}
            pids = {getattr(s, c) for s in srows.values() for c in SEAT_COLUMNS.values()}
            names = dict((await conn.execute(select(t.players.c.id, t.players.c.name).where(
                t.players.c.id.in_(pids)))).all()) if pids else {}
        items = tuple(HistoryItem(
            session_id=r.session_id, number=r.number, dealer=r.dealer, status=r.status,
            deltas=r.result["deltas"] if r.status != "void" else dict.fromkeys(SEATS, 0),
            seats={s: names[getattr(srows[r.session_id], c)] for s, c in SEAT_COLUMNS.items()},
            events=len(r.report["events"]), created_at=r.created_at) for r in rows)
        return HistoryPage(items=items, page=page, pages=max(1, -(-total // page_size)),
                           total=total)

    async def hand(self, chat_id: int, number: int, session_id: int | None = None
                   ) -> tuple[dict[str, Any], HandResult]:
        """A hand's report and result, in the open session unless ``session_id``."""
        async with self.read() as conn:
            srow = await self._session_row(conn, chat_id, session_id)
            if srow is None:
                raise LedgerError("no_session", "no table is going in this chat")
            h = t.hands.c
            row = (await conn.execute(select(t.hands).where(
                h.session_id == srow.id, h.number == number))).first()
            if row is None:
                raise LedgerError("no_hand", f"there is no hand {number}", number=number)
            return row.report, HandResult.model_validate(row.result)


