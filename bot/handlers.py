"""Command and button handlers. Thin: parse, call the ledger or engine, render, reply."""

from __future__ import annotations

import contextlib
import logging
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from html import escape
from typing import Any

from telegram import InlineKeyboardMarkup, Message, MessageEntity, Update
from telegram.constants import ChatType
from telegram.error import BadRequest, TelegramError
from telegram.ext import ContextTypes

from bot import guided, render
from bot.errors_text import error_text
from bot.grammar import (
    GrammarError,
    Token,
    parse_draw,
    parse_kong,
    parse_stake,
    parse_starting,
    parse_win,
    seat_resolver,
)
from bot.i18n import normalise_language, t
from bot.keyboards import DraftData, UndoData, draft_data, grid, parse_callback, undo_keyboard
from engine.errors import ReportError
from engine.hand_input import build_hand, parse_wild_kinds
from engine.rules import parse_overrides, presets
from engine.shape_rules import FAMILY_SHAPES, family_readings, family_waits
from engine.tiles import TileError, format_chinese, format_compact
from storage.errors import LedgerError
from storage.ledger import Drafts, Ledger
from storage.models import PlayerRef, RecordOutcome, SessionInfo

log = logging.getLogger(__name__)
SEAT_ORDER = ("E", "S", "W", "N")


@dataclass
class Services:
    ledger: Ledger
    drafts: Drafts
    admins: frozenset[int]
    default_language: str
    languages: dict[int, str] = field(default_factory=dict)  # chat id -> language, cached
    # chat id -> its table (None: none going). Safe to cache: Telegram lets one process poll
    # a token, so this process makes every write to its chats and refreshes the entry.
    tables: dict[int, SessionInfo | None] = field(default_factory=dict)


async def table_of(context: ContextTypes.DEFAULT_TYPE, chat_id: int) -> SessionInfo | None:
    svc = services(context)
    if chat_id not in svc.tables:
        svc.tables[chat_id] = await svc.ledger.current_session(chat_id)
    return svc.tables[chat_id]


def remember(context: ContextTypes.DEFAULT_TYPE, chat_id: int, session: SessionInfo | None
             ) -> None:
    services(context).tables[chat_id] = session


def services(context: ContextTypes.DEFAULT_TYPE) -> Services:
    return context.application.bot_data["services"]  # type: ignore[no-any-return]


class Refusal(Exception):
    """Bad input: the message is already in the chat's language."""


async def chat_lang(update: Update, context: ContextTypes.DEFAULT_TYPE) -> str:
    """The chat's language: stored with the chat, first taken from whoever spoke first."""
    svc = services(context)
    chat = update.effective_chat
    if chat is None:
        return svc.default_language
    if chat.id in svc.languages:
        return svc.languages[chat.id]
    user = update.effective_user
    first = normalise_language(user.language_code if user else None, svc.default_language)
    info = await svc.ledger.chat(chat.id, first)
    svc.languages[chat.id] = info.language
    return info.language


def tokens_of(message: Message) -> list[Token]:
    """The words after the command; text mentions keep their user id."""
    text = message.text or ""
    mentions: dict[str, int] = {}
    for entity, value in message.parse_entities([MessageEntity.TEXT_MENTION]).items():
        if entity.user is not None:
            mentions[value] = entity.user.id
    words = text.split()[1:] if text.startswith("/") else text.split()
    return [Token(w, mentions.get(w)) for w in words]


def resolver_for(session: SessionInfo, me: int | None):  # type: ignore[no-untyped-def]
    names: dict[str, str] = {}
    ids: dict[int, str] = {}
    for seat, p in session.seats.items():
        names[p.name.lower()] = seat
        if p.username:
            names[p.username.lower()] = seat
        if p.telegram_id is not None:
            ids[p.telegram_id] = seat
    if me is not None and me in ids:
        names["me"] = names["我"] = ids[me]
    return seat_resolver(names, ids)


async def is_admin(update: Update, context: ContextTypes.DEFAULT_TYPE) -> bool:
    user, chat = update.effective_user, update.effective_chat
    if user is None or chat is None:
        return False
    if user.id in services(context).admins or chat.type == ChatType.PRIVATE:
        return True
    try:
        member = await context.bot.get_chat_member(chat.id, user.id)
    except TelegramError:
        return False
    return member.status in ("administrator", "creator")


async def reply(update: Update, text: str, **kw: Any) -> Message | None:
    if update.effective_message is None:
        return None
    return await update.effective_message.reply_text(text, **kw)


async def refuse(update: Update, lang: str, code: str, fallback: str = "",
                 session: SessionInfo | None = None, **params: Any) -> None:
    seats = {s: p.name for s, p in session.seats.items()} if session else None
    await reply(update, error_text(lang, code, fallback or code, seats, **params))


async def _session_for_action(update: Update, context: ContextTypes.DEFAULT_TYPE, lang: str
                              ) -> SessionInfo | None:
    """The open table, if the sender may act on it (a player there, or an admin)."""
    chat = update.effective_chat
    assert chat is not None
    if chat.type == ChatType.PRIVATE:
        await refuse(update, lang, "group_only")
        return None
    session = await table_of(context, chat.id)
    if session is None:
        await refuse(update, lang, "no_session")
        return None
    user = update.effective_user
    session = await link_sender(context, session, user)
    seated = {p.telegram_id for p in session.seats.values()}
    if user is None or (user.id not in seated and not await is_admin(update, context)):
        await refuse(update, lang, "not_player")
        return None
    return session


async def link_sender(context: ContextTypes.DEFAULT_TYPE, session: SessionInfo,
                      user: Any) -> SessionInfo:
    """A player seated by @username becomes linked to their account when they first act."""
    if user is None or not user.username:
        return session
    seated = {p.telegram_id for p in session.seats.values()}
    if user.id in seated:
        return session
    wanted = user.username.lower()
    if not any(p.telegram_id is None and (p.username or "").lower() == wanted
               for p in session.seats.values()):
        return session
    ledger = services(context).ledger
    await ledger.player(session.chat_id, PlayerRef(name=user.username, telegram_id=user.id,
                                                   username=user.username))
    fresh = await ledger.current_session(session.chat_id)
    remember(context, session.chat_id, fresh)
    return fresh or session


async def update_board(context: ContextTypes.DEFAULT_TYPE, lang: str, session: SessionInfo
                       ) -> None:
    """Edit the table's one scoreboard message in place; post (and pin) it the first time."""
    remember(context, session.chat_id, session)
    text = render.board_text(lang, session)
    bot, ledger = context.bot, services(context).ledger
    if session.board_message_id:
        try:
            await bot.edit_message_text(text, session.chat_id, session.board_message_id)
            return
        except BadRequest as exc:
            if "not modified" in str(exc).lower():
                return
    msg = await bot.send_message(session.chat_id, text)
    await ledger.set_board_message(session.chat_id, session.id, msg.message_id)
    remember(context, session.chat_id,
             session.model_copy(update={"board_message_id": msg.message_id}))
    with contextlib.suppress(TelegramError):  # the bot may not pin here; the board works
        await bot.pin_chat_message(session.chat_id, msg.message_id, disable_notification=True)


async def _fresh_update(update: Update, context: ContextTypes.DEFAULT_TYPE) -> bool:
    """False for a re-delivered update (same update id): do nothing twice."""
    chat = update.effective_chat
    return await services(context).ledger.mark_update(update.update_id,
                                                      chat.id if chat else None)


# -- commands ---------------------------------------------------------------------------


async def cmd_help(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    lang = await chat_lang(update, context)
    await reply(update, t(lang, HELP))


HELP = """<b>Mahjong Tally</b> keeps the score of your table.
/new chengdu @alice @bob carol dave — start a table (seats E S W N, E deals)
/hu bob 自摸 清一色 根1 — a self-draw
/hu bob from carol 七对 — off carol's discard
/hu bob 七对, dave from carol — two winners on one discard
/hu alice rob dave 平胡 — robbing a kong
/hu — a guided report with buttons
/kong bob 暗杠 · /draw alice 花猪, bob 听 3 · /qishou bob 板板胡
/table · /undo · /void 3 · /edit 3 bob 自摸 清一色 · /history
/end — the night's summary and who pays whom
/standings · /stats @bob · /rules chengdu · /score 1112345678999m
/set preset yibin · /set cap_fan=5 · /set stake 0.5 · /lang en"""


async def cmd_new(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    lang = await chat_lang(update, context)
    chat, msg = update.effective_chat, update.effective_message
    assert chat is not None and msg is not None
    if chat.type == ChatType.PRIVATE:
        await refuse(update, lang, "group_only")
        return
    words = tokens_of(msg)
    preset = None
    if words and words[0].text.lower() in presets():
        preset = words.pop(0).text.lower()
    stake = None
    if words and (words[-1].text.startswith(("stake=", "注=")) or (
            len(words) == 5 and words[-1].text.replace(".", "", 1).isdigit())):
        raw = words.pop().text.split("=", 1)[-1]
        try:
            stake = parse_stake(raw)
        except GrammarError as exc:
            await refuse(update, lang, exc.code, **exc.params)
            return
    if not words and update.effective_user is not None:
        await start_join(update, context, lang, preset, stake)
        return
    if len(words) != 4:
        await refuse(update, lang, "new_usage")
        return
    refs = []
    for w in words:
        if w.user_id is not None:
            refs.append(PlayerRef(name=w.text, telegram_id=w.user_id))
        elif w.text.startswith("@"):
            refs.append(PlayerRef(name=w.text[1:], username=w.text[1:]))
        else:
            refs.append(PlayerRef(name=w.text))
    user = update.effective_user
    if user is not None:  # a player naming themselves by @username gets linked at once
        refs = [PlayerRef(name=r.name, username=r.username, telegram_id=user.id)
                if r.username and user.username and r.username.lower() == user.username.lower()
                else r for r in refs]
    if not await _fresh_update(update, context):
        return
    try:
        session = await services(context).ledger.open_session(chat.id, refs, preset=preset,
                                                               stake_cents=stake)
    except (LedgerError, ReportError) as exc:
        await refuse(update, lang, exc.code, str(exc), **exc.params)
        return
    await reply(update, t(lang, "New table: {preset}. Seats: {seats}. {dealer} deals first.",
                          preset=session.preset, seats=render.seats_text(session),
                          dealer=render.name(session, "E")))
    await update_board(context, lang, session)


async def _record(update: Update, context: ContextTypes.DEFAULT_TYPE, lang: str,
                  session: SessionInfo, event: dict[str, Any], indicator: str | None) -> None:
    user = update.effective_user
    try:
        out = await services(context).ledger.record(
            session.chat_id, event, reporter=user.id if user else None,
            update_id=update.update_id, indicator=indicator)
    except (LedgerError, ReportError) as exc:
        await refuse(update, lang, exc.code, str(exc), session, **exc.params)
        return
    if out.duplicate:
        return
    await _announce(update, context, lang, out)


async def _announce(update: Update, context: ContextTypes.DEFAULT_TYPE, lang: str,
                    out: RecordOutcome) -> None:
    assert out.session is not None
    keyboard = undo_keyboard(t(lang, "Undo"), out.session.id, out.hand_number, out.event_index)
    msg = update.effective_message
    chat_id = out.session.chat_id
    text = render.outcome_text(lang, out)
    if msg is not None and update.callback_query is None:
        await msg.reply_text(text, reply_markup=keyboard)
    else:
        await context.bot.send_message(chat_id, text, reply_markup=keyboard)
    await update_board(context, lang, out.session)


async def _parse_and_record(update: Update, context: ContextTypes.DEFAULT_TYPE, parser: Any
                            ) -> None:
    lang = await chat_lang(update, context)
    session = await _session_for_action(update, context, lang)
    if session is None:
        return
    msg = update.effective_message
    assert msg is not None
    user = update.effective_user
    resolve = resolver_for(session, user.id if user else None)
    try:
        result = parser(tokens_of(msg), resolve)
    except GrammarError as exc:
        await refuse(update, lang, exc.code, **exc.params)
        return
    event, indicator = result if isinstance(result, tuple) else (result, None)
    await _record(update, context, lang, session, event, indicator)


async def cmd_hu(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    msg = update.effective_message
    if msg is not None and not tokens_of(msg):
        await start_guided(update, context)
        return
    await _parse_and_record(update, context, parse_win)


async def cmd_kong(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    await _parse_and_record(update, context, parse_kong)


async def cmd_draw(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    await _parse_and_record(update, context, parse_draw)


async def cmd_qishou(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    await _parse_and_record(update, context, parse_starting)


async def cmd_table(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    lang = await chat_lang(update, context)
    chat = update.effective_chat
    assert chat is not None
    session = await table_of(context, chat.id)
    if session is None:
        await refuse(update, lang, "no_session")
        return
    await reply(update, render.table_text(lang, session))


async def _acting(update: Update, context: ContextTypes.DEFAULT_TYPE
                  ) -> tuple[str, SessionInfo] | None:
    """Language and table for a state-changing command from a player, delivered once."""
    lang = await chat_lang(update, context)
    session = await _session_for_action(update, context, lang)
    if session is None or not await _fresh_update(update, context):
        return None
    return lang, session


async def cmd_undo(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    acting = await _acting(update, context)
    if acting is not None:
        await _undo(update, context, *acting)


async def _undo(update: Update, context: ContextTypes.DEFAULT_TYPE, lang: str,
                session: SessionInfo) -> bool:
    user = update.effective_user
    try:
        out = await services(context).ledger.undo(
            session.chat_id, actor=user.id if user else None,
            allow_others=await is_admin(update, context))
    except LedgerError as exc:
        await refuse(update, lang, exc.code, str(exc), **exc.params)
        return False
    await context.bot.send_message(session.chat_id, render.undo_text(lang, out))
    await update_board(context, lang, out.session)
    return True


def _number(update: Update) -> tuple[int | None, list[Token]]:
    msg = update.effective_message
    words = tokens_of(msg) if msg else []
    if not words or not words[0].text.lstrip("#").isdigit():
        return None, words
    return int(words[0].text.lstrip("#")), words[1:]


async def cmd_void(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    lang = await chat_lang(update, context)
    session = await _session_for_action(update, context, lang)
    if session is None:
        return
    number, _ = _number(update)
    if number is None:
        await refuse(update, lang, "number_usage")
        return
    if not await _fresh_update(update, context):
        return
    user = update.effective_user
    try:
        out = await services(context).ledger.void(session.chat_id, number,
                                                  actor=user.id if user else None)
    except LedgerError as exc:
        await refuse(update, lang, exc.code, str(exc), **exc.params)
        return
    await reply(update, render.edit_text(lang, out))
    await update_board(context, lang, out.session)


async def cmd_edit(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    lang = await chat_lang(update, context)
    session = await _session_for_action(update, context, lang)
    if session is None:
        return
    number, rest = _number(update)
    if number is None or not rest:
        await refuse(update, lang, "number_usage")
        return
    user = update.effective_user
    resolve = resolver_for(session, user.id if user else None)
    events: list[dict[str, Any]] = []
    indicator = None
    chunk: list[Token] = []
    try:
        for tok in [*rest, Token("|")]:
            if tok.text != "|":
                chunk.append(tok)
                continue
            if not chunk:
                continue
            head = chunk[0].text.lower()
            if head in ("kong", "杠"):
                events.append(parse_kong(chunk[1:], resolve))
            elif head in ("draw", "流局", "荒庄"):
                events.append(parse_draw(chunk[1:], resolve))
            else:
                event, ind = parse_win(chunk, resolve)
                events.append(event)
                indicator = indicator or ind
            chunk = []
    except GrammarError as exc:
        await refuse(update, lang, exc.code, **exc.params)
        return
    if not await _fresh_update(update, context):
        return
    try:
        out = await services(context).ledger.amend(session.chat_id, number, events,
                                                   actor=user.id if user else None,
                                                   indicator=indicator)
    except (LedgerError, ReportError) as exc:
        await refuse(update, lang, exc.code, str(exc), session, **exc.params)
        return
    await reply(update, render.edit_text(lang, out))
    await update_board(context, lang, out.session)


async def cmd_history(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    lang = await chat_lang(update, context)
    chat = update.effective_chat
    assert chat is not None
    number, _ = _number(update)
    page = await services(context).ledger.history(chat.id, page=number or 1)
    await reply(update, render.history_text(lang, page))


async def cmd_standings(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    lang = await chat_lang(update, context)
    chat, msg = update.effective_chat, update.effective_message
    assert chat is not None and msg is not None
    words = tokens_of(msg)
    since = None
    if words and words[0].text.rstrip("dD天").isdigit():
        since = datetime.now(UTC) - timedelta(days=int(words[0].text.rstrip("dD天")))
    rows = await services(context).ledger.standings(chat.id, since=since)
    await reply(update, render.standings_text(lang, rows))


async def cmd_stats(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    lang = await chat_lang(update, context)
    chat, msg, user = update.effective_chat, update.effective_message, update.effective_user
    assert chat is not None and msg is not None
    ledger = services(context).ledger
    words = tokens_of(msg)
    if words:
        player = await ledger.find_player(chat.id, words[0].text)
        if player is None:
            await refuse(update, lang, "unknown_player", name=escape(words[0].text))
            return
    else:
        if user is None:
            return
        player = await ledger.player(chat.id, PlayerRef(
            name=user.username or user.first_name, telegram_id=user.id, username=user.username))
    st = await ledger.player_stats(chat.id, player.id)
    await reply(update, render.stats_text(lang, st))


async def cmd_end(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    acting = await _acting(update, context)
    if acting is None:
        return
    lang, session = acting
    user = update.effective_user
    remember(context, session.chat_id, None)
    summary = await services(context).ledger.end_session(session.chat_id,
                                                         actor=user.id if user else None)
    await reply(update, render.summary_text(lang, summary))


async def cmd_rules(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    lang = await chat_lang(update, context)
    msg, chat = update.effective_message, update.effective_chat
    assert msg is not None and chat is not None
    words = tokens_of(msg)
    if words:
        preset = words[0].text.lower()
        if preset not in presets():
            await refuse(update, lang, "unknown_preset", name=escape(preset),
                         valid=", ".join(presets()))
            return
    else:
        session = await services(context).ledger.current_session(chat.id)
        preset = session.preset if session else (await services(context).ledger.chat(
            chat.id)).preset
    await reply(update, render.rules_text(lang, preset))


async def cmd_set(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    lang = await chat_lang(update, context)
    chat, msg = update.effective_chat, update.effective_message
    assert chat is not None and msg is not None
    if not await is_admin(update, context):
        await refuse(update, lang, "admins_only")
        return
    words = [w.text for w in tokens_of(msg)]
    ledger = services(context).ledger
    try:
        if len(words) == 2 and words[0].lower() in ("preset", "规则"):
            info = await ledger.update_chat(chat.id, preset=words[1].lower())
        elif len(words) == 2 and words[0].lower() in ("stake", "注"):
            info = await ledger.update_chat(chat.id, stake_cents=parse_stake(words[1]))
        elif len(words) == 2 and words[0].lower() in ("lang", "language", "语言"):
            info = await ledger.update_chat(chat.id, language=normalise_language(words[1]))
        elif words == ["reset"]:
            info = await ledger.update_chat(chat.id, overrides={})
        elif words and all("=" in w for w in words):
            current = await ledger.chat(chat.id)
            merged = dict(current.overrides)
            for key, value in parse_overrides(words).items():
                if isinstance(value, dict) and isinstance(merged.get(key), dict):
                    merged[key] = {**merged[key], **value}
                else:
                    merged[key] = value
            info = await ledger.update_chat(chat.id, overrides=merged)
        else:
            await refuse(update, lang, "set_usage")
            return
    except GrammarError as exc:
        await refuse(update, lang, exc.code, **exc.params)
        return
    except (LedgerError, ReportError) as exc:
        await refuse(update, lang, exc.code, str(exc), **exc.params)
        return
    lang = services(context).languages[chat.id] = info.language
    over = ", ".join(f"{k}={v}" for k, v in info.overrides.items()) or "-"
    await reply(update, t(lang, "House rules: {preset} ({overrides}); stake {stake} per point. "
                          "A table already going keeps its rules.", preset=info.preset,
                          overrides=escape(over), stake=render.money(info.stake_cents)))


async def cmd_lang(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    msg, chat = update.effective_message, update.effective_chat
    assert msg is not None and chat is not None
    words = tokens_of(msg)
    lang = await chat_lang(update, context)
    if not words:
        await reply(update, t(lang, "Language: {lang}. Change it with /lang en or /lang zh.",
                              lang=lang))
        return
    if chat.type != ChatType.PRIVATE and not await is_admin(update, context):
        await refuse(update, lang, "admins_only")
        return
    info = await services(context).ledger.update_chat(
        chat.id, language=normalise_language(words[0].text, lang))
    services(context).languages[chat.id] = info.language
    await reply(update, t(info.language, "Language: {lang}.", lang=info.language))


async def cmd_score(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """The tile calculator: works in any chat, touches no ledger."""
    lang = await chat_lang(update, context)
    msg = update.effective_message
    assert msg is not None
    words = [w.text for w in tokens_of(msg)]
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
        await reply(update, error_text(lang, exc.code, str(exc), **exc.params) + "\n"
                    + t(lang, error_text_plain("score_usage")))
        return
    if hand.size == 14:
        found = family_readings(family, hand, wild_kinds)
        if not found:
            await reply(update, t(lang, "Not a winning hand."))
            return
        lines = [t(lang, "A winning hand. Readings:")]
        lines += [f"  {escape(r.describe())}" for r in found[:8]]
        if len(found) > 8:
            lines.append(t(lang, "…and {n} more.", n=len(found) - 8))
        await reply(update, "\n".join(lines))
        return
    waits = family_waits(family, hand, wild_kinds)
    if waits:
        await reply(update, t(lang, "Ready, waiting on {compact} ({chinese}).",
                              compact=format_compact(waits), chinese=format_chinese(waits)))
    else:
        await reply(update, t(lang, "Not ready."))


def error_text_plain(code: str) -> str:
    from bot.errors_text import MESSAGES

    return MESSAGES[code]


# -- buttons ---------------------------------------------------------------------------


async def start_guided(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    lang = await chat_lang(update, context)
    session = await _session_for_action(update, context, lang)
    user = update.effective_user
    if session is None or user is None:
        return
    draft_id, version = await services(context).drafts.create(session.chat_id, user.id, "hu", {})
    text, keyboard = guided.step(lang, session, draft_id, version, {})
    await reply(update, text, reply_markup=keyboard)


def join_keyboard(lang: str, draft_id: int, version: int, seats: dict[str, Any]
                  ) -> InlineKeyboardMarkup:
    buttons = [(f"{t(lang, render.SEAT_KEYS[s])}: {seats[s]['name'] if s in seats else '—'}",
                draft_data(draft_id, version, "s", s)) for s in SEAT_ORDER]
    return grid(buttons, 2)


async def start_join(update: Update, context: ContextTypes.DEFAULT_TYPE, lang: str,
                     preset: str | None, stake: int | None) -> None:
    """/new without players: four seat buttons; the fourth to sit opens the table."""
    chat, user = update.effective_chat, update.effective_user
    assert chat is not None and user is not None
    if await services(context).ledger.current_session(chat.id) is not None:
        await refuse(update, lang, "session_open")
        return
    data = {"preset": preset, "stake": stake, "seats": {}}
    draft_id, version = await services(context).drafts.create(chat.id, user.id, "join", data)
    await reply(update, t(lang, "Take a seat: East deals first. Press your seat again to "
                                "stand up."),
                reply_markup=join_keyboard(lang, draft_id, version, {}))


async def _press_join(update: Update, context: ContextTypes.DEFAULT_TYPE, lang: str,
                      data: DraftData, draft: dict[str, Any]) -> None:
    query = update.callback_query
    chat = update.effective_chat
    assert query is not None and chat is not None
    seats: dict[str, Any] = dict(draft["seats"])
    user = query.from_user
    mine = next((s for s, p in seats.items() if p["id"] == user.id), None)
    if data.action != "s" or data.arg not in SEAT_ORDER:
        await query.answer(t(lang, error_text_plain("stale_button")), show_alert=True)
        return
    if mine == data.arg:
        del seats[mine]
    elif data.arg in seats or mine is not None:
        await query.answer(t(lang, "That seat is taken, or you already sit."), show_alert=True)
        return
    else:
        seats[data.arg] = {"id": user.id, "name": user.username or user.first_name,
                           "username": user.username}
    drafts = services(context).drafts
    version = await drafts.update(chat.id, data.draft_id, data.version,
                                  {**draft, "seats": seats})
    if version is None:
        await query.answer(t(lang, error_text_plain("stale_button")), show_alert=True)
        return
    await query.answer()
    if len(seats) < 4:
        with _suppress():
            await query.edit_message_reply_markup(join_keyboard(lang, data.draft_id, version,
                                                                seats))
        return
    refs = [PlayerRef(name=seats[s]["name"], telegram_id=seats[s]["id"],
                      username=seats[s]["username"]) for s in SEAT_ORDER]
    try:
        session = await services(context).ledger.open_session(
            chat.id, refs, preset=draft.get("preset"), stake_cents=draft.get("stake"))
    except (LedgerError, ReportError) as exc:
        await context.bot.send_message(chat.id, error_text(lang, exc.code, str(exc),
                                                           **exc.params))
        return
    await drafts.delete(chat.id, data.draft_id)
    with _suppress():
        await query.edit_message_text(t(
            lang, "New table: {preset}. Seats: {seats}. {dealer} deals first.",
            preset=session.preset, seats=render.seats_text(session),
            dealer=render.name(session, "E")))
    await update_board(context, lang, session)


async def on_button(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    query = update.callback_query
    assert query is not None
    lang = await chat_lang(update, context)
    data = parse_callback(query.data)
    chat = update.effective_chat
    if data is None or chat is None:
        await query.answer(t(lang, error_text_plain("stale_button")), show_alert=True)
        return
    svc = services(context)
    if isinstance(data, DraftData):
        found = await svc.drafts.get(chat.id, data.draft_id)
        if found is not None and found[1] == "join":
            if found[0] != data.version:
                await query.answer(t(lang, error_text_plain("stale_button")), show_alert=True)
                return
            await _press_join(update, context, lang, data, found[2])
            return
    session = await table_of(context, chat.id)
    if session is not None:
        session = await link_sender(context, session, query.from_user)
    seated = {p.telegram_id for p in session.seats.values()} if session else set()
    if session is None or (query.from_user.id not in seated and not await is_admin(
            update, context)):
        await query.answer(t(lang, error_text_plain(
            "not_player" if session else "no_session")), show_alert=True)
        return
    if isinstance(data, UndoData):
        await _press_undo(update, context, lang, session, data)
    else:
        await _press_draft(update, context, lang, session, data)


async def _press_undo(update: Update, context: ContextTypes.DEFAULT_TYPE, lang: str,
                      session: SessionInfo, data: UndoData) -> None:
    query = update.callback_query
    assert query is not None
    last = await services(context).ledger.last_event(session.chat_id)
    if last != (data.session_id, data.hand, data.event, last[3] if last else None):
        await query.answer(t(lang, "Only the latest event can be undone."), show_alert=True)
        return
    await query.answer()
    if await _undo(update, context, lang, session):
        with _suppress():
            await query.edit_message_reply_markup(None)


async def _press_draft(update: Update, context: ContextTypes.DEFAULT_TYPE, lang: str,
                       session: SessionInfo, data: DraftData) -> None:
    query = update.callback_query
    assert query is not None
    drafts = services(context).drafts
    found = await drafts.get(session.chat_id, data.draft_id)
    if found is None or found[0] != data.version:
        await query.answer(t(lang, error_text_plain("stale_button")), show_alert=True)
        return
    _version, _kind, draft, owner = found
    if query.from_user.id != owner and not await is_admin(update, context):
        await query.answer(t(lang, "This report belongs to another player."), show_alert=True)
        return
    if data.action == "x":
        await drafts.delete(session.chat_id, data.draft_id)
        await query.answer()
        with _suppress():
            await query.edit_message_text(t(lang, "Cancelled."))
        return
    if data.action == "y" and draft.get("patterns_done"):
        await drafts.delete(session.chat_id, data.draft_id)
        await query.answer()
        with _suppress():
            await query.edit_message_text(t(lang, "Recorded:") + " "
                                          + escape(guided.describe(lang, session, draft)))
        await _record(update, context, lang, session, guided.to_event(draft), None)
        return
    new = guided.apply(session, draft, data.action, data.arg)
    if new is None:
        await query.answer(t(lang, error_text_plain("stale_button")), show_alert=True)
        return
    version = await drafts.update(session.chat_id, data.draft_id, data.version, new)
    if version is None:
        await query.answer(t(lang, error_text_plain("stale_button")), show_alert=True)
        return
    await query.answer()
    text, keyboard = guided.step(lang, session, data.draft_id, version, new)
    with _suppress():
        await query.edit_message_text(text, reply_markup=keyboard)


def _suppress() -> contextlib.suppress:
    """Ignore "message is not modified" and similar harmless edit refusals."""
    return contextlib.suppress(BadRequest)


# -- errors ------------------------------------------------------------------------------


async def on_error(update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
    """The one error handler: log it, and tell the chat something short and useful."""
    log.error("while handling an update", exc_info=context.error)
    if not isinstance(update, Update) or update.effective_chat is None:
        return
    try:
        lang = await chat_lang(update, context)
    except Exception:  # the database itself may be what failed
        lang = services(context).default_language
    text = t(lang, "Sorry, something went wrong and nothing was recorded. Please try again.")
    try:
        if update.callback_query is not None:
            await update.callback_query.answer(text, show_alert=True)
        else:
            await context.bot.send_message(update.effective_chat.id, text)
    except TelegramError:
        log.warning("could not report the error to the chat")

