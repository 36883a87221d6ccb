"""Families, presets and options: a :class:`Ruleset` is a preset plus house-rule overrides.

Presets are TOML files shipped in ``engine/presets``; adding one is adding a file. An
unknown preset, option or value is a :class:`~engine.errors.ReportError` that lists the
valid ones.
"""

from __future__ import annotations

import difflib
import tomllib
import typing
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from pydantic import ValidationError

from engine.errors import ReportError
from engine.families import FAMILIES
from engine.models import Seat, table_seats
from engine.options import FamilyOptions

FAMILY_TILES = {"sichuan": 108, "changsha": 108, "jiangxi": 136, "singapore": 148,
                "mcr": 144, "hongkong": 144}


@dataclass(frozen=True)
class Preset:
    name: str
    family: str
    title: str
    summary: str
    options: Mapping[str, Any]


@dataclass(frozen=True)
class Ruleset:
    preset: str
    family: str
    options: FamilyOptions

    @property
    def seats(self) -> tuple[Seat, ...]:
        """The table's seats: E S W N, or E S W for three players."""
        return table_seats(self.options.players)

    @property
    def points_in_cents(self) -> bool:
        """The family pays money from its own table: a point is a cent (Hong Kong,
        Singapore)."""
        return FAMILIES[self.family].points_in_cents

    def snapshot(self) -> dict[str, Any]:
        """Everything needed to score again later, exactly as now (a night keeps this)."""
        return {"preset": self.preset, "family": self.family,
                "options": self.options.model_dump(mode="json")}

    @classmethod
    def from_snapshot(cls, data: Mapping[str, Any]) -> Ruleset:
        model = options_model(data["family"])
        return cls(data["preset"], data["family"], model.model_validate(data["options"]))


@cache
def presets() -> dict[str, Preset]:
    out: dict[str, Preset] = {}
    for entry in sorted(resources.files("engine.presets").iterdir(), key=lambda e: e.name):
        if not entry.name.endswith(".toml"):
            continue
        data = tomllib.loads(entry.read_text(encoding="utf-8"))
        name = entry.name[: -len(".toml")]
        out[name] = Preset(name, data["family"], data["title"], data["summary"],
                           data.get("options", {}))
    return out


def get_preset(name: str) -> Preset:
    table = presets()
    if name not in table:
        close = difflib.get_close_matches(name, list(table), n=3, cutoff=0.3)
        raise ReportError(
            "unknown_preset",
            f"unknown preset {name!r}; valid presets: {', '.join(table)}"
            + (f" (did you mean {close[0]}?)" if close else ""),
            name=name,
            valid=", ".join(table),
        )
    return table[name]


def _parse_value(text: str) -> Any:
    low = text.strip().lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    if low in ("none", "null", ""):
        return None
    try:
        return int(low)
    except ValueError:
        return text.strip()


def parse_overrides(items: Iterable[str]) -> dict[str, Any]:
    """``["cap_fan=5", "fan.清一色=3"]`` -> ``{"cap_fan": 5, "fan": {"清一色": 3}}``."""
    out: dict[str, Any] = {}
    for item in items:
        if "=" not in item:
            raise ReportError("bad_override", f"{item!r}: write option=value", item=item)
        key, value = item.split("=", 1)
        key = key.strip()
        if "." in key:
            head, sub = key.split(".", 1)
            out.setdefault(head, {})[sub] = _parse_value(value)
        else:
            out[key] = _parse_value(value)
    return out


def _valid_values(model: type[FamilyOptions], key: str) -> str:
    annotation = model.model_fields[key].annotation
    args = typing.get_args(annotation)
    if typing.get_origin(annotation) is typing.Literal:
        return ", ".join(str(a) for a in args)
    if annotation is bool:
        return "true, false"
    if typing.get_origin(annotation) is dict:
        value = args[1]
        bounds = [m for a in typing.get_args(value)[1:] for m in getattr(a, "metadata", [a])]
        low = next((m.ge for m in bounds if hasattr(m, "ge")), None)
        high = next((m.le for m in bounds if hasattr(m, "le")), None)
        span = f" from {low} to {high}" if low is not None and high is not None else ""
        return f"{key}.<name>=<a whole number{span}>"
    if typing.get_origin(annotation) is tuple:  # a list option: its description says it
        return model.model_fields[key].description or key
    if annotation in (int, int | None):
        low = next((m.ge for m in model.model_fields[key].metadata if hasattr(m, "ge")), None)
        high = next((m.le for m in model.model_fields[key].metadata if hasattr(m, "le")), None)
        span = f" from {low} to {high}" if low is not None and high is not None else ""
        return "a whole number" + span + (" or none" if annotation == int | None else "")
    return str(annotation)


def _as_word(model: type[FamilyOptions], key: str, value: Any) -> Any:
    """``off`` and ``none`` typed for an option whose values are words (chajiao=off,
    zimo=none) are those words, not false and nothing."""
    annotation = model.model_fields[key].annotation
    if typing.get_origin(annotation) is typing.Literal:
        words = typing.get_args(annotation)
        if value is False and "off" in words:
            return "off"
        if value is None and "none" in words:
            return "none"
    return value


def ruleset(preset: str, overrides: Mapping[str, Any] | Iterable[str] | None = None) -> Ruleset:
    """The preset's options, with house-rule overrides applied and validated."""
    p = get_preset(preset)
    model = options_model(p.family)
    if overrides is None:
        over: dict[str, Any] = {}
    elif isinstance(overrides, Mapping):
        over = dict(overrides)
    else:
        over = parse_overrides(overrides)
    merged: dict[str, Any] = {k: (dict(v) if isinstance(v, dict) else v)
                              for k, v in p.options.items()}
    for key, value in over.items():
        if key not in model.model_fields:
            raise ReportError(
                "unknown_option",
                f"unknown option {key!r} for the {p.family} family; valid options: "
                + ", ".join(model.model_fields),
                option=key,
                valid=", ".join(model.model_fields),
            )
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = {**merged[key], **value}
        else:
            merged[key] = _as_word(model, key, value)
    try:
        options = model.model_validate(merged)
    except ValidationError as exc:
        err = exc.errors()[0]
        key = str(err["loc"][0]) if err["loc"] else "?"
        raise ReportError(
            "bad_option_value",
            f"bad value for {key}: {err['msg']}; valid: {_valid_values(model, key)}"
            if key in model.model_fields else f"bad options: {err['msg']}",
            option=key,
            valid=_valid_values(model, key) if key in model.model_fields else "",
        ) from None
    return Ruleset(preset, p.family, options)



def three_players_allowed(family: str) -> bool:
    """Whether a family has a three-player form (Sichuan and Changsha do; 飞宝 has none)."""
    annotation = options_model(family).model_fields["players"].annotation
    return 3 in typing.get_args(annotation)


def rules_for_players(preset: str, overrides: Mapping[str, Any] | None, players: int
                      ) -> Ruleset:
    """The preset's rules for a table of ``players``: a four-player preset plays three with
    ``players=3`` where its family has a three-player form; a preset made for three
    (三人两房, 三人三房) is not played by four."""
    over = dict(overrides or {})
    p = get_preset(preset)
    if players == 3 and not three_players_allowed(p.family):
        raise ReportError("no_three_players", f"{preset} has no three-player form; it is "
                          "played by four", preset=preset)
    if players == 4 and p.options.get("players") == 3:
        raise ReportError("three_player_preset", f"{preset} is played by three; name three "
                          "players", preset=preset)
    if players != p.options.get("players", 4) or "players" in over:
        over["players"] = players
    return ruleset(preset, over)


def options_model(family: str) -> type[FamilyOptions]:
    """The typed options of a family."""
    return FAMILIES[family].options
