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

from bot.dialogs.grammar import GrammarError
from bot.dialogs.score_grammar import is_mcr, parse_mcr_score, parse_score
from bot.handlers.chat import add_commands, error_text_plain, refuse, reply, tokens_of
from bot.handlers.context import TallyApp, TallyContext
from bot.handlers.guards import speaking
from bot.text.errors_text import error_text
from bot.text.help_text import FORMS
from bot.text.i18n import is_chinese, t
from bot.text.words import said
from engine.errors import ReportError, clip
from engine.families.mcr import scored
from engine.hand_input import build_hand, parse_wild_kinds
from engine.mcr.hand import GATE
from engine.models import How, WinnerHand
from engine.options import McrOptions
from engine.readings import Reading
from engine.shape_rules import FAMILY_SHAPES, family_readings, family_waits
from engine.tiles import TileError, format_chinese, format_compact


async def score_mcr(update: Update, lang: str, words: list[str]) -> None:
    """Reply with the hand's fans, by both their names, its total and the 8-fan gate."""
    try:
        event = parse_mcr_score(words)
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
    if is_mcr(words):  # /score mcr 吃234m … +3s
        await score_mcr(update, lang, words[1:])
        return
    try:
        asked = parse_score(words)
    except GrammarError as exc:
        await refuse(update, lang, exc.code, **exc.params)
        return
    try:
        wild_kinds = parse_wild_kinds(asked.wild)
        hand = build_hand(asked.tiles, FAMILY_SHAPES[asked.family], wild_kinds)
    except TileError as exc:
        await reply(update, _tile_error_text(lang, exc))
        return
    if hand.size == 14:
        await reply(update, _readings_text(lang, family_readings(asked.family, hand,
                                                                 wild_kinds)))
    else:
        await reply(update, _waits_text(lang, family_waits(asked.family, hand, wild_kinds)))


def _tile_error_text(lang: str, exc: TileError) -> str:
    params: dict[str, Any] = {k: clip(v) if isinstance(v, str) else v
                              for k, v in exc.params.items()}
    return error_text(lang, exc.code, clip(str(exc), 200), **params) + "\n" \
        + t(lang, error_text_plain("score_usage"))


def _readings_text(lang: str, found: list[Reading]) -> str:
    """A complete hand: the family's readings of it (the first eight), or that it is no
    win."""
    if not found:
        return t(lang, "Not a winning hand.")
    lines = [t(lang, "A winning hand. Readings:")]
    lines += [f"  {escape(_reading(lang, r.describe()))}" for r in found[:8]]
    if len(found) > 8:
        lines.append(t(lang, "…and {n} more.", n=len(found) - 8))
    return "\n".join(lines)


def _waits_text(lang: str, waits: list[int]) -> str:
    """A hand a tile short: the tiles it waits on, or that it is not ready."""
    if not waits:
        return t(lang, "Not ready.")
    return t(lang, "Ready, waiting on {compact} ({chinese}).", compact=format_compact(waits),
             chinese=" ".join(said(lang, w) for w in format_chinese(waits).split()))


def _reading(lang: str, described: str) -> str:
    """A reading as the engine describes it ("standard: 123m …"), its form in words."""
    form, _, melds = described.partition(": ")
    return f"{t(lang, FORMS.get(form, form))}：{melds}" if is_chinese(lang) \
        else f"{t(lang, FORMS.get(form, form))}: {melds}"


COMMANDS = {"score": cmd_score}


def register(app: TallyApp) -> None:
    add_commands(app, COMMANDS)
