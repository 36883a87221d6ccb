"""A chat's ledger as a zip of CSVs: export, import into an empty chat, refusals."""

from __future__ import annotations

import csv
import io
import json
import zipfile
from collections.abc import Callable

import pytest
from sqlalchemy import func, select

from storage.errors import LedgerError
from storage.files.chat_files import FILES, FORMULA_STARTS, _as_text, _from_text
from storage.ledger import Ledger
from storage.models import PlayerRef, Standing
from storage.services.open_nights import MAX_PEOPLE
from storage.sql import tables as t
from tests.storage.helpers import SEATED, assert_books_balance, win

CHAT, OTHER, THIRD = -1001, -2002, -3003


async def _play(ledger: Ledger, chat: int = CHAT) -> None:
    await ledger.open_nights.open_night(chat, SEATED, preset="chengdu", stake_cents=50)
    await ledger.hands.record(chat, win("self_draw", "S", patterns=["清一色"]), reporter=2)
    await ledger.hands.record(chat, win("discard", "W", "E"), reporter=1)
    await ledger.hands.record(chat, win("self_draw", "N"))
    await ledger.hands.record(chat, win("self_draw", "E"))
    await ledger.hands.record(chat, win("discard", "S", "W"))
    await ledger.hands.record(chat, win("discard", "N", "W"))
    await ledger.hands.record(chat, win("discard", "W", "N"))
    await ledger.corrections.void(chat, 2, actor=1)
    await ledger.nights.end_night(chat)
    seated = [PlayerRef(name="小明"), *SEATED[1:]]
    await ledger.open_nights.open_night(chat, seated, preset="chengdu")
    await ledger.hands.record(chat, {"type": "kong", "seat": "E", "kind": "concealed"})
    await ledger.hands.record(chat, win("self_draw", "E"))
    await ledger.corrections.amend(chat, 1, [win("self_draw", "E", patterns=["七对"])], actor=4)


async def _zip_bytes(ledger: Ledger, chat: int, night: int | None = None) -> bytes:
    with await ledger.files.export_zip(chat, night) as fh:
        return fh.read()


async def _rows_in(ledger: Ledger, chat: int) -> dict[str, int]:
    out = {}
    async with ledger.read() as conn:
        for table in (t.players, t.nights, t.hands, t.entries, t.debts, t.hand_players,
                      t.totals, t.audit):
            out[table.name] = (await conn.execute(select(func.count()).select_from(table)
                                                  .where(table.c.chat_id == chat))).scalar_one()
    return out


def _files(data: bytes) -> dict[str, list[list[str]]]:
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        assert zf.namelist() == list(FILES)
        return {n: list(csv.reader(io.StringIO(zf.read(n).decode()))) for n in FILES}


def _rezip(files: dict[str, str]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for name, text in files.items():
            zf.writestr(name, text)
    return buf.getvalue()


async def test_export_import_export_is_identical(ledger: Ledger) -> None:
    await _play(ledger)
    first = await _zip_bytes(ledger, CHAT)
    assert first == await _zip_bytes(ledger, CHAT)  # the same ledger, the same bytes
    files = _files(first)
    assert [r[0] for r in files["sessions.csv"]] == ["night", "1", "2"]
    assert len(files["hands.csv"]) == 1 + 3 + 1
    assert files["events.csv"][1][3] == "2"  # who reported it
    text = "".join(",".join(r) for rows in files.values() for r in rows)
    assert "-1001" not in text  # no chat id, nor any other database id
    preview = await ledger.files.preview_import(OTHER, io.BytesIO(first))
    assert (preview.nights, preview.hands, preview.players) == (2, 4, 5)
    assert await _rows_in(ledger, OTHER) == dict.fromkeys(await _rows_in(ledger, OTHER), 0)
    done = await ledger.files.import_zip(OTHER, io.BytesIO(first))
    assert done == preview
    assert await _zip_bytes(ledger, OTHER) == first
    assert await _rows_in(ledger, OTHER) == await _rows_in(ledger, CHAT)
    def rows(standings: list[Standing]) -> list[tuple[str, int, int, int]]:
        return [(s.player.name, s.net, s.hands, s.wins) for s in standings]

    assert rows(await ledger.lookback.standings(OTHER)) == \
        rows(await ledger.lookback.standings(CHAT))
    mine, theirs = await ledger.nights.summary(CHAT), await ledger.nights.summary(OTHER)
    assert mine.biggest is not None and theirs.biggest is not None
    assert (mine.hands, sorted(mine.nets.values()), mine.biggest[1]) == \
        (theirs.hands, sorted(theirs.nets.values()), theirs.biggest[1])
    await assert_books_balance(ledger, [CHAT, OTHER])
    # The imported ledger goes on as any other: its open night takes the next report.
    out = await ledger.hands.record(OTHER, win("self_draw", "S"))
    assert out.hand_number == 1 and out.night is not None and out.night.totals != {}
    await assert_books_balance(ledger, [CHAT, OTHER])


async def test_names_a_spreadsheet_would_run_are_exported_as_text(ledger: Ledger) -> None:
    """A name that starts like a formula is written after an apostrophe (a spreadsheet
    shows it as text), and imported as it was."""
    names = ['=HYPERLINK("http://x.example","pay me")', "-bob", "'quoted", "@carol+1"]
    await ledger.open_nights.open_night(CHAT, [PlayerRef(name=n) for n in names],
                                       preset="chengdu")
    await ledger.hands.record(CHAT, win("self_draw", "S"))
    await ledger.nights.end_night(CHAT)
    first = await _zip_bytes(ledger, CHAT)
    written = {row[1] for row in _files(first)["players.csv"][1:]}
    assert written == {"'" + n for n in names}
    assert all(cell.startswith("'") for row in _files(first)["debts.csv"][1:]
               for cell in row[1:3])
    await ledger.files.import_zip(OTHER, io.BytesIO(first))
    imported = {s.player.name for s in await ledger.lookback.standings(OTHER)}
    assert imported == set(names)
    assert await _zip_bytes(ledger, OTHER) == first


@pytest.mark.parametrize("name", ["=1+1", "'Tis", "''", "'", "-", "@x", "\tx", "plain"])
def test_a_text_cell_reads_as_it_was_written(name: str) -> None:
    """Written now, a text cell reads back as it was; written by an older export (without
    the apostrophe), too, unless it looked like one that this export guards."""
    assert _from_text(_as_text(name)) == name
    if not (name.startswith("'") and name[1:].startswith(FORMULA_STARTS)):
        assert _from_text(name) == name


async def test_one_night_exports_alone(ledger: Ledger) -> None:
    await _play(ledger)
    second = _files(await _zip_bytes(ledger, CHAT, 2))
    assert [r[0] for r in second["sessions.csv"]] == ["night", "1"]
    assert {r[0] for r in second["players.csv"][1:]} == {"小明", "bob", "carol", "dave"}
    with pytest.raises(LedgerError) as err:
        await ledger.files.export_zip(CHAT, 3)
    assert err.value.code == "night_out_of_range"
    await ledger.files.import_zip(OTHER, io.BytesIO(await _zip_bytes(ledger, CHAT, 2)))
    assert await _zip_bytes(ledger, OTHER) == await _zip_bytes(ledger, CHAT, 2)


async def test_import_refuses_a_chat_with_a_ledger(ledger: Ledger) -> None:
    await _play(ledger)
    data = await _zip_bytes(ledger, CHAT)
    await ledger.chats.player(OTHER, PlayerRef(name="zoe"))
    before = await _rows_in(ledger, OTHER)
    for call in (ledger.files.preview_import, ledger.files.import_zip):
        with pytest.raises(LedgerError) as err:
            await call(OTHER, io.BytesIO(data))
        assert err.value.code == "import_not_empty"
    assert await _rows_in(ledger, OTHER) == before


def _broken(files: dict[str, list[list[str]]]) -> list[tuple[str, bytes]]:
    def text(rows: list[list[str]]) -> str:
        buf = io.StringIO()
        csv.writer(buf).writerows(rows)
        return buf.getvalue()

    good = {n: text(r) for n, r in files.items()}
    cases = [("not a zip", b"PK\x03\x04 not really a zip"),
             ("missing file", _rezip({n: v for n, v in good.items() if n != "debts.csv"}))]

    def change(name: str, what: str, edit: Callable[[list[list[str]]], object]) -> None:
        rows = [list(r) for r in files[name]]
        edit(rows)
        cases.append((what, _rezip({**good, name: text(rows)})))

    change("players.csv", "bad header", lambda r: r[0].__setitem__(0, "id"))
    change("sessions.csv", "unknown player", lambda r: r[1].__setitem__(4, "mallory"))
    change("sessions.csv", "bad rules", lambda r: r[1].__setitem__(2, '{"preset": 1}'))
    change("hands.csv", "huge number", lambda r: r[1].__setitem__(1, "9" * 30))
    change("hands.csv", "bad json", lambda r: r[1].__setitem__(6, "{"))
    change("events.csv", "orphan event", lambda r: r.append(["9", "1", "0", "", "{}"]))
    change("entries.csv", "short row", lambda r: r[1].pop())
    change("entries.csv", "seat", lambda r: r[1].__setitem__(3, "小明"))
    # A player whose key is a night's status word, in an entry of a hand they did not play.
    players = [*files["players.csv"], ["ended", "ended", "", "", files["players.csv"][1][4]]]
    entries = [list(r) for r in files["entries.csv"]]
    entries[1][3] = "ended"
    cases.append(("status word", _rezip({**good, "players.csv": text(players),
                                         "entries.csv": text(entries)})))
    change("debts.csv", "negative", lambda r: r[1].__setitem__(3, "-5"))
    change("audit.csv", "action", lambda r: r[1].__setitem__(2, "drop"))
    cases.append(("not utf-8", _rezip({**good, "players.csv": "player\xff"}).replace(
        b"player\xc3\xbf", b"player\xff\xfe")))
    return cases


async def test_malformed_files_are_refused_and_nothing_written(ledger: Ledger) -> None:
    await _play(ledger)
    files = _files(await _zip_bytes(ledger, CHAT))
    for what, data in _broken(files):
        for call in (ledger.files.preview_import, ledger.files.import_zip):
            with pytest.raises(LedgerError) as err:
                await call(THIRD, io.BytesIO(data))
            assert err.value.code == "bad_import", what
            assert len(str(err.value)) < 200, what
        assert set((await _rows_in(ledger, THIRD)).values()) == {0}, what


def crowded(export: bytes, people: int, void_last: bool = False) -> bytes:
    """``export``, of a one-night ledger, made a night of ``people`` people: its four
    seats and newcomers, four at a time, playing copies of its first hand (a hand that
    keeps its own seats, as after /seat). ``void_last``: the last copy voided."""
    files = _files(export)

    def text(rows: list[list[str]]) -> str:
        buf = io.StringIO()
        csv.writer(buf).writerows(rows)
        return buf.getvalue()

    players, hands, events, entries = (list(files[n]) for n in (
        "players.csv", "hands.csv", "events.csv", "entries.csv"))
    first_hand, first_events = hands[1], [r for r in events[1:] if r[1] == "1"]
    deltas = json.loads(first_hand[6])["deltas"]
    newcomers = [f"guest{i}" for i in range(people - 4)]
    players += [[k, k, "", "", players[1][4]] for k in newcomers]
    for n, start in enumerate(range(0, len(newcomers), 4), start=2):
        four = (newcomers[start:start + 4] + newcomers)[:4]  # the last four may repeat
        hand = [*first_hand[:10], json.dumps(dict(zip("ESWN", four, strict=True)))]
        hand[1] = str(n)
        if void_last and start + 4 >= len(newcomers):
            hand[4] = "void"
        else:
            entries += [["1", str(n), "0", k, str(deltas[seat]), hand[7]]
                        for seat, k in zip("ESWN", four, strict=True)]
        hands.append(hand)
        events += [[r[0], str(n), *r[2:]] for r in first_events]
    return _rezip({**{n: text(r) for n, r in files.items()}, "players.csv": text(players),
                   "hands.csv": text(hands), "events.csv": text(events),
                   "entries.csv": text(entries)})


async def test_a_night_of_more_people_than_a_night_holds_is_refused(ledger: Ledger) -> None:
    await ledger.open_nights.open_night(CHAT, SEATED, preset="chengdu")
    await ledger.hands.record(CHAT, win("self_draw", "S", patterns=["清一色"]))
    await ledger.nights.end_night(CHAT)
    export = await _zip_bytes(ledger, CHAT)
    full = await ledger.files.preview_import(OTHER, io.BytesIO(crowded(export, MAX_PEOPLE)))
    assert (full.nights, full.players) == (1, MAX_PEOPLE)
    # One more, in the night's last hand: refused, naming the night and the limit.
    refused = crowded(export, MAX_PEOPLE + 1)
    for call in (ledger.files.preview_import, ledger.files.import_zip):
        with pytest.raises(LedgerError) as err:
            await call(OTHER, io.BytesIO(refused))
        assert err.value.code == "import_night_full"
        assert err.value.params == {"night": 1, "limit": MAX_PEOPLE}
    assert set((await _rows_in(ledger, OTHER)).values()) == {0}
    # A voided hand's players are not the night's (as at the table): it imports.
    done = await ledger.files.import_zip(OTHER, io.BytesIO(
        crowded(export, MAX_PEOPLE + 1, void_last=True)))
    assert (done.nights, done.players) == (1, MAX_PEOPLE + 1)
    await assert_books_balance(ledger, [CHAT, OTHER])
