"""The statements every report runs, built once.

Building a Core statement and computing its cache key costs more than SQLite takes to run
it, so the statements on the recording path are built here at import, with named bind
parameters (prefixed ``b_`` where a column of that name is being set), and executed with
plain dictionaries.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import (
    Select,
    TextClause,
    and_,
    bindparam,
    delete,
    exists,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.types import JSON

from storage.sql import tables as t


class Columns:
    """Several rows written in ONE statement on PostgreSQL: each column passed as one
    array, made rows again by ``unnest`` (asyncpg's executemany runs the statement once
    a row on the server). Elsewhere (SQLite, in process) the plain statement ``each``,
    executed with the rows (an executemany). Run by :func:`unit_of_work.execute`; the
    writes a transaction leaves for its end, on tables of their own, go as one statement
    (:func:`together`).

    ``key``: rows with the same key are one row, as the executemany would have left
    them: ``add``'s values summed (``x = x + d``), the others the last row's."""

    def __init__(self, table: str, each: Any, pg: str, columns: list[tuple[str, Any]],
                 key: tuple[str, ...] = (), add: tuple[str, ...] = ()) -> None:
        self.table, self.each, self.key, self.add = table, each, key, add
        self.names = [name for name, _ in columns]
        self.json = {name for name, kind in columns if isinstance(kind, JSON)}
        self._sql, self._columns = pg, columns
        self.pg: TextClause | None = None  # built on first use, with the dialect

    def sql(self, dialect: Any, prefix: str = "") -> str:
        """The PostgreSQL statement, its parameters named ``prefix`` + column."""
        return self._sql.format(names=", ".join(self.names), rows="unnest({})".format(
            ", ".join(f"CAST(:{prefix}{name} AS {kind.compile(dialect=dialect)}[])"
                      for name, kind in self._columns)))

    def params(self, rows: list[dict[str, Any]], prefix: str = "") -> dict[str, Any]:
        if self.key and len(rows) > 1:
            rows = self._merged(rows)
        out: dict[str, Any] = {}
        for name in self.names:
            values = [r[name] for r in rows]
            out[prefix + name] = [t.json_serializer(v) for v in values] \
                if name in self.json else values
        return out

    def run(self, conn: Any, rows: list[dict[str, Any]]) -> None:
        if conn.dialect.name != "postgresql":
            conn.execute(self.each, rows)
            return
        if self.pg is None:
            self.pg = text(self.sql(conn.dialect))
        conn.execute(self.pg, self.params(rows))

    def _merged(self, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        out: dict[tuple[Any, ...], dict[str, Any]] = {}
        for r in rows:
            k = tuple(r[n] for n in self.key)
            held = out.get(k)
            out[k] = {**r, **{n: held[n] + r[n] for n in self.add}} \
                if held is not None else dict(r)
        return list(out.values())


_TOGETHER: dict[tuple[Columns, ...], TextClause] = {}


def together(conn: Any, pending: dict[Any, list[dict[str, Any]]]) -> bool:
    """On PostgreSQL, the writes a unit left for its end (:class:`unit_of_work.Later`) in
    ONE statement, each but the last a data-modifying ``WITH``: when every one is a
    :class:`Columns` and no two write the same table (the parts of one statement do not
    see each other's changes; a row two of them changed would keep one change). False:
    not so, run them one by one."""
    if conn.dialect.name != "postgresql" or len(pending) < 2:
        return False
    parts = tuple(pending)
    if not all(isinstance(p, Columns) for p in parts) \
            or len({p.table for p in parts}) != len(parts):
        return False
    statement = _TOGETHER.get(parts)
    if statement is None:
        *first, last = parts
        withs = ", ".join(f"w{i} AS ({p.sql(conn.dialect, f's{i}_')})"
                          for i, p in enumerate(first))
        statement = _TOGETHER[parts] = text(
            f"WITH {withs} {last.sql(conn.dialect, f's{len(first)}_')}")
    params: dict[str, Any] = {}
    for i, p in enumerate(parts):
        params.update(p.params(pending[p], f"s{i}_"))
    conn.execute(statement, params)
    return True


def _typed(table: Any, names: list[str] | None = None) -> list[tuple[str, Any]]:
    return [(c.name, c.type) for c in table.c if names is None or c.name in names]

_s, _h, _hp, _tc = t.nights, t.hands, t.hand_players.c, t.totals.c

# The players at the four seats, ``p_<seat>_``-labelled, for a statement over nights.
PLAYER_FIELDS = ("id", "name", "telegram_id", "username")
_seated = {x: t.players.alias(f"p_{x}") for x in "eswn"}
_SEAT_COLUMNS = [_seated[x].c[f].label(f"p_{x}_{f}") for x in "eswn" for f in PLAYER_FIELDS]

# Whether a hand of the table was played at another stake than the table's now (the
# stake changed during the night): then its board says money, never points added up.
_other = _h.alias("h_other")
OTHER_STAKE = exists().where(_other.c.night_id == _s.c.id, _other.c.status != "void",
                             _other.c.stake_cents != _s.c.stake_cents)


# When no hand is open, the table's last hand (``l_``-labelled), as a report that starts
# the next one reads it to see whether it repeats its win (storage.services.twice).
_last = _h.alias("h_last")
LAST_HAND_FIELDS = ("id", "number", "status", "report", "reporters", "seats", "updated_at")


def _open_table() -> Select[Any]:
    return (
        select(_s, *_SEAT_COLUMNS, *[c.label(f"h_{c.name}") for c in _h.c],
               OTHER_STAKE.label("other_stake"),
               *[_last.c[f].label(f"l_{f}") for f in LAST_HAND_FIELDS])
        .join_from(_s, _seated["e"], _seated["e"].c.id == _s.c.seat_e)
        .join(_seated["s"], _seated["s"].c.id == _s.c.seat_s)
        .join(_seated["w"], _seated["w"].c.id == _s.c.seat_w)
        .outerjoin(_seated["n"], _seated["n"].c.id == _s.c.seat_n)  # none at a table of 3
        .outerjoin(_h, and_(_h.c.night_id == _s.c.id, _h.c.status == "open"))
        .outerjoin(_last, and_(_last.c.night_id == _s.c.id, _last.c.number == _s.c.hands,
                               _h.c.id.is_(None)))
        .where(_s.c.chat_id == bindparam("chat_id"), _s.c.status == "open")
    )


# The chat's open table with its players and its open hand (``h_``-labelled) if any, and
# whether its stake changed: one statement. Locked for writing (the night row) where a
# write reads it.
OPEN_TABLE = _open_table()
OPEN_NIGHT_AND_HAND = _open_table().with_for_update(of=_s)

SELECT_CHAT = select(t.chats).where(t.chats.c.id == bindparam("chat_id"))


def _chat_and_table() -> Select[Any]:
    return _open_table().add_columns(*[c.label(f"c_{c.name}") for c in t.chats.c]).join(
        t.chats, t.chats.c.id == _s.c.chat_id)


# The same with the chat's settings (``c_``-labelled): an update's first read, when the
# chat has a table going, in one statement. No row: no table going (the chat's settings
# are then read alone, its row created on first use).
CHAT_AND_TABLE = _chat_and_table()
CHAT_AND_TABLE_LOCKED = _chat_and_table().with_for_update(of=_s)
# A table's hand by its number (the previous one, when a report may repeat its win).
SELECT_HAND_NUMBER = select(_h).where(_h.c.night_id == bindparam("night_id"),
                                      _h.c.number == bindparam("number"))

INSERT_HAND = insert(_h).returning(_h.c.id)
_ENTRY = _typed(t.entries, [c.name for c in t.entries.c if c.name != "id"])
INSERT_ENTRIES = Columns("entries", insert(t.entries),
                         "INSERT INTO entries ({names}) SELECT * FROM {rows}", _ENTRY)
INSERT_HAND_PLAYERS = Columns("hand_players", insert(t.hand_players),
                              "INSERT INTO hand_players ({names}) SELECT * FROM {rows}",
                              _typed(t.hand_players))


def _hand_players_upsert() -> Columns:
    columns = [c.name for c in t.hand_players.c]
    keys = [c.name for c in t.hand_players.primary_key]
    changed = ", ".join(f"{c} = excluded.{c}" for c in columns if c not in keys)
    conflict = f"ON CONFLICT ({', '.join(keys)}) DO UPDATE SET {changed}"
    each: TextClause = text(
        f"INSERT INTO hand_players ({', '.join(columns)}) "
        f"VALUES ({', '.join(':' + c for c in columns)}) {conflict}")
    return Columns("hand_players", each, "INSERT INTO hand_players ({names}) SELECT * FROM {rows} "
                   + conflict, _typed(t.hand_players), key=tuple(keys))


# A hand's facts rewritten for the same players: one statement instead of DELETE + INSERT.
# As SQL text, the same on SQLite and PostgreSQL: SQLAlchemy 2.0 does not cache a Core
# ``on_conflict_do_update`` and would compile it on every execution.
UPSERT_HAND_PLAYERS = _hand_players_upsert()
DELETE_HAND_PLAYERS = delete(t.hand_players).where(_hp.hand_id == bindparam("hand_id"))
SELECT_HAND_PLAYERS = select(t.hand_players).where(_hp.hand_id == bindparam("hand_id"))
SELECT_PLAYERS = select(t.players).where(
    t.players.c.id.in_(bindparam("ids", expanding=True)))

_HAND_SET = ("report", "result", "status", "next_dealer", "reporters", "updated_at")
UPDATE_HAND = Columns(
    "hands", update(_h).where(_h.c.id == bindparam("hand_id")).values(
        **{c: bindparam(f"b_{c}") for c in _HAND_SET}),
    "UPDATE hands SET " + ", ".join(f"{c} = v.b_{c}" for c in _HAND_SET)
    + " FROM {rows} AS v({names}) WHERE hands.id = v.hand_id",
    [("hand_id", _h.c.id.type), *[(f"b_{c}", _h.c[c].type) for c in _HAND_SET]],
    key=("hand_id",))

TOTAL_FIELDS = ("net", "hands", "wins", "self_draws", "dealt_in", "win_points")
# Executed with one parameter set per player whose totals moved: one statement for all
# of them on PostgreSQL (``UPDATE … FROM unnest(…)``, a player's moves added up first).
MOVE_TOTALS = Columns(
    "totals", update(t.totals).where(_tc.player_id == bindparam("pid")).values(
        **{k: getattr(_tc, k) + bindparam("d_" + k) for k in TOTAL_FIELDS}),
    "UPDATE totals SET " + ", ".join(f"{k} = totals.{k} + v.d_{k}" for k in TOTAL_FIELDS)
    + " FROM {rows} AS v({names}) WHERE totals.player_id = v.pid",
    [("pid", _tc.player_id.type), *[(f"d_{k}", _tc[k].type) for k in TOTAL_FIELDS]],
    key=("pid",), add=tuple(f"d_{k}" for k in TOTAL_FIELDS))

_NETS = {f"net_{x}": _s.c[f"net_{x}"] + bindparam(f"d_{x}") for x in "eswn"}
_MOVED = [(f"d_{x}", _s.c[f"net_{x}"].type) for x in "eswn"]
_NETS_SQL = ", ".join(f"net_{x} = nights.net_{x} + v.d_{x}" for x in "eswn")
_ON_NIGHT = " FROM {rows} AS v({names}) WHERE nights.id = v.night_id"
MOVE_NIGHT_NETS = Columns(
    "nights", update(_s).where(_s.c.id == bindparam("night_id")).values(**_NETS),
    "UPDATE nights SET " + _NETS_SQL + _ON_NIGHT,
    [("night_id", _s.c.id.type), *_MOVED], key=("night_id",),
    add=tuple(n for n, _ in _MOVED))
# The same, with the hand count and the dealer: a report moves all three in one statement.
MOVE_NIGHT = Columns(
    "nights", update(_s).where(_s.c.id == bindparam("night_id")).values(
        hands=bindparam("b_hands"), dealer=bindparam("b_dealer"), **_NETS),
    "UPDATE nights SET hands = v.b_hands, dealer = v.b_dealer, " + _NETS_SQL + _ON_NIGHT,
    [("night_id", _s.c.id.type), ("b_hands", _s.c.hands.type),
     ("b_dealer", _s.c.dealer.type), *_MOVED], key=("night_id",),
    add=tuple(n for n, _ in _MOVED))
