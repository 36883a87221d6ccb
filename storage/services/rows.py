"""The repository: reading and writing the ledger's rows on a Connection, inside a unit of
work. The functions several services share: a chat's settings, finding or adding a
player, the night (table) row and how players see it, and writing a hand (its
entries, per-player facts and the running totals). Each takes the unit's Connection;
none starts a transaction (:class:`storage.sql.store.Store` runs them)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.engine import Connection, Row

from engine.models import SEATS, HandReport, HandResult, Seat
from storage.errors import LedgerError
from storage.models import (
    MAX_TOTAL,
    ChatInfo,
    NightInfo,
    PlayerInfo,
    PlayerRef,
    is_named_as,
)
from storage.services.hand_json import pack_report, pack_result
from storage.services.hand_stats import seat_facts
from storage.sql import statements as sql
from storage.sql import tables as t
from storage.sql.clock import naive, now
from storage.sql.unit_of_work import keep, later, recall, sharing

SEAT_COLUMNS: dict[Seat, str] = {"E": "seat_e", "S": "seat_s", "W": "seat_w", "N": "seat_n"}
DEFAULT_PRESET = "chengdu"
UNKNOWN = object()  # "the caller does not know": look it up


def seated(row: Any) -> dict[Seat, int]:
    """A night row's seats and their players: E S W N, or E S W at a table of three
    (``seat_n`` empty)."""
    return {seat: getattr(row, col) for seat, col in SEAT_COLUMNS.items()
            if getattr(row, col) is not None}


def player_info(row: Row[Any]) -> PlayerInfo:
    return PlayerInfo(id=row.id, name=row.name, telegram_id=row.telegram_id,
                      username=row.username)


def players_by_id(conn: Connection, ids: Any) -> dict[int, PlayerInfo]:
    """The players with these ids."""
    ids = {int(i) for i in ids}
    if not ids:
        return {}
    return {r.id: player_info(r) for r in conn.execute(
        select(t.players).where(t.players.c.id.in_(ids))).all()}


class Prefixed:
    """The ``h_``-labelled columns of a joined row, read as a hand row."""

    def __init__(self, row: Row[Any], prefix: str) -> None:
        self._row, self._prefix = row, prefix

    def __getattr__(self, name: str) -> Any:
        return getattr(self._row, self._prefix + name)


def upsert(conn: Connection, table: Any) -> Any:
    """The dialect's INSERT that supports ON CONFLICT DO NOTHING."""
    if conn.dialect.name == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as pg_insert

        return pg_insert(table)
    from sqlalchemy.dialects.sqlite import insert as sqlite_insert

    return sqlite_insert(table)


def ensure_chat(conn: Connection, chat_id: int, language: str = "zh-Hans"
                ) -> ChatInfo:
    """The chat's settings, its row created on first use."""
    row = conn.execute(sql.SELECT_CHAT, {"chat_id": chat_id}).first()
    if row is None:
        values = {"id": chat_id, "language": language, "preset": DEFAULT_PRESET,
                  "overrides": {}, "stake_cents": 100, "created_at": now()}
        conn.execute(upsert(conn, t.chats).values(**values).on_conflict_do_nothing())
        row = conn.execute(sql.SELECT_CHAT, {"chat_id": chat_id}).one()
    return chat_info(row)


def chat_info(row: Any) -> ChatInfo:
    """A chats row (or the ``c_`` columns of :data:`statements.CHAT_AND_TABLE`, read
    through :class:`Prefixed`) as the chat's settings."""
    return ChatInfo(id=row.id, language=row.language, preset=row.preset,
                    overrides=row.overrides, stake_cents=row.stake_cents,
                    verbose=bool(row.verbose), time_zone=row.time_zone)


def find_or_add_player(conn: Connection, chat_id: int, ref: PlayerRef
                       ) -> PlayerInfo:
    """The chat's player ``ref`` names (by Telegram id, @username or name), linking a
    guest or an account as it goes; added if new, with zero totals."""
    p = t.players.c
    if ref.telegram_id is not None:
        row = conn.execute(select(t.players).where(
            p.chat_id == chat_id, p.telegram_id == ref.telegram_id)).first()
        if row is not None:
            if ref.username and row.username != ref.username:
                conn.execute(update(t.players).where(p.id == row.id)
                             .values(username=ref.username))
            return player_info(row)
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
            return player_info(row)
    key = ref.name.strip().lower()
    if not key:
        raise LedgerError("bad_name", "a player needs a name")
    row = conn.execute(select(t.players).where(
        p.chat_id == chat_id, p.name_key == key)).first()
    if row is None and ref.telegram_id is None and ref.username is None:
        # A plain name that is a member's username (their row under another name): that
        # member, as a guest of that name would be linked to them when they act.
        row = conn.execute(select(t.players).where(
            p.chat_id == chat_id, p.telegram_id.is_not(None),
            func.lower(p.username) == key).order_by(p.id)).first()
        if row is not None:
            return player_info(row)
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
            return player_info(row)
        if row.telegram_id is None:  # a guest of that name: link them
            conn.execute(update(t.players).where(p.id == row.id).values(
                telegram_id=ref.telegram_id, username=ref.username))
            return PlayerInfo(id=row.id, name=row.name, telegram_id=ref.telegram_id,
                              username=ref.username)
        key = f"{key}#{ref.telegram_id}"  # two members with one display name
    # A concurrent writer may add the same player a moment earlier: then use theirs.
    result = conn.execute(upsert(conn, t.players).values(
        chat_id=chat_id, telegram_id=ref.telegram_id, name=ref.name.strip()[:64],
        name_key=key[:64], username=ref.username, created_at=now())
        .on_conflict_do_nothing().returning(p.id))
    pid = result.scalar_one_or_none()
    if pid is None:
        row = conn.execute(select(t.players).where(
            p.chat_id == chat_id, p.name_key == key[:64])).one()
        return player_info(row)
    conn.execute(insert(t.totals).values(
        player_id=pid, chat_id=chat_id, net=0, hands=0, wins=0, self_draws=0,
        dealt_in=0, win_points=0))
    return PlayerInfo(id=pid, name=ref.name.strip()[:64], telegram_id=ref.telegram_id,
                      username=ref.username)


def known_member(conn: Connection, chat_id: int, telegram_id: int, name: str,
                 username: str | None = None, at: datetime | None = None) -> None:
    """Keep a display name for a chat member who acts without a seat (a scorekeeper
    reporting or correcting), so that looking back names them. A player row with no
    hands: never in the standings. A guest named as the member's username (a plain name
    or an @mention, no account yet) is that member: the guest's row gets the account, not
    a second row of the same name; a guest who merely shares the display name is not."""
    p = t.players.c
    if conn.execute(select(p.id).where(p.chat_id == chat_id,
                                       p.telegram_id == telegram_id)).first():
        return
    if username:
        handle = username.lower()
        named = conn.execute(select(p.id, p.telegram_id, p.username, p.name_key).where(
            p.chat_id == chat_id, p.telegram_id.is_(None),
            (func.lower(p.username) == handle) | (p.name_key == handle))
            .order_by(p.id)).all()
        guest = next((r for r in named if is_named_as(
            username, r.telegram_id, r.username, r.name_key)), None)
        if guest is not None:
            conn.execute(update(t.players).where(p.id == guest.id).values(
                telegram_id=telegram_id, username=username))
            return
    name = name.strip()[:64] or str(telegram_id)
    key = name.lower()
    if conn.execute(select(p.id).where(p.chat_id == chat_id, p.name_key == key)).first():
        key = f"{key}#{telegram_id}"
    pid = conn.execute(upsert(conn, t.players).values(
        chat_id=chat_id, telegram_id=telegram_id, name=name, name_key=key[:64],
        username=username, created_at=at or now())
        .on_conflict_do_nothing().returning(p.id)).scalar_one_or_none()
    if pid is not None:
        conn.execute(insert(t.totals).values(
            player_id=pid, chat_id=chat_id, net=0, hands=0, wins=0, self_draws=0,
            dealt_in=0, win_points=0))


def night_row(conn: Connection, chat_id: int,
                night_id: int | None = None, lock: bool = False
                ) -> Row[Any] | None:
    """The chat's night row: ``night_id``, else the open one; ``lock``: FOR UPDATE."""
    s = t.nights.c
    q = select(t.nights).where(s.chat_id == chat_id)
    q = q.where(s.id == night_id) if night_id is not None else q.where(
        s.status == "open")
    if lock:
        q = q.with_for_update()
    return conn.execute(q).first()


def open_night_row(conn: Connection, chat_id: int) -> Row[Any]:
    """The open night row, locked for writing; ``no_night_going`` if none."""
    row = night_row(conn, chat_id, lock=True)
    if row is None:
        raise LedgerError("no_night_going", "no table is going in this chat; start one "
                          "with /new")
    return row


def open_night_info(conn: Connection, chat_id: int) -> NightInfo | None:
    """The chat's open table, None if there is none: one statement (its players and
    its open hand with it). Inside a transaction that several units share (a webhook
    worker's update, :func:`storage.sql.unit_of_work.transaction`) the table is read
    locked, as the update's write would read it, and kept for that write
    (:func:`open_table_row`)."""
    shared = sharing(conn)
    row = conn.execute(sql.OPEN_NIGHT_AND_HAND if shared else sql.OPEN_TABLE,
                       {"chat_id": chat_id}).first()
    return _open_table_info(conn, chat_id, row, shared)


def chat_and_open_night(conn: Connection, chat_id: int, language: str = "zh-Hans"
                        ) -> tuple[ChatInfo, NightInfo | None]:
    """The chat's settings (created on first use) and its open table, as
    :func:`ensure_chat` and :func:`open_night_info` would read them: one statement when
    a table is going (``statements.CHAT_AND_TABLE``), else the settings alone."""
    shared = sharing(conn)
    row = conn.execute(sql.CHAT_AND_TABLE_LOCKED if shared else sql.CHAT_AND_TABLE,
                       {"chat_id": chat_id}).first()
    if row is None:
        return ensure_chat(conn, chat_id, language), None
    return chat_info(Prefixed(row, "c_")), _open_table_info(conn, chat_id, row, shared)


def _open_table_info(conn: Connection, chat_id: int, row: Row[Any] | None,
                     shared: bool) -> NightInfo | None:
    if row is None:
        return None
    if shared:
        keep(conn, ("open table", chat_id), row)
    open_hand = (row.h_number, tuple(row.h_result["still_in"])) \
        if row.h_id is not None else None
    return night_info(conn, chat_id, row.id, row=row, open_hand=open_hand)


def open_table_row(conn: Connection, chat_id: int) -> Row[Any] | None:
    """The chat's open table, locked, with its players and open hand
    (``statements.OPEN_NIGHT_AND_HAND``): the row :func:`open_night_info` kept in this
    transaction if no write came between, else read now."""
    kept = recall(conn, ("open table", chat_id))
    if kept is not None:
        return kept  # type: ignore[no-any-return]
    return conn.execute(sql.OPEN_NIGHT_AND_HAND, {"chat_id": chat_id}).first()


def night_info(conn: Connection, chat_id: int, night_id: int,
                 row: Row[Any] | None = None, dealer: str | None = None,
                 hands: int | None = None,
                 open_hand: tuple[int, tuple[Seat, ...]] | object | None = UNKNOWN,
                 moved: dict[Seat, int] | None = None) -> NightInfo:
    """The table as players see it. A caller that already holds the night row and
    knows the dealer, hand count and open hand passes them to spare queries, and how
    far the nets moved since that row was read."""
    if row is None:
        row = night_row(conn, chat_id, night_id)
    if row is None:
        raise LedgerError("no_night_going", "no such table in this chat")
    if hasattr(row, "p_e_id"):  # read with the night (statements.OPEN_NIGHT_AND_HAND)
        seats = {seat: PlayerInfo(**{f: getattr(row, f"p_{seat.lower()}_{f}")
                                     for f in sql.PLAYER_FIELDS}) for seat in seated(row)}
    else:
        ids = seated(row)
        prow = {r.id: r for r in conn.execute(
            sql.SELECT_PLAYERS, {"ids": list(ids.values())}).all()}
        seats = {seat: player_info(prow[pid]) for seat, pid in ids.items()}
    if open_hand is UNKNOWN:
        h = t.hands.c
        found = conn.execute(select(h.number, h.result).where(
            h.night_id == night_id, h.status == "open")).first()
        open_hand = (found.number, tuple(found.result["still_in"])) if found else None
    number: int | None = None
    still_in: tuple[Seat, ...] = ()
    if isinstance(open_hand, tuple):
        number, still_in = open_hand
    totals = {seat: getattr(row, f"net_{seat.lower()}") + (moved or {}).get(seat, 0)
              for seat in seats}
    return NightInfo(
        id=row.id, chat_id=row.chat_id, preset=row.preset, rules=row.rules,
        stake_cents=row.stake_cents, seats=seats,
        dealer=dealer if dealer is not None else row.dealer,
        hands=hands if hands is not None else row.hands,
        status=row.status, started_at=row.started_at, totals=totals,
        open_hand=number, still_in=still_in,
        board_message_id=row.board_message_id, reseated=bool(row.reseated),
        points_at=_points_at(conn, row, seats, totals),
    )


def _points_at(conn: Connection, row: Row[Any], seats: dict[Seat, PlayerInfo],
               totals: dict[Seat, int]) -> dict[Seat, tuple[tuple[int, int], ...]]:
    """Each seat's points at each stake, when a hand was played at another stake than the
    table's now; the rest of a seat's total is at the table's stake (the hand being
    recorded included, whose rows are written at the transaction's end)."""
    other = getattr(row, "other_stake", None)  # read with the night, or asked here
    if other is None:
        other = conn.execute(select(sql.OTHER_STAKE.where(
            t.nights.c.id == row.id))).scalar()
    if not other:
        return {}
    h, hp = t.hands.c, t.hand_players.c
    older: dict[int, dict[int, int]] = {}
    for pid, at, n in conn.execute(
            select(hp.player_id, h.stake_cents, func.sum(hp.delta))
            .join(t.hands, h.id == hp.hand_id)
            .where(h.night_id == row.id, h.status != "void",
                   h.stake_cents != row.stake_cents)
            .group_by(hp.player_id, h.stake_cents)).all():
        older.setdefault(int(pid), {})[int(at)] = int(n or 0)
    out: dict[Seat, tuple[tuple[int, int], ...]] = {}
    for seat, player in seats.items():
        by = dict(older.get(player.id, {}))
        by[row.stake_cents] = totals[seat] - sum(by.values())
        out[seat] = tuple(sorted((at, n) for at, n in by.items() if n))
    return out


# How far back an undo looks, past events recorded and undone, for the last correction.
UNDO_LOOKBACK = 100


def standing_events(conn: Connection, night_id: int) -> int:
    """How many events stand in the night: those of its hands not void (every event has
    an entry per seat; a void hand's and an undone event's are gone)."""
    e = t.entries.c
    events = select(e.hand_id, e.event_index).where(
        e.night_id == night_id).distinct().subquery()
    return int(conn.execute(select(func.count()).select_from(events)).scalar_one())


def latest_edit(conn: Connection, srow: Row[Any]) -> Row[Any] | None:
    """The correction (an ``amend`` or a ``void``) an undo takes back now, if any.

    Corrections are taken back newest first, as a stack: walking the night's audit back,
    each correction's undo cancels the newest correction before it not cancelled yet, and
    events' undos are passed over (their event came and went). The first correction left
    is the one, unless an event recorded after it still stands (the undo takes that event
    first) or something else changed the table since (a seat): the undo is then left to
    the events."""
    a = t.audit.c
    cancelled = 0
    for row in conn.execute(select(t.audit).where(a.night_id == srow.id)
                            .order_by(a.id.desc()).limit(UNDO_LOOKBACK)).all():
        if row.action == "end" or (row.action == "undo" and isinstance(row.before, dict)
                                   and "end" in row.before):
            continue  # an /end taken back: the night went on as if it had not ended
        if row.action == "undo":
            if not (isinstance(row.before, dict) and isinstance(row.before.get("event"), dict)):
                cancelled += 1  # a correction's undo (an event's: the event came and went)
            continue
        if row.action not in ("amend", "void"):
            return None
        if cancelled:
            cancelled -= 1
            continue
        return None if _recorded_since(conn, srow, row) else row
    return None


def _recorded_since(conn: Connection, srow: Row[Any], edit: Row[Any]) -> bool:
    """Whether an event recorded after the correction ``edit`` still stands (every later
    correction taken back): more events stand than the correction left."""
    left = edit.before.get("standing") if isinstance(edit.before, dict) else None
    if isinstance(left, int):
        return standing_events(conn, srow.id) > left
    # A correction written before the count was kept: its entries are written no later
    # than its audit row, an event recorded since has newer ones.
    e = t.entries.c
    newest = conn.execute(select(func.max(e.created_at)).where(
        e.night_id == srow.id)).scalar_one()
    return newest is not None and naive(newest) > naive(edit.at)


def write_hand(conn: Connection, srow: Row[Any], hand_id: int,
               report: HandReport, result: HandResult, reporters: list[Any],
               stamp: datetime, only_event: int | None = None,
               previous: HandResult | object | None = UNKNOWN,
               stored: bool = False, night_values: dict[str, Any] | None = None,
               seats: dict[Seat, int] | None = None) -> dict[Seat, int]:
    """Store a hand's report, result, entries, per-player facts and running totals;
    return how far each seat's night net moved. ``night_values`` (``b_hands``,
    ``b_dealer``) are set on the night in the same statement as its nets.

    ``only_event`` adds the entries of that event alone (earlier ones are unchanged,
    since settlement is sequential); otherwise all entries are rewritten. ``previous``
    is the hand's result before this write when the caller knows it (None: a new hand);
    ``stored`` says the hand row already holds this report and result. ``seats``: who
    played the hand (:func:`hand_seats`), when it is not the table's seats now.
    """
    seats = seats or hand_seats(srow)
    e = t.entries.c
    if only_event is None:
        conn.execute(delete(t.entries).where(e.hand_id == hand_id))
        todo = list(enumerate(result.events))
    else:
        todo = [(only_event, result.events[only_event])]
    rows = [
        {"chat_id": srow.chat_id, "night_id": srow.id, "hand_id": hand_id,
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
    return set_hand_facts(conn, srow, hand_id, result, previous, night_values,
                                seats)


def hand_seats(srow: Row[Any], hrow: Any = None) -> dict[Seat, int]:
    """Who played a hand, seat -> player id: its own seats when a seat changed after
    it, else the table's seats now."""
    if hrow is not None and getattr(hrow, "seats", None):
        return {seat: int(pid) for seat, pid in hrow.seats.items()}
    return seated(srow)


def set_hand_facts(conn: Connection, srow: Row[Any], hand_id: int,
                   result: HandResult | None,
                   previous: HandResult | object | None = UNKNOWN,
                   night_values: dict[str, Any] | None = None,
                   seats: dict[Seat, int] | None = None) -> dict[Seat, int]:
    """Replace the hand's per-player facts and move the running totals (the players'
    and the night's) by the change, which it returns per seat. ``previous`` (the
    hand's former result, or None for a new hand) spares a query."""
    chat_id = srow.chat_id
    seats = seats or hand_seats(srow)
    sitting = hand_seats(srow)  # the table now: its nets move
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
    # The night's nets are per seat, of who sits there now (a player who left keeps
    # their results in the entries, not in the table's nets).
    moved = {seat: by_player.get(pid, 0) for seat, pid in sitting.items()}
    if changes:  # one statement for every player whose totals moved
        later(conn, sql.MOVE_TOTALS, changes)
    if any(moved.values()) or night_values:
        for seat, d in moved.items():
            net = getattr(srow, f"net_{seat.lower()}", 0) or 0
            if abs(net + d) > MAX_TOTAL:
                raise LedgerError("totals_too_large", "the table's totals would overflow "
                                  "the ledger's columns")
        params = {"night_id": srow.id, **{f"d_{x.lower()}": moved.get(x, 0)
                                            for x in SEATS}}
        if night_values:
            later(conn, sql.MOVE_NIGHT, {**params, **night_values})
        else:
            later(conn, sql.MOVE_NIGHT_NETS, params)
    return moved


def as_played(conn: Connection, info: NightInfo,
              seats: dict[str, int] | None) -> NightInfo:
    """The table as it sat for a hand (a seat may have changed since)."""
    if not seats:
        return info
    rows = {r.id: player_info(r) for r in conn.execute(select(t.players).where(
        t.players.c.id.in_([int(p) for p in seats.values()]))).all()}
    return info.model_copy(update={"seats": {s: rows[int(p)] for s, p in seats.items()}})
