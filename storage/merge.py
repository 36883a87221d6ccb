"""One person, one row: a guest's row taken into the row of the member they turn out to be.

A guest (a name with no account: seated by a plain name, or by an @username nobody had
used yet) is linked to a member's account when the member acts, if the account has no
row in the chat yet: the guest's row simply gets the account. When the account already
has a row of its own (it was seen earlier under another name: a text mention before it
had a username, a scorekeeper's display name), the guest's hands, debts and totals are
moved onto the member's row and the guest's row goes, so that /standings, /stats and
/debts show the person once.

Never when the two rows ever sat at the same table: then they are two people.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import delete, select, union, update
from sqlalchemy.engine import Connection

from storage import repository as repo
from storage import tables as t
from storage.statements import TOTAL_FIELDS


def sessions_of(conn: Connection, player_id: int) -> set[int]:
    """Every session the player sat at: by its seats now, or by an entry of theirs."""
    s, e = t.sessions.c, t.entries.c
    seated = select(s.id).where(
        (s.seat_e == player_id) | (s.seat_s == player_id) | (s.seat_w == player_id)
        | (s.seat_n == player_id))
    played = select(e.session_id).where(e.player_id == player_id)
    return {int(x) for x in conn.execute(union(seated, played)).scalars().all()}


def merge_guest(conn: Connection, guest_id: int, member_id: int) -> bool:
    """Move the guest's results onto the member's row and delete the guest's row; False
    (nothing written) when the two ever sat at one table."""
    sessions = sessions_of(conn, guest_id)
    if sessions & sessions_of(conn, member_id):
        return False
    e, hp, d, h = t.entries.c, t.hand_players.c, t.debts.c, t.hands.c
    conn.execute(update(t.entries).where(e.player_id == guest_id)
                 .values(player_id=member_id))
    conn.execute(update(t.hand_players).where(hp.player_id == guest_id)
                 .values(player_id=member_id))
    conn.execute(update(t.debts).where(d.payer_id == guest_id).values(payer_id=member_id))
    conn.execute(update(t.debts).where(d.payee_id == guest_id).values(payee_id=member_id))
    for column in repo.SEAT_COLUMNS.values():
        conn.execute(update(t.sessions).where(t.sessions.c[column] == guest_id)
                     .values({column: member_id}))
    if sessions:  # hands that keep their own seats (a seat changed after them)
        for hid, seats in conn.execute(select(h.id, h.seats).where(
                h.session_id.in_(sessions), h.seats.is_not(None))).all():
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
    return True
