"""The font the pictures use, picked once (with the first picture; at start when
neither the project's own font nor fontconfig has a CJK font).

A CJK font draws Chinese names and the zh-Hans labels. The project brings its own: Noto
Sans SC, installed with its Python dependencies (the package pylopdf-fonts-zh-cn, SIL Open
Font License 1.1; docs/usage.md says why this one), registered with matplotlib through
``fontManager.addfont``, so that a machine without any CJK font (a fresh laptop, a slim
container) draws every name. Only where that package is missing is the system asked.
Without any CJK font, a picture still renders: names the font cannot draw are labelled by
seat (东/E…), zh-Hans labels fall back to English, and the start logs once which font to
install.

A system font is found however it was installed: fontconfig (``fc-list``) is asked for the files
of the fonts that cover Chinese, and the one chosen is registered with matplotlib
(``fontManager.addfont``), so matplotlib's cached font list, written when it first ran,
cannot hide a font installed since. Without fontconfig, matplotlib's own list is used."""

from __future__ import annotations

import logging
import shutil
import subprocess
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from importlib import resources

# matplotlib is imported where a font is first picked or read (with the first picture), not
# at start: a process that draws nothing does without it (bot/pictures/drawing.py).

log = logging.getLogger(__name__)

# Families that hold the Chinese characters, best first. Debian's fonts-noto-cjk gives the
# first; the others are what other systems commonly have.
CJK_FAMILIES = (
    "Noto Sans CJK SC", "Source Han Sans SC", "Noto Sans SC", "Source Han Sans CN",
    "WenQuanYi Zen Hei", "WenQuanYi Micro Hei", "Droid Sans Fallback", "Microsoft YaHei",
    "SimHei", "PingFang SC", "Hiragino Sans GB", "Noto Sans CJK JP", "Arial Unicode MS",
)
CJK_FAMILY_MARKS = ("CJK", "Han", " SC", " TC", " CN", " HK", "Hei", "Song", "Kai", "Ming",
                    "WenQuanYi", "Fallback")  # a family not in the list above still may do
BASE_FAMILY = "DejaVu Sans"  # matplotlib's own, always present
# The font that installs with the project (pyproject.toml's dependencies).
BUNDLED_PACKAGE, BUNDLED_FILE = "pylopdf_fonts_zh_cn", "NotoSansSC-Regular.otf"
INSTALL_HINT = ("pip install pylopdf-fonts-zh-cn (a dependency of the project), or apt-get "
                "install fonts-noto-cjk (Debian/Ubuntu), or any of: "
                + ", ".join(CJK_FAMILIES[:5]))


@dataclass(frozen=True)
class Font:
    family: str
    path: str
    cjk: bool
    fallback_paths: tuple[str, ...] = field(default=())

    @cached_property
    def _codepoints(self) -> frozenset[int]:
        from matplotlib.ft2font import FT2Font

        points: set[int] = set()
        for path in (self.path, *self.fallback_paths):
            points.update(FT2Font(path).get_charmap())
        return frozenset(points)

    @cached_property
    def bold(self) -> str:
        """The weight of bold text: "bold" where the family has a bold face, else "normal"
        (the project's own font has only its Regular: asked for bold, matplotlib would
        warn in the log for each picture and draw it regular all the same)."""
        from matplotlib import font_manager

        faces = [f for f in font_manager.fontManager.ttflist if f.name == self.family]
        heavy = any(int(f.weight) >= 600 if str(f.weight).isdigit() else "bold" in str(
            f.weight) for f in faces)
        return "bold" if heavy else "normal"

    def can_draw(self, text: str) -> bool:
        return all(ch.isspace() or ord(ch) in self._codepoints for ch in text)

    @property
    def families(self) -> list[str]:
        return [self.family] if self.family == BASE_FAMILY else [self.family, BASE_FAMILY]


def _base() -> str:
    from matplotlib import font_manager

    return str(font_manager.findfont(font_manager.FontProperties(family=BASE_FAMILY),
                                     fallback_to_default=True))


FC_TIMEOUT = 10.0  # seconds for one fontconfig query (it may build its cache first)


def fontconfig_cjk_files() -> list[tuple[str, str]]:
    """(family, file) of every font fontconfig says covers Simplified Chinese, the regular
    styles first; empty without fontconfig, or when it fails or takes too long."""
    fc_list = shutil.which("fc-list")
    if fc_list is None:
        return []
    try:
        done = subprocess.run([fc_list, "--format", "%{file}\t%{family}\t%{style}\n",
                               ":lang=zh-cn"], capture_output=True, text=True,
                              timeout=FC_TIMEOUT, check=False)
    except (OSError, subprocess.SubprocessError) as exc:
        log.info("fontconfig was not asked for a CJK font: %s", exc)
        return []
    regular: list[tuple[str, str]] = []
    other: list[tuple[str, str]] = []
    for line in done.stdout.splitlines():
        path, families, style = [*line.split("\t"), "", ""][:3]
        if path and families and path.lower().endswith((".ttf", ".otf", ".ttc")):
            plain = any(word in style for word in ("Regular", "Book", "Normal", "Medium"))
            (regular if plain else other).extend(
                (family.strip(), path) for family in families.split(","))
    return regular + other


def _registered(path: str, prefer: str | None = None) -> str | None:
    """The family matplotlib knows the font file by (``prefer`` when the file holds
    several, as a .ttc does), registering the file first when matplotlib's list does not
    hold it yet; None when matplotlib cannot read it."""
    from matplotlib import font_manager

    for attempt in range(2):
        names = [str(e.name) for e in font_manager.fontManager.ttflist if e.fname == path]
        if names:
            return prefer if prefer in names else names[0]
        if attempt == 0:
            try:
                font_manager.fontManager.addfont(path)
            except (OSError, RuntimeError, ValueError):
                return None
    return str(font_manager.FontProperties(fname=path).get_name())


def _best(candidates: list[tuple[str, str]]) -> tuple[str, str] | None:
    """The (family, file) of the best CJK family among ``candidates``: the first of
    CJK_FAMILIES present, else the first whose name marks it as Chinese."""
    for family in CJK_FAMILIES:
        for name, path in candidates:
            if name == family:
                return name, path
    for name, path in candidates:
        if any(mark in name for mark in CJK_FAMILY_MARKS):
            return name, path
    return None


def bundled_font_path() -> str | None:
    """The file of the CJK font that installs with the project, or None where its package
    is missing."""
    try:
        path = resources.files(BUNDLED_PACKAGE) / BUNDLED_FILE
    except ModuleNotFoundError:
        return None
    return str(path) if path.is_file() else None


def _bundled() -> Font | None:
    path = bundled_font_path()
    family = _registered(path) if path is not None else None
    if path is None or family is None:
        return None
    font = Font(family, path, True, (_base(),))
    try:
        return font if font.can_draw("中文") else None
    except (OSError, RuntimeError, ValueError):
        return None


def pick_font(font_dirs: Sequence[str] | None = None, *, bundled: bool = True) -> Font:
    """The project's own CJK font (unless ``bundled`` is False, or ``font_dirs`` are
    given), else the first CJK family found among the system's fonts (asking fontconfig,
    then matplotlib's list; or only in ``font_dirs``, when given), else matplotlib's
    DejaVu Sans."""
    from matplotlib import font_manager

    if font_dirs is None and bundled and (own := _bundled()) is not None:
        return own
    if font_dirs is None:
        sources = [fontconfig_cjk_files(),
                   [(f.name, f.fname) for f in font_manager.fontManager.ttflist]]
    else:
        found = []
        for path in font_manager.findSystemFonts(fontpaths=list(font_dirs), fontext="ttf"):
            name = _registered(path)
            if name is not None:
                found.append((name, path))
        sources = [found]
    for candidates in sources:
        while (best := _best(candidates)) is not None:
            family = _registered(best[1], best[0])
            font = Font(family, best[1], True, (_base(),)) if family else None
            try:
                if font is not None and font.can_draw("中文"):
                    for name, path in candidates:  # its bold and other styles, for titles
                        if name == best[0] and path != best[1]:
                            _registered(path)
                    return font
            except (OSError, RuntimeError, ValueError):  # the file went away since
                pass
            candidates = [c for c in candidates if c[1] != best[1]]
    return Font(BASE_FAMILY, _base(), False)


_lock = threading.Lock()
_chosen: list[Font] = []
_checked: list[bool] = []  # check_at_start ran


def check_at_start() -> None:
    """At start: when the project's own font is installed, or fontconfig lists a CJK
    font, that is all a start needs to know (the
    pictures pick theirs with the first one, reading matplotlib's font list then: a
    quarter of a second of CPU with matplotlib's import, which a process that draws
    nothing, as most webhook workers, does without); otherwise the font is picked now,
    so that a start without a CJK font says so (:func:`chosen`). Once per process (tests
    and benches start many bots in one)."""
    with _lock:
        if _checked or _chosen:
            return
        _checked.append(True)
    own = bundled_font_path()
    if own is not None:
        log.info("pictures use the font that comes with the project, Noto Sans SC (%s)", own)
        return
    found = _best(fontconfig_cjk_files())
    if found is not None:
        log.info("fontconfig lists the CJK font %s (%s): the pictures pick theirs with the "
                 "first one", *found)
        return
    chosen()


def chosen() -> Font:
    """The font of every picture, picked on first call (with the first picture, or at
    start when fontconfig lists no CJK font); logs once when no CJK font is installed."""
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
