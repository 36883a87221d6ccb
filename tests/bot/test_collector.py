"""The collector's tuning lasts while any bot of the process runs, and is undone after."""

from __future__ import annotations

import subprocess
import sys

# In a process of its own, with CPython's defaults and no bot running (tests/conftest.py
# keeps the collector tuned for the whole run, and undoing that here would make the
# collector walk the test process's whole heap, seconds late in a run).
CHECK = """
import gc

from bot.ops import collector

before = gc.get_threshold()
assert before == (700, 10, 10) and gc.get_freeze_count() == 0
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
print("ok")
"""


def test_the_first_bot_tunes_the_collector_and_the_last_restores_it() -> None:
    done = subprocess.run([sys.executable, "-c", CHECK], capture_output=True, text=True,
                          timeout=60, check=False)
    assert done.returncode == 0 and done.stdout == "ok\n", done.stderr
