"""The MCR fans as a pattern set, so that a report may name them in Chinese or English
(counting is engine.mcr's; nothing is detected here)."""

from __future__ import annotations

from engine.mcr.fans import ALIASES, FANS, WHAT
from engine.patterns.base import Pattern, PatternSet

MCR = PatternSet("mcr")
MCR.add(*(Pattern(info.zh, fan.name.lower(), info.en, WHAT[fan],
                  aliases=tuple(a for a, f in ALIASES.items() if f == fan))
          for fan, info in FANS.items()))
