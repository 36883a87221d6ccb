"""The words after ``/score``, the tile calculator: a hand's tiles, with ``family=`` (or a
family's name: whose shapes win) and ``wild=`` (wild tiles); after ``/score mcr``, a
Chinese Official (MCR) hand, the player's at East as at a table: melds name their source
by seat (``碰东东东@W``, or 上家 对家 下家), ``自摸`` or a discard (the default)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.dialogs.grammar import DISCARD, SELF_DRAW, GrammarError, Token
from bot.dialogs.mcr_grammar import KONG_DRAW_WORDS, ROB_WORDS, parse_mcr_win
from bot.text.words import preset_key
from engine.rules import presets
from engine.shape_rules import FAMILY_SHAPES

# Seats as /score names them, seen from the scored hand at East.
_SEATS = {"E": "E", "S": "S", "W": "W", "N": "N", "下家": "S", "对家": "W", "上家": "N"}
_HOWS = SELF_DRAW | KONG_DRAW_WORDS | ROB_WORDS | DISCARD


@dataclass(frozen=True)
class ScoreAsked:
    """A hand to read: its tiles as typed, the family whose shapes win, the wild tiles."""

    tiles: str
    family: str = "standard"
    wild: str = ""


def is_mcr(words: list[str]) -> bool:
    """``/score mcr …``: a Chinese Official hand's fans."""
    return bool(words) and preset_key(words[0], presets()) == "mcr"


def parse_score(words: list[str]) -> ScoreAsked:
    """``123m 456p … family=sichuan wild=5s``; ``score_usage`` without tiles or with a
    family the calculator does not know."""
    family, wild = "standard", ""
    tiles = []
    for w in words:
        if w.lower().startswith(("family=", "家族=")):
            family = w.split("=", 1)[1].lower()
        elif w.lower().startswith(("wild=", "宝=")):
            wild = w.split("=", 1)[1].replace(",", " ")
        elif w.lower() in FAMILY_SHAPES:
            family = w.lower()
        else:
            tiles.append(w)
    if not tiles or family not in FAMILY_SHAPES:
        raise GrammarError("score_usage")
    return ScoreAsked(" ".join(tiles), family, wild)


def _seat(tok: Token) -> str | None:
    return _SEATS.get(tok.text.lstrip("@").upper()) or _SEATS.get(tok.text.lstrip("@"))


def parse_mcr_score(words: list[str]) -> dict[str, Any]:
    """The words after ``/score mcr`` as a win by East (:func:`parse_mcr_win`'s event),
    off a discard unless they say how it was won (the fans are the same from any seat)."""
    tokens = [Token("E"), *(Token(w) for w in words)]
    if not any(w.lower() in _HOWS for w in words):
        tokens += [Token("from"), Token("W")]
    return parse_mcr_win(tokens, _seat)
