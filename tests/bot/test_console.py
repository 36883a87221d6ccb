"""Console mode as a player uses it: the real bot, the simulated group, a terminal."""

from __future__ import annotations

import io
import json
import logging
import re
from pathlib import Path

import pytest

from bot.console.terminal import KEPT_MESSAGES, Console, state_path
from bot.ops.config import Settings, StorageSettings, TelegramSettings
from storage.ledger import Ledger


def settings(db: Path, language: str = "en") -> Settings:
    return Settings(storage=StorageSettings(url=f"sqlite+aiosqlite:///{db}"),
                    telegram=TelegramSettings(overall_max_rate=0, group_max_rate=0),
                    default_language=language)


async def run_console(db: Path, lines: list[str], *, quit: bool = True,
                      language: str = "en") -> list[str]:
    """One run of console mode; returns what the bot said after each line, in order.
    ``quit=False``: the input just ends (Ctrl-D, or a file piped in)."""
    out = io.StringIO()
    typed = [*lines, "quit"] if quit else lines
    await Console(settings(db, language), out).run(io.StringIO("\n".join(typed) + "\n"))
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
        night = await ledger.open_nights.current_night(-100123)
        assert night is not None
        # bob's and carol's wins stand; dave's was undone.
        assert sum(night.totals.values()) == 0
        assert night.totals["S"] > 0 and night.totals["W"] > 0, night.totals
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
                                  "/hu bob 自摸 清一色", "/end",
                                  "press 1",  # the hand is still being played: end it here
                                  "/export"])
    assert "bob" in said[1] and "[bot #" in said[1], said[1]
    assert "(no such button)" in said[2]
    saved = re.findall(r"saved to (\S+)\)", said[5] + said[6])
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


def bot_ids(chunks: list[str]) -> list[int]:
    return [int(n) for chunk in chunks for n in re.findall(r"\[bot #(\d+)\]", chunk)]


async def test_buttons_of_an_earlier_run_can_be_pressed(tmp_path: Path) -> None:
    db = tmp_path / "tally.sqlite3"
    first = await run_console(db, ["/new changsha @alice @bob @carol @dave",
                                   "/as bob", "/hu bob 自摸 鸟2",
                                   "/as carol", "/hu bob 自摸 鸟2"])
    question = re.search(r"\[bot #(\d+)\] Hand 1 just ended with this win", first[4])
    assert question is not None and "[2] A new hand" in first[4], first[4]
    # The same-hand question, after a restart: the last message with buttons.
    second = await run_console(db, ["/as dave", "press 2"])
    assert "Hand 2 recorded: bob self-draws" in second[1], second[1]
    # Answered, it has no buttons left; "press 1" is now hand 2's Undo.
    again = await run_console(db, ["/as dave", f"press {question.group(1)} 1", "press 1"])
    assert "(no such button)" in again[1], again[1]
    assert "Only the player who reported it, or an admin, can undo it." in again[2], again
    # The scoreboard's buttons too (message #3: "bob won…").
    board = await run_console(db, ["press 3 2"])
    assert "How did bob win?" in board[0], board[0]
    ledger = await Ledger.open(settings(db).storage.url)
    try:
        night = await ledger.open_nights.current_night(-100123)
        assert night is not None and night.hands == 2
    finally:
        await ledger.close()
    # Only the last messages with buttons are kept.
    kept = json.loads(state_path(str(settings(db).storage.url)).read_text())["messages"]
    assert 0 < len(kept) <= KEPT_MESSAGES and all(m["reply_markup"] for m in kept)


async def test_the_ids_are_saved_however_the_input_ends(tmp_path: Path) -> None:
    db = tmp_path / "tally.sqlite3"
    first = await run_console(db, ["/new chengdu @alice @bob @carol @dave"], quit=False)
    state = json.loads(state_path(str(settings(db).storage.url)).read_text())
    assert state["next_message"] > max(bot_ids(first)), (state, first)
    second = await run_console(db, ["/table"], quit=False)
    assert min(bot_ids(second)) > max(bot_ids(first)), (first, second)


async def test_a_line_taken_for_one_already_handled_is_said(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    db = tmp_path / "tally.sqlite3"
    await run_console(db, ["/new chengdu @alice @bob @carol @dave", "/table"])
    path = state_path(str(settings(db).storage.url))
    state = json.loads(path.read_text())
    path.write_text(json.dumps({**state, "next_update": 1, "next_message": 1}))  # stale
    with caplog.at_level(logging.WARNING, logger="bot.delivery.intake"):
        said = await run_console(db, ["/table", "/table"])
    assert "(the bot took this for a message it had already handled" in said[0], said[0]
    assert "[bot #" not in said[0]
    assert "[bot #" in said[1], said[1]  # the ids moved on
    refused = [r for r in caplog.records if "refused by the inbox" in r.getMessage()]
    assert refused and refused[0].levelno == logging.WARNING
    assert "m:-100123:1" in refused[0].getMessage()
    # In a Chinese chat, in Chinese.
    zh = tmp_path / "zh" / "tally.sqlite3"
    await run_console(zh, ["/table"], language="zh-Hans")
    path = state_path(str(settings(zh).storage.url))
    path.write_text(json.dumps({**json.loads(path.read_text()), "next_update": 1,
                                "next_message": 1}))
    said = await run_console(zh, ["/table"], language="zh-Hans")
    assert "（机器人把这条当成了已经处理过的消息" in said[0], said[0]


async def test_the_console_s_labels_are_in_the_chat_s_language(tmp_path: Path) -> None:
    night = ["/new chengdu @alice @bob @carol @dave", "/hu bob 自摸 清一色", "/end",
             "press 1", "/settle", "/as erin", "press 1"]
    said = await run_console(tmp_path / "en" / "tally.sqlite3", ["/lang en", *night],
                             language="zh-Hans")
    text = "".join(said)
    assert "(photo saved to " in text and "(alert) " in said[7], said[7]
    assert "[bot #" in said[1] and "(you are now erin)" in said[6]
    assert not re.search("提示框|已保存到|机器人 #|你现在是", text), text
    said = await run_console(tmp_path / "zh" / "tally.sqlite3", night, language="zh-Hans")
    text = "".join(said)
    assert "（图片已保存到 " in text and "（提示框）" in said[6], said[6]
    assert "[机器人 #" in said[0] and "（你现在是 erin）" in said[5]


async def test_the_console_shows_what_the_group_sees(tmp_path: Path) -> None:
    """A seat taken shows at once; the pinned scoreboard is one word away; after a
    restart the banner suggests what fits the moment (a night going: the next win)."""
    db = tmp_path / "tally.sqlite3"
    out = io.StringIO()
    lines = ["/new chengdu", "press 1", "/as bob", "press 2", "board"]
    await Console(settings(db), out).run(io.StringIO("\n".join([*lines, "quit"]) + "\n"))
    said = out.getvalue()
    banner, chunks = said.split("alice> ", 1)
    assert "/new chengdu @alice @bob @carol @dave" in banner
    took = re.split(r"^\w+> ", chunks, flags=re.M)
    assert "[✎ edited #" in took[1] and "East: alice" in took[1], took[1]  # press 1
    assert "South: bob" in took[3], took[3]  # press 2: shown at once, not when full
    assert "(no scoreboard yet: /new opens a table)" in took[4], took[4]

    await run_console(db, ["/as carol", "press 3", "/as dave", "press 4"])  # table full
    out = io.StringIO()
    await Console(settings(db), out).run(io.StringIO("board\n/hu bob 自摸\nboard\nquit\n"))
    said = out.getvalue()
    banner, rest = said.split("alice> ", 1)
    assert "A table is going: report the next win" in banner, banner
    assert "/new chengdu" not in banner, banner
    first, _, after = re.split(r"^\w+> ", rest, flags=re.M)[:3]
    for board in (first, after):
        assert "📋 Scoreboard" in board and "Table: Chengdu blood battle" in board, board
        assert "(the bot edits the pinned scoreboard at most every" in board, board
