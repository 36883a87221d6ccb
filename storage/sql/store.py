"""The store: the one object that runs units of work, and the base of the services.

A unit of work is a function of a Connection run as one transaction
(:mod:`storage.sql.unit_of_work`): on SQLite it starts with BEGIN IMMEDIATE, on PostgreSQL it
locks the night row first, so two writers on one table queue instead of interleaving.
:meth:`Store.run` sends writes through the batching writer (:mod:`storage.sql.writer`) or
runs them alone. A store bound to an answer (:meth:`Store.answering`) makes one write,
which carries the answer in its own transaction: any :class:`Passenger`, in practice
:class:`storage.queues.messages.Answer`. The store knows no service and no answer.

A :class:`Service` is a small class of operations over a store: each builds its units
of work from the repository's functions (:mod:`storage.services.rows`) and runs them with
``self.store.run``. :class:`storage.ledger.Ledger` is the store with its services.
"""

from __future__ import annotations

import asyncio
import copy
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from contextvars import ContextVar
from typing import Any, Protocol, Self

from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from storage.sql import unit_of_work
from storage.sql.db import create_engine, migrate
from storage.sql.unit_of_work import T, Unit
from storage.sql.writer import Writer


class SecondWrite(RuntimeError):
    """A second write on a ledger bound to one answer (:meth:`Store.answering`): refused
    before it runs, so that nothing is written without the answer, nor lost."""


class ReadOnly(RuntimeError):
    """A write on a read-only store (:meth:`Store.reading`): refused before it runs."""


class Aborted(RuntimeError):
    """A unit of work run after another failed inside the same shared transaction
    (:meth:`Store.shared_transaction`): that transaction is void and is rolled back."""


class Shared:
    """A transaction that every unit of work of one task shares (see
    :meth:`Store.shared_transaction`). ``failed``: a unit raised inside it (its
    statements may have run), so the transaction must not commit."""

    def __init__(self, engine: AsyncEngine, conn: AsyncConnection) -> None:
        self.engine = engine
        self.conn = conn
        self.task = asyncio.current_task()
        self.failed: BaseException | None = None

    async def run(self, unit: Unit[T], *args: Any, write: bool) -> T:
        if self.failed is not None:
            raise Aborted("an earlier unit of this transaction failed") from self.failed
        try:
            if write:
                return await self.conn.run_sync(unit_of_work.flushed, unit, *args)
            return await self.conn.run_sync(unit, *args)
        except BaseException as exc:
            self.failed = exc
            raise


_SHARED: ContextVar[Shared | None] = ContextVar("tally_shared_transaction", default=None)


class Passenger(Protocol):
    """What rides on a store's one write: written by ``write(conn, result)`` in the
    write's own transaction; ``taken`` once its write has begun, ``committed`` after."""

    taken: bool
    committed: bool

    def write(self, conn: Connection, result: Any) -> None: ...


class Store:
    """The engine, the writer and the units of work. Open with ``await X.open(url)``;
    close with ``await x.close()``."""

    _answer: Passenger | None = None
    _read_only = False

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self.dialect = engine.dialect.name
        # Writes go through one batching writer (storage.sql.writer). SQLite has one writer at
        # a time: every write of this process queues there, in order, rather than spin in
        # SQLite's busy handler (another process still waits there). PostgreSQL runs two
        # batches side by side, and the writes that are not batched on their own.
        sqlite = self.dialect == "sqlite"
        self._writer = Writer(engine, writers=1 if sqlite else 2)
        self._serialize = sqlite
        # Several worker processes sharing PostgreSQL write each unit on its own: there
        # batches of different chats held each other's rows (a worker's claim behind
        # another's "handled") and cost more than they saved (webhook bench: 45 against
        # 61 reports/s at one worker). The bot turns batching off in that mode.
        self.batching = True
        # Members who act without a seat (an admin keeping score), by (chat, Telegram id):
        # their display name, kept with the first change they make
        # (storage.services.chats.name_members).
        self.noted_members: dict[tuple[int, int], tuple[str, str | None]] = {}

    @classmethod
    async def open(cls, url: str, *, run_migrations: bool = True, **kw: Any) -> Self:
        engine = create_engine(url, **kw)
        if run_migrations:
            await migrate(engine)
        return cls(engine)

    async def close(self) -> None:
        await self.engine.dispose()

    # -- units of work ----------------------------------------------------------------

    def answering(self, answer: Passenger) -> Self:
        """This store, bound to make one write, which carries ``answer`` in its own
        transaction; any further write on it raises :class:`SecondWrite` before it runs.
        Reads go on as usual. Its services are its own (``tx.hands.record(...)`` carries
        the answer). The storage-level mechanism under the bot's write scope
        (:func:`bot.delivery.send.write`), its only caller in the bot."""
        bound = self._bound()
        bound._answer = answer
        return bound

    def reading(self) -> Self:
        """This store for reads only: a write on it raises :class:`ReadOnly` before it
        runs. What the bot's handlers read through (``context.ledger``); their changes go
        through the update's write scope."""
        bound = self._bound()
        bound._read_only = True
        return bound

    def _bound(self) -> Self:
        bound = copy.copy(self)
        # The services cached on this store run on it: the copy builds its own.
        bound.__dict__ = {k: v for k, v in self.__dict__.items()
                          if not isinstance(v, Service)}
        return bound

    async def run(self, unit: Unit[T], *args: Any, write: bool, batch: bool = False,
                  urgent: bool = False, key: Any = None) -> T:
        """Run ``unit(conn, *args)`` as one transaction (see :mod:`storage.sql.unit_of_work`).
        ``batch``: a write that may share its transaction with other chats' writes (a unit
        that raises never does; see :mod:`storage.sql.writer`). Such a unit must change
        nothing outside the database but its return value. ``urgent``: a write that
        everything else waits on (the inbox's); it does not queue behind reports (on
        SQLite it goes to the head of the writer's queue). ``key`` (the chat of a batched
        write whose writes wait for its end): no second unit of it joins that batch.

        On a store bound to an answer, a write also writes the answer, and marks its
        update handled, in the same transaction (:meth:`answering`)."""
        if write and self._read_only:
            raise ReadOnly("a write on the ledger for reads: changes go through the "
                           "update's write scope")
        answer = self._answer if write else None
        if answer is None:
            return await self._run(unit, *args, write=write, batch=batch, urgent=urgent,
                                   key=key)
        if answer.taken:
            raise SecondWrite("this ledger carries one answer and has made its write")
        answer.taken = True  # one answer, one write

        def answered(conn: Connection, *a: Any) -> T:
            result = unit(conn, *a)
            answer.write(conn, result)
            return result

        result = await self._run(answered, *args, write=write, batch=batch, key=key)
        answer.committed = True
        return result

    @asynccontextmanager
    async def shared_transaction(self) -> AsyncIterator[Shared]:
        """Inside the block, every unit of work this task runs on this store (or a
        bound copy of it: the same engine) runs in one transaction, committed when the
        block ends. A unit that raises voids it: later units raise :class:`Aborted`, and
        the transaction is rolled back when the block ends (no error of its own: the
        caller looks at ``failed``). Raise :class:`storage.sql.unit_of_work.Rollback` to
        end it without a commit. Other tasks (started inside or not) run their own."""
        async with unit_of_work.transaction(self.engine) as conn:
            shared = Shared(self.engine, conn)
            token = _SHARED.set(shared)
            try:
                yield shared
            finally:
                _SHARED.reset(token)
            if shared.failed is not None:
                raise unit_of_work.Rollback

    async def _run(self, unit: Unit[T], *args: Any, write: bool, batch: bool,
                   urgent: bool = False, key: Any = None) -> T:
        shared = _SHARED.get()
        if (shared is not None and shared.engine is self.engine
                and shared.task is asyncio.current_task()):
            return await shared.run(unit, *args, write=write)
        if not write:
            return await unit_of_work.run(self.engine, unit, *args, write=False)
        if urgent:
            if self._serialize:
                return await self._writer.run(unit, *args, first=True)  # type: ignore[no-any-return]
            return await unit_of_work.run(self.engine, unit, *args, write=True)
        batch = batch and self.batching
        if batch or self._serialize:
            return await self._writer.run(unit, *args, alone=not batch, key=key)  # type: ignore[no-any-return]
        return await unit_of_work.run(self.engine, unit, *args, write=True)

    @asynccontextmanager
    async def write(self) -> AsyncIterator[AsyncConnection]:
        """An async write transaction, for tests and bulk tools; operations use :meth:`run`."""
        async with self.engine.connect() as conn:
            conn = await conn.execution_options(write=True)
            async with conn.begin():
                yield conn

    @asynccontextmanager
    async def read(self) -> AsyncIterator[AsyncConnection]:
        """An async read transaction, for tests and bulk tools."""
        async with self.engine.connect() as conn, conn.begin():
            yield conn


class Service:
    """A small class of operations over a store (``self.store``): each operation is one
    unit of work, run by the store, so that on a store bound to an answer it carries it."""

    def __init__(self, store: Store) -> None:
        self.store = store
