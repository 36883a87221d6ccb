"""erin, a guest one night and @erin another, is one player in /standings, /stats and
/debts, in whichever order the nights came, when she kept the score in between, and when
her account was known under another name before she had a username."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.console.fake_api import FakeUser
from tests.bot.harness import plain
from tests.databases import BACKENDS
from tests.handlers.harness import HandlerTable as Table
from tests.handlers.harness import handler_table_on as table_on


async def _texts(t: Table, who: str, text: str) -> str:
    return "\n".join(plain(m.text) for m in await t.say(who, text) if not m.pinned)


async def _night(t: Table, new: str, erin: FakeUser | None = None) -> None:
    """One hand: erin (North) self-draws first (reported from her account if given)."""
    await t.say("alice", new)
    if erin is None:
        await t.say("alice", "/hu erin 自摸 清一色")
    else:
        before = len(t.api.outbox)
        await t.settle(t.api.say(erin, t.chat_id, "/hu erin 自摸 清一色"))
        said = [plain(m.text) for m in t.api.outbox[before:] if not m.pinned]
        assert any("Hand 1 recorded" in x for x in said), said
    await t.say("bob", "/hu bob from alice")
    await t.say("carol", "/hu carol 自摸")
    await t.say("alice", "/end")


async def _erin_once(t: Table, shown: str = "erin") -> None:
    standings = await _texts(t, "alice", "/standings")
    rows = [line for line in standings.splitlines() if line[:1].isdigit()]
    assert len(rows) == 4 and sum(f". {shown}:" in r for r in rows) == 1, standings
    assert f"{shown}: +48.00 (+48 at 1.00) · hands 2 · wins 2" in standings, standings
    stats = await _texts(t, "alice", "/stats @erin")
    assert f"Statistics for {shown}:" in stats and "+48.00" in stats, stats
    debts = await _texts(t, "alice", "/debts")
    assert f"{shown} ⇄" not in debts and f"⇄ {shown}" not in debts, debts  # not owed to herself
    payees = [line for line in debts.splitlines() if f"→ {shown}:" in line]
    assert len(payees) == 3, debts  # alice, bob and carol each owe her, once
    assert t.api.errors == []


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("guest_first", [True, False])
async def test_a_guest_and_the_member_of_that_name_are_one_player(
        tmp_path: Path, backend: str, guest_first: bool) -> None:
    async with table_on(backend, tmp_path, "en", "one_person") as t:
        erin = t.user("erin")
        nights = [("/new chengdu @alice @bob @carol erin", None),
                  ("/new chengdu @alice @bob @carol @erin", erin)]
        for new, who in nights if guest_first else nights[::-1]:
            await _night(t, new, who)
        await _erin_once(t)


@pytest.mark.parametrize("backend", BACKENDS)
async def test_a_guest_whose_username_kept_the_score_is_one_player(
        tmp_path: Path, backend: str) -> None:
    """erin plays as a guest, keeps the score of another night from her account (an
    admin without a seat), then plays as @erin: one erin, not two."""
    async with table_on(backend, tmp_path, "en", "one_person") as t:
        await _night(t, "/new chengdu @alice @bob @carol erin")
        t.admin("erin")
        await t.say("alice", "/new chengdu @alice @bob @carol @dave")
        await t.say("erin", "/hu bob 自摸")
        await t.say("erin", "/undo")
        await t.say("alice", "/end")
        await _night(t, "/new chengdu @alice @bob @carol @erin", t.user("erin"))
        await _erin_once(t)


@pytest.mark.parametrize("backend", BACKENDS)
async def test_an_account_known_by_another_name_takes_its_guest_seat(
        tmp_path: Path, backend: str) -> None:
    """Erin Li had no username when a text mention seated her (as ErinLi); with the username erin
    now, she is seated as @erin: when she reports, the seat is hers (not "Only the
    players at this table"), and her two nights are one player's."""
    async with table_on(backend, tmp_path, "en", "one_person") as t:
        erin = FakeUser(901, "Erin Li")
        await t.say("alice", "/new chengdu @alice @bob @carol ErinLi",
                    mentions={"ErinLi": erin})
        await t.settle(t.api.say(erin, t.chat_id, "/hu ErinLi 自摸 清一色",
                                 mentions={"ErinLi": erin}))
        await t.say("bob", "/hu bob from alice")
        await t.say("carol", "/hu carol 自摸")
        await t.say("alice", "/end")
        erin.username = "erin"
        t.users["erin"] = erin
        await _night(t, "/new chengdu @alice @bob @carol @erin", erin)
        await _erin_once(t, "ErinLi")


@pytest.mark.parametrize("backend", BACKENDS)
async def test_a_seat_linked_by_an_earlier_try_of_the_same_update_is_the_sender_s(
        tmp_path: Path, backend: str) -> None:
    """bob's first report links his account to his seat, then the database goes away
    before its answer and the update is tried again: the table the bot holds still shows
    the seat without an account, and the ledger already has it. The try again reads the
    table afresh and records the hand (it was refused as not a player's)."""
    async with table_on(backend, tmp_path, "en", "linked_before") as t:
        await t.say("alice", "/new changsha @alice @bob @carol @dave")
        await t.say("alice", "/table")  # the bot holds the table: bob has no account yet
        bob = t.user("bob")
        assert await t.ledger.chats.link_member(t.chat_id, bob.id, "bob") is not None
        said = [plain(m.text) for m in await t.say("bob", "/hu bob 自摸")]
        assert any("Hand 1 recorded" in x for x in said), said
        assert t.api.errors == []
