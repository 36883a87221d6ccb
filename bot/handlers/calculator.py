"""The tile calculator, in any chat, touching no ledger: ``/score`` reads a hand's tiles
(its readings when it is complete, else its waits), and ``/score mcr …`` scores a Chinese
Official (MCR) hand from its tiles, the player's at East, as at a table: melds name
their source by seat (``碰东东东@W``, or 上家 对家 下家), ``自摸`` or a discard (the
default)."""

from __future__ import annotations

from html import escape
from typing import Any

from pydantic import ValidationError
from telegram import Update

from bot.dialogs.grammar import DISCARD, SELF_DRAW, GrammarError, Token
from bot.dialogs.mcr_grammar import KONG_DRAW_WORDS, ROB_WORDS, parse_mcr_win
from bot.handlers.chat import add_commands, error_text_plain, refuse, reply, tokens_of
from bot.handlers.context import TallyApp, TallyContext
from bot.handlers.guards import speaking
from bot.text.errors_text import error_text
from bot.text.help_text import FORMS
from bot.text.i18n import is_chinese, t
from bot.text.words import preset_key, said
from engine.errors import ReportError, clip
from engine.families.mcr import scored
from engine.hand_input import build_hand, parse_wild_kinds
from engine.mcr.hand import GATE
from engine.models import How, WinnerHand
from engine.options import McrOptions
from engine.rules import presets
from engine.shape_rules import FAMILY_SHAPES, family_readings, family_waits
from engine.tiles import TileError, format_chinese, format_compact

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


@speaking
async def cmd_score(update: Update, context: TallyContext, lang: str) -> None:
    """The tile calculator: works in any chat, touches no ledger."""
    msg = update.effective_message
    assert msg is not None
    words = [w.text for w in tokens_of(msg)]
    if words and preset_key(words[0], presets()) == "mcr":  # /score mcr 吃234m … +3s
        await score_mcr(update, lang, words[1:])
        return
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
        await refuse(update, lang, "score_usage")
        return
    try:
        rules = FAMILY_SHAPES[family]
        wild_kinds = parse_wild_kinds(wild)
        hand = build_hand(" ".join(tiles), rules, wild_kinds)
    except TileError as exc:
        params: dict[str, Any] = {k: clip(v) if isinstance(v, str) else v
                                  for k, v in exc.params.items()}
        await reply(update, error_text(lang, exc.code, clip(str(exc), 200), **params) + "\n"
                    + t(lang, error_text_plain("score_usage")))
        return
    if hand.size == 14:
        found = family_readings(family, hand, wild_kinds)
        if not found:
            await reply(update, t(lang, "Not a winning hand."))
            return
        lines = [t(lang, "A winning hand. Readings:")]
        lines += [f"  {escape(_reading(lang, r.describe()))}" for r in found[:8]]
        if len(found) > 8:
            lines.append(t(lang, "…and {n} more.", n=len(found) - 8))
        await reply(update, "\n".join(lines))
        return
    waits = family_waits(family, hand, wild_kinds)
    if waits:
        await reply(update, t(lang, "Ready, waiting on {compact} ({chinese}).",
                              compact=format_compact(waits),
                              chinese=" ".join(said(lang, w)
                                               for w in format_chinese(waits).split())))
    else:
        await reply(update, t(lang, "Not ready."))


def _reading(lang: str, described: str) -> str:
    """A reading as the engine describes it ("standard: 123m …"), its form in words."""
    form, _, melds = described.partition(": ")
    return f"{t(lang, FORMS.get(form, form))}：{melds}" if is_chinese(lang) \
        else f"{t(lang, FORMS.get(form, form))}: {melds}"


COMMANDS = {"score": cmd_score}


def register(app: TallyApp) -> None:
    add_commands(app, COMMANDS)
