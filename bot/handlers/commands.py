"""Command handlers. Thin: parse, call the ledger or engine, render, reply."""

from __future__ import annotations

import logging
from html import escape
from typing import Any

from telegram import Update
from telegram.constants import ChatType

from bot.delivery import send
from bot.dialogs.grammar import (
    GrammarError,
    Token,
    for_family,
    number,
    parse_draw,
    parse_edit_event,
    parse_kong,
    parse_stake,
    parse_starting,
    parse_win,
    set_words,
)
from bot.dialogs.mcr_grammar import parse_mcr_win
from bot.dialogs.night_grammar import is_false_win, parse_penalty
from bot.handlers import app_link as links
from bot.handlers import board, ending
from bot.handlers.actions import acting, acting_with_words, record_event, undo_last
from bot.handlers.buttons import start_guided, start_guided_event, start_join
from bot.handlers.calculator import score_mcr
from bot.handlers.chat import (
    error_text_plain,
    is_admin,
    refuse,
    remember,
    reply,
    resolver_for,
    session_for_action,
    table_of,
    tokens_of,
)
from bot.handlers.context import TallyContext
from bot.text import render, render_lookback, render_mcr
from bot.text.amounts import in_cents
from bot.text.errors_text import error_text
from bot.text.help_text import FORMS, HELP, HELP_NIGHT, HELP_SINGAPORE
from bot.text.i18n import is_chinese, money, normalise_language, t
from bot.text.script import fold
from bot.text.words import (
    listing,
    near_preset,
    preset_key,
    preset_name,
    said,
    typed_name,
    typed_value,
)
from engine.errors import ReportError, clip
from engine.hand_input import build_hand, parse_wild_kinds
from engine.rules import get_preset, parse_overrides, presets, ruleset
from engine.shape_rules import FAMILY_SHAPES, family_readings, family_waits
from engine.tiles import TileError, format_chinese, format_compact
from storage.errors import LedgerError
from storage.ledger import zone_name
from storage.models import ChatInfo, PlayerRef, SessionInfo
from storage.queues.messages import Outgoing

log = logging.getLogger(__name__)



async def cmd_help(update: Update, context: TallyContext) -> None:
    lang = await context.lang()
    await reply(update, t(lang, HELP) + "\n" + t(lang, HELP_SINGAPORE) + "\n"
                + t(lang, HELP_NIGHT))


async def cmd_new(update: Update, context: TallyContext) -> None:
    lang = await context.lang()
    chat, msg = update.effective_chat, update.effective_message
    assert chat is not None and msg is not None
    if chat.type == ChatType.PRIVATE:
        await refuse(update, lang, "group_only")
        return
    words = tokens_of(msg)
    preset = None
    if len(words) > 1 and preset_key(f"{words[0].text} {words[1].text}", presets()):
        words[:2] = [Token(f"{words[0].text} {words[1].text}", None)]  # chinese official
    if words and preset_key(words[0].text, presets()):
        preset = preset_key(words.pop(0).text, presets())
    stake = None
    if words and (words[-1].text.startswith(("stake=", "注=")) or (
            len(words) in (4, 5) and words[-1].text.replace(".", "", 1).isdigit())):
        raw = words.pop().text.split("=", 1)[-1]
        try:
            stake = parse_stake(raw)
        except GrammarError as exc:
            await refuse(update, lang, exc.code, **exc.params)
            return
    if not words and update.effective_user is not None:
        await start_join(update, context, lang, preset, stake)
        return
    if preset is None:
        mistyped = await _mistyped_preset(context, chat.id, words)
        if mistyped is not None:
            code, params = mistyped
            await refuse(update, lang, code, **params)
            return
    if len(words) > 4:  # five names: say so, and that a table is going if one is
        going = await table_of(context, chat.id) is not None
        await refuse(update, lang, "four_players_open" if going else "four_players",
                     count=len(words))
        return
    if len(words) not in (3, 4):  # four players in seat order, or three (东南西)
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

    def answer(session: Any) -> list[Outgoing]:
        text = t(lang, "New table: {preset}. Seats: {seats}. {dealer} deals first.",
                 preset=preset_name(lang, session.preset),
                 seats=render.seats_text(session, lang), dealer=render.name(session, "E"))
        return [send.replying(update, text), board.item(lang, session)]

    try:
        async with context.write(answer) as tx:
            session = await tx.sessions.open_session(chat.id, refs, preset=preset,
                                                     stake_cents=stake)
    except (LedgerError, ReportError) as exc:
        await refuse(update, lang, exc.code, str(exc), **exc.params)
        return
    remember(context, chat.id, session)



async def _mistyped_preset(context: TallyContext, chat_id: int, words: list[Token]
                           ) -> tuple[str, dict[str, Any]] | None:
    """What to refuse when ``/new``'s first word, not a preset, is a preset mistyped: one
    edit from a preset's name (``/new chengdou alice bob carol``: did you mean chengdu?),
    a bare word before players all named by @mention (``/new 麻麻 @alice @bob @carol``), or
    a fifth word (``/new foo alice bob carol dave``). Never a player this chat knows (a
    guest may deal); otherwise every word is a player, at the chat's preset."""
    first, rest = words[0], words[1:]
    if first.user_id is not None or first.text.startswith("@"):
        return None
    known = presets()
    typo = near_preset(first.text, known)
    if not rest:  # /new chengdou: the seat buttons of a preset mistyped
        return None if typo is None else ("preset_typo", {
            "name": clip(first.text), "suggestion": typo, "players": ""})
    mentions = all(w.user_id is not None or w.text.startswith("@") for w in rest)
    seatable = len(words) in (3, 4)  # the word could be a player
    if typo is None and seatable and not mentions:
        return None
    if await context.ledger.chats.find_player(chat_id, first.text) is not None:
        # A player: every word is one, and five are too many.
        return ("four_players", {"count": len(words)}) if len(words) > 4 else None
    name, players = clip(first.text), clip(" ".join(w.text for w in rest))
    chat = await context.chat_info(chat_id, await context.lang())
    if typo is not None:
        return ("preset_typo_new" if seatable else "preset_typo",
                {"name": name, "suggestion": typo, "players": players,
                 "preset": chat.preset})
    if len(words) > 4:  # five names, or a preset not near any and four players
        return "too_many_names", {"name": name, "count": len(words),
                                  "valid": ", ".join(known)}
    if not seatable:
        return "unknown_preset", {"name": name, "valid": ", ".join(known)}
    return "unknown_preset_new", {"name": name, "valid": ", ".join(known),
                                  "players": players, "preset": chat.preset}


async def _parse_and_record(update: Update, context: TallyContext, parser: Any
                            ) -> None:
    act = await acting_with_words(update, context)
    if act is None:
        return
    lang, session, tokens, actor = act
    try:
        result = parser(tokens, resolver_for(session, actor))
    except GrammarError as exc:
        await refuse(update, lang, exc.code, **exc.params)
        return
    event, indicator = result if isinstance(result, tuple) else (result, None)
    event = for_family(event, str(session.rules.get("family")))
    await record_event(update, context, lang, session, event, indicator, tokens)


async def cmd_hu(update: Update, context: TallyContext) -> None:
    msg = update.effective_message
    if msg is not None and not tokens_of(msg):
        await start_guided(update, context)
        return
    if msg is not None and is_false_win(tokens_of(msg)):  # /hu dave 诈胡: a penalty
        await _parse_and_record(update, context, parse_penalty)
        return
    chat = update.effective_chat
    await context.lang()  # the chat and its table, read together where nothing is kept
    session = await table_of(context, chat.id) if chat is not None else None
    if session is not None and get_preset(session.preset).family == "mcr":
        at = session  # a match's hand: its round's wind and the winner's seat wind

        def parse_mcr(tokens: list[Token], resolve: Any) -> dict[str, Any]:
            return render_mcr.report_winds(at, parse_mcr_win(tokens, resolve))

        await _parse_and_record(update, context, parse_mcr)
        return
    await _parse_and_record(update, context, parse_win)


async def _guided_or_parsed(update: Update, context: TallyContext, kind: str,
                            parser: Any) -> None:
    """/kong or /draw: alone, the event as buttons; with words, read and recorded."""
    msg = update.effective_message
    if msg is not None and not tokens_of(msg):
        await start_guided_event(update, context, kind)
        return
    await _parse_and_record(update, context, parser)


async def cmd_kong(update: Update, context: TallyContext) -> None:
    await _guided_or_parsed(update, context, "kong", parse_kong)


async def cmd_draw(update: Update, context: TallyContext) -> None:
    await _guided_or_parsed(update, context, "draw", parse_draw)


async def cmd_qishou(update: Update, context: TallyContext) -> None:
    await _parse_and_record(update, context, parse_starting)


async def cmd_table(update: Update, context: TallyContext) -> None:
    lang = await context.lang()
    chat = update.effective_chat
    assert chat is not None
    session = await table_of(context, chat.id)
    if session is None:
        await refuse(update, lang, "no_session")
        return
    await reply(update, render.table_text(lang, session),
                reply_markup=links.keyboard(lang, chat.id))



async def cmd_undo(update: Update, context: TallyContext) -> None:
    chat = update.effective_chat
    if chat is not None and chat.type != ChatType.PRIVATE \
            and await table_of(context, chat.id) is None:
        await ending.undo_end(update, context, await context.lang())  # right after /end
        return
    act = await acting(update, context)
    if act is not None:
        await undo_last(update, context, *act)


MAX_HAND_NUMBER = 100_000  # hands in one night, far beyond any table


def _number(update: Update, most: int = MAX_HAND_NUMBER) -> tuple[int | None, list[Token]]:
    """The number the command starts with (ASCII digits, from 1 to ``most``) and the rest;
    None when it starts with none. A number out of range is a GrammarError."""
    msg = update.effective_message
    words = tokens_of(msg) if msg else []
    if not words:
        return None, words
    value = number(words[0].text, most, 1)
    return (value, words[1:]) if value is not None else (None, words)


MAX_EVENT_NUMBER = 64  # events in one hand (the engine's bound)


def _hand_and_event(update: Update) -> tuple[int | None, int | None, list[Token]]:
    """``/edit 2.1 …``: hand 2, its event 1 (returned 0-based); ``/edit 2 …``: the whole
    hand (event None). Numbers out of range are a GrammarError."""
    msg = update.effective_message
    words = tokens_of(msg) if msg else []
    if words and "." in words[0].text:
        hand, _, event = words[0].text.partition(".")
        n, e = number(hand, MAX_HAND_NUMBER, 1), number(event, MAX_EVENT_NUMBER, 1)
        if n is None or e is None:
            return None, None, words
        return n, e - 1, words[1:]
    n, rest = _number(update)
    return n, None, rest


async def cmd_void(update: Update, context: TallyContext) -> None:
    lang = await context.lang()
    session = await session_for_action(update, context, lang)
    if session is None:
        return
    try:
        number, _ = _number(update)
    except GrammarError as exc:
        await refuse(update, lang, exc.code, **exc.params)
        return
    if number is None:
        await refuse(update, lang, "number_usage")
        return
    user = update.effective_user
    admin = await is_admin(update, context)
    try:
        async with context.write(_corrected(update, lang)) as tx:
            out = await tx.corrections.void(session.chat_id, number,
                                            actor=user.id if user else None,
                                            allow_others=admin)
    except LedgerError as exc:
        await refuse(update, lang, exc.code, str(exc), **exc.params)
        return
    remember(context, session.chat_id, out.session)


def _corrected(update: Update, lang: str) -> Any:
    """The answer to a void or an edit: what changed, and the scoreboard."""

    def answer(out: Any) -> list[Outgoing]:
        return [send.replying(update, render.edit_text(lang, out)),
                board.item(lang, out.session)]

    return answer


def _not_in_hand(words: list[Token], now: SessionInfo, played: SessionInfo,
                 me: int | None) -> str | None:
    """The first name in an edit that sits at the table now but did not play the hand
    (a seat changed after it), if any."""
    if played.seats == now.seats:
        return None
    at_now, at_hand = resolver_for(now, me), resolver_for(played, me)
    return next((w.text for w in words if at_now(w) is not None and at_hand(w) is None),
                None)


async def cmd_edit(update: Update, context: TallyContext) -> None:
    lang = await context.lang()
    session = await session_for_action(update, context, lang)
    if session is None:
        return
    user = update.effective_user
    me = user.id if user else None
    events: list[dict[str, Any]] = []
    indicator = None
    chunk: list[Token] = []
    rest: list[Token]
    played, rest = session, []  # who played the hand; the words after its number
    count = 0  # the events the edit gives (a | b | c), once its hand number is read
    try:
        number, event_index, rest = _hand_and_event(update)
        if number is None or not rest:
            await refuse(update, lang, "number_usage")
            return
        # Names are read against who played that hand (a seat may have changed since).
        played = await context.ledger.sessions.hand_table(session, number)
        resolve = resolver_for(played, me)
        count = len([c for c in " ".join(tok.text for tok in rest).split("|") if c.strip()])
        for tok in [*rest, Token("|")]:
            if tok.text != "|":
                chunk.append(tok)
                continue
            if not chunk:
                continue
            event, ind = parse_edit_event(chunk, resolve)
            events.append(for_family(event, str(session.rules.get("family"))))
            indicator = indicator or ind
            chunk = []
    except GrammarError as exc:
        absent = _not_in_hand(rest, session, played, me)
        if absent is not None:  # at the table now, but that hand was played before them
            await refuse(update, lang, "edit_not_in_hand", token=absent, number=number)
        else:
            await refuse(update, lang, exc.code, in_event=_place(len(events) + 1, count),
                         **exc.params)
        return
    if event_index is not None and len(events) != 1:
        await refuse(update, lang, "edit_event_usage", number=number, event=event_index + 1)
        return
    admin = await is_admin(update, context)
    try:
        async with context.write(_corrected(update, lang)) as tx:
            out = await tx.corrections.amend(session.chat_id, number, events,
                                             actor=user.id if user else None, indicator=indicator,
                                             allow_others=admin, event_index=event_index)
    except (LedgerError, ReportError) as exc:
        if exc.code == "amend_reopens" and event_index is None:  # say how to name one event
            await reply(update, error_text(lang, exc.code, str(exc)) + "\n" + t(
                lang, "To change one event, name it: /edit {number}.1 alice 自摸 七对 "
                "(hand {number}, event 1; see /hand {number}).", number=number))
            return
        position = exc.params.get("event") if event_index is None else None
        await refuse(update, lang, exc.code, str(exc), played,
                     in_event=_place(position if isinstance(position, int) else None, count),
                     **exc.params)
        return
    remember(context, session.chat_id, out.session)


def _place(position: int | None, count: int) -> int | None:
    """Which event of an /edit a refusal names: only when the edit has several."""
    return position if count >= 2 else None


async def cmd_end(update: Update, context: TallyContext) -> None:
    act = await acting(update, context)
    if act is not None:
        await ending.end_or_ask(update, context, *act)


async def cmd_rules(update: Update, context: TallyContext) -> None:
    lang = await context.lang()
    msg, chat = update.effective_message, update.effective_chat
    assert msg is not None and chat is not None
    words = tokens_of(msg)
    if words:
        found = preset_key(words[0].text, presets())
        if found is None:
            await refuse(update, lang, "unknown_preset", name=clip(words[0].text),
                         valid=", ".join(presets()))
            return
        preset = found
        options = None
    else:  # the rules this chat actually plays: the table's, or the chat's house rules
        session = await context.ledger.sessions.current_session(chat.id)
        if session is not None:
            preset, options = session.preset, session.rules.get("options")
        else:
            info = await context.chat_info(chat.id, lang)
            preset = info.preset
            options = ruleset(preset, info.overrides).options.model_dump()
    await reply(update, render.rules_text(lang, preset, options))


def _as_typed(overrides: dict[str, Any], lang: str) -> list[str]:
    """House rules as a player types them: cap_fan=5, menqing_zhongzhang=true, fan.清一色=4
    (in Chinese by the options' names and words: 封顶=5, 门清断幺九=是)."""
    out = []
    for key, value in overrides.items():
        items = value.items() if isinstance(value, dict) else [(None, value)]
        name = typed_name(lang, key)
        for sub, v in items:
            word = "none" if v is None else str(v).lower() if isinstance(v, bool) else str(v)
            word = typed_value(lang, word)
            out.append(f"{name}.{sub}={word}" if sub is not None else f"{name}={word}")
    return out


async def cmd_set(update: Update, context: TallyContext) -> None:
    lang = await context.lang()
    chat, msg = update.effective_chat, update.effective_message
    assert chat is not None and msg is not None
    if not await is_admin(update, context):
        await refuse(update, lang, "admins_only")
        return
    words = set_words([w.text for w in tokens_of(msg)])  # 封顶 5 -> cap_fan=5
    ledger = context.ledger
    stake = len(words) == 2 and fold(words[0]) == "stake"
    zone = len(words) == 2 and fold(words[0]) in ZONE_WORDS
    # A new stake: the table going plays it from its next hand (the write sets it there).
    session = await ledger.sessions.current_session(chat.id)
    if stake and session is not None and in_cents(session.rules):
        await refuse(update, lang, "hk_stake")
        return

    def answer(info: ChatInfo) -> list[Outgoing]:
        if zone:
            return [send.replying(update, render_lookback.zone_text(info))]
        return [send.replying(update, _house_rules_text(info, session if stake else None,
                                                        going=session is not None))]

    try:
        async with context.write(answer) as tx:
            if len(words) == 2 and fold(words[0]) in ("preset", "规则"):
                info = await tx.chats.update_chat(
                    chat.id, preset=preset_key(words[1], presets()) or words[1].lower())
            elif stake:
                info = await tx.chats.update_chat(chat.id, stake_cents=parse_stake(words[1]))
            elif zone:
                name = "" if fold(words[1]) in ("default", "默认", "默認") \
                    else zone_name(words[1])
                if name is None:
                    await refuse(update, lang, "bad_time_zone", token=escape(words[1][:40]))
                    return
                info = await tx.chats.update_chat(chat.id, time_zone=name)
            elif len(words) == 2 and fold(words[0]) in ("lang", "language", "语言"):
                language = normalise_language(words[1], "")
                if not language:
                    await refuse(update, lang, "bad_language")
                    return
                info = await tx.chats.update_chat(chat.id, language=language)
            elif len(words) == 2 and fold(words[0]) in ("verbose", "详细") and \
                    fold(words[1]) in VERBOSE_WORDS:
                info = await tx.chats.update_chat(chat.id,
                                                  verbose=VERBOSE_WORDS[fold(words[1])])
            elif words == ["reset"]:
                info = await tx.chats.update_chat(chat.id, overrides={})
            elif words and all("=" in w for w in words):
                current = await context.chat_info(chat.id, lang)
                merged = dict(current.overrides)
                for key, value in parse_overrides(words).items():
                    if isinstance(value, dict) and isinstance(merged.get(key), dict):
                        merged[key] = {**merged[key], **value}
                    else:
                        merged[key] = value
                info = await tx.chats.update_chat(chat.id, overrides=merged)
            else:
                await refuse(update, lang, "set_usage")
                return
    except GrammarError as exc:
        await refuse(update, lang, exc.code, **exc.params)
        return
    except (LedgerError, ReportError) as exc:
        await refuse(update, lang, exc.code, str(exc), **exc.params)
        return
    context.remember_chat(info)
    if stake:
        remember(context, chat.id, None if session is None else
                 session.model_copy(update={"stake_cents": info.stake_cents}))


def _house_rules_text(info: ChatInfo, session: SessionInfo | None, going: bool) -> str:
    """The answer to /set: the chat's house rules now (and, with a table ``going``, that
    it keeps its rules); after a new stake with a table going (``session``, read before
    the change), that table's rules and from which hand it plays the stake, then the
    chat's rules for new tables only where they differ."""
    lang = info.language
    over = listing(lang, _as_typed(info.overrides, lang)) \
        or t(lang, "the preset's defaults, nothing changed")
    style = t(lang, "full answers") if info.verbose else t(lang, "compact answers")
    params = {"preset": preset_name(lang, info.preset), "overrides": escape(over),
              "stake": money(info.stake_cents), "style": style}
    if session is None and not going:
        return t(lang, "House rules: {preset} ({overrides}); stake {stake} per point; "
                       "{style}.", **params)
    if session is None:
        return t(lang, "House rules: {preset} ({overrides}); stake {stake} per point; "
                       "{style}. A table already going keeps its rules.", **params)
    # Every hand keeps the stake it was played at.
    text = t(lang, "The table going plays {preset}: {stake} per point from hand {number} "
                   "on; the hands before keep their stake.",
             preset=preset_name(lang, session.preset), stake=money(info.stake_cents),
             number=session.hands + 1 if session.open_hand is None
             else session.open_hand + 1)
    chat_rules = ruleset(info.preset, info.overrides).options.model_dump(mode="json")
    if info.preset != session.preset or chat_rules != session.rules.get("options"):
        text += "\n" + t(lang, "New tables in this chat: {preset} ({overrides}); stake "
                               "{stake} per point; {style}.", **params)
    return text


async def cmd_lang(update: Update, context: TallyContext) -> None:
    msg, chat = update.effective_message, update.effective_chat
    assert msg is not None and chat is not None
    words = tokens_of(msg)
    lang = await context.lang()
    # t()'s first parameter is named lang, so {lang} is filled in after translating.
    if not words:
        await reply(update, t(
            lang, "Language: {lang}. Change it with /lang en, /lang zh or /lang 繁體."
        ).format(lang=lang))
        return
    language = normalise_language(words[0].text, "")
    if len(words) > 1 or not language:
        await refuse(update, lang, "bad_language")
        return
    if chat.type != ChatType.PRIVATE and not await is_admin(update, context):
        await refuse(update, lang, "admins_only")
        return

    def answer(info: ChatInfo) -> list[Outgoing]:
        return [send.replying(update, t(info.language, "Language: {lang}.").format(
            lang=info.language))]

    async with context.write(answer) as tx:
        info = await tx.chats.update_chat(chat.id, language=language)
    context.remember_chat(info)


async def cmd_score(update: Update, context: TallyContext) -> None:
    """The tile calculator: works in any chat, touches no ledger."""
    lang = await context.lang()
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




ZONE_WORDS = ("tz", "timezone", "time_zone", "zone", "时区", "時區")
VERBOSE_WORDS = {"on": True, "off": False, "开": True, "关": False, "1": True, "0": False}


def _reading(lang: str, described: str) -> str:
    """A reading as the engine describes it ("standard: 123m …"), its form in words."""
    form, _, melds = described.partition(": ")
    return f"{t(lang, FORMS.get(form, form))}：{melds}" if is_chinese(lang) \
        else f"{t(lang, FORMS.get(form, form))}: {melds}"


async def on_added(update: Update, context: TallyContext) -> None:
    """The bot joined a group: the chat speaks the language of whoever added it."""
    change = update.my_chat_member
    if change is None or change.chat.type == ChatType.PRIVATE:
        return
    joined = change.new_chat_member.status in ("member", "administrator") and \
        change.old_chat_member.status in ("left", "kicked")
    if not joined:
        return
    svc = context.services
    lang = normalise_language(change.from_user.language_code, svc.default_language)
    info = await context.registry.chat(change.chat.id, lang)  # an existing chat keeps its own
    context.remember_chat(info)
    await send.message(context, change.chat.id, t(info.language, HELP))
