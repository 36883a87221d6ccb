"""Seat changes during a night (/seat): a player leaves and another takes the seat between
hands; the dealer and the night go on, and every result stays with who earned it."""

from __future__ import annotations

from sqlalchemy import func, select, update
from sqlalchemy.engine import Connection

from storage import tables as t
from storage.errors import LedgerError
from storage.ledger_base import SEAT_COLUMNS, LedgerBase, now
from storage.models import PlayerRef, SessionInfo


class Seating(LedgerBase):
    async def change_seat(self, chat_id: int, leaving: str, joining: PlayerRef, *,
                          actor: int | None = None) -> SessionInfo:
        """``joining`` takes ``leaving``'s seat (a seated player's name, @username or seat
        letter). Refused while a hand is being played, or when the joining player sits."""

        def unit(conn: Connection) -> SessionInfo:
            srow = self._open_session_row(conn, chat_id)
            info = self._session_info(conn, chat_id, srow.id, row=srow)
            if info.open_hand is not None:
                raise LedgerError("seat_mid_hand", "a hand is being played",
                                  number=info.open_hand)
            key = leaving.strip().lstrip("@").lower()
            seat = next((s for s, p in info.seats.items() if key in (
                p.name.lower(), (p.username or "").lower(), s.lower())), None)
            if seat is None:
                raise LedgerError("seat_not_seated", "that player is not at the table",
                                  name=leaving)
            player = self._find_or_add_player(conn, chat_id, joining)
            if any(p.id == player.id for p in info.seats.values()):
                raise LedgerError("seat_already_seated", "that player already sits here",
                                  name=player.name)
            h = t.hands.c
            # The hands so far keep who played them.
            conn.execute(update(t.hands).where(h.session_id == srow.id, h.seats.is_(None))
                         .values(seats={s: p.id for s, p in info.seats.items()}))
            e = t.entries.c
            earned = conn.execute(select(func.coalesce(func.sum(e.delta), 0)).where(
                e.session_id == srow.id, e.player_id == player.id)).scalar_one()
            column = SEAT_COLUMNS[seat]
            conn.execute(update(t.sessions).where(t.sessions.c.id == srow.id).values(
                {column: player.id, f"net_{seat.lower()}": int(earned), "reseated": True}))
            conn.execute(t.audit.insert().values(
                chat_id=chat_id, session_id=srow.id, hand_number=None, action="seat",
                actor=actor, at=now(),
                before={"seat": seat, "player": info.seats[seat].name},
                after={"seat": seat, "player": player.name}))
            return self._session_info(conn, chat_id, srow.id)

        return await self.run(unit, write=True)
