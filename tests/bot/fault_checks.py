"""What every fault test checks once the fault passed, and the load it puts on the bot.

Reports are self-drawn wins at Changsha tables (one hand each), several chats at once.
Afterwards: every report recorded once, in its chat's order, and answered; no answer twice
with different words (or, ``exactly_once``, no answer twice at all); the answers of a
chat in the order of its reports; no "nothing was recorded"; the inbox and the outbox
empty; no ERROR in the bot's log."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path

from bot.console.fake_api import FakeBotAPI, FakeUser
from storage.ledger import Ledger

SEATS = ["alice", "bob", "carol", "dave"]
NEW = "/new changsha @alice @bob @carol @dave"


def players() -> dict[str, FakeUser]:
    return {n: FakeUser(300 + i, n, n, "en") for i, n in enumerate(SEATS)}


async def until(check: Callable[[], bool], what: str, seconds: float = 40.0) -> None:
    """Wait for ``check`` (a guard against hanging, not a timing assertion)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while not check():
        if loop.time() > deadline:
            raise AssertionError(f"never happened within {seconds} s: {what}")
        await asyncio.sleep(0.02)


class Load:
    """Reports to several chats, remembered in the order sent."""

    def __init__(self, api: FakeBotAPI, chats: list[int]) -> None:
        self.api, self.chats = api, chats
        self.users = players()
        self.sent: dict[int, list[tuple[str, int]]] = {c: [] for c in chats}
        for chat in chats:
            api.chat(chat)

    def open_tables(self) -> None:
        for chat in self.chats:
            self.api.say(self.users["alice"], chat, NEW)

    def tables_open(self) -> bool:
        boards = {m.chat_id for m in self.api.outbox if "Scoreboard" in m.text}
        return all(chat in boards for chat in self.chats)

    def report(self, chat: int) -> None:
        winner = SEATS[len(self.sent[chat]) % 4 - 1]  # rotates, so order shows
        self.api.say(self.users[winner], chat, f"/hu {winner} 自摸")
        self.sent[chat].append((winner, self.api.updates[-1]["message"]["message_id"]))

    async def run(self, rounds: int, pause: float) -> None:
        for _ in range(rounds):
            for chat in self.chats:
                self.report(chat)
            await asyncio.sleep(pause)

    def answered(self) -> bool:
        replied = {m.reply_to for m in self.api.outbox}
        return all(mid in replied for sent in self.sent.values() for _w, mid in sent)

    def unanswered(self) -> list[int]:
        replied = {m.reply_to for m in self.api.outbox}
        return [mid for sent in self.sent.values() for _w, mid in sent if mid not in replied]


async def drained(url: str, seconds: float = 40.0) -> None:
    watcher = await Ledger.open(url, run_migrations=False)
    try:
        for _ in range(int(seconds / 0.05)):
            if await watcher.queues.backlog() == (0, 0):
                return
            await asyncio.sleep(0.05)
        raise AssertionError(f"inbox and outbox not empty: {await watcher.queues.backlog()}")
    finally:
        await watcher.close()


async def check(url: str, load: Load, *, exactly_once: bool = False) -> None:
    api = load.api
    ledger = await Ledger.open(url, run_migrations=False)
    try:
        assert await ledger.queues.backlog() == (0, 0)
        for chat, sent in load.sent.items():
            night = await ledger.open_nights.current_night(chat)
            assert night is not None
            recorded = []
            for number in range(1, night.hands + 1):
                report, _result = await ledger.nights.hand(chat, number)
                [event] = report["events"]
                recorded.append(night.seats[event["winners"][0]["seat"]].name)
            # once each, in order
            assert recorded == [w for w, _ in sent], (chat, recorded, sent, [
                [m.text[:150] for m in api.outbox if m.reply_to == mid] for _w, mid in sent])
    finally:
        await ledger.close()
    for chat, sent in load.sent.items():
        order = [m.reply_to for m in api.outbox if m.chat_id == chat and m.reply_to]
        mids = [mid for _w, mid in sent]
        firsts = list(dict.fromkeys(r for r in order if r in set(mids)))
        assert firsts == mids, (chat, firsts, mids)  # answered, in the chat's order
        for mid in mids:
            texts = [m.text for m in api.outbox if m.reply_to == mid]
            assert len(set(texts)) == 1, texts  # never twice with different words
            if exactly_once:
                assert len(texts) == 1, texts
    assert not any("nothing was recorded" in m.text for m in api.outbox)


def errors_logged(log: Path) -> list[str]:
    """ERROR entries of a JSON log file (and any traceback printed outside the log)."""
    return errors_in(log.read_text())


def errors_in(text: str) -> list[str]:
    """ERROR entries of JSON log lines (and any traceback printed outside the log)."""
    out = []
    for line in text.splitlines():
        if line.startswith("{"):
            entry = json.loads(line)
            if entry.get("level") in ("ERROR", "CRITICAL"):
                out.append(f"{entry.get('logger')}: {entry.get('message')}")
        elif "Traceback" in line:
            out.append(line)
    return out
