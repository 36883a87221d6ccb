"""Shared test setup: hypothesis profiles, the longest tests first, and the end of the
migrated templates."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

from bot.ops import collector
from tests import databases

settings.register_profile(
    "default", deadline=None, suppress_health_check=[HealthCheck.too_slow], max_examples=200
)
# CI explores the same examples every run, so a red run always reproduces; local runs
# keep finding new ones.
settings.register_profile("ci", parent=settings.get_profile("default"), derandomize=True,
                          database=None)
settings.load_profile("ci" if os.environ.get("CI") else "default")

# The longest tests (each runs the bot as child processes, or explores for long), started
# first: `make test` hands tests one at a time to three processes (pytest-xdist,
# --maxschedchunk 1), so the short ones fill in around these and all finish together.
LONGEST_FIRST = (
    "tests/bot/test_faults.py",
    "tests/bot/test_webhook_workers.py",
    "tests/test_types.py",
    "tests/bot/test_db_outages.py",
    "tests/bot/test_language.py",
    "tests/engine/test_analysis.py",
    "tests/bot/test_workers.py",
    "tests/storage/test_ledger_stateful.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    def rank(item: pytest.Item) -> int:
        path = item.nodeid.split("::", 1)[0]
        return LONGEST_FIRST.index(path) if path in LONGEST_FIRST else len(LONGEST_FIRST)

    items.sort(key=rank)  # stable: the rest keep their order


@pytest.fixture(scope="session", autouse=True)
def _migrated_templates() -> Iterator[None]:
    """The migrated databases that tests copy (tests/databases.py) go at the end."""
    yield
    databases.clean_up()


@pytest.fixture(scope="session", autouse=True)
def _collector_tuned() -> Iterator[None]:
    """The collector tuned as while a bot runs (bot.ops.collector), for the whole run: the
    tests start hundreds of bots in one process, and each first one would collect the
    whole heap of the test process (a tenth of a second and more, growing with the run)
    and freeze it, and the last one unfreeze it again."""
    with collector.tuned():
        yield
