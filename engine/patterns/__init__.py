"""Pattern definitions, one small definition each, grouped by family."""

from engine.patterns.base import Facts, Pattern, PatternSet
from engine.patterns.changsha import CHANGSHA, STARTING
from engine.patterns.jiangxi import JIANGXI
from engine.patterns.mcr import MCR
from engine.patterns.sichuan import SICHUAN

FAMILY_PATTERNS: dict[str, PatternSet] = {
    "sichuan": SICHUAN,
    "changsha": CHANGSHA,
    "jiangxi": JIANGXI,
    "mcr": MCR,
}

__all__ = ["CHANGSHA", "FAMILY_PATTERNS", "JIANGXI", "MCR", "SICHUAN", "STARTING", "Facts",
           "Pattern", "PatternSet"]
