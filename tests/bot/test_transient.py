"""What the dispatcher tries again, and what it reports as "nothing was recorded"; which
of the database's failures pass (judged by what happened, not by one class)."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path
from typing import Any

import asyncpg
import pytest
from sqlalchemy.exc import (
    DBAPIError,
    IntegrityError,
    InterfaceError,
    OperationalError,
    PendingRollbackError,
    ProgrammingError,
)
from telegram.error import BadRequest, RetryAfter, TimedOut

from bot.console.fake_api import ApiError
from bot.delivery.dispatch import transient
from storage.errors import LedgerError, database_away
from storage.sql import unit_of_work
from tests.bot.harness import table


def wrapped(cls: type[DBAPIError], orig: BaseException, invalidated: bool = False
            ) -> DBAPIError:
    """As SQLAlchemy's asyncpg adapter raises it: the driver's error as ``orig``'s cause."""
    exc = cls("SELECT 1", {}, orig, connection_invalidated=invalidated)
    return exc


def test_passing_failures_are_tried_again_and_refusals_are_not() -> None:
    busy = OperationalError("BEGIN IMMEDIATE", {}, sqlite3.OperationalError("database is locked"))
    assert transient(busy) and transient(TimedOut()) and transient(RetryAfter(1))
    assert transient(ConnectionResetError())
    assert not transient(BadRequest("message is too long"))
    assert not transient(LedgerError("no_night_going", "no table"))
    assert not transient(RuntimeError("a bug"))


def driver(exc: BaseException) -> Exception:
    """The adapter's error raised from the driver's, as SQLAlchemy's asyncpg dialect does."""
    try:
        raise RuntimeError("adapted") from exc
    except RuntimeError as adapted:
        return adapted


@pytest.mark.parametrize("exc", [
    wrapped(DBAPIError, driver(asyncpg.exceptions.ConnectionDoesNotExistError("gone"))),
    wrapped(DBAPIError, driver(asyncpg.exceptions.InternalClientError("bad state"))),
    wrapped(InterfaceError, driver(asyncpg.exceptions.InterfaceError("connection is closed"))),
    wrapped(DBAPIError, driver(asyncpg.exceptions.AdminShutdownError("terminating"))),
    wrapped(DBAPIError, driver(asyncpg.exceptions.CannotConnectNowError("starting up"))),
    wrapped(DBAPIError, driver(asyncpg.exceptions.SerializationError("could not serialize"))),
    wrapped(DBAPIError, driver(asyncpg.exceptions.DeadlockDetectedError("deadlock"))),
    wrapped(ProgrammingError, RuntimeError("anything"), invalidated=True),
    ConnectionRefusedError(111, "Connect call failed"),
    ConnectionResetError(),
    wrapped(OperationalError, sqlite3.OperationalError("database is locked")),
], ids=lambda e: type(e).__name__ + ":" + str(getattr(e, "orig", e))[:30])
def test_the_database_away_is_told_by_what_happened(exc: BaseException) -> None:
    assert database_away(exc)


def test_a_cleanup_error_does_not_hide_the_disconnect_behind_it() -> None:
    cause = wrapped(InterfaceError, driver(asyncpg.exceptions.InterfaceError(
        "connection is closed")))
    try:
        try:
            raise cause
        except InterfaceError:
            raise PendingRollbackError("Can't reconnect until invalid transaction is rolled "
                                       "back", None, None) from None
    except PendingRollbackError as cleanup:
        assert database_away(cleanup)


@pytest.mark.parametrize("exc", [
    wrapped(IntegrityError, driver(asyncpg.exceptions.UniqueViolationError("duplicate"))),
    wrapped(ProgrammingError, driver(asyncpg.exceptions.UndefinedTableError("no table"))),
    wrapped(DBAPIError, driver(asyncpg.exceptions.InterfaceError(
        "cannot perform operation: another operation is in progress"))),
    wrapped(OperationalError, sqlite3.OperationalError("no such table: hands")),
    LedgerError("no_night_going", "no table"),
    RuntimeError("a bug"),
], ids=lambda e: type(e).__name__ + ":" + str(getattr(e, "orig", e))[:30])
def test_a_bug_or_a_refusal_is_not_the_database_away(exc: BaseException) -> None:
    assert not database_away(exc)


async def test_an_undo_press_whose_answer_telegram_throttles_is_no_error(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """The Undo press answers through the same path as every button answer: Telegram's
    429 on it is logged at INFO, the undo is recorded, the keyboard is edited (queued)."""
    async with table(tmp_path) as t:
        await t.say("alice", "/new chengdu @alice @bob @carol @dave")
        out = await t.say("bob", "/hu bob 自摸")
        recorded = next(m for m in out if m.buttons)

        async def throttle(method: str, _params: dict[str, Any]) -> None:
            if method == "answerCallbackQuery":
                raise ApiError("Too Many Requests: retry after 30", 429, retry_after=30)

        t.api.faults.append(throttle)
        with caplog.at_level(logging.INFO):
            await t.press("bob", recorded, recorded.buttons[0]["callback_data"])
        night = await t.ledger.open_nights.current_night(t.chat_id)
        assert night is not None and not any(night.totals.values())  # undone
        assert recorded.buttons == []  # its Undo button went with it
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_a_report_while_the_database_is_away_is_recorded_once_it_is_back(
        tmp_path: Path, caplog: pytest.LogCaptureFixture,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """More failures than ``handle_attempts`` allows for Telegram's: the database being
    away is tried until it is back, said nothing of to the chat, logged once."""
    async with table(tmp_path) as t:
        await t.say("alice", "/new chengdu @alice @bob @carol @dave")
        real = unit_of_work.run
        away = {"left": 7}

        async def flaky(engine: Any, fn: Any, *args: Any, write: bool) -> Any:
            if write and away["left"] > 0:
                away["left"] -= 1
                raise OperationalError("BEGIN IMMEDIATE", {},
                                       sqlite3.OperationalError("database is locked"))
            return await real(engine, fn, *args, write=write)

        monkeypatch.setattr(unit_of_work, "run", flaky)
        with caplog.at_level(logging.INFO):
            out = await t.say("bob", "/hu bob 自摸")
        assert away["left"] == 0
        [answer] = [m for m in out if m.reply_to is not None]
        assert "bob" in answer.text and "nothing was recorded" not in answer.text
        night = await t.ledger.open_nights.current_night(t.chat_id)
        assert night is not None and any(night.totals.values())
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
        ended = [r.getMessage() for r in caplog.records
                 if r.getMessage().startswith("the database was away for")]
        assert len(ended) >= 1 and all(r.levelno == logging.WARNING for r in caplog.records
                                       if r.getMessage() in ended)
