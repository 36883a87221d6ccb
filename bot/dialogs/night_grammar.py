"""The grammar of a night's corrections: ``/penalty dave 诈胡`` (at an MCR table also
``/penalty dave 错和`` and a referee's fine for a foul, ``/penalty dave 错碰 5``) and
``/adjust alice -10 bob +10 side bet``. Each parser returns an engine event (a dict) or
raises :class:`GrammarError` with a code whose message says how to say it right."""

from __future__ import annotations

import re

from bot.dialogs.grammar import GrammarError, Resolver, Token
from bot.text.script import fold
from engine.models import MAX_ADJUST

# The words for a false win; the first is the one the bot says.
FALSE_WIN_WORDS = ("诈胡", "相公", "诈和", "炸胡", "错和", "错胡", "false", "false_win", "zhahu",
                   "cuohe")
# The fouls an MCR referee fines (engine.models.PenaltyKind), as they are said.
FOUL_WORDS = {"错吃": "wrong_chow", "wrong_chow": "wrong_chow",
              "错碰": "wrong_pung", "wrong_pung": "wrong_pung",
              "错杠": "wrong_kong", "wrong_kong": "wrong_kong",
              "超时": "slow_play", "slow": "slow_play", "slow_play": "slow_play",
              "亮牌": "shown_tiles", "shown": "shown_tiles", "shown_tiles": "shown_tiles",
              "犯规": "foul", "foul": "foul"}
MAX_REASON = 100
_POINTS = re.compile(r"^[+-]?[0-9]+$")  # any length: too many digits is refused as too big
_THOUSANDS = re.compile(r"^[+-]?[0-9]{1,3}(?:,[0-9]{3})+$")  # +1,000: the points 1000


# English words that say a false win only as two: "false win" (a lone "false", as in
# "shooter false", is no false win).
_FALSE = "false"
_WIN = ("win", "hu")


def _false_win_at(tokens: list[Token], i: int) -> int:
    """How many tokens from ``i`` say a false win: ``诈胡`` 1, ``false win`` 2, else 0.
    A lone ``false`` says it only to /penalty, whose every report is one."""
    word = fold(tokens[i].text)
    if word == _FALSE:
        return 2 if i + 1 < len(tokens) and fold(tokens[i + 1].text) in _WIN else 0
    return 1 if word in FALSE_WIN_WORDS else 0


def is_false_win(tokens: list[Token]) -> bool:
    """``/hu dave 诈胡``, ``/hu dave false win``: a report that names a false win clearly is
    a penalty; ``/hu bob from carol shooter false`` is not."""
    return any(_false_win_at(tokens, i) for i in range(len(tokens)))


def _without_false_win(tokens: list[Token]) -> list[Token]:
    """The tokens less the words that say a false win (``false win`` both)."""
    kept: list[Token] = []
    i = 0
    while i < len(tokens):
        n = _false_win_at(tokens, i) or (1 if fold(tokens[i].text) == _FALSE else 0)
        if n:
            i += n
            continue
        kept.append(tokens[i])
        i += 1
    return kept


def parse_penalty(tokens: list[Token], resolve: Resolver) -> dict[str, object]:
    """``dave 诈胡`` (the word may be left out, or come first); a foul with its fine, the
    points the offender pays each other player: ``dave 错碰 5`` (in any order)."""
    fouls = [FOUL_WORDS[fold(t.text)] for t in tokens if fold(t.text) in FOUL_WORDS]
    numbers = [t for t in tokens if _POINTS.match(t.text)]
    words = [t for t in _without_false_win(tokens)
             if fold(t.text) not in FOUL_WORDS and not _POINTS.match(t.text)]
    if len(words) != 1 or len(fouls) > 1 or len(numbers) > 1:
        raise GrammarError("penalty_usage")
    seat = resolve(words[0])
    if seat is None:
        raise GrammarError("penalty_no_player", token=words[0].text)
    if not fouls:
        if numbers:
            raise GrammarError("penalty_false_win_points", token=numbers[0].text)
        return {"type": "penalty", "seat": seat, "kind": "false_win"}
    if not numbers:
        raise GrammarError("penalty_fine_points")
    text = numbers[0].text
    points = int(text) if len(text.lstrip("+-")) <= 9 else MAX_ADJUST + 1
    if not 1 <= points <= MAX_ADJUST:
        raise GrammarError("penalty_fine_range", token=text, most=MAX_ADJUST)
    return {"type": "penalty", "seat": seat, "kind": fouls[0], "points": points}


def parse_adjust(tokens: list[Token], resolve: Resolver, most: int = MAX_ADJUST
                 ) -> dict[str, object]:
    """``alice -10 bob +10 [reason]``: players and signed points (each within ``most``),
    summing to zero. Points may be written with thousands commas (``+1,000``)."""
    tokens = [Token(t.text.replace(",", ""), t.user_id) if _THOUSANDS.match(t.text) else t
              for t in tokens]
    deltas: dict[str, int] = {}
    i = 0
    while i + 1 < len(tokens) and _POINTS.match(tokens[i + 1].text):
        seat = resolve(tokens[i])
        if seat is None:
            raise GrammarError("adjust_no_player", token=tokens[i].text)
        if seat in deltas:
            raise GrammarError("adjust_twice", token=tokens[i].text)
        text = tokens[i + 1].text
        points = int(text) if len(text.lstrip("+-")) <= 9 else most + 1
        if abs(points) > most:
            raise GrammarError("adjust_too_big", token=tokens[i + 1].text, most=most)
        deltas[seat] = points
        i += 2
    if len(deltas) < 2 or not any(deltas.values()):
        raise GrammarError("adjust_usage")
    total = sum(deltas.values())
    if total:
        raise GrammarError("adjust_not_zero", total=f"{total:+d}")
    reason = " ".join(t.text for t in tokens[i:])[:MAX_REASON] or None
    return {"type": "adjust", "deltas": deltas, "reason": reason}
