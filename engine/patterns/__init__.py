"""Pattern definitions, one small definition each, grouped by family."""

from engine.patterns.base import Facts, Pattern, PatternSet
from engine.patterns.changsha import CHANGSHA, STARTING
from engine.patterns.hongkong import HONGKONG
from engine.patterns.jiangxi import JIANGXI
from engine.patterns.sichuan import SICHUAN

FAMILY_PATTERNS: dict[str, PatternSet] = {
    "sichuan": SICHUAN,
    "changsha": CHANGSHA,
    "jiangxi": JIANGXI,
    "hongkong": HONGKONG,
}

__all__ = ["CHANGSHA", "FAMILY_PATTERNS", "HONGKONG", "JIANGXI", "SICHUAN", "STARTING", "Facts",
           "Pattern", "PatternSet"]
