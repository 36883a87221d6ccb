"""The anchor of ``bench.webhook_bench --anchor``: the smallest webhook bot that keeps the
tally bot's promises for the bench's reports, on the same stack, so that the bench can say
how many times the real worker's CPU a report is.

Same stack: python-telegram-bot (an ``Application`` with a ``CommandHandler`` per command,
``process_update``, ``HTTPXRequest`` to the Bot API), Starlette under Uvicorn for the
webhook, asyncpg directly for PostgreSQL (no SQLAlchemy: the floor of the stack, not of
its ORM layer). Same promises, for the two commands the bench says (``/new`` with four
players, ``/hu NAME 自摸 PATTERN``):

- Telegram is answered 200 only after the update is stored under its unique key (chat and
  message id; a second copy is refused by the key and answered 200);
- each chat's updates are handled in order, chats concurrently;
- the hand (scored by the engine at the table's rules) and its answer are written, and the
  update marked handled, in one transaction;
- the answer is sent with ``sendMessage`` after that commit, and marked sent;
- at start, unsent answers are sent and unhandled updates handled, in order.

It reads the settings the bench gives the real bot (``TALLY_TELEGRAM__TOKEN``,
``__BASE_URL``, ``__SECRET_TOKEN``, ``__LISTEN``, ``__CONNECTION_POOL_SIZE``,
``TALLY_STORAGE__URL``) and keeps its own tables (``anchor_*``) in that database, created
at start if missing. Run: ``python -m bench.anchor_bot`` (the bench starts it).
"""

from __future__ import annotations

import asyncio
import json
import os
import secrets
from collections import deque
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import asyncpg
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from telegram import ReplyParameters, Update
from telegram.ext import Application, ApplicationBuilder, CommandHandler, ContextTypes

from engine.models import HandReport, Seat
from engine.rules import ruleset
from engine.settle import settle_hand

SEATS: tuple[Seat, ...] = ("E", "S", "W", "N")
RULES = ruleset("chengdu")

SCHEMA = """
CREATE TABLE IF NOT EXISTS anchor_inbox (
    chat bigint NOT NULL, message_id bigint NOT NULL, payload jsonb NOT NULL,
    handled boolean NOT NULL DEFAULT false, PRIMARY KEY (chat, message_id));
CREATE TABLE IF NOT EXISTS anchor_tables (chat bigint PRIMARY KEY, players text[] NOT NULL);
CREATE TABLE IF NOT EXISTS anchor_hands (
    id bigserial PRIMARY KEY, chat bigint NOT NULL, report jsonb NOT NULL,
    deltas jsonb NOT NULL);
CREATE TABLE IF NOT EXISTS anchor_outbox (
    id bigserial PRIMARY KEY, chat bigint NOT NULL, reply_to bigint NOT NULL,
    text text NOT NULL, sent boolean NOT NULL DEFAULT false);
"""

Context = ContextTypes.DEFAULT_TYPE
Key = tuple[int, int]


class Anchor:
    """The database pool, the Application, and each chat's queue of updates."""

    def __init__(self, pool: asyncpg.Pool, app: Application[Any, Any, Any, Any, Any, Any]
                 ) -> None:
        self.pool, self.app = pool, app
        self.queues: dict[int, deque[dict[str, Any]]] = {}
        self.tasks: set[asyncio.Task[None]] = set()

    def submit(self, chat: int, payload: dict[str, Any]) -> None:
        """Queue a stored update behind its chat's others; start the chat if idle."""
        queue = self.queues.get(chat)
        if queue is not None:
            queue.append(payload)
            return
        self.queues[chat] = deque([payload])
        task = asyncio.create_task(self._run(chat))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _run(self, chat: int) -> None:
        queue = self.queues[chat]
        try:
            while queue:
                payload = queue[0]
                await self.app.process_update(Update.de_json(payload, self.app.bot))
                queue.popleft()
        finally:
            del self.queues[chat]

    async def queue_answer(self, conn: asyncpg.Connection, chat: int, reply_to: int,
                           text: str) -> int:
        """Inside the caller's transaction: the answer queued, the update marked handled
        (its payload dropped). The answer's id."""
        id: int = await conn.fetchval(
            "WITH done AS (UPDATE anchor_inbox SET handled = true, payload = '{}' "
            "WHERE chat = $1 AND message_id = $2) "
            "INSERT INTO anchor_outbox (chat, reply_to, text) VALUES ($1, $2, $3) "
            "RETURNING id", chat, reply_to, text)
        return id

    async def send(self, id: int, chat: int, reply_to: int, text: str) -> None:
        await self.app.bot.send_message(chat, text,
                                        reply_parameters=ReplyParameters(reply_to))
        await self.pool.execute("UPDATE anchor_outbox SET sent = true WHERE id = $1", id)


def anchor_of(context: Context) -> Anchor:
    anchor: Anchor = context.application.bot_data["anchor"]
    return anchor


async def on_new(update: Update, context: Context) -> None:
    """``/new PRESET @a @b @c @d``: the chat's table, seated in that order."""
    message = update.effective_message
    assert message is not None
    anchor = anchor_of(context)
    chat, players = message.chat_id, [a.lstrip("@") for a in (context.args or [])[1:5]]
    text = "table open: " + " ".join(players)
    async with anchor.pool.acquire() as conn, conn.transaction():
        await conn.execute("INSERT INTO anchor_tables (chat, players) VALUES ($1, $2) "
                           "ON CONFLICT (chat) DO UPDATE SET players = excluded.players",
                           chat, players)
        id = await anchor.queue_answer(conn, chat, message.message_id, text)
    await anchor.send(id, chat, message.message_id, text)


async def on_hu(update: Update, context: Context) -> None:
    """``/hu NAME 自摸 PATTERN…``: a self-drawn win, scored at Chengdu's rules; the table
    read, the hand and its answer written in one transaction."""
    message = update.effective_message
    assert message is not None
    anchor = anchor_of(context)
    chat, args = message.chat_id, context.args or []
    async with anchor.pool.acquire() as conn, conn.transaction():
        players = list(await conn.fetchval(
            "SELECT players FROM anchor_tables WHERE chat = $1", chat))
        report = HandReport.model_validate({"events": [{
            "type": "win", "how": "self_draw", "winner": SEATS[players.index(args[0])],
            "patterns": args[2:]}]})
        result = settle_hand(RULES, report)
        text = " ".join(f"{name} {result.deltas[seat]:+d}"
                        for name, seat in zip(players, SEATS, strict=True))
        await conn.execute(
            "INSERT INTO anchor_hands (chat, report, deltas) VALUES ($1, $2, $3)", chat,
            report.model_dump_json(exclude_defaults=True), json.dumps(result.deltas))
        id = await anchor.queue_answer(conn, chat, message.message_id, text)
    await anchor.send(id, chat, message.message_id, text)


async def resume(anchor: Anchor) -> None:
    """After a restart: unsent answers sent, unhandled updates handled, in order."""
    for row in await anchor.pool.fetch(
            "SELECT id, chat, reply_to, text FROM anchor_outbox WHERE NOT sent ORDER BY id"):
        await anchor.send(row["id"], row["chat"], row["reply_to"], row["text"])
    for row in await anchor.pool.fetch(
            "SELECT chat, payload FROM anchor_inbox WHERE NOT handled "
            "ORDER BY chat, message_id"):
        anchor.submit(row["chat"], json.loads(row["payload"]))


async def keep(_: asyncpg.Connection) -> None:
    """A connection goes back to the pool as it is: the anchor sets no session state, so
    asyncpg's default reset (a statement, and a transaction, at every release) is not
    needed; SQLAlchemy's pool, which the real bot uses, sends none either."""


def build() -> Starlette:
    env = os.environ
    url = env["TALLY_STORAGE__URL"].replace("postgresql+asyncpg://", "postgresql://")
    secret = env["TALLY_TELEGRAM__SECRET_TOKEN"]
    host, port = env.get("TALLY_TELEGRAM__LISTEN", "127.0.0.1:8443").rsplit(":", 1)
    app = (ApplicationBuilder().token(env["TALLY_TELEGRAM__TOKEN"])
           .base_url(env["TALLY_TELEGRAM__BASE_URL"])
           .connection_pool_size(int(env.get("TALLY_TELEGRAM__CONNECTION_POOL_SIZE", "256")))
           .updater(None).job_queue(None).build())
    app.add_handler(CommandHandler("new", on_new))
    app.add_handler(CommandHandler("hu", on_hu))
    state: dict[str, Anchor] = {}

    @asynccontextmanager
    async def lifespan(_: Starlette) -> AsyncIterator[None]:
        pool = await asyncpg.create_pool(url, min_size=2, max_size=10, reset=keep)
        await pool.execute(SCHEMA)
        anchor = state["anchor"] = app.bot_data["anchor"] = Anchor(pool, app)
        async with app:
            await resume(anchor)
            yield
            await asyncio.gather(*anchor.tasks, return_exceptions=True)
        await pool.close()

    async def webhook(request: Request) -> Response:
        given = request.headers.get("X-Telegram-Bot-Api-Secret-Token", "")
        if not secrets.compare_digest(given.encode(), secret.encode()):
            return Response(status_code=403)
        body = await request.body()
        payload = json.loads(body)
        message = payload.get("message")
        if not isinstance(message, dict):
            return Response()  # not a kind this bot handles: nothing to keep
        chat, message_id = int(message["chat"]["id"]), int(message["message_id"])
        anchor = state["anchor"]
        stored = await anchor.pool.fetchval(
            "INSERT INTO anchor_inbox (chat, message_id, payload) VALUES ($1, $2, $3) "
            "ON CONFLICT DO NOTHING RETURNING true", chat, message_id, body.decode())
        if stored:
            anchor.submit(chat, payload)
        return Response()

    async def healthz(_: Request) -> Response:
        return Response("ok")

    server = Starlette(routes=[
        Route(os.environ.get("ANCHOR_PATH", "/telegram"), webhook, methods=["POST"]),
        Route("/healthz", healthz)], lifespan=lifespan)
    server.state.listen = (host, int(port))
    return server


def main() -> None:
    import uvicorn

    server = build()
    host, port = server.state.listen
    uvicorn.run(server, host=host, port=port, lifespan="on", log_config=None,
                access_log=False, server_header=False)


if __name__ == "__main__":
    main()
