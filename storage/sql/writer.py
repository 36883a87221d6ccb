"""One writer that commits the units of several chats in one transaction.

Every report is a small write (a handful of statements), and a transaction's own cost
(taking a connection, ``BEGIN``, ``COMMIT``, and on SQLite the one write lock) is as large
as a report's. Under load, units queue here and the writer runs all that are waiting (up
to ``max_batch``) one after another in one transaction, then answers each caller with its
own result. Measured in ``bench/`` and in docs/performance.md.

- Batching is for a queue: while fewer than ``batch_from`` units wait, each commits on its
  own, so that the first of a few does not wait for the others' statements (every unit in
  a batch is answered only at its commit). Under load the queue grows and batches form.

- A unit that raises rolls the whole transaction back; the writer then runs every unit of
  that batch again, each alone, so that one unit's failure is only its own.
- A unit that must run alone (``batch=False``) gets a transaction of its own, in turn.
- A unit that others wait on (the inbox's: the next ``getUpdates`` waits for it) goes
  first, alone, rather than behind a queue of reports.
- A batch holds one unit of a chat (``key``), and two writers never write one chat at
  once: a report's writes wait for the end of its transaction
  (:func:`storage.sql.unit_of_work.later`), so the chat's next report, reading them, must be
  in a later one. (The bot handles a chat's updates one at a time anyway; this holds for
  any caller.)
- A caller cancelled before its unit started is skipped; once started, a unit commits or
  not with its batch, whatever became of its caller (the delivery pipeline's writes are
  durable either way: an update's answer rides in the update's own transaction).
- On SQLite this queue is also what serializes the process's writers (one write lock); on
  PostgreSQL ``writers`` batches run side by side, each on its own connection.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine

from storage.sql import unit_of_work
from storage.sql.unit_of_work import Unit

log = logging.getLogger(__name__)


@dataclass
class _Job:
    unit: Unit[Any]
    args: tuple[Any, ...]
    alone: bool
    key: Any = None  # a chat: two units with one key never share a transaction
    future: asyncio.Future[Any] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future())


class Writer:
    def __init__(self, engine: AsyncEngine, *, max_batch: int = 32, batch_from: int = 4,
                 writers: int = 1) -> None:
        self.engine = engine
        self.max_batch = max_batch
        self.batch_from = batch_from
        self.writers = writers
        self.queue: deque[_Job] = deque()
        self.first: deque[_Job] = deque()  # urgent units, each alone, in their order
        self.busy: set[Any] = set()  # the keys of the units being written
        self.tasks: set[asyncio.Task[None]] = set()
        self.batches = 0  # for the bench: transactions committed, units per transaction
        self.units = 0

    async def run(self, unit: Unit[Any], *args: Any, alone: bool = False,
                  first: bool = False, key: Any = None) -> Any:
        """Queue ``unit``. ``first``: ahead of the queue (behind earlier such units), in
        a transaction of its own (a write that others wait on, such as the inbox's).
        ``key`` (a chat): a batch holds at most one unit of each key, so that a unit never
        shares a transaction with another of its chat whose writes wait for the end
        (:func:`storage.sql.unit_of_work.later`)."""
        job = _Job(unit, args, alone or first, key)
        (self.first if first else self.queue).append(job)
        # A task that found the queue empty has ended (it never waits), so it is done
        # here, though its done-callback may not have run yet.
        live = sum(1 for task in self.tasks if not task.done())
        if live < min(self.writers, len(self.queue) + len(self.first)):
            task = asyncio.create_task(self._drain(), name="ledger:writer")
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)
        return await job.future

    def _take(self) -> list[_Job]:
        """The next transaction's jobs: an urgent one, one that must run alone, or a
        batch (in queue order, up to a second unit of a chat already in it). None when
        the next unit's chat is being written by another writer (PostgreSQL): that one
        takes it next."""
        while self.first:
            job = self.first.popleft()
            if not job.future.done():  # else its caller was cancelled meanwhile
                return [job]
        jobs: list[_Job] = []
        keys: set[Any] = set()
        limit = self.max_batch if len(self.queue) >= self.batch_from else 1
        while self.queue and len(jobs) < limit:
            job = self.queue[0]
            if job.future.done():
                self.queue.popleft()
                continue
            if job.key is not None and job.key in self.busy:
                break
            if jobs and (job.alone or (job.key is not None and job.key in keys)):
                break
            jobs.append(self.queue.popleft())
            if job.alone:
                break
            if job.key is not None:
                keys.add(job.key)
        return jobs

    async def _drain(self) -> None:
        try:
            while jobs := self._take():
                keys = {job.key for job in jobs if job.key is not None}
                self.busy |= keys
                try:
                    await self._commit(jobs)
                finally:
                    self.busy -= keys
        except asyncio.CancelledError:  # shutting down: no caller is left waiting
            if not [t for t in self.tasks if t is not asyncio.current_task() and not t.done()]:
                for queue in (self.first, self.queue):
                    while queue:
                        queue.popleft().future.cancel()
            raise

    async def _commit(self, jobs: list[_Job]) -> None:
        if len(jobs) == 1:
            await self._one(jobs[0])
            return

        def batch(conn: Connection) -> list[Any]:
            return [job.unit(conn, *job.args) for job in jobs]

        try:
            results = await unit_of_work.run(self.engine, batch, write=True)
        except BaseException as exc:  # rolled back whole: each unit again, alone
            if isinstance(exc, asyncio.CancelledError):
                for job in jobs:
                    job.future.cancel()
                raise
            for job in jobs:
                await self._one(job)
            return
        self.batches += 1
        self.units += len(jobs)
        for job, result in zip(jobs, results, strict=True):
            if not job.future.done():
                job.future.set_result(result)

    async def _one(self, job: _Job) -> None:
        try:
            result = await unit_of_work.run(self.engine, job.unit, *job.args, write=True)
        except asyncio.CancelledError:
            job.future.cancel()
            raise
        except BaseException as exc:
            if not job.future.done():
                job.future.set_exception(exc)
            return
        self.batches += 1
        self.units += 1
        if not job.future.done():
            job.future.set_result(result)
