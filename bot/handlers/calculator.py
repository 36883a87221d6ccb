"""``/score mcr …``: a Chinese Official (MCR) hand scored from its tiles in any chat,
touching no ledger. The hand is the player's at East, as at a table: melds name their
source by seat (``碰东东东@W``, or 上家 对家 下家), ``自摸`` or a discard (the default)."""

from __future__ import annotations

from html import escape
from typing import Any

from pydantic import ValidationError
from telegram import Update

from bot.dialogs.grammar import DISCARD, SELF_DRAW, GrammarError, Token
from bot.dialogs.mcr_grammar import KONG_DRAW_WORDS, ROB_WORDS, parse_mcr_win
from bot.handlers.chat import refuse, reply
from bot.text.i18n import t
from bot.text.words import said
from engine.errors import ReportError
from engine.families.mcr import scored
from engine.mcr.hand import GATE
from engine.models import How, WinnerHand
from engine.options import McrOptions

# Seats as /score names them, seen from the scored hand at East.
_SEATS = {"E": "E", "S": "S", "W": "W", "N": "N", "下家": "S", "对家": "W", "上家": "N"}
_HOWS = SELF_DRAW | KONG_DRAW_WORDS | ROB_WORDS | DISCARD


def _seat(tok: Token) -> str | None:
    return _SEATS.get(tok.text.lstrip("@").upper()) or _SEATS.get(tok.text.lstrip("@"))


async def score_mcr(update: Update, lang: str, words: list[str]) -> None:
    """Reply with the hand's fans, by both their names, its total and the 8-fan gate."""
    tokens = [Token("E"), *(Token(w) for w in words)]
    if not any(w.lower() in _HOWS for w in words):
        tokens += [Token("from"), Token("W")]  # a discard: the fans are the same from any
    try:
        event = parse_mcr_win(tokens, _seat)
        hand = WinnerHand.model_validate(event["winners"][0])
        s = scored(McrOptions(), hand, How(event["how"]), "E")
    except GrammarError as exc:
        await refuse(update, lang, exc.code, **exc.params)
        return
    except ReportError as exc:
        params: dict[str, Any] = dict(exc.params)
        await refuse(update, lang, exc.code, str(exc), **params)
        return
    except ValidationError:
        await refuse(update, lang, "score_mcr_usage")
        return
    lines = [escape(t(lang, "{zh} {en} {fan}", zh=said(lang, f.zh), en=f.en,
                      fan=f.value * f.times))
             for f in s.fans]
    lines.append(t(lang, "{fan} fan in all ({flowers} of them flowers; {without_flowers} "
                         "without).", fan=s.total, flowers=s.flowers,
                   without_flowers=s.without_flowers))
    if not s.passes_gate:
        lines.append(t(lang, "Under the gate of {gate} fan without flowers: at a table this "
                             "claim is a false win (错和).", gate=GATE))
    await reply(update, "\n".join(lines))
