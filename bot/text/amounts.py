"""Points as the table speaks of them: plain points, or, at a table whose family pays
money itself (Hong Kong: its points are cents), dollars and cents."""

from __future__ import annotations

from typing import Any

from bot.text.i18n import money, signed
from engine.families import FAMILIES
from engine.rules import presets, ruleset


def in_cents(rules: dict[str, Any] | None) -> bool:
    """Whether a table of these rules (a night's snapshot) counts its points in cents."""
    family = FAMILIES.get(str((rules or {}).get("family")))
    return family is not None and family.points_in_cents


def preset_in_cents(preset: str) -> bool:
    """Whether a table of this preset counts its points in cents (a night's card)."""
    return preset in presets() and ruleset(preset).points_in_cents


def stake_table_name(rules: dict[str, Any] | None) -> str:
    """The stake table a table's money follows, by name (Singapore: ``20/40``), or "" for a
    table without one."""
    rules = rules or {}
    if rules.get("family") != "singapore":
        return ""
    return str(rules.get("options", {}).get("stake") or "")


def signed_points(value: int, cents: bool) -> str:
    """``+4`` points, or ``+0.04`` at a table whose points are cents."""
    if not cents:
        return signed(value)
    return ("+" if value > 0 else "") + money(value)


def amount(value: int, cents: bool) -> str:
    """An amount a line names: points, or dollars and cents."""
    return money(value) if cents else str(value)
