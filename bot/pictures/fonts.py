"""The font the pictures use, picked once at start.

A CJK font draws Chinese names and the zh-Hans labels. Without one, a picture still
renders: names the font cannot draw are labelled by seat (东/E…), zh-Hans labels fall back
to English, and the start logs once which font to install."""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property

import matplotlib

matplotlib.use("Agg")  # no display: render to PNG bytes only

from matplotlib import font_manager
from matplotlib.ft2font import FT2Font

log = logging.getLogger(__name__)

# Families that hold the Chinese characters, best first. Debian's fonts-noto-cjk gives the
# first; the others are what other systems commonly have.
CJK_FAMILIES = (
    "Noto Sans CJK SC", "Source Han Sans SC", "Noto Sans SC", "Source Han Sans CN",
    "WenQuanYi Zen Hei", "WenQuanYi Micro Hei", "Droid Sans Fallback", "Microsoft YaHei",
    "SimHei", "PingFang SC", "Hiragino Sans GB", "Noto Sans CJK JP", "Arial Unicode MS",
)
BASE_FAMILY = "DejaVu Sans"  # matplotlib's own, always present
INSTALL_HINT = "apt-get install fonts-noto-cjk (Debian/Ubuntu), or any of: " + ", ".join(
    CJK_FAMILIES[:5])


@dataclass(frozen=True)
class Font:
    family: str
    path: str
    cjk: bool
    fallback_paths: tuple[str, ...] = field(default=())

    @cached_property
    def _codepoints(self) -> frozenset[int]:
        points: set[int] = set()
        for path in (self.path, *self.fallback_paths):
            points.update(FT2Font(path).get_charmap())
        return frozenset(points)

    def can_draw(self, text: str) -> bool:
        return all(ch.isspace() or ord(ch) in self._codepoints for ch in text)

    @property
    def families(self) -> list[str]:
        return [self.family] if self.family == BASE_FAMILY else [self.family, BASE_FAMILY]


def _base() -> str:
    return str(font_manager.findfont(font_manager.FontProperties(family=BASE_FAMILY),
                                     fallback_to_default=True))


def pick_font(font_dirs: Sequence[str] | None = None) -> Font:
    """The first CJK family found among the system's fonts (or only in ``font_dirs``,
    when given), else matplotlib's DejaVu Sans."""
    if font_dirs is None:
        found = {f.name: f.fname for f in font_manager.fontManager.ttflist}
    else:
        found = {}
        for path in font_manager.findSystemFonts(fontpaths=list(font_dirs), fontext="ttf"):
            try:
                font_manager.fontManager.addfont(path)
                found.setdefault(font_manager.FontProperties(fname=path).get_name(), path)
            except (OSError, RuntimeError, ValueError):
                continue
    for family in CJK_FAMILIES:
        if family in found:
            return Font(family, found[family], True, (_base(),))
    return Font(BASE_FAMILY, _base(), False)


_lock = threading.Lock()
_chosen: list[Font] = []


def chosen() -> Font:
    """The font of every picture, picked on first call (the bot calls it at start);
    logs once when no CJK font is installed."""
    with _lock:
        if not _chosen:
            font = pick_font()
            _chosen.append(font)
            if font.cjk:
                log.info("pictures use the font %s (%s)", font.family, font.path)
            else:
                log.warning("no CJK font found: pictures label Chinese names by seat and "
                            "use English; install one: %s", INSTALL_HINT)
        return _chosen[0]
