"""A Chinese Official (MCR) table is a match of 16 hands (engine/mcr/match.py): four
rounds of four, the prevalent wind moving each round, the players changing seats between
rounds. The ledger keeps each player under the wind they drew at the start (E S W N, the
order /new seats them in); the round, the dealer and each player's seat wind of a hand
follow from its number. At the match's end each player's table points give rank points
(4 2 1 0, ties shared)."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any

from bot.text import words
from bot.text.i18n import t
from engine.mcr import match
from engine.models import SEATS, Seat
from engine.rules import get_preset, presets
from storage.models import NightInfo, Summary


def hand_index(s: NightInfo) -> int | None:
    """The match hand (0-15) being played at an MCR table of four, or None."""
    if get_preset(s.preset).family != "mcr" or len(s.seats) != 4:
        return None
    h = s.hands - (1 if s.open_hand else 0)
    return h if 0 <= h < match.HANDS else None


def winds(h: int) -> dict[Seat, Seat]:
    """Each player's seat wind in hand ``h``, by the wind they drew (their ledger seat)."""
    return {p: match.seat_wind(h, SEATS.index(p)) for p in SEATS}


def dealer(s: NightInfo) -> Seat:
    """Who deals the hand being played: at a match, the player whose seat wind is East."""
    h = hand_index(s)
    if h is None:
        return s.dealer
    return next(p for p, w in winds(h).items() if w == "E")


def match_text(lang: str, s: NightInfo) -> str | None:
    """The round, the hand and the seat winds, for /table and the scoreboard; after the
    16th hand, that the match is played."""
    h = hand_index(s)
    if h is None:
        return over_text(lang, s)
    seat_winds = words.listing(lang, (f"{escape(s.seats[p].name)} {t(lang, words.SEAT_KEYS[w])}"
                                      for p, w in winds(h).items()))
    return t(lang, "Match: {round}, hand {hand} of 4 ({number} of 16). Seat winds: {winds}.",
             round=t(lang, words.ROUNDS[match.prevalent_wind(h)]), hand=h % 4 + 1, number=h + 1,
             winds=seat_winds)


def report_winds(s: NightInfo, event: dict[str, Any]) -> dict[str, Any]:
    """A win reported as tiles at a match: the round's wind and the winner's seat wind,
    where the report does not name them (圈东, 门南)."""
    h = hand_index(s)
    if h is None:
        return event
    for hand in event.get("winners", []):
        mcr = hand.get("mcr")
        if mcr is not None and "standing" in mcr:
            mcr.setdefault("prevalent", match.prevalent_wind(h))
            mcr.setdefault("seat_wind", winds(h)[hand["seat"]])
    return event


def _points(twelfths: int) -> str:
    whole, part = divmod(twelfths, match.RANK_SCALE)
    return str(whole) if not part else f"{twelfths / match.RANK_SCALE:.2f}".rstrip("0")


def played(s: NightInfo) -> bool:
    """An MCR match whose 16 hands are played: nothing more is recorded in it."""
    return get_preset(s.preset).family == "mcr" and not s.open_hand and s.hands >= match.HANDS


def over_text(lang: str, s: NightInfo) -> str | None:
    """After the 16th hand of a match: what to do next."""
    if not played(s):
        return None
    return t(lang, "The match's 16 hands are played: /end gives the rank points, then /new "
                   "starts the next match.")


def rank_text(lang: str, s: NightInfo, sm: Summary) -> str:
    """Each player's rank points and table points, at the end of an MCR match (empty for
    any other table). Places go by seat: a substitute plays for the seat, whose rank points
    go to the player whose seat it is; each player keeps the table points they earned."""
    if get_preset(s.preset).family != "mcr" or len(sm.seat_points) != 4:
        return ""
    names = {pid: p.name for pid, p in sm.players.items()}
    game = [(names[next(iter(by))], {names[pid]: n for pid, n in by.items()})
            for by in sm.seat_points.values()]
    rows = [t(lang, "Rank points (4 2 1 0, ties shared), then table points:")]
    rows += ["  " + t(lang, "{player}: {rank} rank, {points} table", player=escape(name),
                      rank=_points(rank), points=points)
             for name, rank, points in match.standings([game])]
    return "\n" + "\n".join(rows)


def standings_text(lang: str, games: Sequence[Sequence[match.MatchSeat]]) -> str:
    """The chat's MCR matches, players by rank points, then table points (empty: none)."""
    if not games:
        return ""
    rows = [t(lang, "Matches (国标麻将, {count}): rank points, then table points:",
              count=len(games))]
    rows += ["  " + t(lang, "{player}: {rank} rank, {points} table", player=escape(name),
                      rank=_points(rank), points=points)
             for name, rank, points in match.standings(games)]
    return "\n\n" + "\n".join(rows)


def mcr_presets() -> tuple[str, ...]:
    """The presets whose tables are MCR matches."""
    return tuple(name for name, p in presets().items() if p.family == "mcr")
