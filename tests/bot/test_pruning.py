"""The pipeline forgets handled updates' keys past their retention a batch a transaction,
a bounded number of batches a round, the oldest first; the rest wait for the next round."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import func, select, update

from bot.delivery import pipeline as pipeline_module
from bot.delivery.pipeline import pipeline_of
from storage.ledger import now
from storage.sql import tables as t_
from tests.bot.harness import table

NEW = "/new changsha @alice @bob @carol @dave"


async def test_handled_keys_past_their_retention_go_a_batch_at_a_time(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pipeline_module, "QUEUE_PRUNE_BATCH", 2)
    monkeypatch.setattr(pipeline_module, "QUEUE_BATCHES", 2)
    async with table(tmp_path) as t:
        await t.say("alice", NEW)
        for _ in range(5):
            await t.say("bob", "/table")
        pipeline = pipeline_of(t.app)
        retention = timedelta(hours=pipeline.settings.inbox_retention_hours)
        async with t.ledger.write() as conn:
            handled = (await conn.execute(select(func.count()).select_from(t_.inbox)
                                          .where(t_.inbox.c.status == "done"))).scalar_one()
            assert handled == 6
            await conn.execute(update(t_.inbox).values(
                done_at=now() - retention - timedelta(minutes=1)))
        assert await pipeline.prune_queues() == (4, 0)  # two batches of two: the bound
        assert await pipeline.prune_queues() == (2, 0)
        assert await pipeline.prune_queues() == (0, 0)
        out = await t.say("carol", "/table")  # the bot goes on as before
        assert out and t.api.errors == []
