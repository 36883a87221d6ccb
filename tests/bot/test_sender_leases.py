"""The sender of one worker among several, against the real outbox with a fake clock and a
fake Bot API: it sends only within a lease it holds (one taken over while it was paused
is dropped, not sent), and an answer written behind another worker's waits for them."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.delivery import sender as sender_module
from bot.delivery.sender import Sender
from storage.ledger import Ledger
from storage.queues.messages import Outgoing
from tests.bot.fault_checks import until
from tests.storage.conftest import BACKENDS, ledger_on
from tests.storage.helpers import Clock, pipeline_clock

CHAT = -5151
LEASE = 30.0


class Bot:
    """Records what was sent."""

    def __init__(self) -> None:
        self.sent: list[str] = []

    async def send_message(self, **kw: Any) -> None:
        self.sent.append(kw["text"])


@pytest.fixture(params=BACKENDS)
async def ledger(request: pytest.FixtureRequest, tmp_path: Any) -> AsyncIterator[Ledger]:
    async with ledger_on(request.param, tmp_path) as led:
        yield led


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    return pipeline_clock(monkeypatch, sender_module)


def say(text: str) -> Outgoing:
    return Outgoing(chat_id=CHAT, method="sendMessage",
                    params={"chat_id": CHAT, "text": text})


def sender(ledger: Ledger, worker: str, bot: Bot) -> Sender:
    return Sender(bot, ledger, worker=worker, lease=LEASE, sweep_interval=3600)  # type: ignore[arg-type]


async def test_a_sender_paused_past_its_lease_sends_nothing_taken_over(
        ledger: Ledger, clock: Clock) -> None:
    written = await ledger.inbox.finish(None, [say("1"), say("2")], "a", lease=LEASE)
    clock.advance(LEASE + 1)  # a was paused before it sent them; b takes them over
    taken = await ledger.outbox.claim_messages("b", LEASE)
    assert [r.id for r in taken] == [r.id for r in written]
    late, fresh = Bot(), Bot()
    a, b = sender(ledger, "a", late), sender(ledger, "b", fresh)
    await a.start()
    await b.start()
    try:
        a.enqueue(written)  # a wakes with them still in hand
        await a.idle()
        assert late.sent == []  # it renewed first, and found them gone
        b.enqueue(taken)
        await b.idle()
        assert fresh.sent == ["1", "2"]
    finally:
        await a.stop()
        await b.stop()
    assert await ledger.queues.backlog() == (0, 0)


async def test_an_answer_behind_another_workers_waits_for_them(
        ledger: Ledger, clock: Clock, monkeypatch: pytest.MonkeyPatch) -> None:
    [older] = await ledger.inbox.finish(None, [say("older")], "a", lease=LEASE)
    [newer] = await ledger.inbox.finish(None, [say("newer")], "b", lease=LEASE)
    assert newer.behind
    asked = {"n": 0}
    real = ledger.outbox.ahead_of

    async def counted(row: Any, worker: str) -> bool:
        asked["n"] += 1
        return await real(row, worker)

    monkeypatch.setattr(ledger.outbox, "ahead_of", counted)
    bot = Bot()
    b = sender(ledger, "b", bot)
    await b.start()
    try:
        b.enqueue([newer])
        await until(lambda: asked["n"] >= 2, "b looked twice")
        assert bot.sent == []  # a's older answer is not sent yet
        await ledger.outbox.settle_messages(sent=[older.id])  # a sent it
        await b.idle()
        assert bot.sent == ["newer"]
    finally:
        await b.stop()
    assert await ledger.queues.backlog() == (0, 0)


async def test_older_answers_taken_over_while_the_head_waits_go_first(
        ledger: Ledger, clock: Clock, monkeypatch: pytest.MonkeyPatch) -> None:
    """b's answer waits behind a's older one; while b asks whether anything older is held
    elsewhere, its sweep takes a's over (a stopped renewing) and queues it first. Nothing
    is held elsewhere any more, and the older answer still goes first."""
    await ledger.inbox.finish(None, [say("older")], "a", lease=LEASE)
    [newer] = await ledger.inbox.finish(None, [say("newer")], "b", lease=LEASE)
    bot = Bot()
    b = sender(ledger, "b", bot)
    real = ledger.outbox.ahead_of

    async def taken_over_meanwhile(row: Any, worker: str) -> bool:
        monkeypatch.setattr(ledger.outbox, "ahead_of", real)
        clock.advance(LEASE + 1)
        await b.renew()  # b's own lease stays good
        b.enqueue(await ledger.outbox.claim_messages("b", LEASE))  # the sweep: a's row
        return await real(row, worker)

    monkeypatch.setattr(ledger.outbox, "ahead_of", taken_over_meanwhile)
    await b.start()
    try:
        b.enqueue([newer])
        await b.idle()
        assert bot.sent == ["older", "newer"]
    finally:
        await b.stop()
    assert await ledger.queues.backlog() == (0, 0)


async def test_a_lease_renewed_by_the_heartbeat_is_not_taken_over(
        ledger: Ledger, clock: Clock) -> None:
    [row] = await ledger.inbox.finish(None, [say("held")], "a", lease=LEASE)
    a = sender(ledger, "a", Bot())
    for _ in range(4):  # a waits on a long retry_after; its heartbeat renews the lease
        clock.advance(LEASE / 2)
        await a.renew()
    assert await ledger.outbox.claim_messages("b", LEASE) == []
    clock.advance(LEASE + 1)  # the heartbeat stopped (a paused)
    assert [r.id for r in await ledger.outbox.claim_messages("b", LEASE)] == [row.id]


async def test_a_head_whose_worker_died_is_sent_first_by_a_live_one(
        ledger: Ledger, clock: Clock) -> None:
    """The chat's oldest answer is held by a worker that died; two live workers hold the
    answers written behind it, and each waits for what is ahead of its own. Once the dead
    worker's lease ran out, a live worker's sweep takes the head, and the chat's answers
    go out, in order (before, each sweep left the chat to the other live worker)."""
    await ledger.inbox.finish(None, [say("1")], "dead", lease=LEASE)
    [second] = await ledger.inbox.finish(None, [say("2")], "b", lease=LEASE)
    [third] = await ledger.inbox.finish(None, [say("3")], "c", lease=LEASE)
    bot = Bot()  # one Telegram, so the order across both workers shows
    b = Sender(bot, ledger, worker="b", lease=LEASE, sweep_interval=0.01)  # type: ignore[arg-type]
    c = Sender(bot, ledger, worker="c", lease=LEASE, sweep_interval=0.01)  # type: ignore[arg-type]
    await b.start()
    await c.start()
    try:
        b.enqueue([second])
        c.enqueue([third])
        clock.advance(LEASE * 0.8)
        await b.renew()  # their heartbeats; the dead worker's lease runs out
        await c.renew()
        assert bot.sent == []
        clock.advance(LEASE * 0.3)
        await until(lambda: len(bot.sent) == 3, "the chat's answers sent", 10)
        assert bot.sent == ["1", "2", "3"]
    finally:
        await b.stop()
        await c.stop()
    assert await ledger.queues.backlog() == (0, 0)


async def test_a_worker_that_lost_older_answers_sends_its_newer_after_them(
        ledger: Ledger, clock: Clock, monkeypatch: pytest.MonkeyPatch) -> None:
    """a held two answers of the chat and paused: the older one's lease ran out first (the
    newer was written later), and b took it over. a wakes and renews: the newer one is
    still its own, but it waits until b's older one is gone."""
    [older] = await ledger.inbox.finish(None, [say("older")], "a", lease=LEASE)
    clock.advance(LEASE / 2)
    [newer] = await ledger.inbox.finish(None, [say("newer")], "a", lease=LEASE)
    assert not newer.behind  # a held everything ahead of it when it wrote it
    clock.advance(LEASE * 0.6)
    assert [r.id for r in await ledger.outbox.claim_messages("b", LEASE)] == [older.id]
    asked = {"n": 0}
    real = ledger.outbox.ahead_of

    async def counted(row: Any, worker: str) -> bool:
        asked["n"] += 1
        return await real(row, worker)

    monkeypatch.setattr(ledger.outbox, "ahead_of", counted)
    bot = Bot()
    a = sender(ledger, "a", bot)
    await a.start()
    try:
        a.enqueue([older, newer])  # a wakes with both in hand
        await until(lambda: asked["n"] >= 2 or bool(bot.sent), "a looked twice", 10)
        assert bot.sent == []  # not "newer" before b's "older"
        await ledger.outbox.settle_messages(sent=[older.id])  # b sent it
        await a.idle()
        assert bot.sent == ["newer"]
    finally:
        await a.stop()
    assert await ledger.queues.backlog() == (0, 0)


class BoardBot(Bot):
    """Records the scoreboard edits."""

    def __init__(self) -> None:
        super().__init__()
        self.edited: list[tuple[int, str]] = []

    async def edit_message_text(self, text: str, chat_id: int, message_id: int,
                                **kw: Any) -> None:
        self.edited.append((message_id, text))


async def test_a_board_edits_the_message_its_table_read_named(
        ledger: Ledger, clock: Clock, monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker that has not shown this table's board yet edits the message the report's
    transaction read, without asking the database which it is."""
    board = Outgoing(chat_id=CHAT, method="board", collapse=f"board:{CHAT}",
                     params={"night_id": 7, "text": "E +8", "reply_markup": None,
                             "message_id": 4242})
    [row] = await ledger.inbox.finish(None, [board], "b", lease=LEASE)

    async def never(*args: Any) -> None:
        raise AssertionError("the board's message was asked of the database")

    monkeypatch.setattr(ledger.open_nights, "board_message", never)
    bot = BoardBot()
    b = sender(ledger, "b", bot)
    await b.start()
    try:
        b.enqueue([row])
        await b.idle()
        assert bot.edited == [(4242, "E +8")]
    finally:
        await b.stop()
    assert await ledger.queues.backlog() == (0, 0)
