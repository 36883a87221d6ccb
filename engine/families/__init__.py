"""Scoring and settlement, one module per family, collected here by name."""

from engine.families import changsha, free, hongkong, jiangxi, mcr, sichuan, singapore
from engine.families.registry import EventContext, Family

FAMILIES: dict[str, Family] = {f.name: f for f in (sichuan.FAMILY, changsha.FAMILY,
                                                   jiangxi.FAMILY, singapore.FAMILY,
                                                   free.FAMILY, mcr.FAMILY,
                                                   hongkong.FAMILY)}

__all__ = ["FAMILIES", "EventContext", "Family"]
