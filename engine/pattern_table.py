"""The pattern table of a preset, generated from the definitions (docs/usage.md, CLI, /rules)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from engine.families.sichuan import option_off
from engine.mcr.fans import value_of as mcr_value
from engine.options import (
    ChangshaOptions,
    FreeOptions,
    HongKongOptions,
    JiangxiOptions,
    McrOptions,
    SichuanOptions,
    SingaporeOptions,
)
from engine.patterns import FAMILY_PATTERNS, STARTING, Pattern
from engine.patterns.hongkong import FAN, LIMIT
from engine.patterns.singapore import COUNTED, LIMITS
from engine.rules import Ruleset, ruleset


@dataclass(frozen=True)
class PatternRow:
    name: str
    pinyin: str
    english: str
    value: str
    summary: str


def _valued(rules: Ruleset) -> Iterator[tuple[Pattern, str]]:
    """The family's patterns these rules count, in the family's order, with their value."""
    opts = rules.options
    for p in FAMILY_PATTERNS[rules.family]:
        if isinstance(opts, SichuanOptions):
            fan = opts.fan.get(p.name) or opts.extras.get(p.name)
            if fan is None:
                continue
            value = (f"+{fan} fan" if opts.fan_mode == "additive" else f"{fan} fan")
        elif isinstance(opts, ChangshaOptions):
            n = opts.big_wins.get(p.name)
            if n is None:
                continue
            value = f"{n} big win" + ("s" if n > 1 else "")
        elif isinstance(opts, SingaporeOptions):
            if p.name in LIMITS:
                value = f"limit ({opts.cap_tai} tai)"
            elif opts.tai.get(p.name):
                value = f"{opts.tai[p.name]} tai" + (" each" if p.name in COUNTED else "")
            else:
                continue
        elif isinstance(opts, FreeOptions):
            continue  # points only: no pattern
        elif isinstance(opts, McrOptions):
            value = f"{mcr_value(p.name, opts.mixed_kong)} fan"
        elif isinstance(opts, HongKongOptions):
            value = "limit" if FAN[p.name] == LIMIT else f"{FAN[p.name]} 番"
        else:
            assert isinstance(opts, JiangxiOptions)
            if p.name in opts.values:
                value = f"{opts.values[p.name]} / {opts.values.get(p.name + '无宝')} (无宝)"
            elif p.name == "清一色":
                value = f"x{2 ** opts.qingyise_fan}"
            else:
                value = "x2"
        yield p, value


def counted_patterns(rules: Ruleset) -> list[str]:
    """The names of the patterns a winner may name at a table of these rules (not the
    extras counted by number, nor starting-hand wins, nor a pattern a house rule keeps
    from counting: 门清 at a Chengdu table that plays without it)."""
    opts = rules.options
    return [p.name for p, _ in _valued(rules)
            if not (isinstance(opts, SichuanOptions) and option_off(opts, p.name))]


def pattern_rows(preset: str) -> list[PatternRow]:
    rules = ruleset(preset)
    opts = rules.options
    rows = [PatternRow(p.name, p.pinyin, p.english, value, p.summary)
            for p, value in _valued(rules)]
    if isinstance(opts, SichuanOptions):
        for name in ("根", "杠", "杠上花", "杠上炮", "抢杠", "自摸"):
            fan = opts.extras.get(name)
            if fan:
                rows.append(PatternRow(name, "", "extra", f"+{fan} fan", "each"))
    if isinstance(opts, ChangshaOptions):
        for p in STARTING:
            if p.name in opts.starting_wins:
                rows.append(PatternRow(p.name, p.pinyin, p.english, "as a small self-draw",
                                       p.summary))
    return rows


def pattern_table_markdown(preset: str) -> str:
    lines = ["| pattern | pinyin | English | value | what |", "| --- | --- | --- | --- | --- |"]
    for r in pattern_rows(preset):
        lines.append(f"| {r.name} | {r.pinyin} | {r.english} | {r.value} | {r.summary} |")
    return "\n".join(lines)
