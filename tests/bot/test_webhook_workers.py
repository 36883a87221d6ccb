"""Two webhook workers on one PostgreSQL, fed as Telegram feeds them: several chats'
reports posted over parallel connections (a chat's next one after the 2xx for its last),
so one chat's reports land on both workers while the one before is still being handled.

Each chat's hands must come out as when handled one by one (the same script through the
in-process bot, polling, on SQLite): the same hands, dealers, deltas and totals; every
report answered, and answered once (at least once, with one content, when a worker is
killed with SIGKILL mid-way: the other finishes its work and the supervisor starts a new
one). Both on one bot, with a lease of 3 s, each scenario on chats of its own. Needs
TALLY_TEST_POSTGRES_URL; the bot's tables live in a database of the test's own, made
beside that one and dropped after. Every wait is bounded.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.console.fake_api import FakeUser, serve_http
from storage.ledger import Ledger
from tests.bot.harness import table
from tests.bot.test_workers import (
    SETTINGS,
    count_calls,
    stopped_cleanly,
    two_workers_on_one_port,
)
from tests.databases import postgres_database
from tests.fake_webhook import BotProcess, WebhookBotAPI, WebhookSender

PG_URL = os.environ.get("TALLY_TEST_POSTGRES_URL")
pytestmark = [
    pytest.mark.skipif(not PG_URL, reason="needs TALLY_TEST_POSTGRES_URL"),
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc"),
]

PLAYERS = ["alice", "bob", "carol", "dave"]
CHATS = [-100500, -100501, -100502]  # the first is the harness's own group
KILLED_CHATS = [-100510, -100511, -100512]  # the same scripts, a worker killed meanwhile
NEW = "/new chengdu @alice @bob @carol @dave"
PATTERNS = ["清一色", "七对", "对对胡"]
CYCLES = 4  # hands per chat; three self-drawn wins end a blood-battle hand


def script(chat_index: int) -> list[tuple[str, str]]:
    """(who, text): hands whose winners and patterns rotate, so that any two reports
    handled out of order give other hands, dealers or totals."""
    lines = []
    for cycle in range(CYCLES):
        turn = (cycle + chat_index) % 4
        winners = (PLAYERS[turn:] + PLAYERS[:turn])[:3]
        for i, who in enumerate(winners):
            lines.append((who, f"/hu {who} 自摸 {PATTERNS[(i + cycle) % 3]}"))
    return lines


def users() -> dict[str, FakeUser]:
    # As the harness makes them: ids by first appearance, alice speaking first.
    return {name: FakeUser(100 + i, name, name, "en") for i, name in enumerate(PLAYERS)}


_EXPECTED: dict[int, Any] = {}  # what expected() found, for the next test in this process


async def expected(tmp_path: Path) -> dict[int, Any]:
    """Each chat's script handled one by one by the in-process bot (once per process: the
    scripts are fixed, and so is what they give)."""
    if _EXPECTED:
        return _EXPECTED
    out: dict[int, Any] = {}
    async with table(tmp_path) as t:
        for name in PLAYERS:
            t.user(name)
        for index, chat in enumerate(CHATS):
            t.api.chat(chat, type="group")
            await t.say("alice", NEW, chat_id=chat)
            for who, text in script(index):
                await t.say(who, text, chat_id=chat)
            out[chat] = await state(t.ledger, chat)
    _EXPECTED.update(out)
    return out


async def state(ledger: Ledger, chat: int) -> Any:
    page = await ledger.nights.history(chat, page=1, page_size=100)
    night = await ledger.open_nights.current_night(chat)
    hands = sorted((h.number, h.dealer, h.status, h.deltas, h.events) for h in page.items)
    return hands, night.totals if night else None


async def run(tmp_path: Path, subtests: pytest.Subtests) -> None:
    # A database of its own (so that test runs in parallel do not meet), dropped after.
    async with postgres_database("workers", migrated=False) as url:
        await run_on(url, tmp_path, subtests)


async def run_on(url: str, tmp_path: Path, subtests: pytest.Subtests) -> None:
    """One bot of two workers for both scenarios, each on chats of its own: first every
    report answered once, in order, both workers taking some; then the same scripts
    while a worker is killed mid-way."""
    want = await expected(tmp_path / "one_by_one")
    api = WebhookBotAPI()
    for chat in CHATS + KILLED_CHATS:
        api.chat(chat, type="group")
    calls = count_calls(api)
    fake = await serve_http(api)
    temp = tmp_path / "tmp"
    temp.mkdir()
    bot = BotProcess(f"http://127.0.0.1:{fake.sockets[0].getsockname()[1]}/bot", tmp_path, {
        **SETTINGS,  # JSON logs, max_connections (tests/bot/test_workers.py checks them)
        "TMPDIR": str(temp),
        "TALLY_TELEGRAM__WORKERS": "2",
        "TALLY_TELEGRAM__OVERALL_MAX_RATE": "0",
        "TALLY_TELEGRAM__GROUP_MAX_RATE": "0",
        "TALLY_TELEGRAM__BOARD_INTERVAL": "0",
        "TALLY_DEFAULT_LANGUAGE": "en",
        "TALLY_STORAGE__URL": url,
        # What the killed worker held waits out its lease before the other takes it
        # over: a short one keeps the test short (it is renewed every second). As in
        # tests/bot/test_at_once_stalls.py (2 s), a worker alive keeps its rows under load.
        "TALLY_DELIVERY__LEASE_SECONDS": "3",
    })
    victims: list[int] = []
    try:
        async with bot, WebhookSender(api, bot.webhook, bot.secret, max_connections=8,
                                      retry_delay=0.05, keepalive=False) as sender:
            # /healthz answers once one worker serves; wait for both to share the socket
            await until(lambda: bot.log.read_text().count("Application startup complete")
                        >= 2, 60)
            with subtests.test("two workers answer on one port, metrics sum over both"):
                await two_workers_on_one_port(api, bot)
            with subtests.test("one chat across two workers is handled in order"):
                await scenario(api, bot, sender, url, temp, want, CHATS, None, victims)
            with subtests.test("a worker killed mid-report loses nothing"):
                await scenario(api, bot, sender, url, temp, want, KILLED_CHATS,
                               len(CHATS) * 3, victims)
    finally:
        fake.close()
        await fake.wait_closed()
    log = bot.log.read_text()
    for victim in victims:
        assert f"Child process [{victim}] died" in log, log
    # Exit 0, no traceback, JSON lines, one "storage ready" per worker started (the
    # killed one's replacement too), the menus set once, the metrics directory gone.
    stopped_cleanly(bot, calls, temp, workers=2 + len(victims))


async def scenario(api: WebhookBotAPI, bot: BotProcess, sender: WebhookSender, url: str,
                   temp: Path, want: dict[int, Any], chats: list[int],
                   kill_after: int | None, victims: list[int]) -> None:
    """Each chat's script, interleaved, on ``chats`` (each standing for ``CHATS``'s chat
    of its index); ``kill_after``: a worker is killed once that many reports went."""
    who = users()
    reports: list[tuple[int, int]] = []  # (chat, message id) of every report
    delivered = len(sender.delivered)
    news = [api.say_message(who["alice"], chat, NEW) for chat in chats]
    await sender.drained(timeout=120)
    await until(lambda: all(api.replies.get(n) for n in news), 120)
    for step in range(3 * CYCLES):  # interleaved: every chat's reports at once
        for index, chat in enumerate(chats):
            name, text = script(index)[step]
            reports.append(api.say_message(who[name], chat, text))
    if kill_after is not None:
        await until(lambda: len(sender.delivered) >= delivered + len(chats) + kill_after,
                    120)
        victims.append(bot.workers()[0])
        os.kill(victims[-1], signal.SIGKILL)
    await sender.drained(timeout=180)
    try:
        await until(lambda: all(api.replies.get(r) for r in reports), 90)
    except TimeoutError:
        missing = [r for r in reports if not api.replies.get(r)]
        raise AssertionError(f"unanswered {missing}; {await leftovers(url)}\n"
                             f"{bot.log.read_text()[-6000:]}") from None
    if kill_after is not None:
        await until(lambda: len(bot.workers()) == 2, 120)  # a new one took its place
    else:  # both workers took reports (each counts in its own file)
        taken = accepted_by_worker(temp, temp.parent / "metrics_read")
        assert len(taken) == 2 and sum(taken.values()) >= len(reports), taken
    for key in reports:
        texts = api.reply_texts(key)
        if kill_after is None:
            assert len(texts) == 1, (key, texts)  # answered once
        else:
            assert len(set(texts)) == 1, (key, texts)  # at least once, one content
    ledger = await Ledger.open(url, run_migrations=False)
    try:
        for index, chat in enumerate(chats):
            assert await state(ledger, chat) == want[CHATS[index]], chat
    finally:
        await ledger.close()


def accepted_by_worker(directory: Path, scratch: Path) -> dict[int, float]:
    """Webhook requests answered 200, per worker process, from the metrics files in
    ``directory`` (each read alone from a copy in ``scratch``)."""
    from prometheus_client import CollectorRegistry
    from prometheus_client.multiprocess import MultiProcessCollector

    out: dict[int, float] = {}
    root = next(directory.glob("tally-metrics-*"))
    for path in root.glob("counter_*.db"):
        pid = int(path.stem.rsplit("_", 1)[1])
        alone = scratch / f"pid{pid}"
        alone.mkdir(parents=True, exist_ok=True)
        (alone / path.name).write_bytes(path.read_bytes())
        registry = CollectorRegistry()
        # prometheus_client leaves this constructor unannotated.
        MultiProcessCollector(registry, path=str(alone))  # type: ignore[no-untyped-call]
        out[pid] = registry.get_sample_value(
            "tally_http_requests_total", {"route": "webhook", "status": "200"}) or 0.0
    return {pid: n for pid, n in out.items() if n}


async def leftovers(url: str) -> str:
    """The inbox and outbox rows not done, to say where an answer got stuck."""
    import asyncpg

    conn = await asyncpg.connect(url.replace("postgresql+asyncpg", "postgresql"))
    try:
        inbox = await conn.fetch("SELECT id, chat_id, status, attempts, claimed_by, "
                                 "claimed_until FROM public.inbox WHERE status <> 'done'")
        outbox = await conn.fetch("SELECT id, chat_id, inbox_id, method, status, attempts, "
                                  "claimed_by, claimed_until FROM public.outbox "
                                  "WHERE status <> 'sent'")
        now = await conn.fetchval("SELECT now()")
    finally:
        await conn.close()
    return (f"now {now}; inbox not done: {[dict(r) for r in inbox]}; "
            f"outbox not sent: {[dict(r) for r in outbox]}")


async def until(condition: Any, seconds: float) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while not condition():
        if loop.time() > deadline:
            raise TimeoutError(f"not reached within {seconds} s")
        await asyncio.sleep(0.02)


async def test_two_workers_keep_each_chats_order_and_a_killed_one_loses_nothing(
        tmp_path: Path, subtests: pytest.Subtests) -> None:
    """Both scenarios on one bot (starting one costs more CPU than a scenario), each a
    subtest that fails by its name while the other goes on."""
    await run(tmp_path, subtests)
