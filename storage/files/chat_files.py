"""One chat's ledger as a zip of CSV files, and the import of such a zip into an empty chat.

The files use :mod:`storage.files.backup`'s format (one CSV per kind of row, a header of column
names, JSON columns as JSON, times in ISO 8601, booleans as 1/0, an empty cell for NULL)
with two differences that make an export portable and reproducible (and a third, below):

- No database ids. A player is named by its ``name_key`` (unique in a chat), a night by its
  number in the chat (1 = the first), a hand by night and number.
- No export timestamp, a fixed order of rows and fixed zip metadata: the same ledger always
  exports to the same bytes.

Files, in this order: ``players.csv``, ``sessions.csv`` (one row per night), ``hands.csv``,
``events.csv`` (each hand's reported events, one row each, with who reported it),
``entries.csv`` (who gained or paid what, per event), ``debts.csv`` and ``audit.csv``
(undo, void and amend). What the ledger derives from these (per-hand player facts, running
totals, the nights' nets) is rebuilt on import, not exported.

``debts.csv``: the transfers each ended night left, ``cents`` the money owed. ``points``
is what that money is in points at the night's stake; it is empty when the stake changed
during the night (points at two stakes do not add up: the transfer is in money only).

A third: a text cell that a spreadsheet would read as a formula (a name such as
``=HYPERLINK(…)``: one that starts with ``=``, ``+``, ``-``, ``@``, a tab or a carriage
return) is written after an apostrophe, as one types such text into a spreadsheet; so is
one that starts with an apostrophe. The import takes that apostrophe away again, and only
that one: a cell of an older export that starts with an apostrophe keeps it.

An export is written row by row into a temporary file that stays in memory up to
:data:`SPOOL_BYTES` and moves to disk beyond; an import reads the zip row by row. Neither
holds the ledger in memory.
"""

from __future__ import annotations

import csv
import io
import tempfile
import zipfile
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import IO, Any

from pydantic import ValidationError
from sqlalchemy import func, insert, select, update
from sqlalchemy.engine import Connection

from engine.errors import ReportError
from engine.models import SEATS, HandReport, HandResult
from engine.rules import Ruleset
from storage.errors import LedgerError
from storage.files.backup import _decode, _encode
from storage.models import MAX_STAKE_CENTS
from storage.services import rows as repo
from storage.services.drafts import take_draft
from storage.services.hand_json import full_report, full_result_json, pack_report, packed_or_whole
from storage.services.hand_stats import seat_facts
from storage.services.open_nights import MAX_PEOPLE
from storage.sql import tables as t
from storage.sql.store import Service

SPOOL_BYTES = 4 * 1024 * 1024
BATCH = 1000
ZIP_DATE = (1980, 1, 1, 0, 0, 0)  # the zip's own timestamps: fixed, never "now"
MAX_UNPACKED = 512 * 1024 * 1024  # an import's files together, unpacked
MAX_CELL = 64 * 1024  # one CSV cell (a hand's result is a few kilobytes)
MAX_INT = 10**12  # any number in an import (points, cents, ids of Telegram users: 10^10)

FILES = ("players.csv", "sessions.csv", "hands.csv", "events.csv", "entries.csv",
         "debts.csv", "audit.csv")
SEAT_COLS = ("seat_e", "seat_s", "seat_w", "seat_n")

# Each file's columns: (name, the table column whose type decodes it, or None for text
# references such as a player's key or a night's number).
_p, _s, _h, _e, _d, _a = (t.players.c, t.nights.c, t.hands.c, t.entries.c, t.debts.c,
                          t.audit.c)
# Columns added later, at the end of their file: a file written before them is read
# without them (their values are None).
LATER_COLUMNS = {"hands.csv": 2, "events.csv": 1}
COLUMNS: dict[str, tuple[tuple[str, Any], ...]] = {
    "players.csv": (("player", _p.name_key), ("name", _p.name),
                    ("telegram_id", _p.telegram_id), ("username", _p.username),
                    ("created_at", _p.created_at)),
    "sessions.csv": (("night", _h.number), ("preset", _s.preset), ("rules", _s.rules),
                     ("stake_cents", _s.stake_cents),
                     *((c, _p.name_key) for c in SEAT_COLS[:3]),
                     ("seat_n", _p.username),  # a player's key (64 characters), or empty
                     ("dealer", _s.dealer), ("status", _s.status), ("hands", _s.hands),
                     ("started_at", _s.started_at), ("ended_at", _s.ended_at)),
    "hands.csv": (("night", _h.number), ("hand", _h.number), ("dealer", _h.dealer),
                  ("indicator", _p.username), ("status", _h.status),
                  ("next_dealer", _h.next_dealer), ("result", _h.result),
                  ("created_at", _h.created_at), ("updated_at", _h.updated_at),
                  ("stake_cents", _h.stake_cents), ("seats", _h.seats)),
    "events.csv": (("night", _h.number), ("hand", _h.number), ("event", _e.event_index),
                   ("reporter", _p.telegram_id), ("report", _h.result),
                   # the reporter's name: a scorekeeper need not be in players.csv
                   ("reporter_name", _p.name)),
    "entries.csv": (("night", _h.number), ("hand", _h.number), ("event", _e.event_index),
                    ("player", _p.name_key), ("delta", _e.delta),
                    ("created_at", _e.created_at)),
    # points: a number, or empty for a transfer in money only (read as a nullable integer)
    "debts.csv": (("night", _h.number), ("payer", _p.name_key), ("payee", _p.name_key),
                  ("points", _h.stake_cents), ("cents", _d.cents), ("paid", _d.paid)),
    "audit.csv": (("night", _a.hand_number), ("hand", _a.hand_number), ("action", _a.action),
                  ("actor", _a.actor), ("at", _a.at), ("before", _a.before),
                  ("after", _a.after)),
}


@dataclass
class ImportPreview:
    """What an import would write (or wrote)."""

    nights: int = 0
    hands: int = 0
    players: int = 0
    events: int = 0
    entries: int = 0
    debts: int = 0
    first: str | None = None  # the first night's start, as exported
    last: str | None = None


def _zip_info(name: str) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name, date_time=ZIP_DATE)
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = 0o644 << 16
    info.create_system = 3  # Unix, whichever system writes it
    return info


# -- export ------------------------------------------------------------------------------


def _nights(conn: Connection, chat_id: int) -> list[int]:
    """The chat's night ids in order: night n is element n - 1."""
    return list(conn.execute(select(_s.id).where(_s.chat_id == chat_id)
                             .order_by(_s.id)).scalars())


def _stream(conn: Connection, query: Any) -> Iterator[Any]:
    result = conn.execution_options(yield_per=BATCH).execute(query)
    for part in result.partitions():
        yield from part


def _write_zip(conn: Connection, chat_id: int, night: int | None, out: IO[bytes]) -> int:
    ids = _nights(conn, chat_id)
    if night is not None and not 1 <= night <= len(ids):
        raise LedgerError("night_out_of_range", f"there is no night {night} in this chat",
                          number=night, nights=len(ids))
    chosen = ids if night is None else [ids[night - 1]]
    number = {sid: i + 1 for i, sid in enumerate(chosen)}  # one night alone is night 1
    srows = {r.id: r for r in conn.execute(select(t.nights).where(_s.id.in_(chosen)))}
    rules = {sid: Ruleset.from_snapshot(r.rules) for sid, r in srows.items()}
    pq = select(t.players).where(_p.chat_id == chat_id)
    if night is not None:
        row = srows[chosen[0]]
        seated = {getattr(row, c) for c in SEAT_COLS} - {None}
        pq = pq.where(_p.id.in_(seated))
    prows = conn.execute(pq.order_by(_p.created_at, _p.name_key)).all()
    key = {r.id: r.name_key for r in prows}
    member: dict[int, str] = {r.telegram_id: r.name for r in conn.execute(
        select(_p.telegram_id, _p.name).where(
            _p.chat_id == chat_id, _p.telegram_id.is_not(None))).all()}

    def enc(col: Any, value: Any) -> str:
        return _encode(col, value)

    def write(name: str, rows: Iterator[list[str]]) -> None:
        with zf.open(_zip_info(name), "w", force_zip64=True) as raw:
            text = io.TextIOWrapper(raw, encoding="utf-8", newline="")
            writer = csv.writer(text, lineterminator="\r\n")
            writer.writerow([c for c, _ in COLUMNS[name]])
            texts = [_is_text(column) for _, column in COLUMNS[name]]
            for row in rows:
                writer.writerow([_as_text(cell) if is_text else cell
                                 for is_text, cell in zip(texts, row, strict=True)])
            text.flush()
            text.detach()

    def players() -> Iterator[list[str]]:
        for r in prows:
            yield [r.name_key, r.name, enc(_p.telegram_id, r.telegram_id),
                   enc(_p.username, r.username), enc(_p.created_at, r.created_at)]

    def nights() -> Iterator[list[str]]:
        for sid in chosen:
            r = srows[sid]
            yield [str(number[sid]), r.preset, enc(_s.rules, r.rules), str(r.stake_cents),
                   *(key.get(getattr(r, c), "") for c in SEAT_COLS), r.dealer, r.status,
                   str(r.hands), enc(_s.started_at, r.started_at),
                   enc(_s.ended_at, r.ended_at)]

    hand_order = (_h.night_id, _h.number)

    def hands() -> Iterator[list[str]]:
        q = (select(_h.night_id, _h.number, _h.dealer,
                    _h.report["indicator"].as_string().label("indicator"), _h.status,
                    _h.next_dealer, _h.result, _h.report, _h.created_at, _h.updated_at,
                    _h.stake_cents, _h.seats)
             .where(_h.night_id.in_(chosen)).order_by(*hand_order))
        for r in _stream(conn, q):
            yield [str(number[r.night_id]), str(r.number), r.dealer,
                   r.indicator or "", r.status, r.next_dealer or "",
                   enc(_h.result, full_result_json(r.result, r.report, rules[r.night_id],
                                                   r.dealer)),
                   enc(_h.created_at, r.created_at),
                   enc(_h.updated_at, r.updated_at), enc(_h.stake_cents, r.stake_cents),
                   enc(_h.seats, {s: key[int(p)] for s, p in r.seats.items()}
                       if r.seats else None)]

    def events() -> Iterator[list[str]]:
        q = (select(_h.night_id, _h.number, _h.report, _h.reporters)
             .where(_h.night_id.in_(chosen)).order_by(*hand_order))
        for r in _stream(conn, q):
            reporters = list(r.reporters)
            for i, ev in enumerate(full_report(r.report)["events"]):
                who = reporters[i] if i < len(reporters) else None
                yield [str(number[r.night_id]), str(r.number), str(i),
                       enc(_p.telegram_id, who), enc(_h.result, ev),
                       enc(_p.name, member.get(who) if who is not None else None)]

    def entries() -> Iterator[list[str]]:
        q = (select(_e.night_id, _h.number, _e.event_index, _e.player_id, _e.delta,
                    _e.created_at).join(t.hands, _h.id == _e.hand_id)
             .where(_e.night_id.in_(chosen))
             .order_by(_e.night_id, _h.number, _e.event_index, _e.id))
        for r in _stream(conn, q):
            yield [str(number[r.night_id]), str(r.number), str(r.event_index),
                   key[r.player_id], str(r.delta), enc(_e.created_at, r.created_at)]

    def debts() -> Iterator[list[str]]:
        q = select(t.debts).where(_d.night_id.in_(chosen)).order_by(_d.night_id, _d.id)
        for r in _stream(conn, q):
            # The ledger keeps 0 points for a transfer in money only (a transfer in points
            # always moves some): written as empty, not as a false 0.
            yield [str(number[r.night_id]), key[r.payer_id], key[r.payee_id],
                   str(r.points) if r.points else "", str(r.cents), enc(_d.paid, r.paid)]

    def audit() -> Iterator[list[str]]:
        q = select(t.audit).where(_a.chat_id == chat_id, _a.night_id.in_(chosen)
                                  ).order_by(_a.id)
        for r in _stream(conn, q):
            yield [str(number[r.night_id]), enc(_a.hand_number, r.hand_number), r.action,
                   enc(_a.actor, r.actor), enc(_a.at, r.at), enc(_a.before, r.before),
                   enc(_a.after, r.after)]

    with zipfile.ZipFile(out, "w") as zf:
        for name, rows in zip(FILES, (players(), nights(), hands(), events(), entries(),
                                      debts(), audit()), strict=True):
            write(name, rows)
    return len(chosen)


class ImportRefused(LedgerError):
    """A file that cannot be imported: ``code`` says why, ``params`` where."""


def _keys(seats: dict[str, str]) -> set[str]:
    """The players' keys of a night's or a hand's seats (a night's also hold its status)."""
    return {k for s, k in seats.items() if s != "status"}


def _bad(where: str, why: str) -> ImportRefused:
    return ImportRefused("bad_import", f"{where}: {why}", where=where, why=why)


def _open_zip(data: IO[bytes]) -> zipfile.ZipFile:
    try:
        zf = zipfile.ZipFile(data)
    except (zipfile.BadZipFile, OSError, ValueError):
        raise _bad("zip", "not a zip file") from None
    names = {i.filename for i in zf.infolist()}
    missing = [n for n in FILES if n not in names]
    if missing:
        raise _bad(missing[0], "missing from the zip")
    if sum(zf.getinfo(n).file_size for n in FILES) > MAX_UNPACKED:
        raise _bad("zip", "too large unpacked")
    return zf


def _rows(zf: zipfile.ZipFile, name: str) -> Iterator[tuple[int, dict[str, Any]]]:
    """A file's rows, decoded and checked against its columns: (line, values)."""
    cols = COLUMNS[name]
    try:
        raw = zf.open(name)
    except (zipfile.BadZipFile, OSError, RuntimeError, NotImplementedError):
        raise _bad(name, "cannot be unpacked") from None
    with raw:
        text = io.TextIOWrapper(raw, encoding="utf-8", newline="")
        reader = csv.reader(text)
        try:
            header = next(reader, None)
            older = cols[:len(cols) - LATER_COLUMNS.get(name, 0)]
            if header == [c for c, _ in older]:
                cols = older  # written before the later columns: they read as None
            elif header != [c for c, _ in cols]:
                raise _bad(name, "the header is not " + ",".join(c for c, _ in cols))
            for row in reader:
                where = f"{name}:{reader.line_num}"
                if len(row) != len(cols):
                    raise _bad(where, f"{len(row)} cells, expected {len(cols)}")
                values: dict[str, Any] = {}
                for (cname, column), cell in zip(cols, row, strict=True):
                    if len(cell) > MAX_CELL:
                        raise _bad(where, f"{cname} is too long")
                    values[cname] = _cell(where, cname, column, cell)
                yield reader.line_num, values
        except (UnicodeDecodeError, csv.Error, zipfile.BadZipFile, OSError, EOFError):
            raise _bad(name, "not a UTF-8 CSV file") from None


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "'")


def _is_text(column: Any) -> bool:
    return column.type.python_type is str


def _as_text(cell: str) -> str:
    """A text cell as written: after an apostrophe where a spreadsheet would take it for a
    formula (or where it starts with one)."""
    return "'" + cell if cell.startswith(FORMULA_STARTS) else cell


def _from_text(cell: str) -> str:
    """A text cell as read: without the apostrophe that :func:`_as_text` put before it."""
    return cell[1:] if cell.startswith("'") and cell[1:].startswith(FORMULA_STARTS) else cell


def _cell(where: str, name: str, column: Any, cell: str) -> Any:
    if _is_text(column):
        cell = _from_text(cell)
    try:
        value = _decode(column, cell)
    except (ValueError, TypeError):
        raise _bad(where, f"{name} {cell[:40]!r} is not valid") from None
    if value is None and not column.nullable:
        raise _bad(where, f"{name} is empty")
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_INT:
        raise _bad(where, f"{name} is out of range")
    length = getattr(column.type, "length", None)
    if isinstance(value, str) and length is not None and len(value) > length:
        raise _bad(where, f"{name} is longer than {length}")
    if value is not None and column.type.python_type is str and not isinstance(value, str):
        raise _bad(where, f"{name} is not text")
    return value


@dataclass
class _Loader:
    """Reads an export file by file, checking references; writes when ``conn`` is set."""

    zf: zipfile.ZipFile
    chat_id: int
    conn: Connection | None
    preview: ImportPreview = field(default_factory=ImportPreview)
    players: dict[str, int] = field(default_factory=dict)  # key -> new id (or 0)
    nights: dict[int, tuple[int, dict[str, str]]] = field(default_factory=dict)
    hands: dict[tuple[int, int], tuple[int, str]] = field(default_factory=dict)
    events: dict[tuple[int, int], int] = field(default_factory=dict)  # events per hand
    totals: dict[str, list[int]] = field(default_factory=dict)
    nets: dict[int, dict[str, int]] = field(default_factory=dict)
    rules: dict[int, Ruleset] = field(default_factory=dict)  # each night's
    reseated: set[int] = field(default_factory=set)  # nights where a seat changed
    # each night's people: its seats now and who played a hand of it (not a voided one)
    people: dict[int, set[str]] = field(default_factory=dict)
    played: dict[tuple[int, int], set[str]] = field(default_factory=dict)  # hand -> keys
    members: set[int] = field(default_factory=set)  # telegram ids in players.csv
    # a reporter's telegram id -> (name, when first seen), from events.csv
    reporters: dict[int, tuple[str, Any]] = field(default_factory=dict)

    def _insert(self, table: Any, rows: list[dict[str, Any]], returning: Any = None
                ) -> list[int]:
        if self.conn is None or not rows:
            return [0] * len(rows)
        if returning is None:
            self.conn.execute(insert(table), rows)
            return []
        stmt = insert(table).returning(returning, sort_by_parameter_order=True)
        return list(self.conn.execute(stmt, rows).scalars())

    def _batched(self, name: str, make: Callable[[str, dict[str, Any]], dict[str, Any] | None],
                 table: Any) -> int:
        batch: list[dict[str, Any]] = []
        n = 0
        for line, values in _rows(self.zf, name):
            row = make(f"{name}:{line}", values)
            if row is None:
                continue
            batch.append(row)
            n += 1
            if len(batch) >= BATCH:
                self._insert(table, batch)
                batch = []
        self._insert(table, batch)
        return n

    def _player(self, where: str, key: Any) -> int:
        if key not in self.players:
            raise _bad(where, f"no player {str(key)[:40]!r} in players.csv")
        return self.players[key]

    def _night(self, where: str, number: Any) -> tuple[int, dict[str, str]]:
        if number not in self.nights:
            raise _bad(where, f"no night {number} in sessions.csv")
        return self.nights[number]

    def _people(self, where: str, night: int, keys: Iterable[str]) -> None:
        """A night holds at most ``MAX_PEOPLE`` people, as the ledger keeps it
        (:func:`storage.services.open_nights.people`): one that holds more is refused."""
        people = self.people.setdefault(night, set())
        people.update(keys)
        if len(people) > MAX_PEOPLE:
            raise ImportRefused("import_night_full", f"{where}: night {night} holds more "
                                f"than {MAX_PEOPLE} people", night=night, limit=MAX_PEOPLE)

    def load(self) -> ImportPreview:
        self._players()
        self._nights()
        self._hands()
        self._reporters()
        self._entries()
        self.preview.debts = self._batched("debts.csv", self._debt, t.debts)
        self._batched("audit.csv", self._audit, t.audit)
        if self.conn is not None:
            self._derived()
        return self.preview

    def _players(self) -> None:
        seen_ids: set[int] = set()
        for line, v in _rows(self.zf, "players.csv"):
            where = f"players.csv:{line}"
            key = v["player"]
            if key != key.strip() or not key or key in self.players:
                raise _bad(where, f"player {key[:40]!r} is empty or repeated")
            if v["telegram_id"] is not None:
                if v["telegram_id"] in seen_ids:
                    raise _bad(where, "telegram_id is repeated")
                seen_ids.add(v["telegram_id"])
                self.members.add(v["telegram_id"])
            (pid,) = self._insert(t.players, [{
                "chat_id": self.chat_id, "telegram_id": v["telegram_id"], "name": v["name"],
                "name_key": key, "username": v["username"], "created_at": v["created_at"]}],
                returning=_p.id)
            self.players[key] = pid
            self.totals[key] = [0] * 6
        self.preview.players = len(self.players)

    def _reporters(self) -> None:
        """Reporters not in players.csv (a scorekeeper; or one night's export) keep the
        name events.csv gives them, as players with no hands."""
        for telegram_id, (name, at) in self.reporters.items():
            if telegram_id in self.members or not name.strip():
                continue
            key = name.strip().lower()
            if key in self.players:
                key = f"{key}#{telegram_id}"[:64]
            (pid,) = self._insert(t.players, [{
                "chat_id": self.chat_id, "telegram_id": telegram_id, "name": name.strip(),
                "name_key": key, "username": None, "created_at": at}], returning=_p.id)
            self.players[key] = pid
            self.totals[key] = [0] * 6
            self.members.add(telegram_id)

    def _nights(self) -> None:
        for line, v in _rows(self.zf, "sessions.csv"):
            where = f"sessions.csv:{line}"
            if v["night"] != len(self.nights) + 1:
                raise _bad(where, f"night {v['night']} is out of order")
            try:
                rules = Ruleset.from_snapshot(v["rules"])
            except (ReportError, ValidationError, ValueError, TypeError, KeyError,
                    AttributeError):
                raise _bad(where, "rules are not a valid rules snapshot") from None
            if rules.preset != v["preset"]:
                raise _bad(where, "preset does not match its rules")
            if v["status"] not in ("open", "ended"):
                raise _bad(where, "status is not open or ended")
            if v["status"] == "open" and any(n[1].get("status") == "open"
                                             for n in self.nights.values()):
                raise _bad(where, "a second open night")
            if v["dealer"] not in rules.seats or v["stake_cents"] < 0 or v["hands"] < 0:
                raise _bad(where, "dealer, stake or hands out of range")
            seats: dict[str, str] = {seat: v[c] for seat, c in zip(SEATS, SEAT_COLS, strict=True)
                     if v[c] is not None}
            if tuple(seats) != rules.seats:
                raise _bad(where, f"its rules seat {len(rules.seats)} players, "
                           f"it names {len(seats)}")
            ids = [self._player(where, k) for k in seats.values()]
            if len(set(seats.values())) != len(seats):
                raise _bad(where, "a player sits twice")
            (sid,) = self._insert(t.nights, [{
                "chat_id": self.chat_id, "preset": v["preset"], "rules": v["rules"],
                "stake_cents": v["stake_cents"],
                **dict(zip(SEAT_COLS, [*ids, None], strict=False)),
                "dealer": v["dealer"], "status": v["status"], "hands": v["hands"],
                "started_at": v["started_at"], "ended_at": v["ended_at"],
                "board_message_id": None}], returning=_s.id)
            self.nights[v["night"]] = (sid, {**seats, "status": v["status"]})
            self.rules[v["night"]] = rules
            self.nets[v["night"]] = dict.fromkeys(seats, 0)
            self._people(where, v["night"], seats.values())
            self.preview.first = self.preview.first or _encode(_s.started_at, v["started_at"])
            self.preview.last = _encode(_s.started_at, v["started_at"])
        self.preview.nights = len(self.nights)

    def _hands(self) -> None:
        """hands.csv and events.csv together: both in (night, hand) order, merged."""
        events = _rows(self.zf, "events.csv")
        pending = next(events, None)
        last: tuple[int, int] = (0, 0)
        batch: list[tuple[tuple[int, int], dict[str, str], HandResult, dict[str, Any]]] = []
        for line, v in _rows(self.zf, "hands.csv"):
            where = f"hands.csv:{line}"
            sid, seats = self._night(where, v["night"])
            night_seats = seats
            if v.get("seats"):  # a seat changed after this hand: who played it
                played = v["seats"]
                if not isinstance(played, dict) or set(played) != set(SEATS) or len(
                        set(played.values())) != 4:
                    raise _bad(where, "its seats are not four players")
                for k in played.values():
                    self._player(where, k)
                seats = dict(played)
                self.reseated.add(v["night"])
            hk = (v["night"], v["hand"])
            if hk <= last or v["hand"] < 1:
                raise _bad(where, "hands are out of order or repeated")
            last = hk
            stake = v.get("stake_cents")
            if stake is not None and not 0 <= stake <= MAX_STAKE_CENTS:
                raise _bad(where, "its stake is out of range")
            if v["status"] not in ("open", "closed", "void") or v["dealer"] not in SEATS or (
                    v["next_dealer"] is not None and v["next_dealer"] not in SEATS):
                raise _bad(where, "status or dealer is not valid")
            evs: list[Any] = []
            reporters: list[Any] = []
            while pending is not None and (pending[1]["night"], pending[1]["hand"]) <= hk:
                eline, ev = pending
                if (ev["night"], ev["hand"]) != hk or ev["event"] != len(evs):
                    raise _bad(f"events.csv:{eline}", "an event of no hand, or out of order")
                evs.append(ev["report"])
                reporters.append(ev["reporter"])
                if ev.get("reporter_name") and ev["reporter"] is not None:
                    self.reporters.setdefault(ev["reporter"],
                                              (ev["reporter_name"], v["created_at"]))
                pending = next(events, None)
            try:
                parsed = HandReport.model_validate({"events": evs, "indicator": v["indicator"]})
                result = HandResult.model_validate(v["result"])
            except (ValidationError, ReportError, ValueError, TypeError):
                raise _bad(where, "its events or result are not valid") from None
            if not evs or len(result.events) != len(evs) or sum(result.deltas.values()) != 0 or (
                    set(result.deltas) != {s for s in seats if s != "status"}):
                raise _bad(where, "its result does not match its events")
            if v["status"] != "void":
                self._people(where, v["night"], _keys(seats))
            self.events[hk] = len(evs)
            self.played[hk] = _keys(seats)
            batch.append((hk, seats, result, {
                "chat_id": self.chat_id, "night_id": sid, "number": v["hand"],
                "dealer": v["dealer"], "report": pack_report(parsed),
                "result": packed_or_whole(result, parsed, self.rules[v["night"]], v["dealer"]),
                "status": v["status"], "next_dealer": v["next_dealer"],
                "reporters": reporters, "created_at": v["created_at"],
                "updated_at": v["updated_at"], "stake_cents": v.get("stake_cents"),
                "seats": {st: self.players[k] for st, k in seats.items()}
                if seats is not night_seats else None}))
            self.preview.hands += 1
            self.preview.events += len(evs)
            if len(batch) >= BATCH:
                self._flush_hands(batch)
                batch = []
        self._flush_hands(batch)
        if pending is not None:
            raise _bad(f"events.csv:{pending[0]}", "an event of no hand, or out of order")

    def _flush_hands(self, batch: list[tuple[tuple[int, int], dict[str, str], HandResult,
                                             dict[str, Any]]]) -> None:
        ids = self._insert(t.hands, [row for *_, row in batch], returning=_h.id)
        facts: list[dict[str, Any]] = []
        for hid, (hk, seats, result, row) in zip(ids, batch, strict=True):
            self.hands[hk] = (hid, row["status"])
            if row["status"] != "void":
                facts += self._facts(hid, hk[0], seats, result)
        self._insert(t.hand_players, facts)

    def _facts(self, hand_id: int, night: int, seats: dict[str, str],
               result: HandResult) -> list[dict[str, Any]]:
        rows = []
        for seat, f in seat_facts(result).items():
            key = seats[seat]
            acc = self.totals[key]
            for i, x in enumerate((f.delta, 1, f.won, f.self_draws, f.dealt_in,
                                   f.win_points)):
                acc[i] += x
            if key == self.nights[night][1][seat]:  # the seat's player now: its net
                self.nets[night][seat] += f.delta
            rows.append({"hand_id": hand_id, "player_id": self.players[key],
                         "chat_id": self.chat_id, "delta": f.delta, "won": f.won,
                         "self_draws": f.self_draws, "dealt_in": f.dealt_in,
                         "win_points": f.win_points})
        return rows

    def _entries(self) -> None:
        last: tuple[int, int, int] = (0, 0, 0)

        def make(where: str, v: dict[str, Any]) -> dict[str, Any]:
            nonlocal last
            sid, seats = self._night(where, v["night"])
            hk = (v["night"], v["hand"])
            if hk not in self.hands or not 0 <= v["event"] < self.events[hk]:
                raise _bad(where, "an entry of no hand or event")
            if (*hk, v["event"]) < last:
                raise _bad(where, "entries are out of order")
            last = (*hk, v["event"])
            if v["player"] not in self.played.get(hk, _keys(seats)):
                raise _bad(where, "an entry of a player not at that night's table")
            hid, status = self.hands[hk]
            if status == "void":
                raise _bad(where, "an entry of a voided hand")
            self.preview.entries += 1
            return {"chat_id": self.chat_id, "night_id": sid, "hand_id": hid,
                    "event_index": v["event"], "player_id": self._player(where, v["player"]),
                    "delta": v["delta"], "created_at": v["created_at"]}

        self._batched("entries.csv", make, t.entries)

    def _debt(self, where: str, v: dict[str, Any]) -> dict[str, Any]:
        sid, _ = self._night(where, v["night"])
        points = v["points"] or 0  # empty: in money only
        if v["payer"] == v["payee"] or points < 0 or v["cents"] < 0:
            raise _bad(where, "a debt to oneself, or a negative amount")
        return {"chat_id": self.chat_id, "night_id": sid,
                "payer_id": self._player(where, v["payer"]),
                "payee_id": self._player(where, v["payee"]), "points": points,
                "cents": v["cents"], "paid": v["paid"]}

    def _audit(self, where: str, v: dict[str, Any]) -> dict[str, Any]:
        sid, _ = self._night(where, v["night"])
        if v["action"] not in ("undo", "void", "amend", "seat", "end"):
            raise _bad(where, "action is not undo, void, amend, seat or end")
        return {"chat_id": self.chat_id, "night_id": sid, "hand_number": v["hand"],
                "action": v["action"], "actor": v["actor"], "at": v["at"],
                "before": v["before"], "after": v["after"]}

    def _derived(self) -> None:
        assert self.conn is not None
        self._insert(t.totals, [
            {"player_id": self.players[k], "chat_id": self.chat_id, "net": a[0],
             "hands": a[1], "wins": a[2], "self_draws": a[3], "dealt_in": a[4],
             "win_points": a[5]} for k, a in self.totals.items()])
        for night, nets in self.nets.items():
            self.conn.execute(update(t.nights).where(_s.id == self.nights[night][0]).values(
                reseated=night in self.reseated,
                **{f"net_{s.lower()}": v for s, v in nets.items()}))


def _chat_is_empty(conn: Connection, chat_id: int) -> bool:
    for table in (t.players, t.nights, t.hands, t.debts):
        if conn.execute(select(table.c.chat_id).where(table.c.chat_id == chat_id)
                        .limit(1)).first() is not None:
            return False
    return True


class ChatFiles(Service):
    """One chat's ledger exported as a zip, and imported into an empty chat (``ledger.files``)."""

    async def export_zip(self, chat_id: int, night: int | None = None
                         ) -> tempfile.SpooledTemporaryFile[bytes]:
        """The chat's ledger (or one night of it) as a zip, in a temporary file positioned at
        its start. The caller closes it."""
        out: tempfile.SpooledTemporaryFile[bytes] = tempfile.SpooledTemporaryFile(  # noqa: SIM115
            SPOOL_BYTES)  # returned open: the caller sends it, then closes it

        def unit(conn: Connection) -> None:
            _write_zip(conn, chat_id, night, out)

        try:
            await self.store.run(unit, write=False)
        except BaseException:
            out.close()
            raise
        out.seek(0)
        return out

    async def night_count(self, chat_id: int) -> int:
        def unit(conn: Connection) -> int:
            return int(conn.execute(select(func.count()).select_from(t.nights)
                                    .where(_s.chat_id == chat_id)).scalar_one())

        return await self.store.run(unit, write=False)


    # -- import ------------------------------------------------------------------------------

    async def preview_import(self, chat_id: int, data: IO[bytes]) -> ImportPreview:
        """Check a zip through and say what it would import; writes nothing."""

        def unit(conn: Connection) -> ImportPreview:
            if not _chat_is_empty(conn, chat_id):
                raise LedgerError("import_not_empty", "this chat already has a ledger")
            with _open_zip(data) as zf:
                return _Loader(zf, chat_id, None).load()

        return await self.store.run(unit, write=False)

    async def import_zip(self, chat_id: int, data: IO[bytes],
                         draft: tuple[int, int] | None = None) -> ImportPreview:
        """Import an export into this chat, which must have no ledger yet. One transaction:
        a file that fails any check leaves the chat as it was. ``draft``: the id and version
        of the pending import (its button) taken in the same transaction (else
        ``stale_button``)."""

        def unit(conn: Connection) -> ImportPreview:
            if draft is not None:
                take_draft(conn, chat_id, draft, "that import was confirmed or cancelled")
            repo.ensure_chat(conn, chat_id)
            if not _chat_is_empty(conn, chat_id):
                raise LedgerError("import_not_empty", "this chat already has a ledger")
            with _open_zip(data) as zf:
                return _Loader(zf, chat_id, conn).load()

        return await self.store.run(unit, write=True)
