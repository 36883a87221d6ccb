"""An event's running account: who pays whom, and the lines that say why."""

from __future__ import annotations

from typing import Any

from engine.models import SEATS, Seat


class Book:
    def __init__(self, seats: tuple[Seat, ...] = SEATS) -> None:
        self.deltas: dict[Seat, int] = dict.fromkeys(seats, 0)
        # Plain dicts here; the whole result is validated into models once, at the end.
        self.lines: list[dict[str, Any]] = []

    def line(self, code: str, **params: str | int) -> None:
        self.lines.append({"code": code, "params": params})

    def pay(self, payer: Seat, payee: Seat, amount: int, reason: str) -> None:
        if amount == 0 or payer == payee:
            return
        self.deltas[payer] -= amount
        self.deltas[payee] += amount
        self.line("pay", payer=payer, payee=payee, amount=amount, reason=reason)
