"""Patterns that mean the same in every family that has them: one definition each."""

from __future__ import annotations

from engine.patterns.base import Pattern, one_suit

QINGYISE = Pattern("清一色", "qingyise", "one suit", "every tile of one suit", detect=one_suit)
TIANHU = Pattern("天胡", "tianhu", "heavenly win", "the dealer wins on the deal",
                 excludes=("地胡",))
DIHU = Pattern("地胡", "dihu", "earthly win", "winning on the dealer's first discard")
