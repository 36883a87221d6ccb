"""What a real table does in a night, in the ledger, on both backends: a hand reported
twice is kept as a question until a player answers it."""

from __future__ import annotations

import io
from datetime import timedelta

import pytest
from sqlalchemy import select, update

from storage.errors import LedgerError
from storage.ledger import Ledger, now
from storage.services.twice import TWICE_WINDOW
from storage.sql import tables as t
from tests.storage.helpers import SEATED, assert_books_balance, going, win

CHAT = -7001
BOB_SELF_DRAW = win("self_draw", "S", birds=[2])


async def test_second_report_of_a_closing_win_is_a_question(ledger: Ledger) -> None:
    await ledger.open_nights.open_night(CHAT, SEATED, preset="changsha")
    first = await ledger.hands.record(CHAT, BOB_SELF_DRAW, reporter=2)
    assert first.closed and first.asked is None
    again = await ledger.hands.record(CHAT, BOB_SELF_DRAW, reporter=4)
    assert again.asked is not None and again.hand_number == 1 and again.event is None
    night = await going(ledger, CHAT)
    assert first.night is not None
    assert night.hands == 1 and night.totals == first.night.totals
    kept = await ledger.hands.question(CHAT, again.asked)
    assert kept is not None
    assert kept["event"] == BOB_SELF_DRAW and kept["reporter"] == 4
    assert await ledger.hands.drop_question(CHAT, again.asked) == 1
    with pytest.raises(LedgerError) as err:  # answered once only
        await ledger.hands.drop_question(CHAT, again.asked)
    assert err.value.code == "stale_button"
    assert (await going(ledger, CHAT)).hands == 1
    # Asked again: this time a new hand, recorded from the kept report.
    asked = (await ledger.hands.record(CHAT, BOB_SELF_DRAW, reporter=4)).asked
    assert asked is not None
    kept = await ledger.hands.question(CHAT, asked)
    assert kept is not None
    out = await ledger.hands.record(CHAT, kept["event"], reporter=kept["reporter"],
                                    draft_id=asked, ask_twice=False)
    assert out.hand_number == 2 and out.closed
    assert await ledger.hands.question(CHAT, asked) is None
    with pytest.raises(LedgerError):
        await ledger.hands.record(CHAT, kept["event"], reporter=4, draft_id=asked, ask_twice=False)
    assert (await going(ledger, CHAT)).hands == 2
    await assert_books_balance(ledger, [CHAT])


async def test_what_is_not_a_second_report(ledger: Ledger) -> None:
    await ledger.open_nights.open_night(CHAT, SEATED, preset="changsha")
    await ledger.hands.record(CHAT, BOB_SELF_DRAW, reporter=2)
    # The same reporter again, another winner, another discarder: new hands at once.
    assert (await ledger.hands.record(CHAT, BOB_SELF_DRAW, reporter=2)).asked is None
    assert (await ledger.hands.record(CHAT, win("discard", "W", "S", patterns=["清一色"],
                                                birds=[1]), reporter=1)).asked is None
    assert (await ledger.hands.record(CHAT, win("discard", "W", "E", patterns=["清一色"],
                                                birds=[1]), reporter=2)).asked is None
    # Later than the window: a new hand.
    async with ledger.write() as conn:
        await conn.execute(update(t.hands).values(
            updated_at=now() - TWICE_WINDOW - timedelta(seconds=1)))
    assert (await ledger.hands.record(CHAT, win("discard", "W", "E", patterns=["清一色"],
                                                birds=[1]), reporter=4)).asked is None
    async with ledger.read() as conn:
        kinds = (await conn.execute(select(t.drafts.c.kind))).scalars().all()
    assert kinds == []
    assert (await going(ledger, CHAT)).hands == 5


# -- the stake changes during the night ------------------------------------------------

async def test_a_stake_change_applies_from_the_next_hand(ledger: Ledger) -> None:
    from datetime import datetime, timedelta


    await ledger.chats.update_chat(CHAT, stake_cents=100)
    await ledger.open_nights.open_night(CHAT, SEATED, preset="changsha")
    # Before the first hand: the whole night plays the new stake.
    await ledger.chats.update_chat(CHAT, stake_cents=50)
    assert (await going(ledger, CHAT)).stake_cents == 50
    one = await ledger.hands.record(CHAT, BOB_SELF_DRAW, reporter=2)  # S +8 at 0.50
    await ledger.chats.update_chat(CHAT, stake_cents=200)
    two = await ledger.hands.record(CHAT, win("self_draw", "W", birds=[3]), reporter=1)
    assert one.hand is not None and two.hand is not None and one.night is not None
    nets_one = {s: v for s, v in one.hand.deltas.items()}
    nets_two = {s: v for s, v in two.hand.deltas.items()}
    summary = await ledger.nights.end_night(CHAT)
    assert summary.mixed and summary.stakes == (50, 200)
    ids = {seat: p.id for seat, p in one.night.seats.items()}
    want = {ids[s]: nets_one[s] * 50 + nets_two[s] * 200 for s in ids}
    assert summary.money == want and sum(want.values()) == 0
    # The points at each stake, never added across stakes; the chart's money the same.
    assert summary.points_at == {ids[s]: tuple((at, n) for at, n in ((50, nets_one[s]),
                                                                     (200, nets_two[s])) if n)
                                 for s in ids}
    night = await ledger.series.night_chart(CHAT)
    assert night.money == want and night.stakes == (50, 200)
    assert [h.stake_cents for h in night.hands] == [50, 200]
    (net,), _names = await ledger.series.night_nets(CHAT)
    assert net.money == want and net.stakes == {50, 200}
    paid: dict[int, int] = dict.fromkeys(ids.values(), 0)
    for tr in summary.transfers:  # the transfers settle the money exactly
        paid[tr.payer.id] -= tr.cents
        paid[tr.payee.id] += tr.cents
    assert paid == want
    assert {d.cents for d in summary.debts} == {tr.cents for tr in summary.transfers}
    standings = {m.player.id: m for m in await ledger.money.money_standings(CHAT)}
    assert {pid: m.cents for pid, m in standings.items()} == want
    assert dict(standings[ids["S"]].points) == {50: nets_one["S"], 200: nets_two["S"]}
    lately = await ledger.money.money_standings(CHAT, since=datetime.now() - timedelta(days=1))
    assert {m.player.id: m.cents for m in lately} == want
    # Exported and imported, every hand keeps its stake.
    data = await ledger.files.export_zip(CHAT)
    await ledger.files.import_zip(CHAT + 1, data)
    other = {m.player.name: m.cents for m in await ledger.money.money_standings(CHAT + 1)}
    assert other == {m.player.name: m.cents for m in standings.values()}
    await assert_books_balance(ledger, [CHAT, CHAT + 1])


async def test_one_stake_all_night_settles_in_points_as_before(ledger: Ledger) -> None:
    await ledger.open_nights.open_night(CHAT, SEATED, preset="changsha", stake_cents=100)
    await ledger.hands.record(CHAT, BOB_SELF_DRAW, reporter=2)
    summary = await ledger.nights.end_night(CHAT)
    assert not summary.mixed and summary.stake_cents == 100
    assert all(tr.cents == tr.points * 100 and tr.points > 0 for tr in summary.transfers)


# -- penalties and adjustments ---------------------------------------------------------

async def test_penalties_and_adjustments_are_events(ledger: Ledger) -> None:

    await ledger.open_nights.open_night(CHAT, SEATED, preset="chengdu")
    out = await ledger.hands.record(CHAT, {"type": "penalty", "seat": "N"}, reporter=4)
    assert out.hand_number == 1 and not out.closed
    assert out.event is not None
    assert out.event.deltas == {"E": 64, "S": 64, "W": 64, "N": -192}
    assert out.event.lines[0].code == "false_win"
    undone = await ledger.corrections.undo(CHAT, actor=4)
    assert undone.night.totals == dict.fromkeys("ESWN", 0)
    await ledger.hands.record(CHAT, {"type": "penalty", "seat": "N"}, reporter=4)
    await ledger.hands.record(CHAT, {"type": "adjust", "deltas": {"E": -10, "S": 10},
                                     "reason": "side bet"}, reporter=1)
    await ledger.hands.record(CHAT, win("self_draw", "S"), reporter=2)
    totals = (await going(ledger, CHAT)).totals
    assert totals == {"E": 52, "S": 80, "W": 62, "N": -194}
    summary = await ledger.nights.end_night(CHAT)
    assert sum(summary.nets.values()) == 0
    data = await ledger.files.export_zip(CHAT)
    await ledger.files.import_zip(CHAT + 1, data)
    again = {m.player.name: m.cents for m in await ledger.money.money_standings(CHAT + 1)}
    assert again == {m.player.name: m.cents for m in await ledger.money.money_standings(CHAT)}
    await assert_books_balance(ledger, [CHAT, CHAT + 1])


async def test_an_adjustment_that_does_not_sum_to_zero_is_refused(ledger: Ledger) -> None:
    from engine.errors import ReportError

    await ledger.open_nights.open_night(CHAT, SEATED, preset="changsha")
    for deltas in ({"E": -10, "S": 11}, {"E": 0}, {"E": -2_000_000, "S": 2_000_000}):
        with pytest.raises(ReportError):
            await ledger.hands.record(CHAT, {"type": "adjust", "deltas": deltas}, reporter=1)
    night = await going(ledger, CHAT)
    assert night.hands == 0 and night.open_hand is None


# -- editing one event -------------------------------------------------------------------

async def test_edit_one_event_keeps_the_others(ledger: Ledger) -> None:
    await ledger.open_nights.open_night(CHAT, SEATED, preset="chengdu")
    await ledger.hands.record(CHAT, win("self_draw", "S"), reporter=2)
    await ledger.hands.record(CHAT, win("discard", "W", "E"), reporter=None)
    await ledger.hands.record(CHAT, win("self_draw", "N"), reporter=4)
    out = await ledger.corrections.amend(CHAT, 1, [win("self_draw", "W", patterns=["七对"])],
                                         actor=1, event_index=1)
    assert out.changes[0].deltas_after == {"E": -12, "S": 6, "W": 14, "N": -8}
    _, hand = await ledger.nights.hand_view(CHAT, out.night.id, 1)
    assert [e.deltas["W"] for e in hand.events] == [-2, 16, 0]
    with pytest.raises(LedgerError) as err:
        await ledger.corrections.amend(CHAT, 1, [win("self_draw", "W")], actor=1, event_index=5)
    assert err.value.code == "no_event" and err.value.params["events"] == 3
    with pytest.raises(LedgerError) as err:  # bob reported event 1: only he (or an admin)
        await ledger.corrections.amend(CHAT, 1, [win("self_draw", "S")], actor=4, event_index=0)
    assert err.value.code == "not_reporter_hand"
    await assert_books_balance(ledger, [CHAT])


# -- seat changes ------------------------------------------------------------------------

async def test_a_seat_change_keeps_each_result_with_who_earned_it(ledger: Ledger) -> None:
    from storage.models import PlayerRef

    await ledger.open_nights.open_night(CHAT, SEATED, preset="chengdu")
    await ledger.hands.record(CHAT, win("self_draw", "S"), reporter=2)  # alice, carol, dave -2
    with pytest.raises(LedgerError) as err:  # mid-hand: refused
        await ledger.open_nights.change_seat(CHAT, "dave", PlayerRef(name="erin"))
    assert err.value.code == "seat_mid_hand" and err.value.params["number"] == 1
    await ledger.hands.record(CHAT, win("discard", "W", "E"), reporter=1)
    await ledger.hands.record(CHAT, win("self_draw", "N"), reporter=4)  # hand 1 ends
    before = (await going(ledger, CHAT)).totals
    dave_before = before["N"]
    for bad, code in (("zed", "seat_not_seated"), ("alice", "seat_already_seated")):
        with pytest.raises(LedgerError) as err:
            await ledger.open_nights.change_seat(CHAT, bad if code == "seat_not_seated" else "dave",
                                              PlayerRef(name=bad))
        assert err.value.code == code
    night = await ledger.open_nights.change_seat(CHAT, "dave", PlayerRef(name="erin"), actor=1)
    assert night.seats["N"].name == "erin" and night.totals["N"] == 0
    assert night.dealer == (await going(ledger, CHAT)).dealer
    await ledger.hands.record(CHAT, win("self_draw", "N"), reporter=None)  # erin wins hand 2
    await ledger.corrections.undo(CHAT, actor=None, allow_others=True)  # erin's win, taken back
    with pytest.raises(LedgerError) as err:  # hand 1 was played before the seat changed
        await ledger.corrections.undo(CHAT, actor=None, allow_others=True)
    assert err.value.code == "undo_seat_changed"
    await ledger.hands.record(CHAT, win("self_draw", "N"), reporter=None)
    # An edit of hand 1 still pays dave, not erin.
    edit = await ledger.corrections.amend(CHAT, 1, [win("self_draw", "S"), win("discard", "W", "E"),
                                                    win("self_draw", "N", patterns=["七对"])],
                                          actor=1, allow_others=True)
    assert edit.changes[0].deltas_after["N"] > dave_before
    summary = await ledger.nights.end_night(CHAT)
    names = {summary.players[pid].name: n for pid, n in summary.nets.items()}
    assert set(names) == {"alice", "bob", "carol", "dave", "erin"}
    assert sum(names.values()) == 0
    assert names["dave"] == edit.changes[0].deltas_after["N"]
    standings = {m.player.name: m.cents for m in await ledger.money.money_standings(CHAT)}
    assert standings == {k: v * 100 for k, v in names.items() if v or k in standings}
    # Exported and imported: the same nights, each hand with who played it.

    with await ledger.files.export_zip(CHAT) as fh:
        data = fh.read()
    await ledger.files.import_zip(CHAT + 1, io.BytesIO(data))
    again = {m.player.name: m.cents for m in await ledger.money.money_standings(CHAT + 1)}
    assert again == standings
    with await ledger.files.export_zip(CHAT + 1) as fh:
        assert fh.read() == data
    await assert_books_balance(ledger, [CHAT, CHAT + 1])


async def test_a_night_holds_at_most_max_people(ledger: Ledger) -> None:
    """Seat changes bring people in up to MAX_PEOPLE: the seats and everyone who played a
    hand. One more is refused (nothing changes); someone who played earlier may come back,
    and a player seated and replaced before playing a hand does not count."""
    from storage.models import PlayerRef
    from storage.services.open_nights import MAX_PEOPLE

    await ledger.open_nights.open_night(CHAT, SEATED, preset="changsha")
    await ledger.hands.record(CHAT, win("self_draw", "S", birds=[2]))  # the hand ends
    leaving = "dave"
    for n in range(MAX_PEOPLE - 5):  # one newcomer a hand: MAX_PEOPLE - 1 have played
        await ledger.open_nights.change_seat(CHAT, leaving, PlayerRef(name=f"p{n}"))
        await ledger.hands.record(CHAT, win("self_draw", "S", birds=[2]))
        leaving = f"p{n}"
    await ledger.open_nights.change_seat(CHAT, leaving, PlayerRef(name="zoe"))  # the last one
    await ledger.open_nights.change_seat(CHAT, "zoe", PlayerRef(name="yan"))  # zoe played nothing
    await ledger.hands.record(CHAT, win("self_draw", "S", birds=[2]))
    before = await going(ledger, CHAT)
    with pytest.raises(LedgerError) as err:  # one more: refused, with the limit to say
        await ledger.open_nights.change_seat(CHAT, "yan", PlayerRef(name="xi"))
    assert err.value.code == "night_full"
    assert err.value.params == {"name": "xi", "limit": MAX_PEOPLE}
    assert await going(ledger, CHAT) == before
    after = await ledger.open_nights.change_seat(CHAT, "yan", PlayerRef(name="dave"))  # back
    assert after.seats["N"].name == "dave"
    async with ledger.read() as conn:
        changes = (await conn.execute(select(t.audit.c.id).where(
            t.audit.c.action == "seat"))).all()
    assert len(changes) == MAX_PEOPLE - 5 + 3
    summary = await ledger.nights.end_night(CHAT)
    names = {summary.players[pid].name for pid in summary.nets}
    assert len(names) == MAX_PEOPLE and "zoe" not in names and "xi" not in names
    assert sum(summary.nets.values()) == 0
    await assert_books_balance(ledger, [CHAT])


async def test_a_bite_or_set_reported_again_is_asked_about(ledger: Ledger) -> None:
    """A Singapore bite or set the open hand already holds is kept as a question, whoever
    reports it again (the biter too); would_ask says so without writing."""
    await ledger.open_nights.open_night(CHAT, SEATED, preset="singapore")
    bite = {"type": "bite", "seat": "N", "pair": "cat_rat", "hidden": False}
    first = await ledger.hands.record(CHAT, bite, reporter=11)
    assert first.asked is None and first.event is not None
    assert await ledger.hands.would_ask(CHAT, bite, reporter=11) == 1
    assert await ledger.hands.would_ask(CHAT, {**bite, "pair": "rooster_centipede"},
                                        reporter=12) is None
    again = await ledger.hands.record(CHAT, {**bite, "hidden": True}, reporter=11)
    assert again.asked is not None and again.asked_about == "bite"
    assert again.hand_number == 1 and again.event is None
    flowers = {"type": "bonus_set", "seat": "E", "kind": "flowers"}
    assert (await ledger.hands.record(CHAT, flowers, reporter=12)).asked is None
    twice = await ledger.hands.record(CHAT, flowers, reporter=13)
    assert twice.asked is not None and twice.asked_about == "bonus_set"
    assert (await ledger.hands.record(CHAT, {**flowers, "kind": "seasons"},
                                      reporter=13)).asked is None
    night = await ledger.open_nights.current_night(CHAT)
    assert night is not None
    assert night.totals == {"E": -20 + 120 + 120, "S": -20 - 40 - 40,
                              "W": -20 - 40 - 40, "N": 60 - 40 - 40}
    await assert_books_balance(ledger, [CHAT])
