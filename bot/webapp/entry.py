"""A hand entered in the Mini App: the form becomes the report a player would type
(``/hu bob 自摸 1112345678999m 55p``), read by the chat's own grammar and engine.

- :func:`report_text` checks the form (every field bounded, tiles and pattern names from
  fixed sets) and writes the command;
- :func:`preview` reads it as ``/hu`` would and settles it with the open hand's earlier
  events, without writing anything: the score, who pays, and the same lines as Details;
- :func:`submit` sends the command through the same path as a chat report. The bot first
  posts it in the group ("📱 alice: /hu …", so the group sees who reported what); that
  message, as an update from the user in that chat, goes into the inbox
  (:meth:`bot.delivery.pipeline.Pipeline.accept`), is handled like any report, and answered in reply
  to it, with Undo.
"""

from __future__ import annotations

import re
import time
from collections import Counter
from html import escape, unescape
from typing import Any

from telegram import Message
from telegram.constants import ParseMode

from bot.delivery.pipeline import pipeline_of
from bot.dialogs.bonus_grammar import parse_bite
from bot.dialogs.grammar import (
    GrammarError,
    Token,
    for_family,
    parse_draw,
    parse_kong,
    parse_win,
)
from bot.dialogs.guided_keyboards import KONG_WORDS
from bot.dialogs.guided_steps import facts_of
from bot.dialogs.mcr_grammar import parse_mcr_win
from bot.handlers.chat import resolver_for
from bot.ops.application import AnyApp
from bot.text import render, render_mcr
from bot.text.amounts import in_cents, preset_in_cents, signed_points
from bot.text.errors_text import error_text
from bot.text.i18n import is_chinese, t
from bot.text.words import pattern_name, said
from bot.webapp.auth import InitData
from bot.webapp.entry_bites import bite_text, liable_words
from bot.webapp.entry_hk import hk_words
from bot.webapp.entry_mcr import mcr_text, under_gate
from bot.webapp.form import DrawState, Form
from engine.errors import ReportError
from engine.models import SEATS, HandResult
from engine.offer import FROM_ANOTHER, Offer
from engine.rules import Ruleset
from engine.settle import parse_report, settle_hand
from engine.tiles import TileError
from storage.errors import LedgerError
from storage.ledger import Ledger
from storage.models import NightInfo

# The words /hu reads for each way of winning, in the chat's language.
HOW_WORDS = {
    "zh-Hans": {"self_draw": "自摸", "discard": "点炮", "rob_kong": "抢杠",
                "kong_replacement": "杠上花", "after_kong_discard": "杠上炮"},
    "zh-Hant": {"self_draw": "自摸", "discard": "出銃", "rob_kong": "搶槓",
                "kong_replacement": "槓上花", "after_kong_discard": "槓上炮"},
    "en": {"self_draw": "self", "discard": "from", "rob_kong": "rob",
           "kong_replacement": "kongdraw", "after_kong_discard": "kongdiscard"},
}


class EntryError(Exception):
    """The form cannot be read: ``message`` says why, in the user's language."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def plain(html: str) -> str:
    return unescape(re.sub(r"<[^>]+>", "", html))


def refusal(lang: str, code: str, fallback: str, seats: dict[str, str] | None = None,
            **params: object) -> str:
    """The chat's refusal as the app shows it: plain text, without the chat's "⚠️"."""
    return plain(error_text(lang, code, fallback, seats, **params)).removeprefix("⚠️ ")


def compact(tiles: list[str]) -> str:
    """Tiles as one word per suit, in order: ``1112345678999m 55p``."""
    suits: dict[str, list[str]] = {}
    for tile in sorted(tiles, key=lambda x: ("mpsz".index(x[1]), x[0])):
        suits.setdefault(tile[1], []).append(tile[0])
    return " ".join("".join(ranks) + suit for suit, ranks in suits.items())


def _who(night: NightInfo, seat: str) -> str:
    """How the report names a seat: the player's name when it is one word that reads back
    as that seat, else the seat letter."""
    name = night.seats[seat].name  # type: ignore[index]
    resolve = resolver_for(night, None)
    if re.fullmatch(r"[^\s,，;；/]{1,32}", name) and resolve(Token(name)) == seat \
            and name.upper() not in SEATS:
        return name
    return seat


def kong_text(lang: str, night: NightInfo, form: Form) -> str:
    """``/kong bob 直杠 carol``: the kinds the guided kong offers this table."""
    if form.winner not in night.seats:
        raise EntryError(t(lang, "Choose who won."))
    if form.kong is None or form.kong not in kong_kinds(night):
        raise EntryError(t(lang, "Choose the kind of kong."))
    parts = ["/kong", _who(night, form.winner), said(lang, KONG_WORDS[form.kong])]
    if form.kong == "direct":
        if form.from_seat is None or form.from_seat == form.winner \
                or form.from_seat not in night.seats:
            raise EntryError(t(lang, "Choose whose discard or kong it was."))
        parts.append(_who(night, form.from_seat))
    return " ".join(parts)


def kong_kinds(night: NightInfo) -> list[str]:
    """The kongs a player may declare at this table, as the guided /kong offers them."""
    return list(facts_of(night).kongs)


def has_draw(night: NightInfo) -> bool:
    """Whether the players' states at the wall's end count (Sichuan's 查叫, 查花猪)."""
    return bool(facts_of(night).wall)


def draw_text(lang: str, night: NightInfo, form: Form) -> str:
    """``/draw alice 花猪, bob 听 3, carol 未听``: every player still in, said."""
    if not has_draw(night):
        raise EntryError(t(lang, "Here the wall's end is said only at Sichuan tables; say it "
                                 "in the chat with /draw."))
    words = {"no": "未听", "ready": "听", "pig": "花猪"}
    parts = []
    for seat in (night.still_in if night.open_hand
                 else [x for x in SEATS if x in night.seats]):
        p = form.players.get(seat) or DrawState()
        parts.append(f"{_who(night, seat)} {said(lang, words[p.state])}"
                     + (f" {p.fan}" if p.state == "ready" else ""))
    return "/draw " + ", ".join(parts)


def report_text(lang: str, night: NightInfo, form: Form) -> str:
    if form.kind == "kong":
        return kong_text(lang, night, form)
    if form.kind == "draw":
        return draw_text(lang, night, form)
    if form.kind == "bite":
        return bite_text(lang, night, form, _who, EntryError)
    facts = facts_of(night)
    words = HOW_WORDS.get(lang, HOW_WORDS["en"])
    if form.how not in facts.hows:
        raise EntryError(t(lang, "That way of winning is not played at this table."))
    if facts.family == "mcr":
        return mcr_text(lang, night, form, _who, EntryError, compact, words[form.how])
    if form.mcr is not None:
        raise EntryError(t(lang, "Melds with their sources are entered at MCR tables only."))
    if form.winner not in night.seats:
        raise EntryError(t(lang, "Choose who won."))
    parts = ["/hu", _who(night, form.winner), words[form.how]]
    if form.how in FROM_ANOTHER:
        if form.from_seat is None or form.from_seat == form.winner \
                or form.from_seat not in night.seats:
            raise EntryError(t(lang, "Choose whose discard or kong it was."))
        parts.append(_who(night, form.from_seat))
    counts = Counter(form.tiles + [x for m in form.melds for x in m])
    if any(n > 4 for n in counts.values()):
        raise EntryError(t(lang, "More than four of one tile."))
    if form.tiles:
        parts.append(compact(form.tiles))
    parts += [f"[{compact(m).replace(' ', '')}]" for m in form.melds]
    for name in form.patterns:
        if name not in facts.patterns:
            raise EntryError(t(lang, "Not a pattern of this table: {name}", name=name))
        parts.append(pattern_name("", name, lang))  # 七對 in zh-Hant: read in either script
    said = _value_words(lang, facts, form)
    if facts.family == "hongkong":
        said += hk_words(lang, night, form, _who, EntryError)
    parts += said
    if not form.tiles and not form.patterns and not said:
        parts.append(pattern_name("", facts.plain, lang))
    if facts.family == "singapore":  # 包 carol: the liable player, after the win's value
        parts += liable_words(lang, night, form, _who, EntryError)
    if form.indicator and facts.indicator:
        parts += [facts.indicator, form.indicator]
    seen = {form.winner, form.from_seat}
    for other in form.others:  # ", dave 清一色": another winner off the same discard
        if form.how not in FROM_ANOTHER or other.winner in seen \
                or other.winner not in night.seats:
            raise EntryError(t(lang, "Only another player than the discarder and the winners "
                                     "can also win off the same tile."))
        seen.add(other.winner)
        parts[-1] += ","
        parts.append(_who(night, other.winner))
        if other.tiles:
            parts.append(compact(other.tiles))
        for name in other.patterns:
            if name not in facts.patterns:
                raise EntryError(t(lang, "Not a pattern of this table: {name}", name=name))
            parts.append(pattern_name("", name, lang))
        if not other.tiles and not other.patterns:
            parts.append(pattern_name("", facts.plain, lang))
    return " ".join(parts)


def _value_words(lang: str, facts: Offer, form: Form) -> list[str]:
    """What the form says of a win's value beside tiles and patterns: a Singapore tai
    count (``3 tai``) and bonus tiles, or a points-only amount (``8``)."""
    words: list[str] = []
    if form.tai is not None:
        if facts.tai is None:
            raise EntryError(t(lang, "Tai are counted at Singapore tables only."))
        words.append(f"{form.tai}台" if is_chinese(lang) else f"{form.tai} tai")
    if form.bonus:
        if facts.tai is None:
            raise EntryError(t(lang, "Bonus tiles are counted at Singapore tables only."))
        words += form.bonus
    if form.feeder is not None and facts.family not in ("hongkong", "singapore"):
        raise EntryError(t(lang, "包 (who pays for all) is entered here at Singapore and Hong "
                                 "Kong tables only."))
    hk = form.fan is not None or form.flowers or form.wind
    if hk and facts.family != "hongkong":
        raise EntryError(t(lang, "番, bonus tiles and the prevailing wind are said this way at "
                                 "Hong Kong tables only."))
    if form.amount is not None:
        if not facts.amount:
            raise EntryError(t(lang, "An amount is said at points-only tables only."))
        words.append(str(form.amount))
    return words


def money_points(night: NightInfo) -> bool:
    """Whether the table's points are money's cents (Hong Kong; Singapore's own money)."""
    return in_cents(night.rules) or preset_in_cents(night.preset)


def read_report(night: NightInfo, text: str) -> tuple[dict[str, Any], str | None]:
    """``text`` read as the chat reads it at this table (:mod:`bot.handlers.commands`):
    /kong, /draw, /bite (/yao), and /hu by the MCR grammar at an MCR table (with the
    match's winds) or the common one; as the table's family reads the report."""
    words = [Token(w) for w in text.split()[1:]]
    resolve = resolver_for(night, None)
    command = text.split(maxsplit=1)[0]
    indicator = None
    if command == "/kong":
        event = parse_kong(words, resolve)
    elif command == "/draw":
        event = parse_draw(words, resolve)
    elif command in ("/bite", "/yao"):
        event = parse_bite(words, resolve)
    elif facts_of(night).family == "mcr":
        event = render_mcr.report_winds(night, parse_mcr_win(words, resolve))
    else:
        event, indicator = parse_win(words, resolve)
    return for_family(event, str(night.rules.get("family"))), indicator


async def preview(ledger: Ledger, lang: str, night: NightInfo, text: str,
                  reporter: int | None = None) -> dict[str, Any]:
    """What recording ``text`` would do now, with nothing written: the hand's number, each
    seat's points, the explanation's lines, and ``asks``: the hand the chat would ask
    about ("the same hand?") were ``reporter`` to report it now, or None."""
    seats: dict[str, str] = {s: p.name for s, p in night.seats.items()}
    try:
        event, indicator = read_report(night, text)
        events: list[dict[str, Any]] = []
        number, dealer = night.hands + 1, night.dealer
        if night.open_hand:
            report, _ = await ledger.nights.hand(night.chat_id, night.open_hand, night.id)
            events, number = list(report["events"]), night.open_hand
            indicator = indicator or report.get("indicator")
            dealer = night.dealer
        rules = Ruleset.from_snapshot(night.rules)
        result: HandResult = settle_hand(rules, parse_report(
            {"events": [*events, event], "indicator": indicator}), dealer)
    except GrammarError as exc:
        raise EntryError(refusal(lang, exc.code, exc.code, seats, **exc.params)) from None
    except (ReportError, LedgerError, TileError) as exc:
        if getattr(exc, "code", None) == "needs_indicator":  # the chat's says "本金 5p"
            label = t(lang, "Turned-up tile ({word})", word=facts_of(night).indicator)
            raise EntryError(t(lang, "Tap “{label}”, then the tile that was turned up.",
                               label=label)) from None
        params = {k: v for k, v in getattr(exc, "params", {}).items()}
        raise EntryError(refusal(lang, getattr(exc, "code", "bad_report"), str(exc), seats,
                                 **params)) from None
    index = len(result.events) - 1
    lines = plain(render.details_text(lang, night, number, result, index)).split("\n")
    asks = None if night.open_hand or reporter is None else \
        await ledger.hands.would_ask(night.chat_id, event, reporter=reporter)
    deltas = {s: result.events[index].deltas[s] for s in SEATS if s in night.seats}
    cents = money_points(night)
    return {"text": text, "hand": number, "asks": asks, "deltas": deltas,
            # as the answer says them: dollars and cents where the points are cents
            "shown": {s: signed_points(d, cents) for s, d in deltas.items()},
            # MCR: a claim under the 8-fan gate is a false win (错和), not a win
            "false_win": under_gate(list(result.events[index].lines)),
            "lines": [x for x in lines if x.strip()]}


async def submit(application: AnyApp, chat_id: int, init: InitData,
                 text: str) -> int:
    """Post ``text`` in the group as the user's, then hand it to the inbox as their
    message; returns the posted message's id."""
    echo: Message = await application.bot.send_message(
        chat_id, f"📱 <b>{escape(init.name)}</b>: {escape(text)}", parse_mode=ParseMode.HTML)
    command = text.split(maxsplit=1)[0]
    sender: dict[str, Any] = {"id": init.user_id, "is_bot": False,
                              "first_name": str(init.user.get("first_name") or init.name)[:64]}
    for key in ("last_name", "username", "language_code"):
        if isinstance(init.user.get(key), str):
            sender[key] = init.user[key][:64]
    payload = {"update_id": 0, "message": {
        "message_id": echo.message_id, "date": int(time.time()), "chat": echo.chat.to_dict(),
        "from": sender, "text": text,
        "entities": [{"type": "bot_command", "offset": 0, "length": len(command)}]}}
    await pipeline_of(application).accept(payload)
    return echo.message_id
