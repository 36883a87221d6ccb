"""Run by tests/bot/test_fonts_clean.py in a process of its own, in an environment without
any system CJK font: fontconfig lists none (its configuration, FONTCONFIG_FILE, names one
empty folder), matplotlib has a configuration and cache folder of its own (MPLCONFIGDIR)
and is told to know only its own fonts (whatever it found in the system's font folders is
dropped from its list). There the real bot plays a night with the guest 老王 through the
fake Bot API and ends it in each language; this prints, as JSON, the font picked, the
log's lines about it, every text drawn on the pictures /end sent, and every warning
raised while drawing them (matplotlib warns of each glyph a font lacks).

``python -m tests.bot.clean_fonts FOLDER``"""

from __future__ import annotations

import asyncio
import json
import logging
import sys
import warnings
from pathlib import Path
from typing import Any

import matplotlib
from matplotlib import font_manager
from matplotlib.figure import Figure
from matplotlib.text import Text

from bot.pictures import drawing, fonts
from tests.bot.harness import end_night, table

NIGHT = ("/new chengdu @alice @bob 老王 carol", "/hu bob 自摸 清一色", "/hu 老王 自摸",
         "/hu carol from 老王", "/hu alice 自摸 七对", "/hu 老王 from bob")


def only_matplotlibs_own_fonts() -> None:
    own = str(Path(matplotlib.get_data_path()))
    font_manager.fontManager.ttflist = [f for f in font_manager.fontManager.ttflist
                                        if f.fname.startswith(own)]


async def run(folder: Path) -> dict[str, Any]:
    drawn: dict[str, list[list[str]]] = {}
    figure = drawing._figure
    kept: list[Figure] = []

    def keep(size: tuple[int, int]) -> Figure:
        kept.append(figure(size))
        return kept[-1]

    drawing._figure = keep
    for lang in ("zh-Hans", "en"):
        kept.clear()
        async with table(folder / lang, lang=lang) as t:
            for line in NIGHT:
                await t.say("alice", line)
            await end_night(t, "alice")  # the last hand plays on: end it here
            assert t.api.errors == [], t.api.errors
        drawn[lang] = [[x.get_text() for x in fig.findobj(Text) if x.get_text()]
                       for fig in kept]
    font = fonts.chosen()
    return {"family": font.family, "path": font.path, "cjk": font.cjk, "drawn": drawn}


def main() -> None:
    folder = Path(sys.argv[1])
    only_matplotlibs_own_fonts()
    records: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(f"{record.levelname} {record.name}: {record.getMessage()}")

    for name in ("bot.pictures.fonts", "matplotlib.font_manager"):
        logging.getLogger(name).addHandler(Keep())
        logging.getLogger(name).setLevel(logging.INFO)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = asyncio.run(run(folder))
    out["warnings"] = [str(w.message) for w in caught]
    out["log"] = records
    out["system_fonts"] = sorted({f.name for f in font_manager.fontManager.ttflist
                                  if f.name != "Noto Sans SC"})
    print(json.dumps(out, ensure_ascii=False))


if __name__ == "__main__":
    main()
