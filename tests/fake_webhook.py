"""Telegram's side of a webhook, for tests and benchmarks on loopback.

:class:`WebhookSender` takes the updates a :class:`bot.console.fake_api.FakeBotAPI` queues (what
``say`` and ``press`` produce) and posts each to the webhook URL with the secret header,
as Telegram does: over up to ``max_connections`` parallel connections, and a chat's next
update only after a 2xx for its previous one. Anything else (an error status, a refused
or broken connection, a timeout) is tried again after a growing pause, so an update is
delivered at least once and each chat's updates arrive in order.

:class:`WebhookBotAPI` is the fake Bot API that bot talks to (with ``setWebhook``, the
time of each reply, and an optional delay per call); :class:`BotProcess` runs
``python -m bot run`` in webhook mode as a child process.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import socket
import sys
import time
from collections import deque
from pathlib import Path
from typing import Any

import httpx

from bot.console.fake_api import FakeBotAPI, FakeUser

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"


def chat_of(update: dict[str, Any]) -> int | None:
    """The chat an update belongs to (None for kinds without one)."""
    for kind in ("message", "edited_message", "my_chat_member"):
        if kind in update:
            return int(update[kind]["chat"]["id"])
    query = update.get("callback_query")
    if query and query.get("message"):
        return int(query["message"]["chat"]["id"])
    return None


class WebhookSender:
    def __init__(self, api: FakeBotAPI, url: str, secret: str, max_connections: int = 40,
                 retry_delay: float = 0.05, timeout: float = 60.0, keepalive: bool = True,
                 transport: httpx.AsyncBaseTransport | None = None) -> None:
        """``keepalive=False``: a new connection for every post, so that each may reach
        another worker process (kept connections stay with the worker that took them)."""
        self.api, self.url, self.secret = api, url, secret
        self.retry_delay = retry_delay
        self.slots = asyncio.Semaphore(max_connections)
        limits = httpx.Limits(max_connections=max_connections,
                              max_keepalive_connections=max_connections if keepalive else 0)
        self.client = httpx.AsyncClient(limits=limits, timeout=timeout, transport=transport)
        self.queues: dict[int | None, deque[dict[str, Any]]] = {}
        self.busy: set[int | None] = set()  # chats with a delivery task running
        self.delivered: list[int] = []  # update ids, in the order their 2xx came
        self.first_sent: dict[int, float] = {}  # update id -> first attempt (monotonic)
        self.acked: dict[int, float] = {}  # update id -> its 2xx (monotonic)
        self.failures: list[tuple[int, int | str]] = []  # (update id, status or error)
        self.in_flight = 0
        self.most_in_flight = 0
        self._tasks: set[asyncio.Task[None]] = set()
        self._pump: asyncio.Task[None] | None = None
        self._progress = asyncio.Event()  # a chat's queue emptied (for drained())

    async def __aenter__(self) -> WebhookSender:
        self._pump = asyncio.create_task(self._take())
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._pump is not None:
            self._pump.cancel()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, *([self._pump] if self._pump else []),
                             return_exceptions=True)
        await self.client.aclose()

    async def _take(self) -> None:
        while True:  # woken as updates are queued, not polling
            await self.api.queued()
            if self.api.updates:
                batch = list(self.api.updates)
                self.api.updates.clear()
                for update in batch:
                    self._queue(update)

    def _queue(self, update: dict[str, Any]) -> None:
        chat = chat_of(update)
        self.queues.setdefault(chat, deque()).append(update)
        if chat not in self.busy:
            self.busy.add(chat)
            task = asyncio.create_task(self._chat(chat))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _chat(self, chat: int | None) -> None:
        queue = self.queues[chat]
        try:
            while queue:
                await self._deliver(queue[0])
                queue.popleft()
        finally:
            self.busy.discard(chat)
            self._progress.set()

    async def _deliver(self, update: dict[str, Any]) -> None:
        uid = update["update_id"]
        delay = self.retry_delay
        while True:
            async with self.slots:
                self.first_sent.setdefault(uid, time.monotonic())
                self.in_flight += 1
                self.most_in_flight = max(self.most_in_flight, self.in_flight)
                try:
                    response = await self.client.post(
                        self.url, json=update, headers={SECRET_HEADER: self.secret})
                    status: int | str = response.status_code
                except httpx.HTTPError as exc:
                    status = type(exc).__name__
                finally:
                    self.in_flight -= 1
            if isinstance(status, int) and 200 <= status < 300:
                self.acked[uid] = time.monotonic()
                self.delivered.append(uid)
                return
            self.failures.append((uid, status))
            await asyncio.sleep(delay)
            delay = min(delay * 2, 2.0)

    @property
    def pending(self) -> int:
        return len(self.api.updates) + sum(len(q) for q in self.queues.values())

    async def drained(self, timeout: float = 60.0) -> None:
        """Wait until every queued update got its 2xx."""
        deadline = time.monotonic() + timeout
        while self.pending or self.busy:
            if time.monotonic() > deadline:
                raise TimeoutError(f"{self.pending} updates not delivered in {timeout} s "
                                   f"(last failures: {self.failures[-3:]})")
            # Woken when a chat's queue empties; the timeout looks again for updates
            # still in the fake's queue, which the pump takes within its own wait.
            self._progress.clear()
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(0.05):
                    await self._progress.wait()


class WebhookBotAPI(FakeBotAPI):
    """The fake Bot API as a webhook bot sees it: it takes ``setWebhook``, notes when each
    reply to a message arrived (``replies[(chat, message id)]``: times and texts), and can
    add ``delay`` seconds to every call, as Telegram's round trip does."""

    def __init__(self, delay: float = 0.0) -> None:
        super().__init__()
        self.delay = delay
        self.webhooks: list[dict[str, Any]] = []
        self.replies: dict[tuple[int, int], list[tuple[float, str]]] = {}

    def say_message(self, user: FakeUser, chat_id: int, text: str) -> tuple[int, int]:
        """Queue a message; its (chat, message id), which the answer replies to."""
        self.say(user, chat_id, text)
        return chat_id, int(self.updates[-1]["message"]["message_id"])

    def reply_texts(self, key: tuple[int, int]) -> list[str]:
        return [text for _, text in self.replies.get(key, [])]

    async def call(self, method: str, params: dict[str, Any]) -> Any:
        if self.delay:
            await asyncio.sleep(self.delay)
        return await super().call(method, params)

    async def api_setwebhook(self, p: dict[str, Any]) -> Any:
        self.webhooks.append(p)
        return True

    async def api_sendmessage(self, p: dict[str, Any]) -> Any:
        result = await super().api_sendmessage(p)
        to = (p.get("reply_parameters") or {}).get("message_id")
        if to is not None:
            self.replies.setdefault((int(p["chat_id"]), int(to)), []).append(
                (time.monotonic(), re.sub(r"<[^>]+>", "", str(p["text"]))))
        return result


def _pids() -> list[int]:
    return [int(p.name) for p in Path("/proc").iterdir() if p.name.isdigit()]


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def children_of(pid: int) -> list[int]:
    """A process's children (Linux): from each of its threads' ``children`` list, a few
    small reads (tests wait on this in loops), else from every process's parent."""
    try:
        lists = [(task / "children").read_text()
                 for task in Path(f"/proc/{pid}/task").iterdir()]
    except FileNotFoundError:  # a kernel without the lists, or the process is gone
        if not Path(f"/proc/{pid}").exists():
            return []
        return [p for p in _pids() if parent_of(p) == pid]
    except OSError:
        return []
    return sorted({int(child) for text in lists for child in text.split()})


def parent_of(pid: int) -> int | None:
    """A process's parent (Linux), or None if it is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return int(stat.rsplit(")", 1)[1].split()[1])


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class BotProcess:
    """``python -m bot run`` in webhook mode as a child process on loopback, against a
    fake Bot API at ``base_url``; ``async with`` starts it, waits for ``/healthz`` and stops
    it with SIGTERM. ``env`` adds or overrides ``TALLY_*`` settings."""

    def __init__(self, base_url: str, workdir: Path, env: dict[str, str], *,
                 secret: str = "fake_webhook_secret", path: str = "/telegram",
                 start_seconds: float = 120, stop_seconds: float = 60,
                 module: str = "bot") -> None:
        """``module``: what ``python -m`` runs (``bot`` with ``run``, or another server
        that reads the same settings, such as ``bench.anchor_bot``)."""
        self.port = free_port()
        self.argv = ["-m", "bot", "run"] if module == "bot" else ["-m", module]
        self.secret, self.path = secret, path
        self.workdir, self.log = workdir, workdir / "bot.log"
        self.start_seconds, self.stop_seconds = start_seconds, stop_seconds
        self.env = {k: v for k, v in os.environ.items()
                    if not k.startswith(("TALLY_", "PROMETHEUS_"))}
        root = Path(__file__).resolve().parents[1]
        self.env["PYTHONPATH"] = os.pathsep.join(
            [str(root), *filter(None, [os.environ.get("PYTHONPATH")])])
        self.env.update({
            "TALLY_TELEGRAM__TOKEN": "42:WEBHOOK",
            "TALLY_TELEGRAM__BASE_URL": base_url,
            "TALLY_TELEGRAM__MODE": "webhook",
            "TALLY_TELEGRAM__WEBHOOK_URL": f"https://bot.example.org{path}",
            "TALLY_TELEGRAM__SECRET_TOKEN": secret,
            "TALLY_TELEGRAM__LISTEN": f"127.0.0.1:{self.port}",
            **env,
        })
        self.process: asyncio.subprocess.Process | None = None
        # A new connection for every request, so that any worker may take it.
        self.client = httpx.AsyncClient(base_url=self.url, timeout=30,
                                        limits=httpx.Limits(max_keepalive_connections=0))

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def webhook(self) -> str:
        return self.url + self.path

    async def __aenter__(self) -> BotProcess:
        with self.log.open("wb") as out:
            self.process = await asyncio.create_subprocess_exec(
                sys.executable, *self.argv, cwd=self.workdir, env=self.env,
                stdout=out, stderr=asyncio.subprocess.STDOUT)
        await self.healthy()
        return self

    async def healthy(self) -> None:
        assert self.process is not None
        deadline = time.monotonic() + self.start_seconds
        while time.monotonic() < deadline:
            if self.process.returncode is not None:
                raise AssertionError(f"the bot exited with {self.process.returncode}:\n"
                                     f"{self.log.read_text()}")
            try:
                if (await self.client.get("/healthz")).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            await asyncio.sleep(0.25)
        raise AssertionError(f"no /healthz in {self.start_seconds} s:\n{self.log.read_text()}")

    def workers(self) -> list[int]:
        """The pids of the worker processes (children of the one started; Linux)."""
        assert self.process is not None
        return [pid for pid in children_of(self.process.pid)
                if b"resource_tracker" not in _cmdline(pid)]

    async def __aexit__(self, *exc: object) -> None:
        await self.client.aclose()
        process = self.process
        if process is None:
            return
        if process.returncode is None:
            process.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(process.wait(), self.stop_seconds)
        except TimeoutError:
            process.kill()
            await process.wait()
