"""Console mode as a player uses it: the real bot, the simulated group, a terminal."""

from __future__ import annotations

import io
import re
from pathlib import Path

from bot.console.terminal import Console, state_path
from bot.ops.config import Settings, StorageSettings, TelegramSettings
from storage.ledger import Ledger


def settings(db: Path) -> Settings:
    return Settings(storage=StorageSettings(url=f"sqlite+aiosqlite:///{db}"),
                    telegram=TelegramSettings(overall_max_rate=0, group_max_rate=0),
                    default_language="en")


async def run_console(db: Path, lines: list[str]) -> list[str]:
    """One run of console mode; returns what the bot said after each line, in order."""
    out = io.StringIO()
    await Console(settings(db), out).run(io.StringIO("\n".join([*lines, "quit"]) + "\n"))
    # Each prompt ("name> ") is followed by what the bot said to that line.
    chunks = re.split(r"^\w+> ", out.getvalue(), flags=re.M)[1:]
    return chunks[: len(lines)]


async def test_a_restart_on_the_same_database_answers_every_line(tmp_path: Path) -> None:
    db = tmp_path / "tally.sqlite3"
    first = await run_console(db, ["/new chengdu @alice @bob @carol @dave",
                                   "/hu bob 自摸 清一色"])
    assert all("[bot #" in chunk for chunk in first), first
    assert state_path(str(settings(db).storage.url)).is_file()

    # Second run: message ids must not start over, or the inbox takes these lines for
    # the first run's and drops them without a word.
    lines = ["/hu carol 自摸 七对", "/as dave", "/hu dave 自摸", "/table", "/undo",
             "/as frank"]
    second = await run_console(db, lines)
    for line, chunk in zip(lines, second, strict=True):
        if line.startswith("/as "):
            continue
        assert "[bot #" in chunk, (line, chunk)
    ledger = await Ledger.open(settings(db).storage.url)
    try:
        session = await ledger.current_session(-100123)
        assert session is not None
        # bob's and carol's wins stand; dave's was undone.
        assert sum(session.totals.values()) == 0
        assert session.totals["S"] > 0 and session.totals["W"] > 0, session.totals
    finally:
        await ledger.close()


async def test_speakers_keep_their_user_ids_across_runs(tmp_path: Path) -> None:
    db = tmp_path / "tally.sqlite3"
    await run_console(db, ["/as erin", "/as frank"])
    console = Console(settings(db), io.StringIO())
    assert console.user("erin").id != console.user("frank").id
    assert console.user("frank").id == Console(settings(db), io.StringIO()).user("frank").id
    assert len({console.user(n).id for n in ("alice", "bob", "carol", "dave", "erin",
                                             "frank")}) == 6


async def test_a_database_kept_from_before_the_state_file_still_answers(
        tmp_path: Path) -> None:
    db = tmp_path / "tally.sqlite3"
    await run_console(db, ["/new chengdu @alice @bob @carol @dave", "/hu bob 自摸 清一色"])
    state_path(str(settings(db).storage.url)).unlink()  # as a run of an older version left it
    second = await run_console(db, ["/hu carol 自摸 七对", "/table"])
    assert all("[bot #" in chunk for chunk in second), second


async def test_pictures_and_files_are_saved_and_any_message_s_buttons_can_be_pressed(
        tmp_path: Path) -> None:
    db = tmp_path / "tally.sqlite3"
    said = await run_console(db, ["/new chengdu @alice @bob @carol @dave",
                                  "press 3 2",  # the scoreboard's "bob won…"
                                  "press 99 1",  # no message #99
                                  "/hu bob 自摸 清一色", "/end", "/export"])
    assert "bob" in said[1] and "[bot #" in said[1], said[1]
    assert "(no such button)" in said[2]
    saved = re.findall(r"saved to (\S+)\)", said[4] + said[5])
    assert any(p.endswith(".png") for p in saved) and saved[-1].endswith(".zip"), saved
    assert all(Path(p).is_file() and Path(p).is_relative_to(tmp_path) for p in saved)

    # /import PATH in console mode: the export goes into a chat with no ledger.
    fresh = tmp_path / "other" / "tally.sqlite3"
    again = await run_console(fresh, ["/import /no/such/file.zip", f"/import {saved[-1]}",
                                      "press 1", "/standings"])
    assert "(no file at /no/such/file.zip)" in again[0]
    assert "[1]" in again[1], again[1]  # the confirm button
    assert "bob" in again[3] and "+24" in again[3], again[3]


async def test_a_button_s_alert_is_shown(tmp_path: Path) -> None:
    said = await run_console(tmp_path / "tally.sqlite3", [
        "/new chengdu @alice @bob @carol @dave", "/hu bob 自摸 清一色", "/end", "/settle",
        "/as erin", "press 1"])
    assert "(alert) " in said[5], said[5]
