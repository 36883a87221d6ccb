"""Pictures and files: /chart, the night's chart and settle-up card sent with /end, the
/standings and /stats pictures, /export (a zip of CSVs) and /import (an admin's zip,
previewed, written only when confirmed).

Pictures are drawn off the event loop (``asyncio.to_thread``) from series computed by
:mod:`bot.pictures.picture_data`; everything goes out through :mod:`bot.delivery.send`.
"""

from __future__ import annotations

import asyncio
import html
import io
import logging
import re
import time
from datetime import timedelta
from typing import Any

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Message, Update
from telegram.error import TelegramError
from telegram.ext import (
    CallbackQueryHandler,
    MessageHandler,
    filters,
)

from bot.delivery import send
from bot.handlers.chat import (
    add_commands,
    is_admin,
    refuse,
    reply,
    tokens_of,
)
from bot.handlers.context import TallyApp, TallyContext
from bot.handlers.guards import speaking
from bot.pictures import drawing, fonts
from bot.pictures.picture_data import (
    night_series,
    pattern_counts,
    played_at_stakes,
    standings_series,
    winning_patterns,
)
from bot.text.amounts import in_cents, preset_in_cents, stake_table_name
from bot.text.i18n import is_chinese, money, t
from bot.text.words import colon, pattern_shown
from engine.families.registry import POINT_CENT
from engine.pattern_table import pattern_rows
from engine.patterns import FAMILY_PATTERNS
from engine.rules import get_preset, presets
from storage.delivery import Outgoing
from storage.errors import LedgerError
from storage.ledger import IMPORT_KIND, ImportPreview, NightChart
from storage.models import PlayerInfo, Summary

CHART_WORDS = ("chart", "图", "图表")  # /standings chart, /stats chart @bob
log = logging.getLogger(__name__)

MAX_IMPORT_BYTES = 20 * 1024 * 1024  # what a bot may download from Telegram
MAX_EXPORT_BYTES = 50 * 1024 * 1024  # what a bot may send as a document
# A preview awaiting its button is a draft of kind "import" in the ledger (any worker
# takes the press; a restart keeps it): the file's Telegram id, downloaded again when
# confirmed. A chat keeps its newest few, for a quarter of an hour (storage.services.drafts'
# IMPORT_KIND: a table's end leaves it).
PENDING_IMPORTS = 3  # previews awaiting their button, per chat
PENDING_SECONDS = 15 * 60
_NUMBER = re.compile(r"^#?(\d{1,6})$")
_IMPORT_DATA = re.compile(r"^v1:i:(\d{1,18}):(ok|no)$")


# -- pictures -----------------------------------------------------------------------------


async def _font() -> fonts.Font:
    """The pictures' font; the first call picks it (matplotlib's font list read) in a
    thread, as the pictures are drawn."""
    return await asyncio.to_thread(fonts.chosen)


def _night_labels(chart: NightChart) -> drawing.NightLabels:
    return drawing.NightLabels(names=chart.names, night=chart.number,
                               preset=chart.night.preset)


def draw_night(chart: NightChart, lang: str, font: fonts.Font) -> bytes:
    """The night's chart (synchronous: run it in a thread)."""
    table = {seat: p.id for seat, p in chart.night.seats.items()}
    mixed = len(chart.stakes) > 1  # points at two stakes do not add up: the money does
    data = night_series(chart.hands, table, chart.money if mixed else chart.nets, money=mixed)
    return drawing.night_chart(data, _night_labels(chart), lang, font, money=mixed,
                               cents=in_cents(chart.night.rules))


def card_of(chart: NightChart, summary: Summary, table: str, lang: str = "") -> drawing.Card:
    """The settle-up card of a night; ``lang``: the chat's, whose words name the biggest
    hand's patterns (an English chat: ``one suit 清一色``)."""
    seat_of = {p.id: seat for seat, p in chart.night.seats.items()}

    def net(p: PlayerInfo, points: int, cents: int = 0) -> drawing.CardNet:
        return drawing.CardNet(p.name, seat_of.get(p.id), points, cents,
                               summary.points_at.get(p.id, ()))

    # Best first: by money (a night whose stake changed may rank otherwise in points).
    nets = tuple(net(summary.players[pid], n, summary.money_of(pid)) for pid, n in
                 sorted(summary.nets.items(),
                        key=lambda kv: (-summary.money_of(kv[0]), -kv[1], kv[0])))
    # A night whose stake changed settles in money: its transfers have no points; nor has
    # a table whose points are cents of its own money (Singapore, Hong Kong).
    in_money = summary.mixed or preset_in_cents(chart.night.preset)
    transfers = tuple(drawing.CardTransfer(net(tr.payer, 0), net(tr.payee, 0),
                                           None if in_money else tr.points, tr.cents)
                      for tr in summary.transfers)
    biggest = None
    if summary.biggest is not None:
        player, points, number = summary.biggest
        row = next((h for h in chart.hands if h.number == number), None)
        seat = next((s for s, p in row.players.items() if p == player.id), None) if row else None
        names = tuple(winning_patterns(row.result, seat, extras=True)) if row and seat else ()
        if get_preset(chart.night.preset).family == "mcr" and not is_chinese(lang):
            fans = FAMILY_PATTERNS["mcr"]  # an English chat: each fan by both its names
            names = tuple(f"{n} {fans.resolve(n).english}" if fans.knows(n) else n
                          for n in names)
        elif lang:
            names = tuple(pattern_shown(lang, chart.night.preset, n) for n in names)
        biggest = (net(player, 0), points, number, names)
    return drawing.Card(
        date=chart.night.started_at, table=table, night=chart.number,
        preset=chart.night.preset, stake_cents=summary.stake_cents, hands=summary.hands,
        nets=nets, transfers=transfers, biggest=biggest, stakes=summary.stakes,
        stake_table=stake_table_name(chart.night.rules))


async def _send_night_chart(context: TallyContext, chat_id: int, lang: str,
                            chart: NightChart) -> None:
    png = await asyncio.to_thread(draw_night, chart, lang, await _font())
    await send.photo(context, chat_id, png, filename=f"night-{chart.number}.png",
                     caption=t(lang, "Night {night}: each player's running total.",
                               night=chart.number))


async def send_end_pictures(update: Update, context: TallyContext, lang: str,
                            summary: Summary) -> None:
    """After /end's summary: the night's chart and the settle-up card to forward."""
    chat = update.effective_chat
    assert chat is not None
    ledger = context.ledger
    chart = await ledger.series.night_chart(chat.id)
    if chart.night.id != summary.night_id or not summary.hands:
        return  # a night without a hand has nothing to draw nor to settle
    await _send_night_chart(context, chat.id, lang, chart)
    card = card_of(chart, summary, chat.title or "", lang)
    png = await asyncio.to_thread(drawing.settle_card, card, lang, await _font())
    lines = [f"{html.escape(tr.payer.name)} → {html.escape(tr.payee.name)}"
             f"{colon(lang)}{money(tr.cents)}"
             for tr in summary.transfers]
    await send.photo(context, chat.id, png, filename=f"settle-up-{chart.number}.png",
                     caption=t(lang, "Settle-up card: forward it to the players.")
                     if not lines else "\n".join(lines)[:1000])


async def _night_number(update: Update, lang: str, usage: str) -> tuple[bool, int | None]:
    """The optional night number a command takes; (False, None) once it has refused."""
    msg = update.effective_message
    words = tokens_of(msg) if msg is not None else []
    if not words:
        return True, None
    m = _NUMBER.match(words[0].text)
    if m is None or len(words) > 1:
        await refuse(update, lang, usage)
        return False, None
    return True, int(m.group(1))


@speaking
async def cmd_chart(update: Update, context: TallyContext, lang: str) -> None:
    """/chart [N]: the running totals of the night going (or the last one, or night N)."""
    chat = update.effective_chat
    assert chat is not None
    ok, number = await _night_number(update, lang, "chart_usage")
    if not ok:
        return
    try:
        chart = await context.ledger.series.night_chart(chat.id, number)
    except LedgerError as exc:
        await refuse(update, lang, exc.code, str(exc), **exc.params)
        return
    await _send_night_chart(context, chat.id, lang, chart)


async def standings_picture(update: Update, context: TallyContext, lang: str
                            ) -> None:
    """/standings chart: each player's net over the nights."""
    chat = update.effective_chat
    assert chat is not None
    ledger = context.ledger
    nights, names = await ledger.series.night_nets(chat.id)
    if not any(n.nets for n in nights):
        await reply(update, t(lang, "No hands recorded in this chat yet."))
        return
    # Points at two stakes never add up: the money does. Nights at a cent a point
    # (Singapore, Hong Kong: their points are cents) are drawn in money too.
    money = played_at_stakes(nights) or all(n.stakes <= {POINT_CENT} for n in nights)
    final = ({m.player.id: m.cents for m in await ledger.money.money_standings(chat.id)}
             if money else
             {s.player.id: s.net for s in await ledger.lookback.standings(chat.id)})
    data = standings_series(nights, names, final, money=money)
    png = await asyncio.to_thread(drawing.standings_chart, data, lang, await _font(), money)
    await send.photo(context, chat.id, png, filename="standings.png",
                     caption=t(lang, "Standings over the nights."))


def _english_patterns() -> dict[str, str]:
    out: dict[str, str] = {}
    for preset in presets():
        for row in pattern_rows(preset):
            out.setdefault(row.name, row.english)
    return out


async def stats_picture(update: Update, context: TallyContext, lang: str,
                        player: PlayerInfo) -> None:
    """/stats chart [@bob]: a player's wins by pattern."""
    chat = update.effective_chat
    assert chat is not None
    wins = await context.ledger.series.player_wins(chat.id, player.id)
    counts = pattern_counts(wins)
    png = await asyncio.to_thread(drawing.patterns_chart, player.name, counts, len(wins),
                                  lang, await _font(), _english_patterns())
    await send.photo(context, chat.id, png, filename="patterns.png",
                     caption=t(lang, "Wins by pattern."))


# -- export -------------------------------------------------------------------------------


@speaking
async def cmd_export(update: Update, context: TallyContext, lang: str) -> None:
    """/export [N]: the chat's ledger (or night N) as a zip of CSV files."""
    chat = update.effective_chat
    assert chat is not None
    ok, number = await _night_number(update, lang, "export_usage")
    if not ok:
        return
    ledger = context.ledger
    if not await ledger.files.night_count(chat.id):
        await refuse(update, lang, "no_nights")
        return
    try:
        fh = await ledger.files.export_zip(chat.id, number)
    except LedgerError as exc:
        await refuse(update, lang, exc.code, str(exc), **exc.params)
        return
    with fh:
        size = fh.seek(0, io.SEEK_END)
        fh.seek(0)
        if size > MAX_EXPORT_BYTES:
            await refuse(update, lang, "export_too_large")
            return
        data = fh.read()  # python-telegram-bot reads an upload whole anyway (≤ 50 MB)
    name = "mahjong-tally.zip" if number is None else f"mahjong-tally-night-{number}.zip"
    await send.document(context, chat.id, data, filename=name, caption=t(
        lang, "The ledger as CSV files. An admin of an empty chat can /import it."))


# -- import -------------------------------------------------------------------------------


def _document_of(msg: Message) -> Any:
    if msg.document is not None:
        return msg.document
    if msg.reply_to_message is not None:
        return msg.reply_to_message.document
    return None


async def _download(context: TallyContext, file_id: str) -> io.BytesIO:
    tg_file = await context.bot.get_file(file_id)
    buf = io.BytesIO()
    await tg_file.download_to_memory(buf)
    buf.seek(0)
    return buf


def _preview_text(lang: str, p: ImportPreview) -> str:
    return t(lang, "This file holds {nights} night(s), {hands} hand(s) and {players} "
                   "player(s), from {first} to {last}. Import it into this chat?",
             nights=p.nights, hands=p.hands, players=p.players,
             first=(p.first or "-")[:10], last=(p.last or "-")[:10])


@speaking
async def cmd_import(update: Update, context: TallyContext, lang: str) -> None:
    """/import as the caption of a zip, or as a reply to one: a preview and a button."""
    chat, msg, user = update.effective_chat, update.effective_message, update.effective_user
    assert chat is not None and msg is not None
    if user is None or not await is_admin(update, context):
        await refuse(update, lang, "import_admins_only")
        return
    doc = _document_of(msg)
    if doc is None:
        await refuse(update, lang, "import_usage")
        return
    if doc.file_size is not None and doc.file_size > MAX_IMPORT_BYTES:
        await refuse(update, lang, "import_too_big")
        return
    ledger = context.ledger
    try:
        data = await _download(context, doc.file_id)
        preview = await ledger.files.preview_import(chat.id, data)
    except TelegramError:
        await refuse(update, lang, "import_download")
        return
    except LedgerError as exc:
        await refuse(update, lang, exc.code, str(exc), **exc.params)
        return

    def shown(made: tuple[int, int]) -> list[Outgoing]:
        keyboard = InlineKeyboardMarkup([[
            InlineKeyboardButton(t(lang, "Import"), callback_data=f"v1:i:{made[0]}:ok"),
            InlineKeyboardButton(t(lang, "Cancel"), callback_data=f"v1:i:{made[0]}:no")]])
        return [send.replying(update, _preview_text(lang, preview), reply_markup=keyboard)]

    pending = {"file_id": doc.file_id, "expires": time.time() + PENDING_SECONDS}
    async with context.write(shown) as tx:
        await tx.drafts.create_bounded(chat.id, user.id, IMPORT_KIND, pending,
                                       keep=PENDING_IMPORTS,
                                       ttl=timedelta(seconds=PENDING_SECONDS))


@speaking
async def on_import_button(update: Update, context: TallyContext, lang: str) -> None:
    """Import or Cancel under a preview: the import (or the cancel), the pending import's
    end and the answers commit together, whichever worker takes the press."""
    query, chat, user = update.callback_query, update.effective_chat, update.effective_user
    assert query is not None and chat is not None and user is not None
    m = _IMPORT_DATA.match(query.data or "")
    found = await context.drafts.get(chat.id, int(m.group(1))) if m else None
    if m is None or found is None or found[1] != IMPORT_KIND or \
            time.time() > float(found[2].get("expires", 0)):
        await send.answer(update, t(lang, "That button is out of date."), alert=True)
        return
    version, _kind, item, owner = found
    if user.id != owner and not await is_admin(update, context):
        await send.answer(update, t(lang, "Only chat admins can import a ledger."), alert=True)
        return
    draft_id, message = int(m.group(1)), query.message
    await send.answer(update)
    if m.group(2) == "no":
        def cancelled(_: None) -> list[Outgoing]:
            if message is None:
                return []
            return [send.edit_of(chat.id, message.message_id,
                                 t(lang, "Import cancelled; nothing was written."),
                                 reply_markup=None)]

        async with context.write(cancelled) as tx:
            await tx.drafts.delete(chat.id, draft_id)
        return

    def answer(done: ImportPreview) -> list[Outgoing]:
        text = t(lang, "Imported {nights} night(s), {hands} hand(s) and {players} player(s).",
                 nights=done.nights, hands=done.hands, players=done.players)
        if message is None:
            return [send.to_chat(chat.id, text)]
        return [send.edit_of(chat.id, message.message_id, text, reply_markup=None)]

    try:
        data = await _download(context, str(item["file_id"]))
        # One write: the import, the pending import's end, its answer and "this update
        # is handled" commit together.
        async with context.write(answer) as tx:
            await tx.files.import_zip(chat.id, data, draft=(draft_id, version))
    except (TelegramError, LedgerError) as exc:
        if isinstance(exc, LedgerError) and exc.code == "stale_button":
            await send.answer(update, t(lang, "That button is out of date."), alert=True)
            return
        code = exc.code if isinstance(exc, LedgerError) else "import_download"
        params = exc.params if isinstance(exc, LedgerError) else {}
        await refuse(update, lang, code, str(exc), **params)
        return
    context.kept("tables").pop(chat.id, None)  # the chat may have an open night now


# -- registration -------------------------------------------------------------------------

COMMANDS = {"chart": cmd_chart, "export": cmd_export, "import": cmd_import}


def register(app: TallyApp) -> None:
    """The commands, a zip sent with the caption /import, and the import's buttons (before
    :mod:`bot.handlers.buttons`, which takes every button). Says at start whether the
    pictures have a CJK font (bot.pictures.fonts.check_at_start)."""
    fonts.check_at_start()
    add_commands(app, COMMANDS)
    app.add_handlers([
        MessageHandler(filters.Document.ALL & filters.CaptionRegex(r"^/import(@\w+)?(\s|$)"),
                       cmd_import),
        CallbackQueryHandler(on_import_button, pattern=r"^v1:i:"),
    ])
