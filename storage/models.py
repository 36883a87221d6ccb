"""What the ledger returns: pydantic contracts between storage and the bot."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from engine.models import EventResult, HandResult, Seat

# The ledger's bounds: a stake of at most 10,000 per point (cents fit the 32-bit column and
# transfers stay exact), and running totals kept inside the 32-bit point columns.
MAX_STAKE_CENTS = 1_000_000
MAX_TOTAL = 2_000_000_000


class Contract(BaseModel):
    model_config = ConfigDict(frozen=True)


class ChatInfo(Contract):
    id: int
    language: str
    preset: str
    overrides: dict[str, Any]
    stake_cents: int
    verbose: bool = False  # answer events with the full explanation
    time_zone: str | None = None  # its days and times are told there; None: its language's


class PlayerInfo(Contract):
    id: int
    name: str
    telegram_id: int | None = None
    username: str | None = None

    @property
    def is_guest(self) -> bool:
        return self.telegram_id is None


def is_named_as(handle: str, telegram_id: int | None, username: str | None, name: str
                ) -> bool:
    """One person, one row: a guest (a player with no account) named as a member's
    username ``handle`` is that member: seated as that @username, or by a plain name equal
    to it with no @username; case does not count. A player with an account is nobody else,
    and a guest seated by another @username, or who merely shares the member's display
    name, is not them. ``name``: the player's name (or its key, the same lowered)."""
    if telegram_id is not None:
        return False
    key = handle.lower()
    if username is not None:
        return username.lower() == key
    return name.strip().lower() == key


class PlayerRef(Contract):
    """How a caller names a player: a Telegram user, or a guest by name."""

    name: str
    telegram_id: int | None = None
    username: str | None = None


class NightInfo(Contract):
    id: int
    chat_id: int
    preset: str
    rules: dict[str, Any]
    stake_cents: int
    seats: dict[Seat, PlayerInfo]
    dealer: Seat
    hands: int
    status: str
    started_at: datetime
    totals: dict[Seat, int]
    open_hand: int | None = None
    still_in: tuple[Seat, ...] = ()
    board_message_id: int | None = None
    reseated: bool = False  # a seat changed during the night (/seat)
    # The stake changed during the night: per seat, its points at each stake (stake in
    # cents, points), by stake; empty when every hand was at one stake. Points
    # at two stakes are never added: the board says their money.
    points_at: dict[Seat, tuple[tuple[int, int], ...]] = {}

    def seat_of(self, player_id: int) -> Seat | None:
        return next((s for s, p in self.seats.items() if p.id == player_id), None)

    def money_of(self, seat: Seat) -> int:
        """A seat's money in cents: each hand at its own stake."""
        if not self.points_at:
            return self.totals.get(seat, 0) * self.stake_cents
        return sum(stake * n for stake, n in self.points_at.get(seat, ()))


class RecordOutcome(Contract):
    duplicate: bool = False
    hand_number: int = 0
    event_index: int = 0
    event: EventResult | None = None
    hand: HandResult | None = None
    closed: bool = False
    next_dealer: Seat | None = None
    night: NightInfo | None = None
    # Nothing was recorded: the report looks like a second report of hand ``hand_number``
    # and is kept as this question (storage.services.twice) until a player answers it.
    asked: int | None = None
    # What the question is about: the hand that just ended, or a kong, a bite or a set
    # (bonus_set) of the open hand.
    asked_about: Literal["hand", "kong", "bite", "bonus_set"] = "hand"
    asked_by: str | None = None  # who reported it first (None: not a player here)
    asked_seconds: int | None = None  # how long before


class HandChange(Contract):
    number: int
    dealer_before: Seat
    dealer_after: Seat
    deltas_before: dict[Seat, int]
    deltas_after: dict[Seat, int]
    # Who played the hand, when a seat changed after it (None: the table as it sits now).
    players: dict[Seat, PlayerInfo] | None = None


class EditOutcome(Contract):
    action: str
    hand_number: int
    changes: tuple[HandChange, ...]
    night: NightInfo


class UndoOutcome(Contract):
    hand_number: int
    # The event (0-based) taken back; for an undone correction, the event that /edit N.M
    # changed, or None when the correction was of the whole hand.
    event_index: int | None
    removed: dict[str, Any]
    deltas: dict[Seat, int]  # how the table's seats' totals moved (who sits there now)
    night: NightInfo
    correction: bool = False  # a correction (/edit, /void) was taken back, not an event
    # Everyone whose result moved and by how much, who left the table (/seat) included:
    # the hand's players in seat order first.
    moved: tuple[tuple[PlayerInfo, int], ...] = ()


class Transfer(Contract):
    payer: PlayerInfo
    payee: PlayerInfo
    points: int
    cents: int


class Debt(Contract):
    id: int
    night_id: int
    payer: PlayerInfo
    payee: PlayerInfo
    points: int
    cents: int
    paid: bool


class Summary(Contract):
    night_id: int
    hands: int
    stake_cents: int
    nets: dict[int, int]  # player id -> points
    players: dict[int, PlayerInfo]
    transfers: tuple[Transfer, ...]
    debts: tuple[Debt, ...] = ()
    # Money per player id, each hand at its own stake, and the stakes the night was played
    # at (more than one when the stake changed during the night: then the transfers are in
    # money, and their points are 0).
    money: dict[int, int] = {}
    stakes: tuple[int, ...] = ()
    # When the stake changed: per player id, their points at each stake (stake in cents,
    # points), as the night's money is made of; points at two stakes are never added.
    points_at: dict[int, tuple[tuple[int, int], ...]] = {}
    biggest: tuple[PlayerInfo, int, int] | None = None  # player, points, hand number
    most_wins: tuple[PlayerInfo, int] | None = None
    most_winners: tuple[PlayerInfo, ...] = ()  # everyone tied for the most wins
    # Per seat, who played it and their points there, its first player first (a seat
    # changed hands when a substitute came in): an MCR match ranks seats, not players.
    seat_points: dict[Seat, dict[int, int]] = {}


    @property
    def mixed(self) -> bool:
        """The stake changed during the night."""
        return len(self.stakes) > 1

    def money_of(self, player_id: int) -> int:
        return self.money.get(player_id, self.nets.get(player_id, 0) * self.stake_cents)


class Standing(Contract):
    player: PlayerInfo
    net: int
    hands: int
    wins: int


class PlayerStats(Contract):
    player: PlayerInfo
    hands: int
    wins: int
    self_draws: int
    dealt_in: int  # times: in a blood battle one can deal in twice in one hand
    net: int
    biggest: int
    average_win: float
    # Hands with at least one win / one deal-in: what the rates are out of ``hands``.
    hands_won: int = 0
    hands_dealt_in: int = 0


class HistoryItem(Contract):
    night_id: int
    number: int
    dealer: Seat
    status: str
    deltas: dict[Seat, int]
    seats: dict[Seat, str]
    events: int
    created_at: datetime


class HistoryPage(Contract):
    items: tuple[HistoryItem, ...]
    page: int
    pages: int
    total: int
