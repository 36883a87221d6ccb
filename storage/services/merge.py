"""One person, one row: a guest's row taken into the row of the member they turn out to be.

A guest (a name with no account: seated by a plain name, or by an @username nobody had
used yet) is linked to a member's account when the member acts, if the account has no
row in the chat yet: the guest's row simply gets the account. When the account already
has a row of its own (it was seen earlier under another name: a text mention before it
had a username, a scorekeeper's display name), the guest's hands, debts and totals are
moved onto the member's row and the guest's row goes, so that /standings, /stats and
/debts show the person once.

Never when the two rows ever sat at the same table (by its seats now, by an entry, or by
the seats a hand keeps, a voided hand's included), nor when a debt runs between them:
then they are two people. A member acting at such a table asks again with each message,
so the refusal reads only the chat's rows, through indexes (``ix_nights_chat_status``,
``ix_entries_night_player``, ``ix_hands_chat_id``, ``ix_debts_chat``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlalchemy import and_, delete, insert, or_, select, update
from sqlalchemy.engine import Connection

from storage.services import rows as repo
from storage.sql import tables as t
from storage.sql.clock import now
from storage.sql.statements import TOTAL_FIELDS


def sittings(conn: Connection, chat_id: int, player_ids: Iterable[int]
             ) -> tuple[dict[int, set[int]], list[tuple[int, dict[str, Any]]]]:
    """The nights of the chat each player sat at: by its seats now, by an entry of
    theirs, or by the seats one of its hands keeps (``hands.seats``: a voided hand has
    no entries); and the chat's hands that keep seats, as (hand id, seats)."""
    ids = list(player_ids)
    out: dict[int, set[int]] = {pid: set() for pid in ids}
    s, e, h = t.nights.c, t.entries.c, t.hands.c
    for row in conn.execute(select(s.id, s.seat_e, s.seat_s, s.seat_w, s.seat_n)
                            .where(s.chat_id == chat_id)).all():
        for pid in row[1:]:
            if pid in out:
                out[pid].add(int(row.id))
    chat_nights = select(s.id).where(s.chat_id == chat_id).scalar_subquery()
    for sid, pid in conn.execute(select(e.night_id, e.player_id).distinct().where(
            e.night_id.in_(chat_nights), e.player_id.in_(ids))).all():
        out[int(pid)].add(int(sid))
    kept: list[tuple[int, dict[str, Any]]] = []
    for hid, sid, seats in conn.execute(select(h.id, h.night_id, h.seats).where(
            h.chat_id == chat_id, h.seats.is_not(None))).all():
        if not seats:
            continue
        kept.append((int(hid), dict(seats)))
        for pid in seats.values():
            if int(pid) in out:
                out[int(pid)].add(int(sid))
    return out, kept


def merge_guest(conn: Connection, chat_id: int, guest_id: int, member_id: int,
                actor: int | None = None) -> bool:
    """Move the guest's results onto the member's row and delete the guest's row, noting
    the merge in the audit (action ``merge``; ``actor``: the member's Telegram id); False
    (nothing written) when the two ever sat at one table or a debt runs between them."""
    sat, kept = sittings(conn, chat_id, (guest_id, member_id))
    nights = sat[guest_id]
    if nights & sat[member_id]:
        return False
    e, hp, d, h = t.entries.c, t.hand_players.c, t.debts.c, t.hands.c
    if conn.execute(select(d.id).where(
            d.chat_id == chat_id,
            or_(and_(d.payer_id == guest_id, d.payee_id == member_id),
                and_(d.payer_id == member_id, d.payee_id == guest_id))).limit(1)).first():
        return False
    if nights:
        conn.execute(update(t.entries).where(e.night_id.in_(nights),
                                             e.player_id == guest_id)
                     .values(player_id=member_id))
    conn.execute(update(t.hand_players).where(hp.chat_id == chat_id, hp.player_id == guest_id)
                 .values(player_id=member_id))
    conn.execute(update(t.debts).where(d.chat_id == chat_id, d.payer_id == guest_id)
                 .values(payer_id=member_id))
    conn.execute(update(t.debts).where(d.chat_id == chat_id, d.payee_id == guest_id)
                 .values(payee_id=member_id))
    for column in repo.SEAT_COLUMNS.values():
        conn.execute(update(t.nights).where(t.nights.c.chat_id == chat_id,
                                              t.nights.c[column] == guest_id)
                     .values({column: member_id}))
    for hid, seats in kept:  # hands that keep their own seats, voided ones included
        moved = {seat: member_id if int(pid) == guest_id else pid
                 for seat, pid in seats.items()}
        if moved != seats:
            conn.execute(update(t.hands).where(h.id == hid).values(seats=moved))
    tc = t.totals.c
    guest = conn.execute(select(t.totals).where(tc.player_id == guest_id)).first()
    if guest is not None:
        add: dict[str, Any] = {k: tc[k] + getattr(guest, k) for k in TOTAL_FIELDS}
        if conn.execute(update(t.totals).where(tc.player_id == member_id)
                        .values(add)).rowcount:
            conn.execute(delete(t.totals).where(tc.player_id == guest_id))
        else:  # (a member's row always has its totals; if not, the guest's are theirs)
            conn.execute(update(t.totals).where(tc.player_id == guest_id)
                         .values(player_id=member_id))
    conn.execute(delete(t.players).where(t.players.c.id == guest_id))
    conn.execute(insert(t.audit).values(
        chat_id=chat_id, night_id=None, hand_number=None, action="merge", actor=actor,
        at=now(), before={"guest": guest_id, "member": member_id},
        after={"player": member_id}))
    return True
