"""What a hand remembers between its events."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.models import SEATS, KongKind, Seat, next_seat


@dataclass
class KongRecord:
    event: int
    seat: Seat
    kind: KongKind
    received: dict[Seat, int] = field(default_factory=dict)  # payer -> amount
    void: bool = False  # robbed: its money went back
    handed_on: bool = False  # 呼叫转移 gave its money to a winner


@dataclass
class HandState:
    dealer: Seat
    seats: tuple[Seat, ...] = SEATS  # the table's seats: E S W N, or E S W with three
    still_in: list[Seat] = field(default_factory=list)
    winners: list[Seat] = field(default_factory=list)
    first_win: tuple[list[Seat], Seat | None] | None = None  # (winners, discarder)
    kongs: list[KongRecord] = field(default_factory=list)
    closed: bool = False
    next_dealer: Seat | None = None
    barred: list[Seat] = field(default_factory=list)  # MCR: false winners, out of this hand

    def __post_init__(self) -> None:
        if not self.still_in:
            self.still_in = list(self.seats)

    def next_seat(self, seat: Seat, step: int = 1) -> Seat:
        """The seat ``step`` places on round this table."""
        return next_seat(seat, step, len(self.seats))
