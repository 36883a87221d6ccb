"""A Chinese Official (MCR) win entered in the Mini App: the standing tiles, the melds (each
with the seat it was claimed from, or concealed), the winning tile, the flags and the flower
count; or the fan count alone. Written as the chat's ``/hu`` at an MCR table
(``/hu bob 点炮 carol 碰111z@dave 吃234m 55m 456p 789s +3s 花2 绝张``) and read by its grammar
(:func:`bot.dialogs.mcr_grammar.parse_mcr_win`). A claim under the 8-fan gate is a false win
(错和): recorded only when the form says so (``false_win``)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from bot.text import render_mcr, words
from bot.text.i18n import is_chinese, t
from bot.webapp.form import Form, McrForm, Meld
from engine.mcr import match
from engine.mcr.hand import GATE
from engine.offer import FROM_ANOTHER
from storage.models import NightInfo

Who = Callable[[NightInfo, str], str]  # a seat as a report names it
Refuse = Callable[[str], Exception]  # the form's error, in the user's words
Compact = Callable[[list[str]], str]  # tiles as the report's words

# A meld's word in the report (the grammar's MELD_WORDS), in Chinese and in English.
MELD_WORDS = {
    "zh": {"chow": "吃", "pung": "碰", "kong": "杠", "concealed": "暗杠", "added": "补杠"},
    "en": {"chow": "chow", "pung": "pung", "kong": "kong", "concealed": "ckong",
           "added": "akong"},
}
# The flags: by the fans' own names in Chinese (妙手回春 self-drawn, 海底捞月 claimed).
FLAG_WORDS = {"zh": {"last_tile": "和绝张", "last_of_wall": "海底捞月",
                     "last_of_wall_self": "妙手回春"},
              "en": {"last_tile": "last-tile", "last_of_wall": "last-of-wall",
                     "last_of_wall_self": "last-of-wall"}}


def _said(lang: str, word: str) -> str:
    return words.said(lang, word) if is_chinese(lang) else word


def mcr_text(lang: str, night: NightInfo, form: Form, who: Who, refuse: Refuse,
             compact: Compact, how_word: str) -> str:
    """The chat's ``/hu`` for the form's MCR hand. ``who`` names a seat as a report does,
    ``refuse`` makes the form's error, ``compact`` writes tiles as words."""
    m = form.mcr or McrForm()
    zh = "zh" if is_chinese(lang) else "en"
    if form.winner not in night.seats:
        raise refuse(t(lang, "Choose who won."))
    parts = ["/hu", who(night, form.winner), how_word]
    if form.how in FROM_ANOTHER:
        if form.from_seat is None or form.from_seat == form.winner \
                or form.from_seat not in night.seats:
            raise refuse(t(lang, "Choose whose discard or kong it was."))
        parts.append(who(night, form.from_seat))
    has_tiles = bool(form.tiles or m.melds or m.winning_tile)
    if has_tiles:
        counts = Counter(form.tiles + [x for meld in m.melds for x in meld.tiles]
                         + ([m.winning_tile] if m.winning_tile else []))
        if any(n > 4 for n in counts.values()):
            raise refuse(t(lang, "More than four of one tile."))
        if m.winning_tile is None:
            raise refuse(t(lang, "Tap the winning tile."))
        for meld in m.melds:
            parts.append(_meld(lang, night, form, meld, who, refuse, compact))
        if form.tiles:
            parts.append(compact(form.tiles))
        parts.append("+" + m.winning_tile)
    elif m.fan is None:
        raise refuse(t(lang, "Tap the tiles, or give the fan count."))
    else:
        parts.append(f"{m.fan}番" if zh == "zh" else f"fan {m.fan}")
    if m.flowers:
        parts.append(f"{_said(lang, '花')}{m.flowers}" if zh == "zh"
                     else f"flowers {m.flowers}")
    if m.last_tile:
        parts.append(_said(lang, FLAG_WORDS[zh]["last_tile"]))
    if m.last_of_wall:
        self_drawn = form.how in ("self_draw", "kong_replacement")
        parts.append(_said(lang, FLAG_WORDS[zh]["last_of_wall_self" if self_drawn
                                                else "last_of_wall"]))
    return " ".join(parts)


def _meld(lang: str, night: NightInfo, form: Form, meld: Meld, who: Who, refuse: Refuse,
          compact: Compact) -> str:
    zh = "zh" if is_chinese(lang) else "en"
    size = 3 if meld.kind in ("chow", "pung") else 4
    tiles = sorted(meld.tiles, key=lambda x: ("mpsz".index(x[1]), x[0]))
    same = len(set(tiles)) == 1
    run = len({x[1] for x in tiles}) == 1 and tiles[0][1] != "z" and \
        [int(x[0]) for x in tiles] == list(range(int(tiles[0][0]), int(tiles[0][0]) + 3))
    if len(tiles) != size or (meld.kind == "chow" and not run) or \
            (meld.kind != "chow" and not same):
        raise refuse(t(lang, "A chow is three tiles in a row of one suit; a pung three of a "
                             "tile, a kong four."))
    text = _said(lang, MELD_WORDS[zh][meld.kind]) + compact(tiles).replace(" ", "")
    if meld.kind in ("pung", "kong", "added"):
        if meld.from_seat is None or meld.from_seat == form.winner \
                or meld.from_seat not in night.seats:
            raise refuse(t(lang, "Choose whom each pung or kong was claimed from."))
        text += "@" + who(night, meld.from_seat)
    return text


def under_gate(result_lines: list[Any]) -> bool:
    """Whether the settled claim fell under the 8-fan gate (a false win, 错和)."""
    return any(line.code == "mcr_under_gate" for line in result_lines)


def match_view(lang: str, night: NightInfo) -> dict[str, Any] | None:
    """The match's round, hand and each player's seat wind, for the form and the board."""
    h = render_mcr.hand_index(night)
    if h is None:
        return None
    winds = render_mcr.winds(h)
    return {"round": t(lang, words.ROUNDS[match.prevalent_wind(h)]), "hand": h % 4 + 1,
            "number": h + 1, "gate": GATE,
            "winds": {seat: t(lang, words.SEAT_KEYS[w]) for seat, w in winds.items()
                      if seat in night.seats},
            "dealer": render_mcr.dealer(night)}
