"""Inline keyboards and their compact, versioned callback data (at most 64 bytes).

``v1:u:<night>:<hand>:<event>`` undoes an event; ``v1:d:<draft>:<version>:<action>``
drives a guided report stored as a draft in the database, so buttons survive a restart;
``v1:x:<night>:<hand>:<event>:<check>`` shows an event's full explanation, where
``check`` is a checksum of the event's result, so a press after an undo or correction
changed that event is refused instead of showing another event.
``v1:b:<night>:<seat>`` on the scoreboard starts a guided report with the winner chosen.
``v1:e:<night>:<hand>:<event>`` under /hand N starts a guided report that replaces that
event (a guided edit).
"""

from __future__ import annotations

import json
import re
import zlib
from dataclasses import dataclass

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.text.i18n import pt, t
from engine.models import SEATS, EventResult
from engine.rules import get_preset, presets
from storage.models import NightInfo

VERSION = "v1"
# Ids are ASCII digits that fit the ledger's 32-bit columns: forged data is no crash.
_ID = r"(0|[1-9][0-9]{0,8})"
_UNDO = re.compile(rf"^v1:u:{_ID}:{_ID}:{_ID}$")
_DETAILS = re.compile(rf"^v1:x:{_ID}:([0-9]{{1,6}}):([0-9]{{1,4}}):([0-9a-f]{{8}})$")
_BOARD = re.compile(rf"^v1:b:{_ID}:([ESWN])$")
_EDIT = re.compile(rf"^v1:e:{_ID}:([0-9]{{1,6}}):([0-9]{{1,2}})$")
_DRAFT = re.compile(rf"^v1:d:{_ID}:{_ID}:([a-z]{{1,3}})(?::([A-Za-z0-9_]{{1,24}}))?$")


@dataclass(frozen=True)
class UndoData:
    night_id: int
    hand: int
    event: int


@dataclass(frozen=True)
class DraftData:
    draft_id: int
    version: int
    action: str
    arg: str | None


@dataclass(frozen=True)
class BoardData:
    night_id: int
    seat: str


@dataclass(frozen=True)
class EditData:
    night_id: int
    hand: int
    event: int  # 0-based


def edit_data(night_id: int, hand: int, event: int) -> str:
    return f"{VERSION}:e:{night_id}:{hand}:{event}"


def undo_data(night_id: int, hand: int, event: int) -> str:
    return f"{VERSION}:u:{night_id}:{hand}:{event}"


def draft_data(draft_id: int, version: int, action: str, arg: str | int | None = None) -> str:
    data = f"{VERSION}:d:{draft_id}:{version}:{action}" + ("" if arg is None else f":{arg}")
    assert len(data.encode()) <= 64, data
    return data


def board_data(night_id: int, seat: str) -> str:
    return f"{VERSION}:b:{night_id}:{seat}"


def parse_callback(data: str | None) -> UndoData | DraftData | BoardData | EditData | None:
    """The button's data, or None when it is malformed, forged or from another version."""
    if not data or len(data.encode()) > 64:
        return None
    m = _UNDO.match(data)
    if m:
        return UndoData(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    m = _DRAFT.match(data)
    if m:
        return DraftData(int(m.group(1)), int(m.group(2)), m.group(3), m.group(4))
    m = _BOARD.match(data)
    if m:
        return BoardData(int(m.group(1)), m.group(2))
    m = _EDIT.match(data)
    if m:
        return EditData(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    return None


@dataclass(frozen=True)
class DetailsData:
    night_id: int
    hand: int
    event: int
    check: str


def event_check(event: EventResult) -> str:
    """A short checksum of an event's result: its deltas and lines."""
    blob = json.dumps(event.model_dump(mode="json"), sort_keys=True, ensure_ascii=False)
    return f"{zlib.crc32(blob.encode()):08x}"


def details_data(night_id: int, hand: int, event: EventResult) -> str:
    data = f"{VERSION}:x:{night_id}:{hand}:{event.index}:{event_check(event)}"
    assert len(data.encode()) <= 64, data
    return data


def parse_details(data: str | None) -> DetailsData | None:
    """A Details button's data, or None when malformed, forged or from another version."""
    if not data or len(data.encode()) > 64:
        return None
    m = _DETAILS.match(data)
    if m is None:
        return None
    return DetailsData(int(m.group(1)), int(m.group(2)), int(m.group(3)), m.group(4))


def answer_keyboard(lang: str, night_id: int, hand: int, event: EventResult,
                    details: bool = True) -> InlineKeyboardMarkup:
    """Undo, and Details when the answer is the compact one."""
    row = [InlineKeyboardButton(t(lang, "Undo"), callback_data=undo_data(
        night_id, hand, event.index))]
    if details:
        row.append(InlineKeyboardButton(t(lang, "Details"), callback_data=details_data(
            night_id, hand, event)))
    return InlineKeyboardMarkup([row])
def board_keyboard(lang: str, night: NightInfo) -> InlineKeyboardMarkup:
    """The scoreboard's quick report: one button per player still in the hand; a press
    starts a guided report with that player as the winner."""
    seats = [s for s in SEATS if s in (night.still_in or SEATS) and s in night.seats]
    hongkong = night.preset in presets() and get_preset(night.preset).family == "hongkong"
    return grid([(pt(lang, "hongkong", "{player} won…", player=night.seats[s].name)
                  if hongkong else t(lang, "{player} won…", player=night.seats[s].name),
                  board_data(night.id, s)) for s in seats], 2)


def undo_keyboard(label: str, night_id: int, hand: int, event: int) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup([[InlineKeyboardButton(label, callback_data=undo_data(
        night_id, hand, event))]])


def grid(buttons: list[tuple[str, str]], width: int = 3) -> InlineKeyboardMarkup:
    rows = [buttons[i : i + width] for i in range(0, len(buttons), width)]
    return InlineKeyboardMarkup([[InlineKeyboardButton(text, callback_data=data)
                                  for text, data in row] for row in rows])
