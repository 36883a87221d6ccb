"""A hand, a kong, a bite or a set reported twice: at a real table two players often report
the win that ended a hand, and the kong-maker and a payer both report a kong. A report
that would start a new hand with the same winners, way of winning and discarder as the
event that just closed the previous hand, from someone else within :data:`TWICE_WINDOW`,
is not recorded: the ledger keeps it as a question (a draft of kind ``twice``, written in
the same transaction as the answer that asks it), and the table answers with a button:
the same hand (dropped) or a new hand (recorded).

A kong report identical to a kong of the hand being played (the same player, kind and
discarder), recorded by someone else within the window, is kept as a question the same
way: the same kong (dropped) or another kong (recorded).

A Singapore bite or complete set of bonus tiles that the open hand already holds (the same
player and pair, or the same player and set) is kept as a question whoever reports it and
however long after: each bonus tile is in the wall once, so a hand holds each bite and set
once, and a second report of one is almost always the same one."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import func, insert, select
from sqlalchemy.engine import Connection, Row

from engine.models import Bite, BonusSet, Event, HandReport, Kong, Win
from storage.services.rows import Prefixed
from storage.sql import statements as sql
from storage.sql import tables as t

# How long after a hand closes a second report of its win is taken for the same hand.
TWICE_WINDOW = timedelta(minutes=5)
QUESTION_KIND = "twice"


def _naive(stamp: datetime) -> datetime:
    return stamp.astimezone(UTC).replace(tzinfo=None) if stamp.tzinfo else stamp


def _signature(win: Win) -> tuple[Any, ...]:
    return (win.how, win.from_seat, tuple(sorted(w.seat for w in win.winners)))


def closing_twin(conn: Connection, srow: Row[Any], report: HandReport,
                 reporter: int | None, stamp: datetime) -> Row[Any] | Prefixed | None:
    """The previous hand, when ``report`` (a new hand's first event) looks like a second
    report of the win that closed it: same winners, how and discarder, by another player,
    within the window. None otherwise."""
    new = report.events[-1] if report.events else None
    if not isinstance(new, Win) or srow.hands < 1 or reporter is None:
        return None
    prev: Row[Any] | Prefixed | None
    if hasattr(srow, "l_id"):  # read with the table (statements.OPEN_NIGHT_AND_HAND)
        prev = Prefixed(srow, "l_") if srow.l_id is not None else None
    else:
        prev = conn.execute(sql.SELECT_HAND_NUMBER,
                            {"night_id": srow.id, "number": srow.hands}).first()
    if prev is None or prev.status != "closed" or not prev.reporters:
        return None
    if prev.seats:  # a seat changed since that hand (between hands): this one is new
        return None
    if _naive(stamp) - _naive(prev.updated_at) > TWICE_WINDOW:
        return None
    if prev.reporters[-1] == reporter or prev.reporters[-1] is None:
        return None
    last = HandReport.model_validate(prev.report).events[-1]
    if not isinstance(last, Win) or _signature(last) != _signature(new):
        return None
    return prev


def _same_instant(old: Event, new: Event) -> bool:
    """Whether ``old`` is the bite or set ``new`` reports again: the same player's same
    pair (hidden or not, charged to one or to all) or the same player's same set."""
    if isinstance(new, Bite):
        return isinstance(old, Bite) and (old.seat, old.pair) == (new.seat, new.pair)
    if isinstance(new, BonusSet):
        return isinstance(old, BonusSet) and (old.seat, old.kind) == (new.seat, new.kind)
    return False


def _first_at(conn: Connection, hrow: Row[Any], index: int) -> datetime:
    at = conn.execute(select(func.min(t.entries.c.created_at)).where(
        t.entries.c.hand_id == hrow.id, t.entries.c.event_index == index)).scalar()
    first: datetime = at or hrow.updated_at
    return first


def repeated_event(conn: Connection, hrow: Row[Any], report: HandReport,
                   reporter: int | None, stamp: datetime
                   ) -> tuple[str, int | None, datetime] | None:
    """When ``report``'s last event (joining the open hand ``hrow``) is one the hand already
    holds: what it is (``kong``, ``bite`` or ``bonus_set``), who reported it first (their
    Telegram id; None if unknown) and when. A kong counts when another player recorded it
    within the window; a bite or a set whoever reported it, at any time in the hand. None
    otherwise."""
    new = report.events[-1] if report.events else None
    reporters = list(hrow.reporters)
    if isinstance(new, (Bite, BonusSet)):
        for index, old in enumerate(report.events[:-1]):
            if _same_instant(old, new):
                first = reporters[index] if index < len(reporters) else None
                return new.type, None if first is None else int(first), \
                    _first_at(conn, hrow, index)
        return None
    if not isinstance(new, Kong) or reporter is None:
        return None
    for index, old in enumerate(report.events[:-1]):
        if old != new or index >= len(reporters) or reporters[index] in (None, reporter):
            continue
        at = _first_at(conn, hrow, index)
        if _naive(stamp) - _naive(at) <= TWICE_WINDOW:
            return "kong", int(reporters[index]), at
    return None


def first_report(conn: Connection, chat_id: int, reporter: int | None, at: datetime,
                 stamp: datetime) -> tuple[str | None, int]:
    """Who reported first (a player's name; None if not a player here or not known) and how
    many seconds before ``stamp``: what the question says."""
    name = None if reporter is None else conn.execute(select(t.players.c.name).where(
        t.players.c.chat_id == chat_id, t.players.c.telegram_id == reporter)).scalar()
    return name, max(0, int((_naive(stamp) - _naive(at)).total_seconds()))


def ask(conn: Connection, chat_id: int, night_id: int, hand_number: int,
        event: dict[str, Any], indicator: str | None, reporter: int | None,
        stamp: datetime) -> int:
    """Keep the report as a question; its draft id (the buttons carry it)."""
    data = {"session": night_id, "hand": hand_number, "event": event,
            "indicator": indicator, "reporter": reporter}
    return int(conn.execute(insert(t.drafts).values(
        chat_id=chat_id, user_id=reporter or 0, kind=QUESTION_KIND, version=1, data=data,
        created_at=stamp, touched_at=stamp).returning(t.drafts.c.id)).scalar_one())
