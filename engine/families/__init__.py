"""Scoring and settlement, one module per family, collected here by name."""

from engine.families import changsha, hongkong, jiangxi, sichuan
from engine.families.registry import EventContext, Family

FAMILIES: dict[str, Family] = {f.name: f for f in (sichuan.FAMILY, changsha.FAMILY,
                                                   jiangxi.FAMILY, hongkong.FAMILY)}

__all__ = ["FAMILIES", "EventContext", "Family"]
