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
