"""Shared test setup: hypothesis profiles, the longest tests first, the module of the
`exclusive` tests, and the end of the migrated templates."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "default", deadline=None, suppress_health_check=[HealthCheck.too_slow], max_examples=200
)
# CI explores the same examples every run, so a red run always reproduces; local runs
# keep finding new ones.
settings.register_profile("ci", parent=settings.get_profile("default"), derandomize=True,
                          database=None)
# `make test-fast`, the quick loop for a change to a rule or a handler, explores less.
settings.register_profile("fast", parent=settings.get_profile("default"), max_examples=25)
settings.load_profile("fast" if os.environ.get("TALLY_TEST_FAST")
                      else "ci" if os.environ.get("CI") else "default")

# The longest tests, started first so that the short ones fill in around them and all
# finish together: `make test` hands tests one at a time to four processes (pytest-xdist,
# --maxschedchunk 1) on two cores. Those that mostly wait on the bot's child processes
# (the fault tests) are spread among those that keep a core busy (the type checker, the
# explorations), so that the cores are not idle at the start, and no exploration is left
# to run alone at the end. The default-lease faults, one test that mostly waits for two
# minutes, take one process from the start; pytest-xdist hands each process two tests at
# a time, so the one after it waits there as long: a few short ones follow it.
LONGEST_FIRST = (
    "tests/bot/test_default_lease.py",
    "tests/test_architecture.py",
    "tests/bot/test_faults.py::test_sigkill_at_chosen_moments_loses_and_doubles_nothing[sqlite]",
    "tests/test_types.py",
    "tests/storage/test_ledger_stateful.py",
    "tests/handlers/test_chinese_words.py::test_no_english_in_commands_and_refusals",
    "tests/handlers/test_traditional_chats.py::test_commands_and_refusals_in_traditional",
    "tests/handlers/test_chinese_words.py",
    "tests/bot/test_faults.py",
    "tests/bot/test_webhook_workers.py",
    "tests/bot/test_at_once_stalls.py",
    "tests/storage/test_undo_stack.py",
    "tests/bot/test_db_outages.py",
    "tests/engine/test_properties.py",
    "tests/engine/test_analysis.py",
    "tests/bot/test_workers.py",
    "tests/bot/test_fuzz.py",
    "tests/bot/test_webapp_browser.py",
    "tests/bot/test_transient.py",
)


# The tests marked `exclusive` (they time worker processes against a lease) live here:
# `make test` runs this module alone after the rest, naming it so as not to collect the
# whole suite again to find its few tests.
EXCLUSIVE_MODULE = "tests/bot/test_stalled_workers.py"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    astray = [item.nodeid for item in items if item.get_closest_marker("exclusive")
              and not item.nodeid.startswith(EXCLUSIVE_MODULE + "::")]
    if astray:
        raise pytest.UsageError(f"`make test` runs only {EXCLUSIVE_MODULE} alone: {astray}")

    def rank(item: pytest.Item) -> int:
        return next((i for i, first in enumerate(LONGEST_FIRST)
                     if item.nodeid == first or item.nodeid.startswith(first + "::")),
                    len(LONGEST_FIRST))

    items.sort(key=rank)  # stable: the rest keep their order


@pytest.fixture(scope="session", autouse=True)
def _migrated_templates() -> Iterator[None]:
    """The migrated databases that tests copy (tests/databases.py) go at the end. (Imported
    by the tests that use it, not here: pytest-xdist's controller, which runs no test,
    loads this file too, and the ledger's modules were a second of its CPU.)"""
    yield
    databases = sys.modules.get("tests.databases")
    if databases is not None:
        databases.clean_up()


@pytest.fixture(scope="session", autouse=True)
def _collector_tuned() -> Iterator[None]:
    """The collector tuned as while a bot runs (bot.ops.collector), for the whole run: the
    tests start hundreds of bots in one process, and each first one would collect the
    whole heap of the test process (a tenth of a second and more, growing with the run)
    and freeze it, and the last one unfreeze it again."""
    from bot.ops import collector

    with collector.tuned():
        yield
