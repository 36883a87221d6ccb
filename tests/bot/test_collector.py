"""The collector's tuning lasts while any bot of the process runs, and is undone after."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from bot.ops import collector


@pytest.fixture
def untuned(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """CPython's defaults and no bot running, as in a process of its own (tests/conftest.py
    keeps the collector tuned for the whole run); the run's tuning back after."""
    held = gc.get_threshold()
    monkeypatch.setattr(collector, "_held", collector._Held())
    gc.set_threshold(700, 10, 10)
    gc.unfreeze()
    try:
        yield
    finally:
        gc.set_threshold(*held)
        gc.freeze()


@pytest.mark.usefixtures("untuned")
def test_the_first_bot_tunes_the_collector_and_the_last_restores_it() -> None:
    before = gc.get_threshold()
    first, second = collector.tuned(), collector.tuned()
    first.__enter__()
    assert gc.get_threshold()[0] == collector.YOUNGEST
    assert gc.get_freeze_count() > 0
    second.__enter__()
    first.__exit__(None, None, None)  # not in reverse order: the other still runs
    assert gc.get_threshold()[0] == collector.YOUNGEST
    second.__exit__(None, None, None)
    assert gc.get_threshold() == before == (700, 10, 10)
    assert gc.get_freeze_count() == 0
