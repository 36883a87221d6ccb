"""One person, one row, on every backend: a guest named as a member's @username is that
member, whether the member's account has a row yet or not (then the guest's row is merged
into it), never when the two sat at one table; a scorekeeper's account takes over the guest
named as their username instead of a second row of that name."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from storage.ledger import Ledger
from storage.models import PlayerRef, is_named_as
from storage.services import rows as repo
from storage.sql import tables as t
from tests.storage.helpers import assert_books_balance, going, win

CHAT = -1030
ERIN = 901  # erin's Telegram account, username "erin"
FOUR = [PlayerRef(name="alice", telegram_id=1), PlayerRef(name="bob"),
        PlayerRef(name="carol")]


@pytest.mark.parametrize(("handle", "telegram_id", "username", "name", "same"), [
    ("erin", None, "erin", "erin", True),        # seated as @erin
    ("Erin", None, "erin", "Erin Li", True),     # case does not count
    ("erin", None, "ERIN", "x", True),
    ("erin", None, None, "erin", True),          # a plain name equal to the username
    ("erin", None, None, " Erin ", True),
    ("erin", None, "erin2", "erin", False),      # seated by another @username
    ("erin", None, None, "Erin Li", False),      # a display name is not a username
    ("erin", None, None, "erin2", False),
    ("erin", 7, "erin", "erin", False),          # a player with an account is nobody else
    ("erin", 7, None, "erin", False),
    ("erin", None, "", "erin", False),           # an empty @username is not no username
])
def test_who_a_guest_named_as_a_username_is(handle: str, telegram_id: int | None,
                                             username: str | None, name: str,
                                             same: bool) -> None:
    assert is_named_as(handle, telegram_id, username, name) is same


async def _night(ledger: Ledger, fourth: PlayerRef, seat: str = "N") -> None:
    """A Chengdu night of one hand, which the fourth player (North) wins first."""
    await ledger.open_nights.open_night(CHAT, [*FOUR, fourth], preset="chengdu")
    await ledger.hands.record(CHAT, win("self_draw", seat, patterns=["清一色"]))
    await ledger.hands.record(CHAT, win("discard", "S", "E"))
    await ledger.hands.record(CHAT, win("self_draw", "W"))
    await ledger.nights.end_night(CHAT)


async def _all_rows(ledger: Ledger) -> list[tuple[str, int | None, str | None]]:
    async with ledger.read() as conn:
        p = t.players.c
        return [(r.name, r.telegram_id, r.username) for r in (await conn.execute(
            select(t.players).where(p.chat_id == CHAT).order_by(p.id))).all()]


async def _rows(ledger: Ledger) -> dict[str, tuple[int | None, str | None]]:
    return {name: (tg, username) for name, tg, username in await _all_rows(ledger)}


async def test_a_member_with_a_row_of_their_own_takes_the_guest_s_results(
        ledger: Ledger) -> None:
    # Erin was first seen without a username, by a text mention of "Erin Li".
    await _night(ledger, PlayerRef(name="Erin Li", telegram_id=ERIN))
    member = await ledger.chats.player(CHAT, PlayerRef(name="x", telegram_id=ERIN))
    # Another night she is seated as @erin, before her account was seen with that
    # username: a row of its own, until she acts.
    await ledger.open_nights.open_night(CHAT, [*FOUR, PlayerRef(name="erin", username="erin")],
                                       preset="chengdu")
    await ledger.hands.record(CHAT, win("self_draw", "N"))
    before = {s.player.name: s.net for s in await ledger.lookback.standings(CHAT)}
    assert {"Erin Li", "erin"} <= set(before)
    linked = await ledger.chats.link_member(CHAT, ERIN, "erin")
    assert linked is not None and linked.id == member.id and linked.name == "Erin Li"
    night = await going(ledger, CHAT)
    assert night.seats["N"].id == member.id and night.seats["N"].telegram_id == ERIN
    standings = {s.player.name: s.net for s in await ledger.lookback.standings(CHAT)}
    assert "erin" not in standings
    assert standings["Erin Li"] == before["Erin Li"] + before["erin"]
    stats = await ledger.lookback.player_stats(CHAT, member.id)
    assert stats.hands == 2 and stats.wins == 2
    # The night goes on with her seat; its end owes and is owed by one Erin.
    await ledger.hands.record(CHAT, win("discard", "S", "E"))
    await ledger.hands.record(CHAT, win("self_draw", "W"))
    await ledger.nights.end_night(CHAT)
    names = {d.payer.name for d in await ledger.money.debts(CHAT)} | {
        d.payee.name for d in await ledger.money.debts(CHAT)}
    assert "erin" not in names and "Erin Li" in names
    assert (await _rows(ledger))["Erin Li"] == (ERIN, "erin")
    assert "erin" not in await _rows(ledger)
    await assert_books_balance(ledger, [CHAT])


async def test_a_guest_s_earlier_nights_and_a_changed_seat_follow_the_merge(
        ledger: Ledger) -> None:
    await _night(ledger, PlayerRef(name="Erin Li", telegram_id=ERIN))
    # A guest "erin" plays a night, then leaves her seat to dave mid-night.
    await ledger.open_nights.open_night(CHAT, [*FOUR, PlayerRef(name="erin")],
                                       preset="chengdu")
    await ledger.hands.record(CHAT, win("self_draw", "N"))
    await ledger.hands.record(CHAT, win("self_draw", "S"))
    await ledger.hands.record(CHAT, win("self_draw", "W"))
    await ledger.open_nights.change_seat(CHAT, "erin", PlayerRef(name="dave"))
    await ledger.nights.end_night(CHAT)
    guest = await ledger.chats.find_player(CHAT, "erin")
    assert guest is not None and guest.telegram_id is None
    # She comes back as a guest again, and acts from her account (username erin).
    await ledger.open_nights.open_night(CHAT, [*FOUR, PlayerRef(name="erin")],
                                       preset="chengdu")
    assert (await going(ledger, CHAT)).seats["N"].id == guest.id
    linked = await ledger.chats.link_member(CHAT, ERIN, "erin")
    assert linked is not None and linked.name == "Erin Li"
    async with ledger.read() as conn:
        h = t.hands.c
        kept = (await conn.execute(select(h.seats).where(h.seats.is_not(None)))).scalars().all()
        assert kept and all(int(s["N"]) == linked.id for s in kept)
        assert (await conn.execute(select(t.players).where(
            t.players.c.id == guest.id))).first() is None
    standings = {s.player.name for s in await ledger.lookback.standings(CHAT)}
    assert standings == {"alice", "bob", "carol", "Erin Li"}  # (dave played no hand)
    await assert_books_balance(ledger, [CHAT])


async def test_two_rows_that_sat_at_one_table_are_two_people(ledger: Ledger) -> None:
    # "Erin Li" (the account with username erin) and a guest "erin" at one table.
    await ledger.open_nights.open_night(
        CHAT, [PlayerRef(name="alice", telegram_id=1), PlayerRef(name="bob"),
               PlayerRef(name="Erin Li", telegram_id=ERIN), PlayerRef(name="erin")],
        preset="chengdu")
    await ledger.hands.record(CHAT, win("self_draw", "N"))
    await ledger.nights.end_night(CHAT)
    await ledger.open_nights.open_night(CHAT, [*FOUR, PlayerRef(name="erin")],
                                       preset="chengdu")
    assert await ledger.chats.link_member(CHAT, ERIN, "erin") is None
    assert {"Erin Li", "erin"} <= set(await _rows(ledger))
    assert (await going(ledger, CHAT)).seats["N"].is_guest
    await assert_books_balance(ledger, [CHAT])


async def test_an_account_seen_first_takes_the_seat_of_its_username(ledger: Ledger) -> None:
    # No row for the account: the seated guest's row gets it (as before).
    await ledger.open_nights.open_night(CHAT, [*FOUR, PlayerRef(name="erin")],
                                       preset="chengdu")
    guest = (await going(ledger, CHAT)).seats["N"]
    linked = await ledger.chats.link_member(CHAT, ERIN, "erin")
    assert linked is not None and linked.id == guest.id and linked.telegram_id == ERIN
    # Already hers: nothing more to link; nor for an account that no guest is named as.
    assert await ledger.chats.link_member(CHAT, ERIN, "erin") is None
    assert await ledger.chats.link_member(CHAT, 77, "frank") is None
    await ledger.nights.end_night(CHAT)
    # A plain name that is a member's username seats that member.
    await ledger.chats.player(CHAT, PlayerRef(name="Frank Wu", telegram_id=77,
                                              username="frank"))
    seated = await ledger.chats.player(CHAT, PlayerRef(name="frank"))
    assert seated.telegram_id == 77 and seated.name == "Frank Wu"


async def test_a_scorekeeper_takes_over_the_guest_named_as_their_username(
        ledger: Ledger) -> None:
    await _night(ledger, PlayerRef(name="erin"))  # a guest
    await _night(ledger, PlayerRef(name="Gus"))   # a guest whose name is only a display name
    async with ledger.write() as conn:
        await conn.run_sync(repo.known_member, CHAT, ERIN, "Erin", "erin")
        await conn.run_sync(repo.known_member, CHAT, 88, "Gus", "gus_w")
    rows = await _all_rows(ledger)
    assert [r for r in rows if r[0].lower() == "erin"] == [("erin", ERIN, "erin")]
    # Gus the scorekeeper is not taken for the guest Gus on a display name alone.
    assert [r for r in rows if r[0] == "Gus"] == [("Gus", None, None), ("Gus", 88, "gus_w")]
    await ledger.open_nights.open_night(CHAT, [*FOUR, PlayerRef(name="erin", username="erin")],
                                       preset="chengdu")
    seated = (await going(ledger, CHAT)).seats["N"]
    assert seated.telegram_id == ERIN
    assert [s.player.name for s in await ledger.lookback.standings(CHAT)].count("erin") == 1


async def _erin_li(ledger: Ledger) -> int:
    """Erin's account, first seen under a text mention "Erin Li": its row's id."""
    await _night(ledger, PlayerRef(name="Erin Li", telegram_id=ERIN))
    return (await ledger.chats.player(CHAT, PlayerRef(name="x", telegram_id=ERIN))).id


async def _three_wins(ledger: Ledger) -> None:
    for seat in ("N", "E", "S"):
        await ledger.hands.record(CHAT, win("self_draw", seat))


async def test_a_guest_who_played_only_a_voided_hand_and_left_is_merged_everywhere(
        ledger: Ledger) -> None:
    member = await _erin_li(ledger)
    # A guest "erin" plays hand 1, which is voided, and leaves for dave: no entry of hers
    # stands, only the seats hand 1 keeps.
    await ledger.open_nights.open_night(CHAT, [*FOUR, PlayerRef(name="erin")],
                                       preset="chengdu")
    night = (await going(ledger, CHAT)).id
    guest = (await going(ledger, CHAT)).seats["N"].id
    await _three_wins(ledger)
    await ledger.corrections.void(CHAT, 1, allow_others=True)
    await ledger.open_nights.change_seat(CHAT, "erin", PlayerRef(name="dave"))
    await _three_wins(ledger)
    await ledger.nights.end_night(CHAT)
    await ledger.open_nights.open_night(CHAT, [*FOUR, PlayerRef(name="erin")],
                                       preset="chengdu")
    linked = await ledger.chats.link_member(CHAT, ERIN, "erin")
    assert linked is not None and linked.id == member
    async with ledger.read() as conn:
        h = t.hands.c
        seats = (await conn.execute(select(h.seats).where(
            h.night_id == night, h.number == 1))).scalar_one()
    assert seats is not None and int(seats["N"]) == member
    assert guest not in {int(p) for p in seats.values()}
    history = await ledger.nights.history(CHAT, night_id=night)  # no dangling id
    assert history is not None
    await assert_books_balance(ledger, [CHAT])


async def _together_then_voided(ledger: Ledger) -> None:
    """Erin Li (the account) and a guest "erin" at one table: their only hand is voided,
    then Erin Li leaves for dave."""
    await _erin_li(ledger)
    await ledger.open_nights.open_night(
        CHAT, [PlayerRef(name="alice", telegram_id=1), PlayerRef(name="bob"),
               PlayerRef(name="Erin Li", telegram_id=ERIN), PlayerRef(name="erin")],
        preset="chengdu")
    await _three_wins(ledger)
    await ledger.corrections.void(CHAT, 1, allow_others=True)
    await ledger.open_nights.change_seat(CHAT, "W", PlayerRef(name="dave"))


async def test_two_rows_whose_shared_hands_were_voided_are_still_two_people(
        ledger: Ledger) -> None:
    await _together_then_voided(ledger)
    assert await ledger.chats.link_member(CHAT, ERIN, "erin") is None
    assert {"Erin Li", "erin"} <= set(await _rows(ledger))
    # The voided hand can be counted again: the two still sit apart in it.
    await ledger.corrections.amend(CHAT, 1, [win("self_draw", "N"), win("self_draw", "E"),
                                             win("self_draw", "S")], allow_others=True)
    await assert_books_balance(ledger, [CHAT])


async def test_two_rows_with_a_debt_between_them_are_two_people(ledger: Ledger) -> None:
    member = await _erin_li(ledger)
    await ledger.open_nights.open_night(CHAT, [*FOUR, PlayerRef(name="erin")],
                                       preset="chengdu")
    night = await going(ledger, CHAT)
    guest = night.seats["N"].id
    async with ledger.write() as conn:  # (no table of theirs leaves one; a repair might)
        await conn.execute(t.debts.insert().values(
            chat_id=CHAT, night_id=night.id, payer_id=guest, payee_id=member,
            points=1, cents=100, paid=False))
    assert await ledger.chats.link_member(CHAT, ERIN, "erin") is None
    assert {"Erin Li", "erin"} <= set(await _rows(ledger))


async def test_a_merge_is_noted_in_the_audit_and_a_refusal_is_not(ledger: Ledger) -> None:
    member = await _erin_li(ledger)
    await ledger.open_nights.open_night(CHAT, [*FOUR, PlayerRef(name="erin")],
                                       preset="chengdu")
    guest = (await going(ledger, CHAT)).seats["N"].id
    await ledger.hands.record(CHAT, win("self_draw", "N"))
    assert await ledger.chats.link_member(CHAT, ERIN, "erin") is not None
    merges = [r for r in await ledger.corrections.audit_trail(CHAT) if r["action"] == "merge"]
    assert [(r["actor"], r["before"], r["after"]) for r in merges] == [
        (ERIN, {"guest": guest, "member": member}, {"player": member})]
    await ledger.corrections.undo(CHAT, allow_others=True)  # the table's undo: its event
    assert (await going(ledger, CHAT)).hands == 0


async def test_a_refused_merge_writes_no_audit(ledger: Ledger) -> None:
    await _together_then_voided(ledger)
    before = await ledger.corrections.audit_trail(CHAT)
    assert await ledger.chats.link_member(CHAT, ERIN, "erin") is None
    assert await ledger.corrections.audit_trail(CHAT) == before
