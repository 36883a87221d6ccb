"""The project brings its own CJK font: on a machine with no CJK font at all, the pictures
/end sends draw every name, 老王 included, in both languages, and no glyph is missing
(tests/bot/clean_fonts.py runs the bot in such an environment)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.pictures import fonts

pytestmark = pytest.mark.pictures  # rasterized (tests/bot/conftest.py)

ROOT = Path(__file__).resolve().parents[2]


def without_cjk_fonts(tmp_path: Path) -> dict[str, str]:
    """An environment in which fontconfig knows no font and matplotlib starts afresh."""
    empty, cache, config = tmp_path / "no-fonts", tmp_path / "fc-cache", tmp_path / "mpl"
    for folder in (empty, cache, config):
        folder.mkdir()
    conf = tmp_path / "fonts.conf"
    conf.write_text(f"<?xml version='1.0'?>\n<fontconfig><dir>{empty}</dir>"
                    f"<cachedir>{cache}</cachedir></fontconfig>\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("FONTCONFIG", "MPL"))}
    return env | {"FONTCONFIG_FILE": str(conf), "MPLCONFIGDIR": str(config),
                  "HOME": str(tmp_path)}


def test_the_environment_has_no_cjk_font(tmp_path: Path) -> None:
    """What the next test relies on: there, fontconfig lists no CJK font."""
    env = without_cjk_fonts(tmp_path)
    got = subprocess.run([sys.executable, "-c", "from bot.pictures import fonts; "
                          "print(fonts.fontconfig_cjk_files())"], env=env, cwd=ROOT,
                         capture_output=True, text=True, timeout=120, check=True)
    assert got.stdout.strip() == "[]"


def test_a_machine_without_cjk_fonts_draws_every_name(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "tests.bot.clean_fonts", str(tmp_path)],
                          env=without_cjk_fonts(tmp_path), cwd=ROOT, capture_output=True,
                          text=True, timeout=240, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    out: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    # The font that came with the project, said in the log; the system's CJK fonts unseen.
    assert out["cjk"] and out["family"] == "Noto Sans SC", out
    assert out["path"] == fonts.bundled_font_path()
    assert not any("CJK" in name for name in out["system_fonts"]), out["system_fonts"]
    assert any("Noto Sans SC" in line and "comes with the project" in line
               for line in out["log"]), out["log"]
    assert not any("no CJK font" in line for line in out["log"]), out["log"]
    # No glyph missing from any picture, no font or weight not found.
    assert out["warnings"] == [], out["warnings"]
    assert not any(line.startswith(("WARNING", "ERROR")) for line in out["log"]), out["log"]
    for lang, (chart, card) in out["drawn"].items():
        # 老王 by name on the chart's legend and on the card (not 西, W or ?).
        assert any(x.startswith("老王 ") for x in chart), (lang, chart)
        assert "老王" in card, (lang, card)
        assert not {"?", "W", "西"} & set(card + chart), (lang, card, chart)
    zh_card = out["drawn"]["zh-Hans"][1]
    assert "结算" in zh_card and "麻将记分" in zh_card  # Chinese labels, not English ones
    assert any("付给" in x for x in zh_card), zh_card
    assert any("pays" in x for x in out["drawn"]["en"][1]), out["drawn"]["en"][1]
