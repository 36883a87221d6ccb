"""Who may see and do what in the Mini App, as in the chat: members of the chat read;
players seated at the table and admins (the chat's, or the bot's ``admins``) record.

Membership is asked of Telegram with ``getChatMember`` through the bot's own API object
(so the rate limiter and the configured Bot API server apply), and kept for
:data:`MEMBER_SECONDS`, so polling the board costs no Telegram call.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from telegram import Bot
from telegram.error import BadRequest, Forbidden, NetworkError, TelegramError

from bot.webapp.auth import AuthError, InitData
from storage.models import NightInfo, PlayerInfo

MEMBER_SECONDS = 30.0
MAX_ENTRIES = 10_000
MEMBERS = ("creator", "administrator", "member")
ADMINS = ("creator", "administrator")


@dataclass(frozen=True)
class Member:
    chat_id: int
    user_id: int
    admin: bool  # the chat's admin, the bot's admin, or the user's own private chat


class Members:
    def __init__(self, bot: Bot, admins: frozenset[int], ttl: float = MEMBER_SECONDS) -> None:
        self.bot = bot
        self.admins = admins
        self.ttl = ttl
        self._known: dict[tuple[int, int], tuple[float, str | None]] = {}

    async def status(self, chat_id: int, user_id: int) -> str | None:
        """The user's status in the chat; None when Telegram says they are not in it."""
        key = (chat_id, user_id)
        hit = self._known.get(key)
        if hit is not None and hit[0] > time.monotonic():
            return hit[1]
        try:
            member = await self.bot.get_chat_member(chat_id, user_id)
            status: str | None = str(member.status)
            in_chat = status in MEMBERS or (status == "restricted"
                                             and bool(getattr(member, "is_member", False)))
            status = status if in_chat else None
        except (BadRequest, Forbidden):  # no such member, or the bot left the chat
            status = None
        except NetworkError:
            raise AuthError(503, "Telegram did not answer; try again") from None
        except TelegramError:
            status = None
        if len(self._known) >= MAX_ENTRIES:
            self._known.clear()
        self._known[key] = (time.monotonic() + self.ttl, status)
        return status

    async def check(self, chat_id: int, init: InitData) -> Member:
        """The user as a member of the chat, or :class:`AuthError` (403)."""
        if chat_id == init.user_id:  # the user's own private chat with the bot
            return Member(chat_id, init.user_id, admin=True)
        status = await self.status(chat_id, init.user_id)
        if status is None:
            raise AuthError(403, "not a member of this chat")
        return Member(chat_id, init.user_id,
                      admin=status in ADMINS or init.user_id in self.admins)


def seat_of(night: NightInfo, init: InitData) -> str | None:
    """The user's seat at the table: by account, or by the @username they were seated by."""
    name = str(init.user.get("username") or "").lower()
    for seat, p in night.seats.items():
        if p.telegram_id == init.user_id:
            return seat
    for seat, p in night.seats.items():
        if p.telegram_id is None and name and (p.username or "").lower() == name:
            return seat
    return None


def may_record(member: Member, night: NightInfo | None, init: InitData) -> bool:
    return night is not None and night.status == "open" and (
        member.admin or seat_of(night, init) is not None)


def is_party(init: InitData, players: tuple[PlayerInfo, ...]) -> bool:
    name = str(init.user.get("username") or "").lower()
    return any(p.telegram_id == init.user_id or (p.telegram_id is None and name
                                                 and (p.username or "").lower() == name)
               for p in players)
