"""The answer to /set: a chat's house rules as a player types them, its stake, and how a
night going takes a change. A Hong Kong chat's stake is its tier (二五雞, 五一, 一二蚊),
never a stake per point: its hands are paid from the share table."""

from __future__ import annotations

from html import escape
from typing import Any

from bot.text.amounts import preset_in_cents
from bot.text.i18n import money, t
from bot.text.words import listing, option_value, preset_name, typed_name, typed_value
from engine.options import HongKongOptions
from engine.rules import get_preset, ruleset
from storage.models import ChatInfo, NightInfo


def as_typed(overrides: dict[str, Any], lang: str, family: str = "") -> list[str]:
    """House rules as a player types them: cap_fan=5, menqing_zhongzhang=true, fan.清一色=4
    (in Chinese by the options' names and words: 封顶=5, 门清断幺九=是)."""
    out = []
    for key, value in overrides.items():
        items = value.items() if isinstance(value, dict) else [(None, value)]
        name = typed_name(lang, key, family)
        for sub, v in items:
            word = "none" if v is None else str(v).lower() if isinstance(v, bool) else str(v)
            word = typed_value(lang, word)
            out.append(f"{name}.{sub}={word}" if sub is not None else f"{name}={word}")
    return out


def house_rules_text(info: ChatInfo, night: NightInfo | None, going: bool,
                     said_stake: bool = False) -> str:
    """The answer to /set: the chat's house rules now (and, with a table ``going``, that
    it keeps its rules); after a new stake with a night going (``night``, read before
    the change), that table's rules and from which hand it plays the stake, then the
    chat's rules for new tables only where they differ. A chat whose preset pays in its
    own money (a Singapore stake table, a Hong Kong tier) is not told a stake per point,
    unless it just set one (``said_stake``: its tables of other presets play it)."""
    lang = info.language
    options = ruleset(info.preset, info.overrides).options
    tier = options.stake if isinstance(options, HongKongOptions) else None
    shown = {k: v for k, v in info.overrides.items() if tier is None or k != "stake"}
    over = listing(lang, as_typed(shown, lang, get_preset(info.preset).family)) \
        or t(lang, "the preset's defaults, nothing changed")
    style = t(lang, "full answers") if info.verbose else t(lang, "compact answers")
    params = {"preset": preset_name(lang, info.preset), "overrides": escape(over),
              "stake": money(info.stake_cents), "style": style}
    if tier is not None:  # the stake tier in force, said once (not among the changes)
        params["tier"] = escape(option_value(lang, "stake", tier))
    own = tier is None and preset_in_cents(info.preset) and not said_stake
    if own and night is None:
        return t(lang, "House rules: {preset} ({overrides}); {style}.", **params) \
            if not going else t(lang, "House rules: {preset} ({overrides}); {style}. A "
                                      "table already going keeps its rules.", **params)
    if night is None and not going:
        return t(lang, "House rules: {preset} ({overrides}); stake {stake} per point; "
                       "{style}.", **params) if tier is None else \
            t(lang, "House rules: {preset} ({overrides}); stake tier {tier}; {style}.",
              **params)
    if night is None:
        return t(lang, "House rules: {preset} ({overrides}); stake {stake} per point; "
                       "{style}. A table already going keeps its rules.", **params) \
            if tier is None else \
            t(lang, "House rules: {preset} ({overrides}); stake tier {tier}; {style}. A "
                    "table already going keeps its rules.", **params)
    # Every hand keeps the stake it was played at.
    text = t(lang, "The table going plays {preset}: {stake} per point from hand {number} "
                   "on; the hands before keep their stake.",
             preset=preset_name(lang, night.preset), stake=money(info.stake_cents),
             number=night.hands + 1 if night.open_hand is None
             else night.open_hand + 1)
    chat_rules = options.model_dump(mode="json")
    if info.preset != night.preset or chat_rules != night.rules.get("options"):
        text += "\n" + (t(lang, "New tables in this chat: {preset} ({overrides}); stake "
                                "tier {tier}; {style}.", **params) if tier is not None else
                        t(lang, "New tables in this chat: {preset} ({overrides}); {style}.",
                          **params) if preset_in_cents(info.preset) else
                        t(lang, "New tables in this chat: {preset} ({overrides}); stake "
                                "{stake} per point; {style}.", **params))
    return text
