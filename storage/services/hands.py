"""Recording events: the one write every report makes, atomic. (A re-delivered update
never reaches it twice: the delivery pipeline's inbox refuses it by its key.)"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Connection, Row

from engine.mcr import match
from engine.rules import Ruleset
from engine.settle import parse_report, settle_hand
from storage.errors import LedgerError
from storage.models import (
    RecordOutcome,
)
from storage.services import rows as repo
from storage.services import twice
from storage.services.chats import name_members
from storage.services.drafts import take_draft
from storage.services.hand_json import full_result, pack_report, pack_result
from storage.sql import statements as sql
from storage.sql import tables as t
from storage.sql.clock import now
from storage.sql.store import Service
from storage.sql.unit_of_work import deferring

# What a press on a report's draft or question finds when it has gone.
_TAKEN = "that report was already recorded or cancelled"
WINDS = ("E", "S", "W", "N")


def prevailing_wind(conn: Connection, night_id: int) -> str:
    """The round's wind (圈風) at a four-player table: East until the deal has gone round
    all four seats and comes back to the first dealer, then South, and so on."""
    h = t.hands.c
    rounds = conn.execute(select(h.id).where(
        h.night_id == night_id, h.status == "closed", h.dealer == "N",
        h.next_dealer == "E")).all()
    return WINDS[len(rounds) % 4]


class Hands(Service):
    """Recording a hand's events, and the reports kept as a question.

    The question itself: :mod:`storage.services.twice`.
    """

    async def record(self, chat_id: int, event: dict[str, Any], *, reporter: int | None = None,
                     indicator: str | None = None, draft_id: int | None = None,
                     ask_twice: bool = True, within: int | None = None) -> RecordOutcome:
        """Record one event: it joins the open hand, or starts the next one. Atomic.

        With ``draft_id`` (a guided report's Confirm) the draft is deleted in the same
        transaction: the hand is recorded and its draft gone, or neither. A draft already
        gone (a second press of Confirm) is refused as ``stale_button``.

        With ``ask_twice``, a report that looks like a second report of the win that just
        closed the previous hand, or of a kong, bite or set of the open hand, is not
        recorded but kept as a question
        (:mod:`storage.services.twice`): the outcome's ``asked`` is its id.

        With ``within`` (a kong, bite or set asked about in that hand, then said to be
        another) the event joins hand ``within`` only: once that hand is over it is
        refused (``hand_over``), never the start of the next one."""

        def unit(conn: Connection) -> RecordOutcome:
            if draft_id is not None:
                take_draft(conn, chat_id, draft_id, _TAKEN)
            srow, hrow = self._open_night_and_hand(conn, chat_id)
            if within is not None and (hrow is None or hrow.number != within):
                raise LedgerError("hand_over", f"hand {within} is over: nothing more joins "
                                  "it", number=within)
            name_members(self.store, conn, chat_id, reporter)
            rules = Ruleset.from_snapshot(srow.rules)
            if hrow is None and rules.family == "mcr" and srow.hands >= match.HANDS:
                raise LedgerError("mcr_match_over", "the match's 16 hands are played: /end "
                                  "it, then /new starts the next match")
            if hrow is None:
                number, dealer, events, reporters = srow.hands + 1, srow.dealer, [], []
                base_indicator = indicator
            else:
                number, dealer = hrow.number, hrow.dealer
                events, reporters = list(hrow.report["events"]), list(hrow.reporters)
                base_indicator = indicator or hrow.report.get("indicator")
            said = event
            if rules.family == "hongkong" and event.get("type") == "win" \
                    and "wind" not in event:  # 圈風: the round the table is in
                said = {**event, "wind": prevailing_wind(conn, srow.id)}
            report = parse_report({"events": [*events, said], "indicator": base_indicator})
            stamp = now()
            if ask_twice:
                prev = twice.closing_twin(conn, srow, report, reporter, stamp) \
                    if hrow is None else None
                earlier = twice.repeated_event(conn, hrow, report, reporter, stamp) \
                    if hrow is not None else None
                if prev is not None:
                    earlier = ("hand", int(prev.reporters[-1]), prev.updated_at)
                if earlier is not None:
                    about, first_by, first_at = earlier
                    asked_in = prev.number if prev is not None else number
                    asked = twice.ask(conn, chat_id, srow.id, asked_in, event, indicator,
                                      reporter, stamp)
                    info = repo.night_info(conn, chat_id, srow.id, row=srow) \
                        if prev is None else \
                        repo.night_info(conn, chat_id, srow.id, row=srow, open_hand=None)
                    by, ago = twice.first_report(conn, chat_id, first_by, first_at, stamp)
                    return RecordOutcome(hand_number=asked_in, asked=asked, asked_about=about,
                                         asked_by=by, asked_seconds=ago, night=info)
            result = settle_hand(rules, report, dealer)
            index = len(events)
            closed = not result.open
            if hrow is None:  # the hand's first event: insert it whole
                hand_id = conn.execute(sql.INSERT_HAND, {
                    "chat_id": chat_id, "night_id": srow.id, "number": number,
                    "dealer": dealer, "report": pack_report(report),
                    "result": pack_result(result),
                    "status": "closed" if closed else "open",
                    "next_dealer": result.next_dealer if closed else None,
                    "reporters": [reporter], "created_at": stamp, "updated_at": stamp,
                    "stake_cents": srow.stake_cents,
                }).scalar_one()
            changes: dict[str, Any] = {}
            if hrow is None:
                changes["hands"] = number
            if closed:
                changes["dealer"] = result.next_dealer
            night_values = {"b_hands": changes.get("hands", srow.hands),
                              "b_dealer": changes.get("dealer", srow.dealer)} if changes else None
            # The hand's rows and the totals are not read again in this transaction:
            # they are written with the other chats' at its end (unit_of_work.later).
            with deferring(conn):
                if hrow is None:
                    moved = repo.write_hand(conn, srow, hand_id, report, result, [reporter],
                                             stamp, only_event=index, previous=None,
                                             stored=True, night_values=night_values)
                else:
                    hand_id = hrow.id
                    moved = repo.write_hand(conn, srow, hand_id, report, result,
                                             [*reporters, reporter], stamp,
                                             only_event=index,
                                             previous=full_result(
                                                 hrow.result, hrow.report, rules, dealer,
                                                 # settlement is sequential: the hand's
                                                 # events so far, as just settled
                                                 result.events[:index] if base_indicator
                                                 == hrow.report.get("indicator") else None),
                                             night_values=night_values)
            info = repo.night_info(
                conn, chat_id, srow.id, row=srow, dealer=changes.get("dealer", srow.dealer),
                hands=changes.get("hands", srow.hands),
                open_hand=None if closed else (number, tuple(result.still_in)), moved=moved)
            return RecordOutcome(hand_number=number, event_index=index,
                                 event=result.events[index], hand=result, closed=closed,
                                 next_dealer=result.next_dealer, night=info)

        return await self.store.run(unit, write=True, batch=True, key=chat_id)

    async def would_ask(self, chat_id: int, event: dict[str, Any], *,
                        reporter: int | None) -> int | None:
        """The hand ``event`` would be asked about in were it recorded now, or None: a
        second report of the win that closed it
        (:func:`storage.services.twice.closing_twin`), or of a kong, bite or set the open
        hand holds (:func:`storage.services.twice.repeated_event`). Writes nothing (the
        Mini App says so before the group asks)."""

        def unit(conn: Connection) -> int | None:
            s, h = t.nights.c, t.hands.c
            srow = conn.execute(select(t.nights).where(
                s.chat_id == chat_id, s.status == "open")).first()
            if srow is None:
                return None
            hrow = conn.execute(select(t.hands).where(
                h.night_id == srow.id, h.status == "open")).first()
            if hrow is not None:
                joined = parse_report({"events": [*hrow.report["events"], event],
                                       "indicator": hrow.report.get("indicator")})
                asked = twice.repeated_event(conn, hrow, joined, reporter, now())
                return None if asked is None else int(hrow.number)
            report = parse_report({"events": [event]})
            prev = twice.closing_twin(conn, srow, report, reporter, now())
            return None if prev is None else int(prev.number)

        return await self.store.run(unit, write=False)

    async def question(self, chat_id: int, question_id: int) -> dict[str, Any] | None:
        """A report kept as a question, or None when it was answered."""

        def unit(conn: Connection) -> dict[str, Any] | None:
            d = t.drafts.c
            row = conn.execute(select(t.drafts.c.data).where(
                d.chat_id == chat_id, d.id == question_id,
                d.kind == twice.QUESTION_KIND)).first()
            return None if row is None else dict(row.data)

        return await self.store.run(unit, write=False)

    async def drop_question(self, chat_id: int, question_id: int) -> int:
        """"The same hand": the report kept as a question is dropped; the number of the
        hand it repeated. A question already answered is refused as ``stale_button``."""

        def unit(conn: Connection) -> int:
            d = t.drafts.c
            row = conn.execute(select(t.drafts).where(
                d.chat_id == chat_id, d.id == question_id,
                d.kind == twice.QUESTION_KIND)).first()
            if row is None:
                raise LedgerError("stale_button", "that question was already answered")
            take_draft(conn, chat_id, question_id, _TAKEN)
            return int(row.data["hand"])

        return await self.store.run(unit, write=True)

    def _open_night_and_hand(self, conn: Connection, chat_id: int
                               ) -> tuple[Row[Any], Row[Any] | None]:
        """The open table, locked for writing, and its open hand if any: one query."""
        row = repo.open_table_row(conn, chat_id)
        if row is None:
            raise LedgerError("no_night_going", "no table is going in this chat; start one "
                              "with /new")
        if row.h_id is None:
            return row, None
        hand = repo.Prefixed(row, "h_")
        return row, hand  # type: ignore[return-value]
