"""Corrections: undo the last event, void or amend any hand, replay later dealers."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.engine import Connection, Row

from engine.models import Seat
from engine.rules import Ruleset
from engine.settle import parse_report, settle_hand
from storage.errors import LedgerError
from storage.models import (
    EditOutcome,
    HandChange,
    PlayerInfo,
    UndoOutcome,
)
from storage.services import rows as repo
from storage.services.chats import name_members
from storage.services.drafts import take_draft
from storage.services.hand_json import full_report, hand_deltas, pack_report, pack_result
from storage.sql import tables as t
from storage.sql.clock import now
from storage.sql.store import Service


def may_change(reporters: list[int | None], actor: int | None, allow_others: bool,
               code: str) -> None:
    """The one rule for undo, void and edit: whoever reported what changes, or an admin
    (``allow_others``). Events recorded without a reporter bind nobody."""
    if allow_others:
        return
    if any(r is not None and r != actor for r in reporters):
        raise LedgerError(code, "only the player who reported it, or an admin, can change it")


class Corrections(Service):
    """Undo the last event, void or amend any hand (later dealers replayed), and the
    audit trail they leave."""

    async def undo(self, chat_id: int, *, actor: int | None = None,
                   allow_others: bool = False) -> UndoOutcome:
        """Take back the night's last change not taken back yet: the newest correction
        (/edit, /void) still standing when no event was recorded after it, else the last
        event; each undo restores the table as it was before what it takes back. Only its
        reporter (or whoever corrected), unless ``allow_others``."""

        def unit(conn: Connection) -> UndoOutcome:
            srow = repo.open_night_row(conn, chat_id)
            edit, hrow = self._undo_target(conn, srow, actor, allow_others)
            if edit is not None:
                return self._undo_edit(conn, chat_id, srow, edit, actor, allow_others)
            assert hrow is not None
            h = t.hands.c
            reporters = list(hrow.reporters)
            events = list(full_report(hrow.report)["events"])  # as the engine dumps them
            removed = events.pop()
            index = len(events)
            e = t.entries.c
            deltas_rows = conn.execute(select(e.player_id, e.delta).where(
                e.hand_id == hrow.id, e.event_index == index)).tuples().all()
            seats = repo.seated(srow)
            by_pid = dict(deltas_rows)
            deltas = {seat: -int(by_pid.get(pid, 0)) for seat, pid in seats.items()}
            conn.execute(delete(t.entries).where(e.hand_id == hrow.id,
                                                 e.event_index == index))
            stamp = now()
            if not events:
                repo.set_hand_facts(conn, srow, hrow.id, None)
                conn.execute(delete(t.hands).where(h.id == hrow.id))
                # A voided hand numbered after this one keeps its number: the next hand
                # follows the highest number still there, so numbers are never reused.
                last = conn.execute(select(func.coalesce(func.max(h.number), 0)).where(
                    h.night_id == srow.id)).scalar_one()
                conn.execute(update(t.nights).where(t.nights.c.id == srow.id)
                             .values(hands=last, dealer=hrow.dealer))
            else:
                rules = Ruleset.from_snapshot(srow.rules)
                report = parse_report({"events": events,
                                       "indicator": hrow.report.get("indicator")})
                result = settle_hand(rules, report, hrow.dealer)
                conn.execute(update(t.hands).where(h.id == hrow.id).values(
                    report=pack_report(report), result=pack_result(result), status="open",
                    next_dealer=None,
                    reporters=reporters[:-1], updated_at=stamp))
                repo.set_hand_facts(conn, srow, hrow.id, result)
                conn.execute(update(t.nights).where(t.nights.c.id == srow.id)
                             .values(dealer=hrow.dealer))
            self._audit(conn, chat_id, srow.id, hrow.number, "undo", actor,
                        {"event": removed}, None)
            info = repo.night_info(conn, chat_id, srow.id)
            return UndoOutcome(hand_number=hrow.number, event_index=index, removed=removed,
                               deltas=deltas, night=info,
                               moved=tuple((info.seats[x], d) for x, d in deltas.items()
                                           if d and x in info.seats))

        return await self.store.run(unit, write=True)

    async def check_undo(self, chat_id: int, *, actor: int | None = None,
                         allow_others: bool = False) -> None:
        """Refuse (:class:`LedgerError`) as :meth:`undo` would now, writing nothing: for a
        caller that must know before it says anything (the Mini App)."""

        def unit(conn: Connection) -> None:
            srow = repo.night_row(conn, chat_id)  # not locked: nothing is written
            if srow is None:
                raise LedgerError("no_night_going", "no table is going in this chat")
            self._undo_target(conn, srow, actor, allow_others)

        await self.store.run(unit, write=False)

    def _undo_target(self, conn: Connection, srow: Row[Any], actor: int | None,
                     allow_others: bool) -> tuple[Row[Any] | None, Row[Any] | None]:
        """What an undo takes back: the last correction ``(edit, None)``, or the last
        hand's last event ``(None, hand)``; refused unless ``actor`` reported it (or
        ``allow_others``)."""
        edit = repo.latest_edit(conn, srow)
        if edit is not None:
            may_change([edit.actor], actor, allow_others, "not_reporter")
            return edit, None
        h = t.hands.c
        hrow = conn.execute(select(t.hands).where(
            h.night_id == srow.id, h.status != "void").order_by(h.number.desc())
            .limit(1)).first()
        if hrow is None:
            a = t.audit.c
            undone = conn.execute(select(a.id).where(
                a.night_id == srow.id, a.action == "undo").limit(1)).first()
            if undone is not None:  # things were recorded, and all taken back
                raise LedgerError("nothing_left_to_undo", "everything was undone already")
            raise LedgerError("nothing_to_undo", "nothing has been recorded at this table")
        if hrow.seats:  # played before a seat changed: /edit or /void it instead
            raise LedgerError("undo_seat_changed", "a seat changed after that hand",
                              number=hrow.number)
        may_change(list(hrow.reporters)[-1:], actor, allow_others, "not_reporter")
        return None, hrow

    async def void(self, chat_id: int, number: int, *, actor: int | None = None,
                   allow_others: bool = False) -> EditOutcome:
        """Void hand ``number``: only who reported it, unless ``allow_others`` (an admin)."""
        return await self._edit(chat_id, number, None, actor, allow_others=allow_others)

    async def amend(self, chat_id: int, number: int, events: list[dict[str, Any]], *,
                    actor: int | None = None, indicator: str | None = None,
                    allow_others: bool = False, event_index: int | None = None,
                    draft_id: int | None = None) -> EditOutcome:
        """Replace hand ``number``'s events: only who reported it, unless ``allow_others``.
        With ``event_index`` (0-based), ``events`` is one event that replaces just that
        event of the hand; the others stay as they are. With ``draft_id`` (a guided edit's
        Confirm) the draft is deleted in the same transaction, or refused as stale."""
        return await self._edit(chat_id, number, events, actor, indicator,
                                allow_others=allow_others, event_index=event_index,
                                draft_id=draft_id)

    async def audit_trail(self, chat_id: int, limit: int = 50) -> list[dict[str, Any]]:
        a = t.audit.c

        def unit(conn: Connection) -> list[dict[str, Any]]:
            rows = conn.execute(select(t.audit).where(a.chat_id == chat_id)
                                .order_by(a.id.desc()).limit(limit)).all()
            return [dict(r._mapping) for r in rows]

        return await self.store.run(unit, write=False)

    async def _edit(self, chat_id: int, number: int, events: list[dict[str, Any]] | None,
                    actor: int | None, indicator: str | None = None, *,
                    allow_others: bool = False, event_index: int | None = None,
                    draft_id: int | None = None) -> EditOutcome:
        def unit(conn: Connection) -> EditOutcome:
            if draft_id is not None:
                take_draft(conn, chat_id, draft_id, "that edit was already made or cancelled")
            srow = repo.open_night_row(conn, chat_id)
            todo = events
            h = t.hands.c
            target = conn.execute(select(t.hands).where(
                h.night_id == srow.id, h.number == number)).first()
            # A void hand is not there to void again; an /edit of it counts it again.
            if target is None or (target.status == "void" and todo is None):
                raise LedgerError("no_hand", f"there is no hand {number} to change",
                                  number=number)
            was_void = target.status == "void"
            changing = list(target.reporters)  # whoever reported what changes
            if event_index is not None and todo is not None:
                kept = list(target.report["events"])
                if not 0 <= event_index < len(kept) or len(todo) != 1:
                    raise LedgerError("no_event", f"hand {number} has no event "
                                      f"{event_index + 1}", number=number,
                                      event=event_index + 1, events=len(kept))
                todo = [*kept[:event_index], todo[0], *kept[event_index + 1:]]
                changing = changing[event_index:event_index + 1]
            may_change(changing, actor, allow_others, "not_reporter_hand")
            rules = Ruleset.from_snapshot(srow.rules)
            seats = repo.seated(srow)
            stamp = now()
            deltas_before = dict.fromkeys(seats, 0) if was_void else hand_deltas(target.result)
            # How many events stand once this correction is made: an undo takes it back
            # only while no event recorded since stands (repository.latest_edit).
            standing = (repo.standing_events(conn, srow.id)
                        - (0 if was_void else len(target.report["events"]))
                        + (0 if todo is None else len(todo)))
            before = {"report": full_report(target.report), "deltas": deltas_before,
                      "reporters": list(target.reporters), "standing": standing,
                      **({"void": True} if was_void else {})}
            played = repo.hand_seats(srow, target)
            if todo is None:
                conn.execute(delete(t.entries).where(t.entries.c.hand_id == target.id))
                repo.set_hand_facts(conn, srow, target.id, None, seats=played)
                conn.execute(update(t.hands).where(h.id == target.id).values(
                    status="void", updated_at=stamp))
                after = None
                action = "void"
            else:
                report = parse_report({"events": todo,
                                       "indicator": indicator or target.report.get("indicator")})
                result = settle_hand(rules, report, target.dealer)
                amend_reopens(conn, srow.id, target, result.open)
                repo.write_hand(conn, srow, target.id, report, result,
                                 list(target.reporters)[: len(todo)]
                                 + [actor] * max(0, len(todo) - len(target.reporters)),
                                 stamp, seats=played)
                after = {"report": report.model_dump(mode="json"), "deltas": result.deltas}
                if event_index is not None:  # /edit N.M: which event (0-based) changed
                    after["event"] = event_index
                action = "amend"
            changes = self._replay_dealers(conn, srow, rules, seats, number, stamp)
            changes.insert(0, HandChange(
                number=number, dealer_before=target.dealer, dealer_after=target.dealer,
                deltas_before=deltas_before,
                deltas_after=result.deltas if todo is not None else dict.fromkeys(seats, 0),
                players=self._players_of(conn, target.seats)))
            self._audit(conn, chat_id, srow.id, number, action, actor, before, after)
            return EditOutcome(action=action, hand_number=number, changes=tuple(changes),
                               night=repo.night_info(conn, chat_id, srow.id))

        return await self.store.run(unit, write=True)

    def _undo_edit(self, conn: Connection, chat_id: int, srow: Row[Any], edit: Row[Any],
                   actor: int | None, allow_others: bool) -> UndoOutcome:
        """Put the corrected hand back as it was before the correction: an amended hand
        as it was (void again, if the /edit counted a void hand again), a voided hand
        counted again; later dealers are replayed either way. Corrections are taken back
        newest first, so the hand is as the correction found it (every later correction
        already taken back)."""
        may_change([edit.actor], actor, allow_others, "not_reporter")
        h = t.hands.c
        target = conn.execute(select(t.hands).where(
            h.night_id == srow.id, h.number == edit.hand_number)).one()
        rules = Ruleset.from_snapshot(srow.rules)
        seats = repo.seated(srow)
        before_totals = {s: getattr(srow, f"net_{s.lower()}") for s in seats}
        before_nets = self._night_nets(conn, srow.id)
        report = parse_report(edit.before["report"])
        result = settle_hand(rules, report, target.dealer)
        reporters = edit.before.get("reporters") or list(target.reporters)
        stamp = now()
        if edit.before.get("void"):  # the /edit counted a void hand again: void it again
            conn.execute(delete(t.entries).where(t.entries.c.hand_id == target.id))
            repo.set_hand_facts(conn, srow, target.id, None,
                                 seats=repo.hand_seats(srow, target))
            conn.execute(update(t.hands).where(h.id == target.id).values(
                report=pack_report(report), result=pack_result(result), status="void",
                next_dealer=None if result.open else result.next_dealer,
                reporters=reporters, updated_at=stamp))
        else:
            repo.write_hand(conn, srow, target.id, report, result,
                             [*reporters, *[None] * (len(report.events) - len(reporters))]
                             [: len(report.events)], stamp,
                             seats=repo.hand_seats(srow, target))
        self._replay_dealers(conn, srow, rules, seats, target.number, stamp)
        self._audit(conn, chat_id, srow.id, target.number, "undo", actor,
                    edit.after, edit.before)
        info = repo.night_info(conn, chat_id, srow.id)
        event = edit.after.get("event") if isinstance(edit.after, dict) else None
        # Everyone whose result moved, who left the table since included: the corrected
        # hand's players first (later hands may move too, when the dealer changed).
        after_nets = self._night_nets(conn, srow.id)
        moved = {pid: after_nets.get(pid, 0) - before_nets.get(pid, 0)
                 for pid in before_nets | after_nets}
        order = [*(repo.hand_seats(srow, target).values()), *seats.values(), *sorted(moved)]
        ids = [pid for pid in dict.fromkeys(order) if moved.get(pid)]
        people = {r.id: repo.player_info(r) for r in conn.execute(select(t.players).where(
            t.players.c.id.in_(ids))).all()} if ids else {}
        return UndoOutcome(hand_number=target.number,
                           event_index=event if isinstance(event, int) else None,
                           removed={"type": edit.action, "hand": target.number},
                           deltas={s: info.totals[s] - before_totals[s] for s in seats},
                           night=info, correction=True,
                           moved=tuple((people[pid], moved[pid]) for pid in ids))

    def _night_nets(self, conn: Connection, night_id: int) -> dict[int, int]:
        """Each player's points in the night so far, who left the table included."""
        h, hp = t.hands.c, t.hand_players.c
        return {int(pid): int(net) for pid, net in conn.execute(
            select(hp.player_id, func.sum(hp.delta)).join(t.hands, h.id == hp.hand_id)
            .where(h.night_id == night_id).group_by(hp.player_id)).all()}

    def _replay_dealers(self, conn: Connection, srow: Row[Any], rules: Ruleset,
                        seats: dict[Seat, int], from_number: int, stamp: datetime
                        ) -> list[HandChange]:
        """Walk the night's hands in order, giving each the dealer its predecessor left,
        and re-score those whose dealer changed. Sets the night's current dealer."""
        h = t.hands.c
        rows = conn.execute(select(t.hands).where(
            h.night_id == srow.id, h.status != "void").order_by(h.number)).all()
        dealer: Seat = "E"
        changes: list[HandChange] = []
        for row in rows:
            if row.dealer != dealer:
                report = parse_report(row.report)
                result = settle_hand(rules, report, dealer)
                conn.execute(update(t.hands).where(h.id == row.id).values(dealer=dealer))
                repo.write_hand(conn, srow, row.id, report, result, list(row.reporters),
                                 stamp, seats=repo.hand_seats(srow, row))
                changes.append(HandChange(
                    number=row.number, dealer_before=row.dealer, dealer_after=dealer,
                    deltas_before=hand_deltas(row.result), deltas_after=result.deltas,
                    players=self._players_of(conn, row.seats)))
                nxt = result.next_dealer if not result.open else None
            else:
                nxt = row.next_dealer
            if row.status == "open" or nxt is None:
                break
            dealer = nxt
        conn.execute(update(t.nights).where(t.nights.c.id == srow.id)
                     .values(dealer=dealer))
        return [c for c in changes if c.number > from_number]

    def _players_of(self, conn: Connection, seats: dict[str, Any] | None
                    ) -> dict[Seat, PlayerInfo] | None:
        """Who played a hand that keeps its own seats (``hands.seats``); None otherwise."""
        if not seats:
            return None
        rows = {r.id: repo.player_info(r) for r in conn.execute(select(t.players).where(
            t.players.c.id.in_([int(p) for p in seats.values()]))).all()}
        return {seat: rows[int(pid)] for seat, pid in seats.items()}  # type: ignore[misc]

    def _audit(self, conn: Connection, chat_id: int, night_id: int | None,
               number: int | None, action: str, actor: int | None,
               before: Any, after: Any) -> None:
        name_members(self.store, conn, chat_id, actor)
        conn.execute(insert(t.audit).values(
            chat_id=chat_id, night_id=night_id, hand_number=number, action=action,
            actor=actor, at=now(), before=before, after=after))


def amend_reopens(conn: Connection, night_id: int, target: Row[Any], stays_open: bool
                  ) -> None:
    """Refuse (``amend_reopens``) an amend that would leave a hand unfinished where play
    went on past it: one that reopens a closed or void hand after which hands were played,
    or one played before a seat changed (``hands.seats``: the next report would be written
    with today's seats); and one that counts or closes a hand while an earlier hand is
    open (the next report would go into that earlier hand, an undo take back this one)."""
    h = t.hands.c
    if stays_open and target.status != "open":  # closed, or void
        if target.seats is not None:
            raise LedgerError("amend_reopens", "that correction leaves the hand unfinished, "
                              "but a seat changed after it")
        later = conn.execute(select(h.id).where(
            h.night_id == night_id, h.number > target.number, h.status != "void")).first()
        if later is not None:
            raise LedgerError("amend_reopens", "that correction leaves the hand "
                              "unfinished, but later hands were played")
    earlier_open = conn.execute(select(h.number).where(
        h.night_id == night_id, h.status == "open", h.number < target.number)).first()
    if earlier_open is not None:
        raise LedgerError("amend_reopens", f"hand {earlier_open.number} is unfinished: "
                          f"hand {target.number} cannot be counted before it")
