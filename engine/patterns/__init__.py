"""Pattern definitions, one small definition each, grouped by family."""

from engine.patterns.base import Facts, Pattern, PatternSet
from engine.patterns.changsha import CHANGSHA, STARTING
from engine.patterns.hongkong import HONGKONG
from engine.patterns.jiangxi import JIANGXI
from engine.patterns.mcr import MCR
from engine.patterns.sichuan import SICHUAN
from engine.patterns.singapore import SINGAPORE

FAMILY_PATTERNS: dict[str, PatternSet] = {
    "sichuan": SICHUAN,
    "changsha": CHANGSHA,
    "jiangxi": JIANGXI,
    "singapore": SINGAPORE,
    "free": PatternSet("free"),  # points only: no pattern is named
    "mcr": MCR,
    "hongkong": HONGKONG,
}

__all__ = ["CHANGSHA", "FAMILY_PATTERNS", "HONGKONG", "JIANGXI", "MCR", "SICHUAN", "SINGAPORE",
           "STARTING", "Facts",
           "Pattern", "PatternSet"]
