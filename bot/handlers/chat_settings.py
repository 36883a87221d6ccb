"""A chat's settings and rules: ``/rules`` (the table's, the chat's or a preset's),
``/set`` (house rules, preset, stake, time zone, language, answer style; admins) and
``/lang``."""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from typing import Any

from telegram import Update
from telegram.constants import ChatType

from bot.delivery import send
from bot.dialogs.grammar import (
    GrammarError,
    parse_stake,
    set_words,
)
from bot.handlers.chat import (
    add_commands,
    is_admin,
    refuse,
    remember,
    reply,
    tokens_of,
)
from bot.handlers.context import TallyApp, TallyContext
from bot.handlers.guards import speaking
from bot.text import render, render_lookback
from bot.text.amounts import in_cents, preset_in_cents, stake_table_name
from bot.text.house_rules import house_rules_text
from bot.text.i18n import normalise_language, t
from bot.text.script import fold
from bot.text.words import (
    option_key,
    preset_key,
    preset_name,
    set_examples,
    typed_name,
)
from engine.errors import ReportError, clip
from engine.rules import get_preset, options_model, parse_overrides, presets, ruleset
from storage.delivery import Outgoing
from storage.errors import LedgerError
from storage.ledger import zone_name
from storage.models import ChatInfo


@speaking
async def cmd_rules(update: Update, context: TallyContext, lang: str) -> None:
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
        night = await context.ledger.open_nights.current_night(chat.id)
        if night is not None:
            preset, options = night.preset, night.rules.get("options")
        else:
            info = await context.chat_info(chat.id, lang)
            preset = info.preset
            options = ruleset(preset, info.overrides).options.model_dump()
    await reply(update, render.rules_text(lang, preset, options))


@speaking
async def cmd_set(update: Update, context: TallyContext, lang: str) -> None:
    chat, msg = update.effective_chat, update.effective_message
    assert chat is not None and msg is not None
    if not await is_admin(update, context):
        await refuse(update, lang, "admins_only")
        return
    words = set_words([w.text for w in tokens_of(msg)])  # 封顶 5 -> cap_fan=5
    stake = len(words) == 2 and fold(words[0]) == "stake"
    zone = len(words) == 2 and fold(words[0]) in ZONE_WORDS
    # A new stake: the night going plays it from its next hand (the write sets it there).
    night = await context.ledger.open_nights.current_night(chat.id)
    if stake and night is not None and in_cents(night.rules):
        # Its points are cents: a Singapore table's stake table, or Hong Kong's tier
        await refuse(update, lang, "sg_stake" if stake_table_name(night.rules)
                     else "hk_stake")
        return
    try:
        change = _parse_set(words, stake=stake, zone=zone)
    except GrammarError as exc:
        await refuse(update, lang, exc.code, **exc.params)
        return
    except ReportError as exc:  # an option or a value no preset knows
        params: dict[str, Any] = dict(exc.params)
        await refuse(update, lang, exc.code, str(exc), **params)
        return
    # A word for the stake (两块) is no amount, unless the chat's preset or the night going
    # names its stake by a word (a Hong Kong tier, a Singapore stake table: said below).
    if (said := _stake_in_words(words)) is not None and \
            not preset_in_cents((await context.chat_info(chat.id, lang)).preset) and \
            not (night is not None and preset_in_cents(night.preset)):
        await refuse(update, lang, "bad_stake", token=escape(clip(said)))
        return
    if isinstance(change, tuple):
        code, params = change
        if code == "set_usage":  # examples this chat's table takes (no stake 0.5 at 港式)
            preset = night.preset if night is not None else \
                (await context.chat_info(chat.id, lang)).preset
            params = {"examples": set_examples(lang, get_preset(preset).family)}
        await refuse(update, lang, code, **params)
        return
    fields = change.fields
    if change.merge:  # house rules added to the chat's own
        current = await context.chat_info(chat.id, lang)
        fields = {"overrides": _merged(current.overrides, fields["overrides"])}

    def answer(info: ChatInfo) -> list[Outgoing]:
        if zone:
            return [send.replying(update, render_lookback.zone_text(info))]
        return [send.replying(update, house_rules_text(info, night if stake else None,
                                                        going=night is not None,
                                                        said_stake=stake))]

    try:
        async with context.write(answer) as tx:
            info = await tx.chats.update_chat(chat.id, **fields)
    except (LedgerError, ReportError) as exc:
        if exc.code == "unknown_option" and night is not None:
            current = await context.chat_info(chat.id, lang)
            option = str(exc.params.get("option"))
            if _table_option(night.preset, current.preset, option):
                # /new sg at a Chengdu chat, then /set shooter=false: the table's option,
                # not the chat's; say how to make it the chat's.
                family = str(night.rules.get("family", ""))
                await refuse(update, lang, "set_other_preset",
                             option=typed_name(lang, option, family),
                             table=preset_name(lang, night.preset),
                             preset=preset_name(lang, current.preset),
                             key=night.preset,
                             typed=" ".join(_as_typed(lang, w, option, family)
                                            for w in words))
                return
        await refuse(update, lang, exc.code, str(exc), **exc.params)
        return
    context.remember_chat(info)
    if stake:
        remember(context, chat.id, None if night is None else
                 night.model_copy(update={"stake_cents": info.stake_cents}))


def _stake_in_words(words: list[str]) -> str | None:
    """What was said for the stake when it is no number (``/set 底注 两块`` is
    ``stake=两块``): a word names a stake only where the chat's preset counts in cents
    (Hong Kong's tier, Singapore's stake table); elsewhere it is no amount."""
    if len(words) == 1 and words[0].startswith("stake="):
        return words[0].partition("=")[2]
    return None


@dataclass(frozen=True)
class _SetChange:
    """What ``/set`` changes: the chat's settings by name (``update_chat``'s keywords);
    ``merge``: its ``overrides`` are added to the chat's house rules, not put in their
    place."""

    fields: dict[str, Any]
    merge: bool = False


def _parse_set(words: list[str], *, stake: bool, zone: bool
               ) -> _SetChange | tuple[str, dict[str, Any]]:
    """``/set``'s words (as :func:`set_words` gives them) as the change they ask for, or
    the refusal (a code and its parameters) of words that ask for none."""
    if len(words) == 2 and fold(words[0]) in ("preset", "规则"):
        return _SetChange({"preset": preset_key(words[1], presets()) or words[1].lower()})
    if stake:
        return _SetChange({"stake_cents": parse_stake(words[1])})
    if zone:
        name = "" if fold(words[1]) in ("default", "默认", "默認") else zone_name(words[1])
        if name is None:
            return "bad_time_zone", {"token": escape(words[1][:40])}
        return _SetChange({"time_zone": name})
    if len(words) == 2 and fold(words[0]) in ("lang", "language", "语言"):
        language = normalise_language(words[1], "")
        if not language:
            return "bad_language", {}
        return _SetChange({"language": language})
    if len(words) == 2 and fold(words[0]) in ("verbose", "详细") and \
            fold(words[1]) in VERBOSE_WORDS:
        return _SetChange({"verbose": VERBOSE_WORDS[fold(words[1])]})
    if words == ["reset"]:
        return _SetChange({"overrides": {}})
    if len(words) == 1 and "=" not in words[0] and option_key(words[0]) is not None:
        return "set_needs_value", {"option": escape(clip(words[0]))}  # /set 封顶
    if words and all("=" in w for w in words):
        return _SetChange({"overrides": parse_overrides(words)}, merge=True)
    return "set_usage", {}


def _as_typed(lang: str, word: str, option: str, family: str) -> str:
    """``birds=2`` as the chat types it: ``扎鸟=2`` in a Chinese chat."""
    key, eq, value = word.partition("=")
    return f"{typed_name(lang, option, family)}={value}" if eq and key == option else word


def _table_option(table: str, chat: str, option: str) -> bool:
    """Whether ``option``, unknown to the chat's preset, is one of the night going's
    (whose preset is another)."""
    return table != chat and table in presets() and \
        option in options_model(presets()[table].family).model_fields


def _merged(current: dict[str, Any], added: dict[str, Any]) -> dict[str, Any]:
    """House rules ``added`` to the ``current`` ones: an option of several parts
    (``fan.清一色=4``) keeps the parts not named."""
    merged = dict(current)
    for key, value in added.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = {**merged[key], **value}
        else:
            merged[key] = value
    return merged


@speaking
async def cmd_lang(update: Update, context: TallyContext, lang: str) -> None:
    msg, chat = update.effective_message, update.effective_chat
    assert msg is not None and chat is not None
    words = tokens_of(msg)
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


ZONE_WORDS = ("tz", "timezone", "time_zone", "zone", "时区", "時區")


VERBOSE_WORDS = {"on": True, "off": False, "开": True, "关": False, "1": True, "0": False}


COMMANDS = {"rules": cmd_rules, "set": cmd_set, "lang": cmd_lang}


def register(app: TallyApp) -> None:
    add_commands(app, COMMANDS)
