"""A table of three (seats E S W, no North): a whole night in the ledger, corrections,
the settle-up, standings, money and export/import, on both backends."""

from __future__ import annotations

import io
from collections.abc import Callable

import pytest
from sqlalchemy import select
from sqlalchemy.engine import Connection

from engine.errors import ReportError
from storage.errors import LedgerError
from storage.ledger import Ledger
from storage.models import PlayerRef
from storage.sql import tables as t
from tests.storage.helpers import SEATED, assert_books_balance, win

CHAT, OTHER = -3001, -3002
THREE = SEATED[:3]  # alice (E), bob (S), carol (W)


async def _night(ledger: Ledger, chat: int = CHAT) -> None:
    s = await ledger.open_nights.open_night(chat, THREE, preset="liangfang", stake_cents=100)
    assert list(s.seats) == ["E", "S", "W"] and s.totals == {"E": 0, "S": 0, "W": 0}
    # hand 1: bob self-draws 清一色 (T1: 8 from each), carol wins off alice: it ends
    await ledger.hands.record(chat, win("self_draw", "S", patterns=["清一色"]), reporter=2)
    out = await ledger.hands.record(chat, win("discard", "W", "E", patterns=["平胡"]), reporter=1)
    assert out.closed and out.next_dealer == "S"
    assert out.night is not None
    assert out.night.dealer == "S" and out.night.totals == {"E": -9, "S": 16, "W": -7}
    # hand 2: a kong, then a draw with alice ready (查叫 and 退税 at three)
    await ledger.hands.record(chat, {"type": "kong", "seat": "W", "kind": "concealed"})
    out = await ledger.hands.record(chat, {"type": "wall_end", "players": {
        "E": {"ready": True, "fan": 1}}})
    assert out.hand is not None and out.hand.deltas == {"E": 2, "S": -1, "W": -1}
    assert out.next_dealer == "S"  # chengdu's draw: the dealer stays


async def test_a_night_of_three(ledger: Ledger) -> None:
    await _night(ledger)
    s = await ledger.open_nights.current_night(CHAT)
    assert s is not None and s.totals == {"E": -7, "S": 15, "W": -8}
    # corrections keep three seats
    await ledger.corrections.amend(CHAT, 2, [{"type": "wall_end", "players": {}}], actor=1)
    undone = await ledger.corrections.undo(CHAT, actor=1)
    assert set(undone.deltas) == {"E", "S", "W"}
    history = await ledger.nights.history(CHAT)
    assert all(set(item.seats) == {"E", "S", "W"} for item in history.items)
    summary = await ledger.nights.end_night(CHAT)
    assert sum(summary.nets.values()) == 0 and len(summary.nets) == 3
    names = {p.name: summary.nets[pid] for pid, p in summary.players.items()}
    assert names == {"alice": -7, "bob": 15, "carol": -8}
    assert sum(tr.points for tr in summary.transfers) == 15
    standings = {x.player.name: (x.net, x.hands) for x in await ledger.lookback.standings(CHAT)}
    assert standings == {"alice": (-7, 2), "bob": (15, 2), "carol": (-8, 2)}
    money = {m.player.name: m for m in await ledger.money.money_standings(CHAT)}
    assert set(money) == {"alice", "bob", "carol"}
    stats = await ledger.lookback.player_stats(CHAT, summary.players[next(
        pid for pid, p in summary.players.items() if p.name == "bob")].id)
    assert stats.hands == 2
    await assert_books_balance(ledger, [CHAT])
    async with ledger.read() as conn:
        row = (await conn.execute(select(t.nights).where(t.nights.c.chat_id == CHAT))).one()
    assert row.seat_n is None and row.net_n == 0


async def test_three_players_export_and_import(ledger: Ledger) -> None:
    await _night(ledger)
    await ledger.nights.end_night(CHAT)
    await ledger.open_nights.open_night(CHAT, SEATED, preset="chengdu")  # a night of four after it
    await ledger.hands.record(CHAT, win("self_draw", "N"))
    with await ledger.files.export_zip(CHAT) as fh:
        data = fh.read()
    await ledger.files.import_zip(OTHER, io.BytesIO(data))
    with await ledger.files.export_zip(OTHER) as fh:
        assert fh.read() == data
    assert [(x.player.name, x.net) for x in await ledger.lookback.standings(OTHER)] == \
        [(x.player.name, x.net) for x in await ledger.lookback.standings(CHAT)]
    await assert_books_balance(ledger, [CHAT, OTHER])


@pytest.mark.parametrize(("preset", "players", "code"), [
    ("feibao", 3, "no_three_players"),
    ("liangfang", 4, "three_player_preset"),
    ("chengdu", 2, "four_players"),
    ("chengdu", 5, "four_players"),
])
async def test_who_cannot_sit_three(ledger: Ledger, preset: str, players: int,
                                    code: str) -> None:
    refs = [*SEATED, PlayerRef(name="erin")][:players]
    with pytest.raises((LedgerError, ReportError)) as err:
        await ledger.open_nights.open_night(CHAT, refs, preset=preset)
    assert isinstance(err.value, (LedgerError, ReportError)) and err.value.code == code
    assert await ledger.open_nights.current_night(CHAT) is None


async def test_a_four_player_preset_seats_three(ledger: Ledger) -> None:
    s = await ledger.open_nights.open_night(CHAT, THREE, preset="chengdu")
    assert s.rules["options"]["players"] == 3 and list(s.seats) == ["E", "S", "W"]
    with pytest.raises(ReportError) as err:
        await ledger.hands.record(CHAT, win("self_draw", "N"))
    assert err.value.code == "no_such_seat"
    out = await ledger.hands.record(CHAT, {"type": "wall_end", "players": {"S": {"huazhu": True}}})
    assert out.hand is not None and out.hand.deltas == {"E": 64, "S": -128, "W": 64}


async def test_migration_0006_keeps_every_hand(ledger: Ledger) -> None:
    """Up from 0005 drops seat_n's NOT NULL without rebuilding nights (a rebuild would
    cascade-delete the hands); down is refused while a table of three is kept."""
    from alembic import command

    from storage.sql.db import alembic_config

    def migrate_to(revision: str) -> Callable[[Connection], None]:
        def step(sync_conn: Connection) -> None:
            cfg = alembic_config()
            cfg.attributes["connection"] = sync_conn
            (command.downgrade if revision == "0005" else command.upgrade)(cfg, revision)
        return step

    await ledger.open_nights.open_night(OTHER, SEATED, preset="chengdu")
    await ledger.hands.record(OTHER, win("self_draw", "S"))
    async with ledger.write() as conn:
        await conn.run_sync(migrate_to("0005"))
    async with ledger.write() as conn:
        await conn.run_sync(migrate_to("head"))
    four = await ledger.open_nights.current_night(OTHER)
    assert four is not None and four.totals == {"E": -2, "S": 6, "W": -2, "N": -2}
    async with ledger.read() as conn:
        hands = (await conn.execute(select(t.hands.c.id))).all()
    assert len(hands) == 1
    await ledger.open_nights.open_night(CHAT, THREE, preset="sanfang")
    await ledger.hands.record(CHAT, win("self_draw", "S"))
    with pytest.raises(RuntimeError, match="three-player"):
        async with ledger.write() as conn:
            await conn.run_sync(migrate_to("0005"))
    assert await ledger.open_nights.current_night(CHAT) is not None
    await assert_books_balance(ledger, [OTHER, CHAT])
