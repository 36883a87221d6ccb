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


@dataclass(frozen=True)
class Family:
    name: str
    options: type[FamilyOptions]
    handlers: Mapping[type, Handler]  # event model -> handler; a missing kind is refused
    # Money families (Singapore): points are this many cents each, whatever the stake the
    # table was opened with; None: the table's stake prices a point.
    point_cents: int | None = None
    # The family pays money itself (a share table): its points are cents, and a table
    # plays it at one cent a point, never a stake per point.
    points_in_cents: bool = False
