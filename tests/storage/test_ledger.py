"""The ledger on every backend: recording, corrections, summaries, isolation, backup."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy
from sqlalchemy import func, select, update
from sqlalchemy.engine import Connection

from engine.errors import ReportError
from storage.errors import LedgerError
from storage.files.backup import export_csv, import_csv
from storage.ledger import Ledger
from storage.models import PlayerRef
from storage.queues.messages import AlreadyHandled, Answer, Incoming, Outgoing
from storage.sql import tables as t
from tests.storage.conftest import drop_schema, make_ledger
from tests.storage.helpers import SEATED, assert_books_balance, win

CHAT = -1001


async def test_migrations_match_the_tables(fresh_ledger: Ledger) -> None:
    """Alembic, from an empty database, builds exactly the tables the code declares (the
    other tests copy a database migrated once: tests/databases.py)."""
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    ledger = fresh_ledger
    def diff(sync_conn: Connection) -> Any:
        ctx = MigrationContext.configure(sync_conn)
        return compare_metadata(ctx, t.metadata)

    async with ledger.read() as conn:
        assert await conn.run_sync(diff) == []


async def test_migration_0002_fills_session_nets_from_the_entries(fresh_ledger: Ledger
                                                                  ) -> None:
    from alembic import command

    from storage.sql.db import alembic_config

    ledger = fresh_ledger
    def migrate_to(revision: str) -> Callable[[Connection], None]:
        def step(sync_conn: Connection) -> None:
            cfg = alembic_config()
            cfg.attributes["connection"] = sync_conn
            if revision == "0001":
                command.downgrade(cfg, revision)
            else:
                command.upgrade(cfg, revision)
        return step

    await ledger.open_nights.open_night(CHAT, SEATED, preset="chengdu")
    await ledger.hands.record(CHAT, win("self_draw", "S"))
    await ledger.hands.record(CHAT, win("discard", "W", "E"))
    before = await ledger.open_nights.current_night(CHAT)
    assert before is not None and before.totals == {"E": -3, "S": 6, "W": -1, "N": -2}
    async with ledger.write() as conn:
        await conn.run_sync(migrate_to("0001"))
    async with ledger.write() as conn:
        await conn.run_sync(migrate_to("head"))
    after = await ledger.open_nights.current_night(CHAT)
    assert after is not None and after.totals == before.totals
    await assert_books_balance(ledger, [CHAT])


async def test_migration_0009_counts_older_drafts_touched_when_created(fresh_ledger: Ledger
                                                                       ) -> None:
    from alembic import command

    from storage.sql.db import alembic_config

    ledger = fresh_ledger

    def migrate(down: bool, revision: str) -> Callable[[Connection], None]:
        def step(sync_conn: Connection) -> None:
            cfg = alembic_config()
            cfg.attributes["connection"] = sync_conn
            (command.downgrade if down else command.upgrade)(cfg, revision)
        return step

    async with ledger.write() as conn:
        await conn.run_sync(migrate(True, "0008"))
    made = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
    before_0009 = sqlalchemy.table("drafts", *(sqlalchemy.column(c.name, c.type) for c in (
        t.drafts.c[n] for n in ("chat_id", "user_id", "kind", "version", "data",
                                "created_at"))))  # the columns of revision 0008
    async with ledger.write() as conn:
        await conn.execute(sqlalchemy.insert(before_0009).values(
            chat_id=1, user_id=2, kind="hu", version=1, data={}, created_at=made))
    async with ledger.write() as conn:
        await conn.run_sync(migrate(False, "head"))
    async with ledger.read() as conn:
        row = (await conn.execute(select(t.drafts))).one()
    assert row.touched_at == row.created_at
    assert await ledger.drafts.prune(made + timedelta(seconds=1)) == 1


async def test_a_start_brings_an_older_schema_to_head_and_leaves_one_at_head(
        fresh_ledger: Ledger, monkeypatch: pytest.MonkeyPatch) -> None:
    """The start's migration: run when the schema is behind; at head (every start but
    the first after an upgrade) Alembic is not run at all."""
    from alembic import command
    from alembic.runtime.migration import MigrationContext

    from storage.sql import db

    def revision(sync_conn: Connection) -> str | None:
        return MigrationContext.configure(sync_conn).get_current_revision()

    def downgrade(sync_conn: Connection) -> None:
        cfg = db.alembic_config()
        cfg.attributes["connection"] = sync_conn
        command.downgrade(cfg, "0008")

    engine = fresh_ledger.engine
    async with engine.begin() as conn:
        await conn.run_sync(downgrade)
    await db.migrate(engine)
    async with engine.connect() as conn:
        assert await conn.run_sync(revision) == db.head_revision()
    ran: list[object] = []
    monkeypatch.setattr(command, "upgrade", lambda *args: ran.append(args))
    await db.migrate(engine)
    assert ran == []


async def test_record_a_night(ledger: Ledger) -> None:
    s = await ledger.open_nights.open_night(CHAT, SEATED, preset="chengdu")
    assert s.dealer == "E" and s.seats["W"].name == "carol" and s.seats["W"].is_guest
    out = await ledger.hands.record(CHAT, win("self_draw", "S", patterns=["清一色"], gen=1),
                                    reporter=2)
    assert out.hand_number == 1 and not out.closed and out.next_dealer == "S"
    assert out.event is not None and out.event.deltas["S"] == 48
    out = await ledger.hands.record(CHAT, win("discard", "W", "E"), reporter=1)
    out = await ledger.hands.record(CHAT, win("discard", "N", "E"), reporter=1)
    assert out.closed and out.night is not None and out.night.dealer == "S"
    out = await ledger.hands.record(CHAT, win("self_draw", "E"))
    assert out.hand_number == 2 and out.night is not None
    assert out.night.totals == {"E": -16 - 1 - 1 + 6, "S": 48 - 2, "W": -16 + 1 - 2,
                                  "N": -16 + 1 - 2}
    await assert_books_balance(ledger, [CHAT])


async def test_failed_write_leaves_nothing(ledger: Ledger) -> None:
    await ledger.open_nights.open_night(CHAT, SEATED, preset="chengdu")
    with pytest.raises(ReportError):
        await ledger.hands.record(CHAT, win("discard", "S", "S"))
    s = await ledger.open_nights.current_night(CHAT)
    assert s is not None and s.hands == 0 and s.totals == dict.fromkeys("ESWN", 0)
    async with ledger.read() as conn:
        assert (await conn.execute(select(func.count()).select_from(t.entries))).scalar() == 0
        assert (await conn.execute(select(func.count()).select_from(t.hands))).scalar() == 0


async def test_crash_mid_transaction_loses_only_that_transaction(ledger: Ledger) -> None:
    await ledger.open_nights.open_night(CHAT, SEATED, preset="chengdu")
    await ledger.hands.record(CHAT, win("self_draw", "S"))
    with pytest.raises(RuntimeError):
        async with ledger.write() as conn:
            await conn.execute(t.audit.insert().values(
                chat_id=CHAT, action="x", at=datetime.now(UTC)))
            raise RuntimeError("power cut")
    async with ledger.read() as conn:
        assert (await conn.execute(select(func.count()).select_from(t.audit))).scalar() == 0
    s = await ledger.open_nights.current_night(CHAT)
    assert s is not None and s.totals["S"] == 6


async def test_redelivered_update_is_received_once(ledger: Ledger) -> None:
    update = Incoming(key=f"m:{CHAT}:5", chat_id=CHAT, update_id=77,
                      payload={"update_id": 77, "message": {"message_id": 5}})
    first = await ledger.inbox.receive([update])
    # Telegram may redeliver it, even under another update id after a restart of its ids.
    again = await ledger.inbox.receive([update, update.model_copy(update={"update_id": 3})])
    assert [p.update_id for p in first] == [77] and again == []
    assert [p.id for p in await ledger.inbox.pending_updates()] == [first[0].id]


async def test_an_answer_is_written_with_its_change_or_not_at_all(ledger: Ledger) -> None:
    await ledger.open_nights.open_night(CHAT, SEATED, preset="chengdu")
    [pending] = await ledger.inbox.receive([Incoming(
        key="m:1:1", chat_id=CHAT, update_id=1,
        payload={"update_id": 1, "message": {"message_id": 1, "text": "/hu bob 自摸"}})])

    def render(out: Any) -> list[Outgoing]:
        return [Outgoing(chat_id=CHAT, method="sendMessage",
                         params={"text": f"hand {out.hand_number}"})]

    answer = Answer(pending.id, render)
    await ledger.answering(answer).hands.record(CHAT, win("self_draw", "S"))
    assert [q.params["text"] for q in answer.queued] == ["hand 1"]
    assert await ledger.inbox.pending_updates() == []
    assert [q.id for q in await ledger.outbox.pending_messages()] == [answer.queued[0].id]
    # The same update cannot be answered twice: the second write rolls back whole.
    with pytest.raises(AlreadyHandled):
        await ledger.answering(Answer(pending.id, render)).hands.record(CHAT, win("self_draw", "W"))
    s = await ledger.open_nights.current_night(CHAT)
    assert s is not None and s.hands == 1 and len(await ledger.outbox.pending_messages()) == 1
    await ledger.outbox.settle_messages(sent=[answer.queued[0].id])
    assert await ledger.queues.backlog() == (0, 0)
    async with ledger.read() as conn:  # the answer sent is gone; the update keeps its key
        assert (await conn.execute(select(func.count()).select_from(t.outbox))
                ).scalar_one() == 0
        row = (await conn.execute(select(t.inbox))).one()
        assert row.key == "m:1:1" and row.status == "done" and row.payload == {}
    assert await ledger.queues.prune(datetime.now(UTC) + timedelta(seconds=1),
                                       datetime.now(UTC) + timedelta(seconds=1)) == (1, 0)


async def test_undo(ledger: Ledger) -> None:
    await ledger.open_nights.open_night(CHAT, SEATED, preset="chengdu")
    await ledger.hands.record(CHAT, win("self_draw", "S"), reporter=2)
    await ledger.hands.record(CHAT, win("discard", "W", "E"), reporter=2)
    with pytest.raises(LedgerError) as err:
        await ledger.corrections.undo(CHAT, actor=1)
    assert err.value.code == "not_reporter"
    out = await ledger.corrections.undo(CHAT, actor=2)
    assert out.hand_number == 1 and out.event_index == 1
    assert out.night.totals == {"E": -2, "S": 6, "W": -2, "N": -2}
    out = await ledger.corrections.undo(CHAT, actor=1, allow_others=True)
    assert out.night.hands == 0 and out.night.dealer == "E"
    with pytest.raises(LedgerError):
        await ledger.corrections.undo(CHAT, actor=2)
    await assert_books_balance(ledger, [CHAT])


async def test_undo_past_a_voided_hand_never_reuses_its_number(ledger: Ledger) -> None:
    # Found by the stateful test: record, record, void 2, undo, record, record.
    await ledger.open_nights.open_night(CHAT, SEATED, preset="changsha", overrides={"birds": 0})
    await ledger.hands.record(CHAT, win("self_draw", "S"))
    await ledger.hands.record(CHAT, win("self_draw", "W"))
    await ledger.corrections.void(CHAT, 2)
    # An undo right after the void takes the void back; void it again.
    out = await ledger.corrections.undo(CHAT, allow_others=True)
    assert out.hand_number == 2 and out.correction and out.removed["type"] == "void"
    await ledger.corrections.void(CHAT, 2)
    # Corrections are undone newest first: the edit of hand 1, then the void of hand 2.
    await ledger.corrections.amend(CHAT, 1, [win("self_draw", "N")])
    out = await ledger.corrections.undo(CHAT, allow_others=True)
    assert out.hand_number == 1 and out.correction and out.removed["type"] == "amend"
    out = await ledger.corrections.undo(CHAT, allow_others=True)
    assert out.hand_number == 2 and out.correction and out.removed["type"] == "void"
    await ledger.corrections.void(CHAT, 2)
    # A hand recorded after the void hand 2 and undone: the next is hand 3 again, never 2.
    third = await ledger.hands.record(CHAT, win("self_draw", "E"))
    out = await ledger.corrections.undo(CHAT, allow_others=True)
    assert out.hand_number == 3 and not out.correction and out.night.hands == 2
    third = await ledger.hands.record(CHAT, win("self_draw", "N"))
    fourth = await ledger.hands.record(CHAT, win("self_draw", "E"))
    assert (third.hand_number, fourth.hand_number) == (3, 4)
    page = await ledger.nights.history(CHAT)
    assert [(i.number, i.status) for i in page.items] == [
        (4, "closed"), (3, "closed"), (2, "void"), (1, "closed")]
    await assert_books_balance(ledger, [CHAT])


async def test_void_and_amend_recompute_later_dealers(ledger: Ledger) -> None:
    await ledger.open_nights.open_night(CHAT, SEATED, preset="changsha", overrides={"birds": 0})
    await ledger.hands.record(CHAT, win("self_draw", "S"))  # hand 1: E deals, S wins -> S deals
    await ledger.hands.record(CHAT, win("discard", "W", "S"))  # hand 2: S deals; W +2 (premium)
    s = await ledger.open_nights.current_night(CHAT)
    assert s is not None and s.dealer == "W"
    out = await ledger.corrections.amend(CHAT, 1, [win("self_draw", "N")], actor=1)
    # hand 1 now won by N -> N deals hand 2: S and W are both not dealers: W +1.
    assert [c.number for c in out.changes] == [1, 2]
    assert out.changes[1].dealer_before == "S" and out.changes[1].dealer_after == "N"
    assert out.changes[1].deltas_after == {"E": 0, "S": -1, "W": 1, "N": 0}
    assert out.night.dealer == "W"
    out = await ledger.corrections.void(CHAT, 1, actor=1)
    assert out.changes[1].dealer_after == "E"  # hand 2 is dealt by E again
    assert out.night.totals == {"E": 0, "S": -1, "W": 1, "N": 0}
    await assert_books_balance(ledger, [CHAT])
    trail = await ledger.corrections.audit_trail(CHAT)
    assert [a["action"] for a in trail] == ["void", "amend"]


async def test_a_night_keeps_its_options(ledger: Ledger) -> None:
    await ledger.chats.update_chat(CHAT, preset="chengdu", overrides={"cap_fan": 3})
    await ledger.open_nights.open_night(CHAT, SEATED)
    await ledger.chats.update_chat(CHAT, overrides={"cap_fan": 7})
    out = await ledger.hands.record(CHAT, win("self_draw", "S", patterns=["清一色"], gen=1))
    assert out.event is not None and out.event.deltas["S"] == 3 * 4  # capped at 3 fan


async def test_end_of_night_summary_and_debts(ledger: Ledger) -> None:
    await ledger.chats.update_chat(CHAT, stake_cents=50)
    await ledger.open_nights.open_night(CHAT, SEATED, preset="chengdu")
    await ledger.hands.record(CHAT, win("self_draw", "S", patterns=["清一色"]))
    await ledger.hands.record(CHAT, win("discard", "W", "E"))
    await ledger.hands.record(CHAT, win("discard", "N", "E"))
    summary = await ledger.nights.end_night(CHAT)
    names = {p.id: p.name for p in summary.players.values()}
    by_name = {names[pid]: n for pid, n in summary.nets.items()}
    assert by_name == {"alice": -10, "bob": 24, "carol": -7, "dave": -7}
    assert len(summary.transfers) == 3
    assert sum(tr.points for tr in summary.transfers) == 24
    assert all(tr.cents == tr.points * 50 for tr in summary.transfers)
    assert summary.biggest is not None and summary.biggest[0].name == "bob"
    assert summary.biggest[1] == 24
    assert summary.most_wins is not None
    assert await ledger.open_nights.current_night(CHAT) is None
    debts = await ledger.money.debts(CHAT)
    assert len(debts) == 3
    paid = await ledger.money.mark_paid(CHAT, debts[0].id)
    assert paid.paid and len(await ledger.money.debts(CHAT)) == 2
    with pytest.raises(LedgerError):
        await ledger.money.mark_paid(CHAT + 1, debts[1].id)


async def test_standings_stats_history(ledger: Ledger) -> None:
    await ledger.open_nights.open_night(CHAT, SEATED, preset="chengdu")
    await ledger.hands.record(CHAT, win("self_draw", "S"))
    await ledger.hands.record(CHAT, win("discard", "W", "E", patterns=["七对"]))
    await ledger.hands.record(CHAT, win("discard", "N", "E"))
    await ledger.hands.record(CHAT, win("self_draw", "S"))
    standings = await ledger.lookback.standings(CHAT)
    assert standings[0].player.name == "bob"
    assert sum(s.net for s in standings) == 0
    ranged = await ledger.lookback.standings(CHAT, since=datetime(2000, 1, 1, tzinfo=UTC))
    assert {s.player.name: s.net for s in ranged} == {s.player.name: s.net for s in standings}
    bob = standings[0].player
    stats = await ledger.lookback.player_stats(CHAT, bob.id)
    assert stats.wins == 2 and stats.self_draws == 2 and stats.hands == 2
    alice = next(s.player for s in standings if s.player.name == "alice")
    astats = await ledger.lookback.player_stats(CHAT, alice.id)
    assert astats.dealt_in == 2 and astats.wins == 0  # W and N, off her discards
    assert astats.hands_dealt_in == 1 and stats.hands_won == 2  # both in hand 1
    page = await ledger.nights.history(CHAT, page=1, page_size=1)
    assert page.total == 2 and page.pages == 2 and page.items[0].number == 2


async def test_chats_are_isolated(ledger: Ledger) -> None:
    other = CHAT - 1
    await ledger.open_nights.open_night(CHAT, SEATED, preset="chengdu")
    await ledger.hands.record(CHAT, win("self_draw", "S"))
    a_player = (await ledger.lookback.standings(CHAT))[0].player
    with pytest.raises(LedgerError):
        await ledger.lookback.player_stats(other, a_player.id)
    with pytest.raises(LedgerError):
        await ledger.hands.record(other, win("self_draw", "S"))
    with pytest.raises(LedgerError):
        await ledger.corrections.void(other, 1)
    with pytest.raises(LedgerError):
        await ledger.corrections.undo(other, allow_others=True)
    assert await ledger.lookback.standings(other) == []
    assert (await ledger.nights.history(other)).total == 0
    await ledger.open_nights.open_night(other, SEATED, preset="changsha")
    s = await ledger.open_nights.current_night(CHAT)
    assert s is not None and s.totals["S"] == 6
    # The same people are different players in another chat.
    s2 = await ledger.open_nights.current_night(other)
    assert s2 is not None and s2.seats["E"].id != s.seats["E"].id


async def test_guests_link_to_accounts(ledger: Ledger) -> None:
    guest = await ledger.chats.player(CHAT, PlayerRef(name="Erin"))
    assert guest.is_guest
    linked = await ledger.chats.link_guest(CHAT, "erin", 99, "erin_tg")
    assert linked.id == guest.id and linked.telegram_id == 99
    again = await ledger.chats.player(CHAT, PlayerRef(name="whatever", telegram_id=99))
    assert again.id == guest.id
    assert (await ledger.chats.find_player(CHAT, "@erin_tg")) is not None


async def test_an_at_mention_seats_the_account_of_that_username(ledger: Ledger) -> None:
    # A guest "dave", later seated as @dave: the row keeps the username, and the account
    # with it takes the row over when it first acts.
    guest = await ledger.chats.player(CHAT, PlayerRef(name="dave"))
    seated = await ledger.chats.player(CHAT, PlayerRef(name="dave", username="dave"))
    assert seated.id == guest.id and seated.username == "dave" and seated.is_guest
    linked = await ledger.chats.player(CHAT, PlayerRef(name="dave", telegram_id=44,
                                                       username="dave"))
    assert linked.id == guest.id and linked.telegram_id == 44
    # A member whose display name is not their username: @erin_tg is still them.
    member = await ledger.chats.player(CHAT, PlayerRef(name="Erin", telegram_id=55,
                                                       username="erin_tg"))
    again = await ledger.chats.player(CHAT, PlayerRef(name="erin_tg", username="erin_tg"))
    assert again.id == member.id and again.telegram_id == 55
    # A name never takes over a row that has another account.
    other = await ledger.chats.player(CHAT, PlayerRef(name="dave", telegram_id=66,
                                                      username="dave2"))
    assert other.id != guest.id and other.telegram_id == 66


async def test_two_writers_never_interleave(ledger: Ledger) -> None:
    await ledger.open_nights.open_night(CHAT, SEATED, preset="chengdu",
                                       overrides={"blood_battle": False})

    async def writer(seat: str, n: int) -> None:
        for _ in range(n):
            await ledger.hands.record(CHAT, win("self_draw", seat))

    await asyncio.gather(writer("S", 6), writer("W", 6))
    s = await ledger.open_nights.current_night(CHAT)
    assert s is not None and s.hands == 12
    page = await ledger.nights.history(CHAT, page_size=20)
    numbers = sorted(i.number for i in page.items)
    assert numbers == list(range(1, 13))
    # The dealer chain holds: each hand's dealer is the previous hand's winner.
    items = sorted(page.items, key=lambda i: i.number)
    for prev, cur in itertools.pairwise(items):
        winner = max(prev.deltas, key=lambda k: prev.deltas[k])
        assert cur.dealer == winner
    await assert_books_balance(ledger, [CHAT])


async def test_backup_and_restore(ledger: Ledger, tmp_path: Path) -> None:
    await ledger.open_nights.open_night(CHAT, SEATED, preset="chengdu")
    await ledger.hands.record(CHAT, win("self_draw", "S", patterns=["清一色"]))
    await ledger.hands.record(CHAT, win("discard", "W", "E"))
    await ledger.nights.end_night(CHAT)
    files = await export_csv(ledger)
    assert files["entries.csv"].count("\n") == 1 + 8
    backend = "postgres" if ledger.dialect == "postgresql" else "sqlite"
    target, schema = await make_ledger(backend, tmp_path / "restore")
    try:
        counts = await import_csv(target, files)
        assert counts["hands"] == 1
        assert await export_csv(target) == files
        assert [s.net for s in await target.lookback.standings(CHAT)] == \
            [s.net for s in await ledger.lookback.standings(CHAT)]
        # Ids continue after the restored ones.
        await target.open_nights.open_night(CHAT, SEATED, preset="chengdu")
        with pytest.raises(LedgerError):
            await import_csv(target, files)
    finally:
        await target.close()
        await drop_schema(schema)


async def test_a_backup_written_before_revision_0012_restores(ledger: Ledger,
                                                                 tmp_path: Path) -> None:
    """Its nights and their ids are under their old names."""
    await ledger.open_nights.open_night(CHAT, SEATED, preset="chengdu")
    await ledger.hands.record(CHAT, win("discard", "W", "E"))
    files = await export_csv(ledger)
    old = {("sessions.csv" if name == "nights.csv" else name):
           text.replace("night_id", "session_id") for name, text in files.items()}  # the old names
    backend = "postgres" if ledger.dialect == "postgresql" else "sqlite"
    target, schema = await make_ledger(backend, tmp_path / "restore")
    try:
        await import_csv(target, old)
        assert await export_csv(target) == files
    finally:
        await target.close()
        await drop_schema(schema)


async def test_two_tables_cannot_open_at_once(ledger: Ledger) -> None:
    for chat in range(CHAT, CHAT - 5, -1):  # new players each time: they race too
        await ledger.chats.chat(chat)  # an existing chat: nothing else makes the writers queue
        results = await asyncio.gather(
            *(ledger.open_nights.open_night(chat, SEATED, preset="chengdu") for _ in range(3)),
            return_exceptions=True)
        opened = [r for r in results if not isinstance(r, BaseException)]
        refused = [r for r in results if isinstance(r, LedgerError)]
        assert len(opened) == 1 and len(refused) == 2, results
        assert all(r.code == "night_open" for r in refused)


async def test_pruning_the_queues_goes_a_batch_at_a_time_oldest_first(
        ledger: Ledger) -> None:
    await ledger.inbox.receive([Incoming(
        key=f"m:1:{n}", chat_id=CHAT, update_id=n,
        payload={"update_id": n, "message": {"message_id": n, "text": "/table"}})
        for n in range(1, 6)])
    start = datetime.now(UTC) - timedelta(hours=1)
    async with ledger.write() as conn:
        for n in range(1, 6):  # handled a minute apart, the first earliest
            await conn.execute(update(t.inbox).where(t.inbox.c.update_id == n).values(
                status="done", done_at=start + timedelta(minutes=n), payload={}))
    later = datetime.now(UTC)
    assert await ledger.queues.prune(later, later, batch=2) == (2, 0)
    async with ledger.read() as conn:
        left = (await conn.execute(select(t.inbox.c.update_id)
                                   .order_by(t.inbox.c.update_id))).scalars().all()
    assert left == [3, 4, 5]
    assert await ledger.queues.prune(later, later, batch=2) == (2, 0)
    assert await ledger.queues.prune(later, later, batch=2) == (1, 0)
    assert await ledger.queues.prune(later, later, batch=2) == (0, 0)
