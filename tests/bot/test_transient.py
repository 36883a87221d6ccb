"""What the dispatcher tries again, and what it reports as "nothing was recorded"."""

from __future__ import annotations

from sqlalchemy.exc import OperationalError
from telegram.error import BadRequest, RetryAfter, TimedOut

from bot.delivery.dispatch import transient
from storage.errors import LedgerError


def test_passing_failures_are_tried_again_and_refusals_are_not() -> None:
    busy = OperationalError("BEGIN IMMEDIATE", {}, Exception("database is locked"))
    assert transient(busy) and transient(TimedOut()) and transient(RetryAfter(1))
    assert transient(ConnectionResetError())
    assert not transient(BadRequest("message is too long"))
    assert not transient(LedgerError("no_session", "no table"))
    assert not transient(RuntimeError("a bug"))
