"""The table going (a night): opening it, reading it as players see it, its scoreboard
message, and seat changes during a night (/seat): a player leaves and another takes the
seat between hands; the dealer and the night go on, and every result stays with who
earned it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import func, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from engine.families import FAMILIES
from engine.families.registry import POINT_CENT
from engine.rules import rules_for_players
from storage.errors import LedgerError
from storage.models import NightInfo, PlayerRef
from storage.services import rows as repo
from storage.services.drafts import take_draft
from storage.sql import tables as t
from storage.sql.clock import now
from storage.sql.store import Service

# The most people one night may hold: its seats now and everyone who played a hand of it.
# No real table comes near it (a seat change brings one in, /seat); it bounds the night's
# summary, its settle-up card (which shows all of them at this many) and its transfers.
MAX_PEOPLE = 16


def people(conn: Connection, night_id: int) -> set[int]:
    """Who played a hand of the night (the ids its summary names, beside the seats)."""
    hp, h = t.hand_players.c, t.hands.c
    return set(conn.execute(select(hp.player_id).distinct().join(
        t.hands, h.id == hp.hand_id).where(h.night_id == night_id)).scalars())


class OpenNights(Service):
    """The table going in a chat: open it, read it, find its last event and scoreboard
    message, change a seat, and see it as it sat for an earlier hand."""

    async def open_night(self, chat_id: int, seats: Sequence[PlayerRef], *,
                           preset: str | None = None, overrides: dict[str, Any] | None = None,
                           stake_cents: int | None = None,
                           draft: tuple[int, int] | None = None) -> NightInfo:
        """``draft``: the id and version of the seat buttons' draft that opens the table,
        taken in the same transaction (a press on an older version is ``stale_button``)."""
        if len(seats) not in (3, 4):
            raise LedgerError("four_players", "a table has four players, or three",
                              count=len(seats))

        def unit(conn: Connection) -> NightInfo:
            if draft is not None:
                take_draft(conn, chat_id, draft, "those seats changed meanwhile")
            chat = repo.ensure_chat(conn, chat_id)
            s = t.nights.c
            if conn.execute(select(s.id).where(
                    s.chat_id == chat_id, s.status == "open")).first() is not None:
                raise LedgerError("night_open", "this chat already has a table going; "
                                  "end it first")
            # The chat's house rules are for its preset: a table of that preset keeps them.
            same = preset is None or preset == chat.preset
            rules = rules_for_players(preset or chat.preset, {
                **(chat.overrides if same else {}), **(overrides or {})}, len(seats))
            # A family whose points are money of its own (Singapore, Hong Kong: cents) plays
            # at a cent a point, whatever the chat usually plays at.
            stake = POINT_CENT if FAMILIES[rules.family].points_in_cents else (
                chat.stake_cents if stake_cents is None else stake_cents)
            players = [repo.find_or_add_player(conn, chat_id, ref) for ref in seats]
            if len({p.id for p in players}) != len(seats):
                raise LedgerError("same_player_twice", "a player cannot sit twice")
            try:
                result = conn.execute(insert(t.nights).values(
                    chat_id=chat_id, preset=rules.preset, rules=rules.snapshot(),
                    stake_cents=stake,
                    seat_e=players[0].id, seat_s=players[1].id, seat_w=players[2].id,
                    seat_n=players[3].id if len(players) == 4 else None,  # three: none
                    dealer="E", status="open", hands=0, started_at=now()).returning(s.id))
            except IntegrityError:  # another writer opened a table a moment ago
                raise LedgerError("night_open", "this chat already has a table going; "
                                  "end it first") from None
            sid = result.scalar_one()
            return repo.night_info(conn, chat_id, sid)

        return await self.store.run(unit, write=True)

    async def current_night(self, chat_id: int) -> NightInfo | None:
        def unit(conn: Connection) -> NightInfo | None:
            return repo.open_night_info(conn, chat_id)

        return await self.store.run(unit, write=False)

    async def last_event(self, chat_id: int) -> tuple[int, int, int, int | None] | None:
        """(night id, hand number, event index, reporter) of the open table's last event."""

        def unit(conn: Connection) -> tuple[int, int, int, int | None] | None:
            srow = repo.night_row(conn, chat_id)
            if srow is None:
                return None
            h = t.hands.c
            row = conn.execute(select(h.number, h.reporters).where(
                h.night_id == srow.id, h.status != "void").order_by(h.number.desc())
                .limit(1)).first()
            if row is None or not row.reporters or repo.latest_edit(conn, srow) is not None:
                return None  # after a correction, the events' Undo buttons are out of date
            return srow.id, row.number, len(row.reporters) - 1, row.reporters[-1]

        return await self.store.run(unit, write=False)

    async def correction_to_undo(self, chat_id: int) -> tuple[str, int] | None:
        """(``amend`` or ``void``, hand number) of the correction an undo takes back first
        at the open table, if one does (its events' Undo buttons wait until then)."""

        def unit(conn: Connection) -> tuple[str, int] | None:
            srow = repo.night_row(conn, chat_id)
            edit = None if srow is None else repo.latest_edit(conn, srow)
            return None if edit is None else (str(edit.action), int(edit.hand_number))

        return await self.store.run(unit, write=False)

    async def board_message(self, chat_id: int, night_id: int) -> int | None:
        """The id of the table's scoreboard message, if it was posted."""

        def unit(conn: Connection) -> int | None:
            return conn.execute(select(t.nights.c.board_message_id).where(
                t.nights.c.chat_id == chat_id, t.nights.c.id == night_id)
            ).scalar_one_or_none()

        return await self.store.run(unit, write=False)

    async def has_ended(self, chat_id: int, night_id: int) -> bool:
        """Whether ``night_id`` is a table of this chat that has ended (a press on one of
        its buttons is answered so)."""

        def unit(conn: Connection) -> bool:
            s = t.nights.c
            return conn.execute(select(s.status).where(
                s.chat_id == chat_id, s.id == night_id)).scalar_one_or_none() == "ended"

        return await self.store.run(unit, write=False)

    async def set_board_message(self, chat_id: int, night_id: int, message_id: int) -> None:
        def unit(conn: Connection) -> None:
            conn.execute(update(t.nights).where(
                t.nights.c.chat_id == chat_id, t.nights.c.id == night_id)
                .values(board_message_id=message_id))

        return await self.store.run(unit, write=True)

    async def change_seat(self, chat_id: int, leaving: str, joining: PlayerRef, *,
                          actor: int | None = None) -> NightInfo:
        """``joining`` takes ``leaving``'s seat (a seated player's name, @username or seat
        letter). Refused while a hand is being played, when the joining player sits, or
        when the night would hold more than ``MAX_PEOPLE`` people (``night_full``)."""

        def unit(conn: Connection) -> NightInfo:
            srow = repo.open_night_row(conn, chat_id)
            info = repo.night_info(conn, chat_id, srow.id, row=srow)
            if info.open_hand is not None:
                raise LedgerError("seat_mid_hand", "a hand is being played",
                                  number=info.open_hand)
            key = leaving.strip().lstrip("@").lower()
            seat = next((s for s, p in info.seats.items() if key in (
                p.name.lower(), (p.username or "").lower(), s.lower())), None)
            if seat is None:
                raise LedgerError("seat_not_seated", "that player is not at the table",
                                  name=leaving)
            player = repo.find_or_add_player(conn, chat_id, joining)
            if any(p.id == player.id for p in info.seats.values()):
                raise LedgerError("seat_already_seated", "that player already sits here",
                                  name=player.name)
            night = people(conn, srow.id) | {player.id} | {
                p.id for s, p in info.seats.items() if s != seat}
            if len(night) > MAX_PEOPLE:
                raise LedgerError("night_full", "this night holds as many people as it may",
                                  name=player.name, limit=MAX_PEOPLE)
            h = t.hands.c
            # The hands so far keep who played them.
            conn.execute(update(t.hands).where(h.night_id == srow.id, h.seats.is_(None))
                         .values(seats={s: p.id for s, p in info.seats.items()}))
            e = t.entries.c
            earned = conn.execute(select(func.coalesce(func.sum(e.delta), 0)).where(
                e.night_id == srow.id, e.player_id == player.id)).scalar_one()
            column = repo.SEAT_COLUMNS[seat]
            conn.execute(update(t.nights).where(t.nights.c.id == srow.id).values(
                {column: player.id, f"net_{seat.lower()}": int(earned), "reseated": True}))
            conn.execute(t.audit.insert().values(
                chat_id=chat_id, night_id=srow.id, hand_number=None, action="seat",
                actor=actor, at=now(),
                before={"seat": seat, "player": info.seats[seat].name},
                after={"seat": seat, "player": player.name}))
            return repo.night_info(conn, chat_id, srow.id)

        return await self.store.run(unit, write=True)

    async def night_at_hand(self, night: NightInfo, number: int) -> NightInfo:
        """``night`` as it sat for its hand ``number``, the one a correction reads: who
        played it (a seat may have changed since), and no seats still in unless it is the
        hand being played. A hand not there yet leaves the table as it is."""
        if number == night.open_hand:
            return night

        def unit(conn: Connection) -> NightInfo:
            h = t.hands.c
            seats = conn.execute(select(h.seats).where(
                h.night_id == night.id, h.number == number)).scalar()
            return repo.as_played(conn, night.model_copy(update={"still_in": ()}), seats)

        return await self.store.run(unit, write=False)
