"""Chats and their players: a chat's settings, and who plays in it."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select, update
from sqlalchemy.engine import Connection, Row

from engine.families import FAMILIES
from engine.rules import get_preset, presets, ruleset
from storage.errors import LedgerError
from storage.models import (
    MAX_STAKE_CENTS,
    ChatInfo,
    NightInfo,
    PlayerInfo,
    PlayerRef,
    is_named_as,
)
from storage.services import rows as repo
from storage.services.merge import merge_guest
from storage.sql import tables as t
from storage.sql.store import Service, Store


def own_money_presets() -> list[str]:
    """Presets whose family counts its points in money of its own (Singapore, Hong Kong: a
    point is a cent): their tables keep that stake whatever the chat's stake is."""
    return [p for p in presets() if FAMILIES[get_preset(p).family].points_in_cents]


class Chats(Service):
    """A chat's settings (created on first use) and its players: found by name, added,
    a guest linked to a Telegram account, a member who acts without a seat named."""

    async def chat(self, chat_id: int, language: str = "zh-Hans") -> ChatInfo:
        """The chat's settings, created on first use."""

        def unit(conn: Connection) -> ChatInfo:
            return repo.ensure_chat(conn, chat_id, language)

        return await self.store.run(unit, write=True, batch=True)

    async def chat_and_night(self, chat_id: int, language: str = "zh-Hans"
                             ) -> tuple[ChatInfo, NightInfo | None]:
        """The chat's settings (created on first use) and its open table (None: no
        table), in one transaction: what an update's handling reads first when nothing
        of the chat is kept in memory (several workers)."""

        def unit(conn: Connection) -> tuple[ChatInfo, NightInfo | None]:
            return repo.chat_and_open_night(conn, chat_id, language)

        return await self.store.run(unit, write=True, batch=True)

    async def update_chat(self, chat_id: int, *, language: str | None = None,
                          preset: str | None = None, overrides: dict[str, Any] | None = None,
                          stake_cents: int | None = None, verbose: bool | None = None,
                          time_zone: str | None = None) -> ChatInfo:
        """``time_zone``: an IANA name or ``UTC±HH:MM`` (storage.sql.clock.zone_name), or
        ``""`` for the language's default."""

        def unit(conn: Connection) -> ChatInfo:
            chat = repo.ensure_chat(conn, chat_id)
            values: dict[str, Any] = {}
            if language is not None:
                values["language"] = language
            if preset is not None or overrides is not None:
                new_preset = preset or chat.preset
                new_over = chat.overrides if overrides is None else overrides
                if preset is not None and overrides is None:
                    new_over = {}
                ruleset(new_preset, new_over)  # validates, or raises ReportError
                values["preset"], values["overrides"] = new_preset, new_over
            if stake_cents is not None:
                if not 0 <= stake_cents <= MAX_STAKE_CENTS:
                    raise LedgerError("bad_stake", "the stake is out of range",
                                      token=str(stake_cents / 100))
                values["stake_cents"] = stake_cents
            if verbose is not None:
                values["verbose"] = verbose
            if time_zone is not None:
                values["time_zone"] = time_zone or None
            if values:
                conn.execute(update(t.chats).where(t.chats.c.id == chat_id)
                             .values(**values))
            if stake_cents is not None:  # a night going plays it from its next hand
                s = t.nights.c
                # (not a table that pays money itself: its points are cents, 1 a point)
                conn.execute(update(t.nights).where(s.chat_id == chat_id,
                                                      s.status == "open",
                                                      s.preset.notin_(own_money_presets()))
                             .values(stake_cents=stake_cents))
            return repo.ensure_chat(conn, chat_id)

        return await self.store.run(unit, write=True)

    async def player(self, chat_id: int, ref: PlayerRef) -> PlayerInfo:
        def unit(conn: Connection) -> PlayerInfo:
            repo.ensure_chat(conn, chat_id)
            return repo.find_or_add_player(conn, chat_id, ref)

        return await self.store.run(unit, write=True)

    async def find_player(self, chat_id: int, name: str) -> PlayerInfo | None:
        """A player of this chat by name, @username, or Telegram id."""
        p = t.players.c
        key = name.strip().lstrip("@").lower()

        def unit(conn: Connection) -> list[Row[Any]]:
            return list(conn.execute(select(t.players).where(p.chat_id == chat_id)).all())

        for row in await self.store.run(unit, write=False):
            if row.name_key == key or (row.username or "").lower() == key:
                return repo.player_info(row)
        return None

    async def link_guest(self, chat_id: int, guest_name: str, telegram_id: int,
                         username: str | None = None) -> PlayerInfo:
        p = t.players.c

        def unit(conn: Connection) -> PlayerInfo:
            row = conn.execute(select(t.players).where(
                p.chat_id == chat_id, p.name_key == guest_name.strip().lower())).first()
            if row is None or row.telegram_id is not None:
                raise LedgerError("no_guest", f"no guest named {guest_name!r} here",
                                  name=guest_name)
            taken = conn.execute(select(p.id).where(
                p.chat_id == chat_id, p.telegram_id == telegram_id)).first()
            if taken is not None:
                raise LedgerError("already_linked", "that account already plays here")
            conn.execute(update(t.players).where(p.id == row.id).values(
                telegram_id=telegram_id, username=username))
            return PlayerInfo(id=row.id, name=row.name, telegram_id=telegram_id,
                              username=username)

        return await self.store.run(unit, write=True)

    async def link_member(self, chat_id: int, telegram_id: int, username: str
                          ) -> PlayerInfo | None:
        """The member with this account and @username takes the seat of the guest seated
        at the open table under that name (seated as @username, or by a plain name equal
        to it, and no account yet): the guest's row gets the account or, when the account
        has a row of its own, is merged into it (:func:`storage.services.merge.merge_guest`), so the
        person is one player. None when no such guest sits there, the account sits there
        already, or the two rows ever sat at one table (two people)."""
        p = t.players.c

        def unit(conn: Connection) -> PlayerInfo | None:
            srow = repo.night_row(conn, chat_id, lock=True)
            if srow is None:
                return None
            rows = conn.execute(select(t.players).where(
                p.id.in_(list(repo.seated(srow).values())))).all()
            if any(r.telegram_id == telegram_id for r in rows):
                return None
            guest = next((r for r in rows if is_named_as(
                username, r.telegram_id, r.username, r.name_key)), None)
            if guest is None:
                return None
            member = conn.execute(select(t.players).where(
                p.chat_id == chat_id, p.telegram_id == telegram_id)).first()
            if member is None:  # the account's first row: the guest's
                conn.execute(update(t.players).where(p.id == guest.id).values(
                    telegram_id=telegram_id, username=username))
                return PlayerInfo(id=guest.id, name=guest.name, telegram_id=telegram_id,
                                  username=username)
            if not merge_guest(conn, chat_id, guest.id, member.id,
                               actor=telegram_id):
                return None
            if member.username != username:
                conn.execute(update(t.players).where(p.id == member.id)
                             .values(username=username))
            return PlayerInfo(id=member.id, name=member.name, telegram_id=telegram_id,
                              username=username)

        return await self.store.run(unit, write=True)

    def note_member(self, chat_id: int, telegram_id: int, name: str,
                    username: str | None = None) -> None:
        """The name of a member about to act without a seat; nothing is written until
        they change something (a refusal writes nothing): :func:`name_members`."""
        noted = self.store.noted_members
        if len(noted) > 10_000:
            noted.clear()
        noted[(chat_id, telegram_id)] = (name, username)


def name_members(store: Store, conn: Connection, chat_id: int, *ids: int | None) -> None:
    """In a write's own transaction: keep the name of each actor noted by
    :meth:`Chats.note_member` (:func:`storage.services.rows.known_member`)."""
    for telegram_id in ids:
        noted = store.noted_members.get((chat_id, telegram_id)) if telegram_id else None
        if noted is not None and telegram_id is not None:
            repo.known_member(conn, chat_id, telegram_id, *noted)
