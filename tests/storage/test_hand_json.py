"""Hands kept compact (storage.services.hand_json): what every reader returns is the same for a
hand written compact and for one written whole by the code before (and migration 0008
keeps both), on both backends."""

from __future__ import annotations

import csv
import io
import json
import zipfile
from collections.abc import Callable
from datetime import date
from typing import Any

from sqlalchemy import JSON, column, inspect, select, table, update
from sqlalchemy.engine import Connection

from engine.rules import Ruleset
from engine.settle import parse_report, settle_hand
from storage.ledger import Ledger
from storage.services.hand_json import full_report, pack_report
from storage.sql import tables as t
from tests.storage.helpers import SEATED, assert_books_balance, win

CHAT, OTHER = -7001, -7002


async def _play(ledger: Ledger, chat: int = CHAT) -> None:
    """A night of every kind of hand: patterns, a void, a correction, a Changsha night
    with birds, and a blood battle left open."""
    await ledger.open_nights.open_night(chat, SEATED, preset="changsha", stake_cents=50)
    await ledger.hands.record(chat, win("self_draw", "S", birds=[5]), reporter=2)
    await ledger.hands.record(chat, {"type": "starting_win", "seat": "E", "kinds": ["四喜"]},
                              reporter=1)
    await ledger.hands.record(chat, win("discard", "E", "W", patterns=["清一色"]), reporter=1)
    await ledger.hands.record(chat, win("self_draw", "N"), reporter=4)
    await ledger.corrections.void(chat, 3, actor=4)
    await ledger.nights.end_night(chat)
    await ledger.open_nights.open_night(chat, SEATED, preset="chengdu")
    await ledger.hands.record(chat, win("self_draw", "S", patterns=["清一色"], gen=1), reporter=2)
    await ledger.hands.record(chat, {"type": "kong", "seat": "W", "kind": "direct",
                                     "from_seat": "E"}, reporter=1)
    await ledger.hands.record(chat, win("discard", "W", "E"), reporter=1)
    await ledger.hands.record(chat, win("discard", "N", "E"), reporter=4)
    await ledger.hands.record(chat, {"type": "adjust", "deltas": {"E": 3, "S": -3},
                                     "reason": "a tile short"}, reporter=1)
    await ledger.corrections.amend(chat, 1, [win("self_draw", "S", patterns=["七对"])], actor=2,
                                   event_index=0)
    await ledger.hands.record(chat, win("self_draw", "E", patterns=["碰碰胡"]), reporter=1)


async def _views(ledger: Ledger, chat: int = CHAT) -> dict[str, Any]:
    """What every reader of hands gives."""
    out: dict[str, Any] = {}
    page = await ledger.lookback.night_history(chat, "all", page_size=100)
    out["history"] = [i.model_dump() for i in page.items]
    for item in page.items:
        detail = await ledger.lookback.hand_detail(chat, item.number, _scope(page.labels[
            item.night_id]))
        out[f"detail {item.night_id}.{item.number}"] = detail.model_dump()
        view = await ledger.nights.hand_view(chat, item.night_id, item.number)
        out[f"view {item.night_id}.{item.number}"] = (view[0].model_dump(),
                                                       view[1].model_dump())
    report, result = await ledger.nights.hand(chat, 2)
    out["hand"] = (report, result.model_dump())
    for n in (1, 2):
        night = await ledger.series.night_chart(chat, n)
        out[f"night {n}"] = [h.result for h in night.hands]
    for player in (await ledger.lookback.standings(chat)):
        out[f"wins {player.player.id}"] = await ledger.series.player_wins(chat,
                                                                  player.player.id)
        out[f"record {player.player.id}"] = (
            await ledger.lookback.player_record(chat, player.player.id)).model_dump()
    with await ledger.files.export_zip(chat) as fh:
        out["export"] = fh.read()
    return out


def _scope(label: str) -> tuple[date, int]:
    day, _, k = label.partition("/")
    return date.fromisoformat(day), int(k or 1)


async def _write_whole(ledger: Ledger, before_nights: bool = False) -> int:
    """Rewrite every hand as the code before wrote it: the report and the engine's
    result dumped whole (lines and all), with json.dumps's spaces. ``before_nights``: the
    schema is older than revision 0012 (its nights under their old names)."""
    name, key = ("sessions", "session_id") if before_nights else ("nights", "night_id")
    nights = table(name, column("id"), column("rules", JSON()))
    hands = table("hands", column("id"), column(key), column("report", JSON()),
                  column("dealer"), column("result", JSON()))
    h, s = hands.c, nights.c
    async with ledger.write() as conn:
        rows = (await conn.execute(select(h.id, h.report, h.dealer, s.rules).join(
            nights, s.id == h[key]))).all()
        for r in rows:
            report = parse_report(r.report)
            result = settle_hand(Ruleset.from_snapshot(r.rules), report, r.dealer)
            await conn.execute(update(hands).where(h.id == r.id).values(
                report=json.loads(json.dumps(report.model_dump(mode="json"))),
                result=result.model_dump(mode="json")))
    return len(rows)


async def _forms(ledger: Ledger) -> set[bool]:
    """For each hand row: does its result carry the lines?"""
    async with ledger.read() as conn:
        return {"lines" in r.result for r in (await conn.execute(
            select(t.hands.c.result))).all()}


async def test_compact_and_whole_rows_read_the_same(ledger: Ledger) -> None:
    await _play(ledger)
    assert await _forms(ledger) == {False}  # written compact
    async with ledger.read() as conn:
        first = (await conn.execute(select(t.hands.c.report).order_by(t.hands.c.id))
                 ).scalars().first()
    assert first == {"events": [{"type": "win", "how": "self_draw",
                                 "winners": [{"seat": "S"}], "birds": [5]}]}
    compact = await _views(ledger)
    assert await _write_whole(ledger) == 5
    assert await _forms(ledger) == {True}
    assert await _views(ledger) == compact
    # The open hand, written whole, takes the next event as any other.
    await ledger.hands.record(CHAT, win("discard", "N", "S"), reporter=4)
    report, result = await ledger.nights.hand(CHAT, 2)
    assert len(result.events) == len(compact["hand"][1]["events"]) + 1
    await ledger.corrections.undo(CHAT, actor=4)
    report, result = await ledger.nights.hand(CHAT, 2)
    assert (report, result.model_dump()) == compact["hand"]
    await assert_books_balance(ledger, [CHAT])


async def test_migration_0008_keeps_the_hands_written_before(ledger: Ledger) -> None:
    from alembic import command

    from storage.sql.db import alembic_config

    def migrate_to(revision: str) -> Callable[[Connection], None]:
        def step(sync_conn: Connection) -> None:
            cfg = alembic_config()
            cfg.attributes["connection"] = sync_conn
            (command.downgrade if revision == "0007" else command.upgrade)(cfg, revision)
        return step

    def indexes(sync_conn: Connection) -> set[str]:
        return {str(i["name"]) for i in inspect(sync_conn).get_indexes("hands")}

    await _play(ledger)
    compact = await _views(ledger)
    async with ledger.write() as conn:
        await conn.run_sync(migrate_to("0007"))
    async with ledger.read() as conn:
        before = await conn.run_sync(indexes)
    assert "ix_hands_session_status" in before and "ix_hands_open" not in before
    await _write_whole(ledger, before_nights=True)  # as 0007's code wrote them
    async with ledger.write() as conn:
        await conn.run_sync(migrate_to("head"))
    async with ledger.read() as conn:
        after = await conn.run_sync(indexes)
    assert "ix_hands_open" in after and "ix_hands_session_status" not in after
    assert await _forms(ledger) == {True}
    assert await _views(ledger) == compact
    out = await ledger.hands.record(CHAT, win("discard", "N", "S"), reporter=4)
    assert out.night is not None and out.night.still_in == ("S", "W")
    out = await ledger.hands.record(CHAT, win("discard", "W", "S"), reporter=1)
    assert out.closed and out.night is not None and out.night.open_hand is None
    await assert_books_balance(ledger, [CHAT])


async def test_an_import_keeps_lines_the_engine_does_not_give_back(ledger: Ledger) -> None:
    await _play(ledger)
    with await ledger.files.export_zip(CHAT) as fh:
        data = fh.read()
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        files = {n: zf.read(n).decode() for n in zf.namelist()}
    rows = list(csv.reader(io.StringIO(files["hands.csv"])))
    head = rows[0]
    result = json.loads(rows[1][head.index("result")])
    for lines in (result["events"][0]["lines"], result["lines"]):  # the lines, and all
        lines[0]["params"]["note"] = "as written down that night"
    rows[1][head.index("result")] = json.dumps(result, ensure_ascii=False)
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\r\n").writerows(rows)
    files["hands.csv"] = buf.getvalue()
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as zf:
        for name, text in files.items():
            zf.writestr(name, text)
    await ledger.files.import_zip(OTHER, io.BytesIO(out.getvalue()))
    async with ledger.read() as conn:
        kept = (await conn.execute(select(t.hands.c.result).where(
            t.hands.c.chat_id == OTHER).order_by(t.hands.c.id))).scalars().all()
    assert "lines" in kept[0]["events"][0] and all(
        "lines" not in r["events"][0] for r in kept[1:])  # only that hand kept whole
    labels = (await ledger.lookback.night_history(OTHER, "all")).labels
    detail = await ledger.lookback.hand_detail(OTHER, 1, _scope(labels[min(labels)]))
    assert detail.result.events[0].lines[0].params["note"] == "as written down that night"
    mine, theirs = await _views(ledger, CHAT), await _views(ledger, OTHER)
    assert [i["deltas"] for i in theirs["history"]] == [i["deltas"] for i in mine["history"]]
    with zipfile.ZipFile(io.BytesIO(theirs["export"])) as zf:
        again = {n: zf.read(n).decode() for n in zf.namelist()}
    assert again == files  # as imported, the changed line with it
    await assert_books_balance(ledger, [CHAT, OTHER])


def test_a_report_reads_back_the_same() -> None:
    reports: list[dict[str, Any]] = [
        {"events": [win("self_draw", "S")]},
        {"events": [win("discard", "W", "E", patterns=["清一色", "七对"], gen=2, kongs=1,
                        tiles="11122233344455m", melds=["555p"])]},
        {"events": [{"type": "kong", "seat": "W", "kind": "direct", "from_seat": "E"},
                    {"type": "starting_win", "seat": "E", "kinds": ["四喜"]},
                    {"type": "wall_end", "players": {"E": {"ready": True, "fan": 2},
                                                     "S": {"huazhu": True}}},
                    {"type": "penalty", "seat": "N"},
                    {"type": "adjust", "deltas": {"E": 1, "S": -1}, "reason": "x"}]},
        {"events": [{"type": "win", "how": "rob_kong", "from_seat": "N",
                     "winners": [{"seat": "E", "wild_used": False, "feibao": 1,
                                  "feeder": "S"}, {"seat": "W", "fan": 3}],
                     "loser_feibao": {"N": 1}, "jing": {"S": [1, 0]},
                     "robbed_kongs": 2}], "indicator": "5m"},
    ]
    for data in reports:
        report = parse_report(data)
        packed = pack_report(report)
        assert parse_report(packed) == report
        assert full_report(packed) == report.model_dump(mode="json")
        assert all("type" in ev for ev in packed["events"])
        assert len(json.dumps(packed)) < len(json.dumps(report.model_dump(mode="json")))
