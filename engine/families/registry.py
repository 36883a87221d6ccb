"""What a family is to the settler: its options, and a handler per kind of event.

Each family module declares one :class:`Family`; ``engine.families.FAMILIES`` collects
them. A new family is a new module and one line there; no other family changes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from engine.book import Book
from engine.families.state import HandState
from engine.options import FamilyOptions


@dataclass(frozen=True)
class EventContext:
    index: int
    book: Book
    indicator: int | None


Handler = Callable[[Any, HandState, Any, EventContext], None]
# The stake of a table whose family's points are cents (Family.points_in_cents).
POINT_CENT = 1


@dataclass(frozen=True)
class Family:
    name: str
    options: type[FamilyOptions]
    handlers: Mapping[type, Handler]  # event model -> handler; a missing kind is refused
    # The family pays money itself (Singapore's stake tables, Hong Kong's share table): its
    # points are cents of the table's money, and a table of it plays at one cent a point
    # (POINT_CENT), whatever stake the chat plays at; never a stake per point.
    points_in_cents: bool = False
