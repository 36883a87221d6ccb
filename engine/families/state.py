"""What a hand remembers between its events."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.models import SEATS, KongKind, Seat


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
    still_in: list[Seat] = field(default_factory=lambda: list(SEATS))
    winners: list[Seat] = field(default_factory=list)
    first_win: tuple[list[Seat], Seat | None] | None = None  # (winners, discarder)
    kongs: list[KongRecord] = field(default_factory=list)
    closed: bool = False
    next_dealer: Seat | None = None
