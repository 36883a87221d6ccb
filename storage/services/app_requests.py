"""The Mini App's writes by their idempotency key: a report, an undo or a debt marked paid
is claimed under the key its form made when it was opened, before anything is posted in
the group, so that the same request sent twice (a double click, two in flight, a retry
after a lost answer) goes through once. The unique ``(chat_id, key)`` decides between two
at once, on both backends: the second's ``INSERT ... ON CONFLICT DO NOTHING`` waits for
the first's commit and then finds its row."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from sqlalchemy import delete, select, update
from sqlalchemy.engine import Connection

from storage.services.rows import upsert
from storage.sql import tables as t
from storage.sql.clock import now
from storage.sql.store import Service

_r = t.app_requests.c
# A claim whose line never reached the group (its worker died between the claim and the
# post) is taken over by a retry after this long, far longer than a request takes: a
# report is never lost to a crash. (A crash in the instant between the post and ``sent``
# leaves the retry free to send it again: at least once, as everywhere else.)
ABANDONED = timedelta(minutes=2)


@dataclass(frozen=True)
class Claimed:
    """A key seen before: what was sent under it, and where."""

    action: str
    text: str
    hand_number: int | None
    message_id: int | None


def _claimed(row: Any) -> Claimed:
    return Claimed(row.action, row.text, row.hand_number, row.message_id)


class AppRequests(Service):
    async def seen(self, chat_id: int, key: str) -> Claimed | None:
        """What was sent under ``key`` in this chat, or None."""

        def unit(conn: Connection) -> Claimed | None:
            row = conn.execute(select(t.app_requests).where(
                _r.chat_id == chat_id, _r.key == key)).first()
            return None if row is None else _claimed(row)

        return await self.store.run(unit, write=False)

    async def claim(self, chat_id: int, key: str, *, user_id: int, action: str, text: str,
                    night_id: int | None = None, hand_number: int | None = None
                    ) -> Claimed | None:
        """Claim ``key`` for this request: None when it is new (go on and send it), else
        what the first request with it sent (answer "already recorded", send nothing)."""

        def unit(conn: Connection) -> Claimed | None:
            stamp = now()
            made = conn.execute(upsert(conn, t.app_requests).values(
                chat_id=chat_id, key=key, user_id=user_id, action=action, text=text,
                night_id=night_id, hand_number=hand_number, created_at=stamp,
            ).on_conflict_do_nothing(index_elements=["chat_id", "key"])
                .returning(_r.id)).scalar_one_or_none()
            if made is not None:
                return None
            taken_over = conn.execute(update(t.app_requests).where(
                _r.chat_id == chat_id, _r.key == key, _r.message_id.is_(None),
                _r.created_at < stamp - ABANDONED).values(
                user_id=user_id, action=action, text=text, night_id=night_id,
                hand_number=hand_number, created_at=stamp)).rowcount
            if taken_over:
                return None
            return _claimed(conn.execute(select(t.app_requests).where(
                _r.chat_id == chat_id, _r.key == key)).one())

        return await self.store.run(unit, write=True)

    async def sent(self, chat_id: int, key: str, message_id: int) -> None:
        """The request's line is in the group: ``message_id`` (the report's inbox key)."""

        def unit(conn: Connection) -> None:
            conn.execute(update(t.app_requests).where(
                _r.chat_id == chat_id, _r.key == key).values(message_id=message_id))

        await self.store.run(unit, write=True)

    async def release(self, chat_id: int, key: str) -> None:
        """The request could not be sent (Telegram or the inbox refused it): its key is
        free again, for the app's retry."""

        def unit(conn: Connection) -> None:
            conn.execute(delete(t.app_requests).where(
                _r.chat_id == chat_id, _r.key == key, _r.message_id.is_(None)))

        await self.store.run(unit, write=True)
