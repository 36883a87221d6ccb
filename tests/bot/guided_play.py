"""Play nights entered by buttons: the guided report's taps, counted, beside the same night
typed. Used by ``tests/handlers/test_guided.py``; the transcripts are in
``transcripts/buttons/``.

Lines (besides those of :func:`tests.bot.harness.play_transcript`'s format that apply):
``@bob: text`` someone speaks (in both runs); ``@bob tap LABEL`` presses a button of the
newest message with buttons (by its exact text, else the first starting with LABEL; ``bob ←
carol`` is the ``← carol`` button in bob's row); ``@bob board LABEL`` presses a button on
the scoreboard; ``~ /hu ...`` is the typed report of the hand just tapped, said by the
same player; ``taps common 4`` checks the taps of the hand just recorded (from /hu or the
scoreboard to Record) and names the measure; ``< text`` / ``= E 1 S ...`` as in the
typed transcripts."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.console.fake_api import SentMessage
from tests.bot.harness import Chat, plain

_SAY = re.compile(r"^@(\w+):\s*(.+)$")
_TAP = re.compile(r"^@(\w+) (tap|board) (.+)$")
GUIDED = ("/hu", "/kong", "/draw", "/bite")  # said alone, they open buttons


@dataclass
class Played:
    checks: int = 0
    taps: dict[str, int] = field(default_factory=dict)  # measure -> taps
    totals: list[dict[str, int]] = field(default_factory=list)


def find_button(msg: SentMessage, label: str) -> dict[str, Any]:
    rows = (msg.reply_markup or {}).get("inline_keyboard", [])
    flat = [b for row in rows for b in row]
    if " ← " in label:
        winner, source = label.split(" ← ", 1)
        for row in rows:
            if row and row[0]["text"].startswith(winner + " ") and len(row) > 1:
                return next(b for b in row[1:] if b["text"] == "← " + source)
    if " | " in label:  # a button of a player's rows: the row named for them, and below
        who, wanted = label.split(" | ", 1)
        mine: list[dict[str, Any]] = []
        for row in rows:
            first = row[0]["text"] if row else ""
            if first.startswith((who + ":", who + "：")):
                mine = list(row)
            elif mine and (":" in first or "：" in first):
                break  # the next player's rows
            elif mine:
                mine += row
        return next(b for b in mine if b["text"].split(":")[-1].split("：")[-1].strip()
                    .removesuffix(" ✓") == wanted)
    hit: dict[str, Any] | None = next((b for b in flat if b["text"] == label), None) or next(
        (b for b in flat if b["text"].startswith(label)), None) or next(
        (b for b in flat if b["text"].endswith(" " + label)), None)  # one suit 清一色
    assert hit is not None, (label, [b["text"] for b in flat])
    return hit


async def play(t: Chat, path: Path, *, typed: bool, fill: bool = False) -> Played:
    """Play the night by buttons (``typed=False``) or by its typed reports."""
    out = Played()
    replies: list[SentMessage] = []
    taps = 0
    last_tapper = "alice"
    for lineno, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.strip()
        where = f"{path.name}:{lineno}"
        if not line or line.startswith("#"):
            continue
        if m := _TAP.match(line):
            last_tapper = m.group(1)
            if typed:
                continue
            if m.group(2) == "board":
                night = await t.ledger.open_nights.current_night(t.chat_id)
                msg = t.api.messages[(t.chat_id, night.board_message_id)]
                taps = 0
            else:
                msg = t.last_with_buttons()
            button = find_button(msg, m.group(3))
            assert len(button["callback_data"].encode()) <= 64
            replies = await t.press(m.group(1), msg, button["callback_data"])
            taps += 1
            assert not [a for a in t.api.answered.values() if a.get("show_alert")], where
        elif line.startswith("~"):
            if typed:
                replies = await t.say(last_tapper, line[1:].strip())
        elif m := _SAY.match(line):
            if typed and m.group(2).strip() in GUIDED:
                continue
            replies = await t.say(m.group(1), m.group(2))
            if m.group(2).strip() in GUIDED:
                taps = 0
        elif line.startswith("taps "):
            _, measure, count = line.split()
            if not typed:
                assert taps == int(count) or fill, (where, taps)
                out.taps[measure] = taps
        elif line.startswith("<"):
            wanted = line[1:].strip()
            texts = [plain(r.text) for r in replies]
            assert any(wanted in x for x in texts), f"{where}: {wanted!r} not in {texts}"
            out.checks += 1
        elif line.startswith("="):
            words = line[1:].split()
            expected = {words[i]: int(words[i + 1]) for i in range(0, len(words), 2)}
            night = await t.ledger.open_nights.current_night(t.chat_id)
            assert night is not None, where
            assert night.totals == expected or fill, (
                where, "typed" if typed else "buttons", night.totals)
            out.totals.append(dict(night.totals))
            out.checks += 1
        else:
            raise AssertionError(f"{where}: cannot read {line!r}")
    return out
