"""The MCR fans as a pattern set, so that a report may name them in Chinese or English
(counting is engine.mcr's; nothing is detected here)."""

from __future__ import annotations

from engine.mcr.fans import ALIASES, FANS, Fan
from engine.patterns.base import Pattern, PatternSet

MCR = PatternSet("mcr")
MCR.add(*(Pattern(info.zh, fan.name.lower(), info.en, f"{info.value} fan",
                  aliases=tuple(a for a, f in ALIASES.items() if f == fan))
          for fan, info in FANS.items() if fan != Fan.MIXED_KONG))
MCR.add(Pattern("明暗杠", "mixed_kong", "Concealed Kong and Melded Kong",
                "one concealed and one melded kong: 5 fan (option mixed_kong)"))
