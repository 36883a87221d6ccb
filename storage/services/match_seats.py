"""Who played each seat of a table, and the points each of them earned there: a seat's
table points decide an MCR match's places even when a substitute took it over."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Connection, Row

from engine.models import Seat
from storage.services import rows as repo
from storage.sql import tables as t


def seat_points(conn: Connection, srow: Row[Any]) -> dict[Seat, dict[int, int]]:
    """Per seat, each player who played it and their points in it, the seat's first player
    (whose seat it is) first; every hand read against the seats it was played with."""
    h, hp = t.hands.c, t.hand_players.c
    hands = conn.execute(select(t.hands.c.id, h.number, h.seats).where(
        h.night_id == srow.id).order_by(h.number)).all()
    first = repo.hand_seats(srow, hands[0]) if hands else repo.seated(srow)
    out: dict[Seat, dict[int, int]] = {seat: {pid: 0} for seat, pid in first.items()}
    at = {r.id: {pid: seat for seat, pid in repo.hand_seats(srow, r).items()} for r in hands}
    if not at:
        return out
    for hid, pid, delta in conn.execute(select(hp.hand_id, hp.player_id, hp.delta).where(
            hp.hand_id.in_(list(at)))).all():
        seat = at[hid].get(int(pid))
        if seat is None:
            continue
        by = out.setdefault(seat, {})
        by[int(pid)] = by.get(int(pid), 0) + int(delta)
    for r in hands:  # a substitute who played only hands with no points still played
        for seat, pid in repo.hand_seats(srow, r).items():
            out.setdefault(seat, {}).setdefault(pid, 0)
    return out
