"""CPython's garbage collector, tuned for a long-running bot.

By default CPython runs a collection every 700 container allocations (net), and now and
then over the whole heap. A report allocates thousands of short-lived objects (the update,
rows, results, the answer), so under load the collector ran several times a report, each
pass also walking survivors. And what the bot loads at start (python-telegram-bot,
SQLAlchemy, matplotlib and their caches: about 170,000 objects) is alive for good, yet
every full pass walks it again.

While the bot runs:

- what is alive once it has started is moved out of the collector's sight
  (``gc.freeze``, after a collection, so that no garbage is kept with it);
- the youngest generation is collected every ``YOUNGEST`` allocations instead of 700.
  Objects in a reference cycle wait a little longer to be freed (a few MB at most);
  everything else is freed at once by reference counting, as always.

Measured with ``bench.load_bench`` (saturated, SQLite): see docs/performance.md.
Both are undone when the bot stops (tests and benches start many bots in one
process).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

YOUNGEST = 50_000


class _Held:
    bots = 0
    before: tuple[int, int, int] = (700, 10, 10)


_held = _Held()


@contextmanager
def tuned() -> Iterator[None]:
    """While any bot of this process runs (tests and benches run several, one after
    another or overlapping): tuned by the first, restored by the last."""
    if _held.bots == 0:
        _held.before = gc.get_threshold()
        gc.collect()
        gc.freeze()
        gc.set_threshold(YOUNGEST, *_held.before[1:])
    _held.bots += 1
    try:
        yield
    finally:
        _held.bots -= 1
        if _held.bots == 0:
            gc.set_threshold(*_held.before)
            gc.unfreeze()
