"""The ledger's base: engine, units of work, chats, players and sessions, and the helpers
that write a hand. :class:`storage.ledger.Ledger` composes it with the operations."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from typing import Any, Self

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.engine import Connection, Row
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from engine.models import SEATS, HandReport, HandResult, Seat
from engine.rules import rules_for_players, ruleset
from storage import statements as sql
from storage import tables as t
from storage import unit_of_work
from storage.db import create_engine, migrate
from storage.errors import LedgerError
from storage.hand_json import pack_report, pack_result
from storage.hand_stats import seat_facts
from storage.models import (
    MAX_STAKE_CENTS,
    MAX_TOTAL,
    ChatInfo,
    PlayerInfo,
    PlayerRef,
    SessionInfo,
)
from storage.unit_of_work import T, Unit, later
from storage.writer import Writer

SEAT_COLUMNS: dict[Seat, str] = {"E": "seat_e", "S": "seat_s", "W": "seat_w", "N": "seat_n"}


def seated(row: Any) -> dict[Seat, int]:
    """A session row's seats and their players: E S W N, or E S W at a table of three
    (``seat_n`` empty)."""
    return {seat: getattr(row, col) for seat, col in SEAT_COLUMNS.items()
            if getattr(row, col) is not None}
DEFAULT_PRESET = "chengdu"


def _naive(stamp: datetime) -> datetime:
    """SQLite gives naive UTC datetimes, PostgreSQL aware ones: compare them as naive UTC."""
    return stamp.astimezone(UTC).replace(tzinfo=None) if stamp.tzinfo else stamp


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

# How far back an undo looks, past events recorded and undone, for the last correction.
UNDO_LOOKBACK = 100


class LedgerBase:
    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self.dialect = engine.dialect.name
        # Writes go through one batching writer (storage.writer). SQLite has one writer at
        # a time: every write of this process queues there, in order, rather than spin in
        # SQLite's busy handler (another process still waits there). PostgreSQL runs two
        # batches side by side, and the writes that are not batched on their own.
        sqlite = self.dialect == "sqlite"
        self._writer = Writer(engine, writers=1 if sqlite else 2)
        self._serialize = sqlite
        # Several worker processes sharing PostgreSQL write each unit on its own: there
        # batches of different chats held each other's rows (a worker's claim behind
        # another's "handled") and cost more than they saved (webhook bench: 45 against
        # 61 reports/s at one worker). The bot turns batching off in that mode.
        self.batching = True
        # Members who act without a seat (an admin keeping score), by (chat, Telegram id):
        # their display name is stored with the first change they make (_name_members).
        self._member_names: dict[tuple[int, int], tuple[str, str | None]] = {}

    @classmethod
    async def open(cls, url: str, *, run_migrations: bool = True, **kw: Any) -> Self:
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

    async def run(self, unit: Unit[T], *args: Any, write: bool, batch: bool = False,
                  urgent: bool = False, key: Any = None) -> T:
        """Run ``unit(conn, *args)`` as one transaction (see :mod:`storage.unit_of_work`).
        ``batch``: a write that may share its transaction with other chats' writes (a unit
        that raises never does; see :mod:`storage.writer`). Such a unit must change
        nothing outside the database but its return value. ``urgent``: a write that
        everything else waits on (the inbox's); it does not queue behind reports (on
        SQLite it goes to the head of the writer's queue). ``key`` (the chat of a batched
        write whose writes wait for its end): no second unit of it joins that batch."""
        if not write:
            return await unit_of_work.run(self.engine, unit, *args, write=False)
        if urgent:
            if self._serialize:
                return await self._writer.run(unit, *args, first=True)  # type: ignore[no-any-return]
            return await unit_of_work.run(self.engine, unit, *args, write=True)
        batch = batch and self.batching
        if batch or self._serialize:
            return await self._writer.run(unit, *args, alone=not batch, key=key)  # type: ignore[no-any-return]
        return await unit_of_work.run(self.engine, unit, *args, write=True)

    @asynccontextmanager
    async def write(self) -> AsyncIterator[AsyncConnection]:
        """An async write transaction, for tests and bulk tools; operations use :meth:`run`."""
        async with self.engine.connect() as conn:
            conn = await conn.execution_options(write=True)
            async with conn.begin():
                yield conn

    @asynccontextmanager
    async def read(self) -> AsyncIterator[AsyncConnection]:
        """An async read transaction, for tests and bulk tools."""
        async with self.engine.connect() as conn, conn.begin():
            yield conn

    # -- chats and players --------------------------------------------------------------

    async def chat(self, chat_id: int, language: str = "zh-Hans") -> ChatInfo:
        """The chat's settings, created on first use."""

        def unit(conn: Connection) -> ChatInfo:
            return self._chat(conn, chat_id, language)

        return await self.run(unit, write=True, batch=True)

    def _chat(self, conn: Connection, chat_id: int, language: str = "zh-Hans"
              ) -> ChatInfo:
        row = conn.execute(select(t.chats).where(t.chats.c.id == chat_id)).first()
        if row is None:
            values = {"id": chat_id, "language": language, "preset": DEFAULT_PRESET,
                      "overrides": {}, "stake_cents": 100, "created_at": now()}
            conn.execute(self._upsert(t.chats).values(**values).on_conflict_do_nothing())
            row = conn.execute(select(t.chats).where(t.chats.c.id == chat_id)).one()
        return ChatInfo(id=row.id, language=row.language, preset=row.preset,
                        overrides=row.overrides, stake_cents=row.stake_cents,
                        verbose=bool(row.verbose))

    async def update_chat(self, chat_id: int, *, language: str | None = None,
                          preset: str | None = None, overrides: dict[str, Any] | None = None,
                          stake_cents: int | None = None, verbose: bool | None = None
                          ) -> ChatInfo:
        def unit(conn: Connection) -> ChatInfo:
            chat = self._chat(conn, chat_id)
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
                if not 0 <= stake_cents <= MAX_STAKE_CENTS:
                    raise LedgerError("bad_stake", "the stake is out of range",
                                      token=str(stake_cents / 100))
                values["stake_cents"] = stake_cents
            if verbose is not None:
                values["verbose"] = verbose
            if values:
                conn.execute(update(t.chats).where(t.chats.c.id == chat_id)
                             .values(**values))
            if stake_cents is not None:  # a table going plays it from its next hand
                s = t.sessions.c
                conn.execute(update(t.sessions).where(s.chat_id == chat_id,
                                                      s.status == "open")
                             .values(stake_cents=stake_cents))
            return self._chat(conn, chat_id)

        return await self.run(unit, write=True)

    def _find_or_add_player(self, conn: Connection, chat_id: int, ref: PlayerRef
                            ) -> PlayerInfo:
        p = t.players.c
        if ref.telegram_id is not None:
            row = conn.execute(select(t.players).where(
                p.chat_id == chat_id, p.telegram_id == ref.telegram_id)).first()
            if row is not None:
                if ref.username and row.username != ref.username:
                    conn.execute(update(t.players).where(p.id == row.id)
                                 .values(username=ref.username))
                return _player(row)
            if ref.username:  # seated earlier by @username: link the account now
                row = conn.execute(select(t.players).where(
                    p.chat_id == chat_id, p.telegram_id.is_(None),
                    func.lower(p.username) == ref.username.lower())).first()
                if row is not None:
                    conn.execute(update(t.players).where(p.id == row.id).values(
                        telegram_id=ref.telegram_id))
                    return PlayerInfo(id=row.id, name=row.name, telegram_id=ref.telegram_id,
                                      username=row.username)
        elif ref.username:  # seated by @username: whoever has that username here
            row = conn.execute(select(t.players).where(
                p.chat_id == chat_id, func.lower(p.username) == ref.username.lower())
                .order_by(p.telegram_id.is_(None), p.id)).first()
            if row is not None:
                return _player(row)
        key = ref.name.strip().lower()
        if not key:
            raise LedgerError("bad_name", "a player needs a name")
        row = conn.execute(select(t.players).where(
            p.chat_id == chat_id, p.name_key == key)).first()
        if row is not None:
            if ref.telegram_id is None and ref.username and row.telegram_id is None \
                    and row.username is None:
                # A guest of that name now seated by @username: the account that has
                # it is linked when it first acts (bot.handlers.chat.link_sender).
                conn.execute(update(t.players).where(p.id == row.id)
                             .values(username=ref.username))
                return PlayerInfo(id=row.id, name=row.name, telegram_id=None,
                                  username=ref.username)
            if ref.telegram_id is None or row.telegram_id == ref.telegram_id:
                return _player(row)
            if row.telegram_id is None:  # a guest of that name: link them
                conn.execute(update(t.players).where(p.id == row.id).values(
                    telegram_id=ref.telegram_id, username=ref.username))
                return PlayerInfo(id=row.id, name=row.name, telegram_id=ref.telegram_id,
                                  username=ref.username)
            key = f"{key}#{ref.telegram_id}"  # two members with one display name
        # A concurrent writer may add the same player a moment earlier: then use theirs.
        result = conn.execute(self._upsert(t.players).values(
            chat_id=chat_id, telegram_id=ref.telegram_id, name=ref.name.strip()[:64],
            name_key=key[:64], username=ref.username, created_at=now())
            .on_conflict_do_nothing().returning(p.id))
        pid = result.scalar_one_or_none()
        if pid is None:
            row = conn.execute(select(t.players).where(
                p.chat_id == chat_id, p.name_key == key[:64])).one()
            return _player(row)
        conn.execute(insert(t.totals).values(
            player_id=pid, chat_id=chat_id, net=0, hands=0, wins=0, self_draws=0,
            dealt_in=0, win_points=0))
        return PlayerInfo(id=pid, name=ref.name.strip()[:64], telegram_id=ref.telegram_id,
                          username=ref.username)

    def _known_member(self, conn: Connection, chat_id: int, telegram_id: int, name: str,
                      username: str | None = None, at: datetime | None = None) -> None:
        """Keep a display name for a chat member who acts without a seat (a scorekeeper
        reporting or correcting), so that looking back names them. A player row with no
        hands: never in the standings, and not linked to a guest who has that name."""
        p = t.players.c
        if conn.execute(select(p.id).where(p.chat_id == chat_id,
                                           p.telegram_id == telegram_id)).first():
            return
        name = name.strip()[:64] or str(telegram_id)
        key = name.lower()
        if conn.execute(select(p.id).where(p.chat_id == chat_id, p.name_key == key)).first():
            key = f"{key}#{telegram_id}"
        pid = conn.execute(self._upsert(t.players).values(
            chat_id=chat_id, telegram_id=telegram_id, name=name, name_key=key[:64],
            username=username, created_at=at or now())
            .on_conflict_do_nothing().returning(p.id)).scalar_one_or_none()
        if pid is not None:
            conn.execute(insert(t.totals).values(
                player_id=pid, chat_id=chat_id, net=0, hands=0, wins=0, self_draws=0,
                dealt_in=0, win_points=0))

    def note_member(self, chat_id: int, telegram_id: int, name: str,
                    username: str | None = None) -> None:
        """The name of a member about to act without a seat; nothing is written until
        they change something (a refusal writes nothing)."""
        if len(self._member_names) > 10_000:
            self._member_names.clear()
        self._member_names[(chat_id, telegram_id)] = (name, username)

    def _name_members(self, conn: Connection, chat_id: int, *ids: int | None) -> None:
        """In a write's own transaction: keep the name of each actor noted by note_member."""
        for telegram_id in ids:
            noted = self._member_names.get((chat_id, telegram_id)) if telegram_id else None
            if noted is not None and telegram_id is not None:
                self._known_member(conn, chat_id, telegram_id, *noted)

    async def player(self, chat_id: int, ref: PlayerRef) -> PlayerInfo:
        def unit(conn: Connection) -> PlayerInfo:
            self._chat(conn, chat_id)
            return self._find_or_add_player(conn, chat_id, ref)

        return await self.run(unit, write=True)

    async def find_player(self, chat_id: int, name: str) -> PlayerInfo | None:
        """A player of this chat by name, @username, or Telegram id."""
        p = t.players.c
        key = name.strip().lstrip("@").lower()

        def unit(conn: Connection) -> list[Row[Any]]:
            return list(conn.execute(select(t.players).where(p.chat_id == chat_id)).all())

        for row in await self.run(unit, write=False):
            if row.name_key == key or (row.username or "").lower() == key:
                return _player(row)
        return None

    async def link_guest(self, chat_id: int, guest_name: str, telegram_id: int,
                         username: str | None = None) -> PlayerInfo:
        p = t.players.c

        def unit(conn: Connection) -> PlayerInfo:
            row = conn.execute(select(t.players).where(
                p.chat_id == chat_id, p.name_key == guest_name.strip().lower())).first()
            if row is None or row.telegram_id is not None:
                raise LedgerError("no_guest", f"no guest named {guest_name!r} here",
                                  name=guest_name)
            taken = conn.execute(select(p.id).where(
                p.chat_id == chat_id, p.telegram_id == telegram_id)).first()
            if taken is not None:
                raise LedgerError("already_linked", "that account already plays here")
            conn.execute(update(t.players).where(p.id == row.id).values(
                telegram_id=telegram_id, username=username))
            return PlayerInfo(id=row.id, name=row.name, telegram_id=telegram_id,
                              username=username)

        return await self.run(unit, write=True)

    # -- sessions -----------------------------------------------------------------------

    async def open_session(self, chat_id: int, seats: Sequence[PlayerRef], *,
                           preset: str | None = None, overrides: dict[str, Any] | None = None,
                           stake_cents: int | None = None,
                           draft: tuple[int, int] | None = None) -> SessionInfo:
        """``draft``: the id and version of the seat buttons' draft that opens the table,
        taken in the same transaction (a press on an older version is ``stale_button``)."""
        if len(seats) not in (3, 4):
            raise LedgerError("four_players", "a table has four players, or three",
                              count=len(seats))

        def unit(conn: Connection) -> SessionInfo:
            if draft is not None:
                d = t.drafts.c
                if conn.execute(delete(t.drafts).where(
                        d.chat_id == chat_id, d.id == draft[0], d.version == draft[1])
                        ).rowcount != 1:
                    raise LedgerError("stale_button", "those seats changed meanwhile")
            chat = self._chat(conn, chat_id)
            s = t.sessions.c
            if conn.execute(select(s.id).where(
                    s.chat_id == chat_id, s.status == "open")).first() is not None:
                raise LedgerError("session_open", "this chat already has a table going; "
                                  "end it first")
            # The chat's house rules are for its preset: a table of that preset keeps them.
            same = preset is None or preset == chat.preset
            rules = rules_for_players(preset or chat.preset, {
                **(chat.overrides if same else {}), **(overrides or {})}, len(seats))
            players = [self._find_or_add_player(conn, chat_id, ref) for ref in seats]
            if len({p.id for p in players}) != len(seats):
                raise LedgerError("same_player_twice", "a player cannot sit twice")
            try:
                result = conn.execute(insert(t.sessions).values(
                    chat_id=chat_id, preset=rules.preset, rules=rules.snapshot(),
                    stake_cents=chat.stake_cents if stake_cents is None else stake_cents,
                    seat_e=players[0].id, seat_s=players[1].id, seat_w=players[2].id,
                    seat_n=players[3].id if len(players) == 4 else None,  # three: none
                    dealer="E", status="open", hands=0, started_at=now()).returning(s.id))
            except IntegrityError:  # another writer opened a table a moment ago
                raise LedgerError("session_open", "this chat already has a table going; "
                                  "end it first") from None
            sid = result.scalar_one()
            return self._session_info(conn, chat_id, sid)

        return await self.run(unit, write=True)

    def _session_row(self, conn: Connection, chat_id: int,
                     session_id: int | None = None, lock: bool = False
                     ) -> Row[Any] | None:
        s = t.sessions.c
        q = select(t.sessions).where(s.chat_id == chat_id)
        q = q.where(s.id == session_id) if session_id is not None else q.where(
            s.status == "open")
        if lock:
            q = q.with_for_update()
        return conn.execute(q).first()

    def _open_session_row(self, conn: Connection, chat_id: int) -> Row[Any]:
        row = self._session_row(conn, chat_id, lock=True)
        if row is None:
            raise LedgerError("no_session", "no table is going in this chat; start one "
                              "with /new")
        return row

    def _session_info(self, conn: Connection, chat_id: int, session_id: int,
                      row: Row[Any] | None = None, dealer: str | None = None,
                      hands: int | None = None,
                      open_hand: tuple[int, tuple[Seat, ...]] | object | None = UNKNOWN,
                      moved: dict[Seat, int] | None = None) -> SessionInfo:
        """The table as players see it. A caller that already holds the session row and
        knows the dealer, hand count and open hand passes them to spare queries, and how
        far the nets moved since that row was read."""
        if row is None:
            row = self._session_row(conn, chat_id, session_id)
        if row is None:
            raise LedgerError("no_session", "no such table in this chat")
        if hasattr(row, "p_e_id"):  # read with the session (statements.OPEN_SESSION_AND_HAND)
            seats = {seat: PlayerInfo(**{f: getattr(row, f"p_{seat.lower()}_{f}")
                                         for f in sql.PLAYER_FIELDS}) for seat in seated(row)}
        else:
            ids = seated(row)
            prow = {r.id: r for r in conn.execute(
                sql.SELECT_PLAYERS, {"ids": list(ids.values())}).all()}
            seats = {seat: _player(prow[pid]) for seat, pid in ids.items()}
        if open_hand is UNKNOWN:
            h = t.hands.c
            found = conn.execute(select(h.number, h.result).where(
                h.session_id == session_id, h.status == "open")).first()
            open_hand = (found.number, tuple(found.result["still_in"])) if found else None
        number: int | None = None
        still_in: tuple[Seat, ...] = ()
        if isinstance(open_hand, tuple):
            number, still_in = open_hand
        return SessionInfo(
            id=row.id, chat_id=row.chat_id, preset=row.preset, rules=row.rules,
            stake_cents=row.stake_cents, seats=seats,
            dealer=dealer if dealer is not None else row.dealer,
            hands=hands if hands is not None else row.hands,
            status=row.status, started_at=row.started_at,
            totals={seat: getattr(row, f"net_{seat.lower()}") + (moved or {}).get(seat, 0)
                    for seat in seats},
            open_hand=number, still_in=still_in,
            board_message_id=row.board_message_id, reseated=bool(row.reseated),
        )

    async def current_session(self, chat_id: int) -> SessionInfo | None:
        def unit(conn: Connection) -> SessionInfo | None:
            row = self._session_row(conn, chat_id)
            return None if row is None else self._session_info(conn, chat_id, row.id)

        return await self.run(unit, write=False)

    async def last_event(self, chat_id: int) -> tuple[int, int, int, int | None] | None:
        """(session id, hand number, event index, reporter) of the open table's last event."""

        def unit(conn: Connection) -> tuple[int, int, int, int | None] | None:
            srow = self._session_row(conn, chat_id)
            if srow is None:
                return None
            h = t.hands.c
            row = conn.execute(select(h.number, h.reporters).where(
                h.session_id == srow.id, h.status != "void").order_by(h.number.desc())
                .limit(1)).first()
            if row is None or not row.reporters or self._latest_edit(conn, srow) is not None:
                return None  # after a correction, the events' Undo buttons are out of date
            return srow.id, row.number, len(row.reporters) - 1, row.reporters[-1]

        return await self.run(unit, write=False)

    async def board_message(self, chat_id: int, session_id: int) -> int | None:
        """The id of the table's scoreboard message, if it was posted."""

        def unit(conn: Connection) -> int | None:
            return conn.execute(select(t.sessions.c.board_message_id).where(
                t.sessions.c.chat_id == chat_id, t.sessions.c.id == session_id)
            ).scalar_one_or_none()

        return await self.run(unit, write=False)

    def _latest_edit(self, conn: Connection, srow: Row[Any]) -> Row[Any] | None:
        """The session's last correction (an ``amend`` or a ``void``) when it is the last
        change at the table still standing: an undo then takes the correction back. Events
        recorded after it and undone since do not count (their undos are passed over);
        an event recorded after it and still there, or any other change since (a seat,
        an undone correction), leaves the undo to the events."""
        a = t.audit.c
        last = None
        for row in conn.execute(select(t.audit).where(a.session_id == srow.id)
                                .order_by(a.id.desc()).limit(UNDO_LOOKBACK)).all():
            if row.action == "undo" and isinstance(row.before, dict) \
                    and isinstance(row.before.get("event"), dict):
                continue  # an event's undo: the event came and went after the correction
            last = row
            break
        if last is None or last.action not in ("amend", "void"):
            return None
        e = t.entries.c
        # A correction writes its entries no later than its audit row; an event recorded
        # since has newer ones (an undone event's are gone).
        newest = conn.execute(select(func.max(e.created_at)).where(
            e.session_id == srow.id)).scalar_one()
        if newest is not None and _naive(newest) > _naive(last.at):
            return None  # an event recorded after the correction is still there
        return last

    async def set_board_message(self, chat_id: int, session_id: int, message_id: int) -> None:
        def unit(conn: Connection) -> None:
            conn.execute(update(t.sessions).where(
                t.sessions.c.chat_id == chat_id, t.sessions.c.id == session_id)
                .values(board_message_id=message_id))

        return await self.run(unit, write=True)

    def _write_hand(self, conn: Connection, srow: Row[Any], hand_id: int,
                    report: HandReport, result: HandResult, reporters: list[Any],
                    stamp: datetime, only_event: int | None = None,
                    previous: HandResult | object | None = UNKNOWN,
                    stored: bool = False, session_values: dict[str, Any] | None = None,
                    seats: dict[Seat, int] | None = None) -> dict[Seat, int]:
        """Store a hand's report, result, entries, per-player facts and running totals;
        return how far each seat's session net moved. ``session_values`` (``b_hands``,
        ``b_dealer``) are set on the session in the same statement as its nets.

        ``only_event`` adds the entries of that event alone (earlier ones are unchanged,
        since settlement is sequential); otherwise all entries are rewritten. ``previous``
        is the hand's result before this write when the caller knows it (None: a new hand);
        ``stored`` says the hand row already holds this report and result. ``seats``: who
        played the hand (:meth:`_hand_seats`), when it is not the table's seats now.
        """
        seats = seats or self._hand_seats(srow)
        e = t.entries.c
        if only_event is None:
            conn.execute(delete(t.entries).where(e.hand_id == hand_id))
            todo = list(enumerate(result.events))
        else:
            todo = [(only_event, result.events[only_event])]
        rows = [
            {"chat_id": srow.chat_id, "session_id": srow.id, "hand_id": hand_id,
             "event_index": i, "player_id": seats[seat], "delta": ev.deltas[seat],
             "created_at": stamp}
            for i, ev in todo for seat in seats
        ]
        if rows:
            later(conn, sql.INSERT_ENTRIES, rows)
        if not stored:
            later(conn, sql.UPDATE_HAND, {
                "hand_id": hand_id, "b_report": pack_report(report),
                "b_result": pack_result(result),
                "b_status": "open" if result.open else "closed",
                "b_next_dealer": result.next_dealer if not result.open else None,
                "b_reporters": reporters, "b_updated_at": stamp})
        return self._set_hand_facts(conn, srow, hand_id, result, previous, session_values,
                                    seats)

    def _hand_seats(self, srow: Row[Any], hrow: Any = None) -> dict[Seat, int]:
        """Who played a hand, seat -> player id: its own seats when a seat changed after
        it, else the table's seats now."""
        if hrow is not None and getattr(hrow, "seats", None):
            return {seat: int(pid) for seat, pid in hrow.seats.items()}
        return seated(srow)

    def _set_hand_facts(self, conn: Connection, srow: Row[Any], hand_id: int,
                        result: HandResult | None,
                        previous: HandResult | object | None = UNKNOWN,
                        session_values: dict[str, Any] | None = None,
                        seats: dict[Seat, int] | None = None) -> dict[Seat, int]:
        """Replace the hand's per-player facts and move the running totals (the players'
        and the session's) by the change, which it returns per seat. ``previous`` (the
        hand's former result, or None for a new hand) spares a query."""
        chat_id = srow.chat_id
        seats = seats or self._hand_seats(srow)
        sitting = self._hand_seats(srow)  # the table now: its nets move
        old: dict[int, Any]
        if previous is UNKNOWN:
            old = {r.player_id: r for r in conn.execute(
                sql.SELECT_HAND_PLAYERS, {"hand_id": hand_id}).all()}
        elif previous is None:
            old = {}
        else:
            old = {seats[s]: f for s, f in seat_facts(previous).items()}  # type: ignore[arg-type]
        new = seat_facts(result) if result is not None else {}
        same_players = bool(old) and set(old) == {seats[s] for s in new}
        if old and not same_players:
            conn.execute(sql.DELETE_HAND_PLAYERS, {"hand_id": hand_id})
        if new:
            statement = (sql.UPSERT_HAND_PLAYERS if same_players
                         else sql.INSERT_HAND_PLAYERS)
            later(conn, statement, [
                {"hand_id": hand_id, "player_id": seats[s], "chat_id": chat_id,
                 "delta": f.delta, "won": f.won, "self_draws": f.self_draws,
                 "dealt_in": f.dealt_in, "win_points": f.win_points}
                for s, f in new.items()])
        changes = []
        by_player: dict[int, int] = {}
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
            by_player[pid] = diff["d_net"]
        # The session's nets are per seat, of who sits there now (a player who left keeps
        # their results in the entries, not in the table's nets).
        moved = {seat: by_player.get(pid, 0) for seat, pid in sitting.items()}
        if changes:  # one statement for every player whose totals moved
            later(conn, sql.MOVE_TOTALS, changes)
        if any(moved.values()) or session_values:
            for seat, d in moved.items():
                net = getattr(srow, f"net_{seat.lower()}", 0) or 0
                if abs(net + d) > MAX_TOTAL:
                    raise LedgerError("totals_too_large", "the table's totals would overflow "
                                      "the ledger's columns")
            params = {"session_id": srow.id, **{f"d_{x.lower()}": moved.get(x, 0)
                                                for x in SEATS}}
            if session_values:
                later(conn, sql.MOVE_SESSION, {**params, **session_values})
            else:
                later(conn, sql.MOVE_SESSION_NETS, params)
        return moved
