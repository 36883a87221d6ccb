"""One account of the database being away, shared by the pipeline's parts.

While the database is away (see :func:`storage.errors.database_away`) the poller, the
dispatcher, the sender and the sweeps try again, quietly: the first failure is logged
once at INFO, one WARNING if it lasts over :data:`LONG` seconds, and one WARNING when the
database answers again, with how long it was away and how many operations waited. What
gives up for good is an ERROR where it gives up, never here.
"""

from __future__ import annotations

import logging
import time

from storage.errors import database_away

log = logging.getLogger(__name__)

LONG = 30.0  # seconds away before a WARNING that it goes on


class Outage:
    def __init__(self) -> None:
        self.since: float | None = None
        self.failures = 0
        self.cause = ""
        self.told_long = False
        self.outages = 0  # ended, since start (for tests and metrics)

    @property
    def away(self) -> bool:
        return self.since is not None

    def seen(self, exc: BaseException, where: str) -> bool:
        """Note a failure; True if it is the database being away (then nothing more need
        be logged about it), False for anything else (the caller reports it)."""
        if not database_away(exc):
            return False
        self.failures += 1
        if self.since is None:
            self.since = time.monotonic()
            self.told_long = False
            text = str(exc).splitlines()[0][:200] if str(exc) else ""
            self.cause = f"{type(exc).__name__}: {text}"
            log.info("the database is away (%s, in %s); trying again until it is back",
                     self.cause, where)
        elif not self.told_long and time.monotonic() - self.since > LONG:
            self.told_long = True
            log.warning("the database has been away for %.0f s (%s); still trying",
                        time.monotonic() - self.since, self.cause)
        return True

    def back(self) -> None:
        """The database answered: end the outage, if there was one."""
        if self.since is None:
            return
        lasted = time.monotonic() - self.since
        log.warning("the database was away for %.1f s (%s); %d operations waited and were "
                    "tried again", lasted, self.cause, self.failures)
        self.since, self.failures = None, 0
        self.outages += 1
