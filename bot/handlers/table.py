"""A table's life: ``/new`` (players named in seat order, or a button per seat; the last
to sit opens the table), ``/table`` and ``/seat`` (``/huanren``, between hands). The end of
the night is :mod:`bot.handlers.ending`."""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from typing import Any

from telegram import InlineKeyboardMarkup, Update, User
from telegram.constants import ChatType

from bot.delivery import send
from bot.dialogs.grammar import (
    GrammarError,
    Token,
    parse_stake,
)
from bot.dialogs.keyboards import (
    DraftData,
    draft_data,
    grid,
)
from bot.handlers import app_link as links
from bot.handlers import board
from bot.handlers.chat import (
    SEAT_ORDER,
    add_commands,
    error_text_plain,
    night_of,
    refuse,
    remember,
    reply,
    tokens_of,
    words_and_sender,
)
from bot.handlers.context import TallyApp, TallyContext
from bot.handlers.guards import at_table, speaking
from bot.text import render
from bot.text.i18n import t
from bot.text.render import SEAT_KEYS
from bot.text.script import fold
from bot.text.words import (
    colon,
    near_preset,
    preset_key,
    preset_name,
)
from engine.errors import ReportError, clip
from engine.rules import get_preset, presets, three_players_allowed
from storage.delivery import Outgoing
from storage.errors import LedgerError
from storage.models import NightInfo, PlayerRef


@speaking
async def cmd_new(update: Update, context: TallyContext, lang: str) -> None:
    chat, msg = update.effective_chat, update.effective_message
    assert chat is not None and msg is not None
    if chat.type == ChatType.PRIVATE:
        await refuse(update, lang, "group_only")
        return
    try:
        asked = _parse_new(tokens_of(msg))
    except GrammarError as exc:
        await refuse(update, lang, exc.code, **exc.params)
        return
    if not asked.names and update.effective_user is not None:
        await start_join(update, context, lang, asked.preset, asked.stake)
        return
    refusal = await _seating_refusal(context, chat.id, asked, lang)
    if refusal is not None:
        code, params = refusal
        await refuse(update, lang, code, **params)
        return
    refs = _players(asked.names, update.effective_user)

    def answer(night: Any) -> list[Outgoing]:
        return [send.replying(update, _opened_text(lang, night)), board.item(lang, night)]

    try:
        async with context.write(answer) as tx:
            night = await tx.open_nights.open_night(chat.id, refs, preset=asked.preset,
                                                     stake_cents=asked.stake)
    except (LedgerError, ReportError) as exc:
        await refuse(update, lang, exc.code, str(exc), **exc.params)
        return
    remember(context, chat.id, night)


@dataclass(frozen=True)
class _NewAsked:
    """``/new``'s words: the preset and the stake, if given, and the players named."""

    preset: str | None
    stake: int | None
    names: list[Token]


def _parse_new(words: list[Token]) -> _NewAsked:
    """``/new [preset] [players…] [stake]``: a preset first (of one word or two, as
    ``chinese official``), a stake last (``stake=0.5``, ``注=2``, or a number after three
    or four names). A bad stake is a GrammarError."""
    preset = None
    if len(words) > 1 and preset_key(f"{words[0].text} {words[1].text}", presets()):
        words[:2] = [Token(f"{words[0].text} {words[1].text}", None)]  # chinese official
    if words and preset_key(words[0].text, presets()):
        preset = preset_key(words.pop(0).text, presets())
    stake = None
    if words and (words[-1].text.startswith(("stake=", "注=")) or (
            len(words) in (4, 5) and words[-1].text.replace(".", "", 1).isdigit())):
        stake = parse_stake(words.pop().text.split("=", 1)[-1])
    return _NewAsked(preset, stake, words)


async def _seating_refusal(context: TallyContext, chat_id: int, asked: _NewAsked, lang: str
                           ) -> tuple[str, dict[str, Any]] | None:
    """Why the players named cannot sit (a refusal's code and parameters): a preset
    mistyped, five names, or not three or four."""
    words = asked.names
    if asked.preset is None:
        mistyped = await _mistyped_preset(context, chat_id, words, lang)
        if mistyped is not None:
            return mistyped
    if len(words) > 4:  # five names: say so, and that a table is going if one is
        going = await night_of(context, chat_id) is not None
        return ("four_players_open" if going else "four_players"), {"count": len(words)}
    if len(words) not in (3, 4):  # four players in seat order, or three (东南西)
        return "new_usage", {}
    return None


def _players(words: list[Token], user: User | None) -> list[PlayerRef]:
    """The players named, in seat order: by text mention, @username or name; the sender
    naming themselves by @username is linked to their account at once."""
    refs = []
    for w in words:
        if w.user_id is not None:
            refs.append(PlayerRef(name=w.text, telegram_id=w.user_id))
        elif w.text.startswith("@"):
            refs.append(PlayerRef(name=w.text[1:], username=w.text[1:]))
        else:
            refs.append(PlayerRef(name=w.text))
    if user is not None:
        refs = [PlayerRef(name=r.name, username=r.username, telegram_id=user.id)
                if r.username and user.username and r.username.lower() == user.username.lower()
                else r for r in refs]
    return refs


def _opened_text(lang: str, night: NightInfo) -> str:
    """The answer to a table opened (by /new, or by its last seat taken)."""
    return t(lang, "New table: {preset}. Seats: {seats}. {dealer} deals first.",
             preset=preset_name(lang, night.preset),
             seats=render.seats_text(night, lang), dealer=render.name(night, "E"))


async def _mistyped_preset(context: TallyContext, chat_id: int, words: list[Token],
                           lang: str) -> tuple[str, dict[str, Any]] | None:
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
    chat = await context.chat_info(chat_id, lang)
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


def join_shape(preset: str) -> tuple[int, bool]:
    """How many seats a preset's table has, and whether four seats may start with three."""
    p = get_preset(preset)
    if p.options.get("players") == 3:
        return 3, False
    return 4, three_players_allowed(p.family)


def join_keyboard(lang: str, draft_id: int, version: int, seats: dict[str, Any],
                  count: int = 4, may_three: bool = False) -> InlineKeyboardMarkup:
    buttons = [(f"{t(lang, render.SEAT_KEYS[s])}{colon(lang)}"
                f"{seats[s]['name'] if s in seats else '—'}",
                draft_data(draft_id, version, "s", s)) for s in SEAT_ORDER[:count]]
    if count == 4 and may_three and set(seats) == {"E", "S", "W"}:
        buttons.append((t(lang, "Start with three"), draft_data(draft_id, version, "go", 3)))
    return grid(buttons, 2)


async def start_join(update: Update, context: TallyContext, lang: str,
                     preset: str | None, stake: int | None) -> None:
    """/new without players: a button per seat (three for a three-player preset); the last
    to sit opens the table, or "Start with three" once East, South and West sit."""
    chat, user = update.effective_chat, update.effective_user
    assert chat is not None and user is not None
    if await context.ledger.open_nights.current_night(chat.id) is not None:
        await refuse(update, lang, "night_open")
        return
    count, may_three = join_shape(preset or (await context.chat_info(chat.id, lang)).preset)
    data: dict[str, Any] = {"preset": preset, "stake": stake, "seats": {}, "count": count,
                            "may_three": may_three}

    def shown(made: tuple[int, int]) -> list[Outgoing]:
        return [send.replying(update, t(lang, "Take a seat: East deals first. Press your "
                                              "seat again to stand up."),
                              reply_markup=join_keyboard(lang, made[0], made[1], {}, count,
                                                         may_three))]

    async with context.write(shown) as tx:
        await tx.drafts.create(chat.id, user.id, "join", data)


async def press_join(update: Update, context: TallyContext, lang: str,
                      data: DraftData, draft: dict[str, Any]) -> None:
    """A seat taken or left; the last seat (or "Start with three") opens the table. The
    draft's change, or the table with the draft gone, commits with the answers."""
    query = update.callback_query
    chat = update.effective_chat
    assert query is not None and chat is not None
    stale = t(lang, error_text_plain("stale_button"))
    seats: dict[str, Any] = dict(draft["seats"])
    user = query.from_user
    mine = next((s for s, p in seats.items() if p["id"] == user.id), None)
    count, may_three = int(draft.get("count", 4)), bool(draft.get("may_three"))
    start_three = data.action == "go" and may_three and set(seats) == {"E", "S", "W"}
    if not start_three and (data.action != "s" or data.arg not in SEAT_ORDER[:count]):
        await send.answer(update, stale, alert=True)
        return
    seat = data.arg or ""
    if start_three:
        pass  # East, South and West sit: the table opens with three
    elif mine == seat:
        del seats[mine]
    elif seat in seats or mine is not None:
        await send.answer(update, t(lang, "That seat is taken, or you already sit."),
                          alert=True)
        return
    else:
        seats[seat] = {"id": user.id, "name": user.username or user.first_name,
                       "username": user.username}
    message = query.message
    await send.answer(update)
    if len(seats) < count and not start_three:
        def seated(version: int) -> list[Outgoing]:
            if message is None:
                return []
            return [send.edit_of(chat.id, message.message_id, reply_markup=join_keyboard(
                lang, data.draft_id, version, seats, count, may_three))]

        try:
            async with context.write(seated) as tx:
                await tx.drafts.advance(chat.id, data.draft_id, data.version,
                                        {**draft, "seats": seats})
        except LedgerError:
            await send.answer(update, stale, alert=True)
        return
    refs = [PlayerRef(name=seats[s]["name"], telegram_id=seats[s]["id"],
                      username=seats[s]["username"]) for s in SEAT_ORDER if s in seats]

    def opened(night: NightInfo) -> list[Outgoing]:
        said: list[Outgoing] = []
        if message is not None:
            said.append(send.edit_of(chat.id, message.message_id,
                                     _opened_text(lang, night), reply_markup=None))
        return [*said, board.item(lang, night)]

    try:
        async with context.write(opened) as tx:
            night = await tx.open_nights.open_night(
                chat.id, refs, preset=draft.get("preset"), stake_cents=draft.get("stake"),
                draft=(data.draft_id, data.version))
    except (LedgerError, ReportError) as exc:
        if exc.code == "stale_button":
            await send.answer(update, stale, alert=True)
            return
        await refuse(update, lang, exc.code, str(exc), **exc.params)
        return
    remember(context, chat.id, night)


@speaking
async def cmd_table(update: Update, context: TallyContext, lang: str) -> None:
    chat = update.effective_chat
    assert chat is not None
    night = await night_of(context, chat.id)
    if night is None:
        await refuse(update, lang, "no_night_going")
        return
    await reply(update, render.table_text(lang, night),
                reply_markup=links.keyboard(lang, chat.id))


# Words a player may put between the two names: /seat dave 换 erin.
SEAT_FILLERS = {"换", "换人", "换成", "->", "→", "for", "with", "by"}


@at_table
async def cmd_seat(update: Update, context: TallyContext, lang: str,
                   night: NightInfo) -> None:
    """``/seat dave erin``: erin takes dave's seat between hands."""
    tokens, actor = words_and_sender(update)
    words = [w for w in tokens if fold(w.text) not in SEAT_FILLERS]
    if len(words) != 2:
        await refuse(update, lang, "seat_usage")
        return
    leaving, joining = words
    if joining.user_id is not None:
        ref = PlayerRef(name=joining.text.lstrip("@"), telegram_id=joining.user_id)
    elif joining.text.startswith("@"):
        ref = PlayerRef(name=joining.text[1:], username=joining.text[1:])
    else:
        ref = PlayerRef(name=joining.text)
    before = night

    def answer(after: NightInfo) -> list[Outgoing]:
        seat = next(s for s in after.seats if after.seats[s].id != before.seats[s].id)
        text = t(lang, "{joining} takes {leaving}'s seat ({seat}); {leaving}'s results stay "
                 "theirs and count at /end.", joining=escape(after.seats[seat].name),
                 leaving=escape(before.seats[seat].name), seat=t(lang, SEAT_KEYS[seat]))
        return [send.replying(update, text), board.item(lang, after)]

    try:
        async with context.write(answer) as tx:
            after = await tx.open_nights.change_seat(night.chat_id, leaving.text, ref,
                                                  actor=actor)
    except LedgerError as exc:
        await refuse(update, lang, exc.code, str(exc), night, **exc.params)
        return
    remember(context, night.chat_id, after)


COMMANDS = {"new": cmd_new, "table": cmd_table, "seat": cmd_seat, "huanren": cmd_seat}


def register(app: TallyApp) -> None:
    add_commands(app, COMMANDS)
