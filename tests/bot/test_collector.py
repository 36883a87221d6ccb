"""The collector's tuning lasts while any bot of the process runs, and is undone after."""

from __future__ import annotations

import gc

from bot.ops import collector


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
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0
