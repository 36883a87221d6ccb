"""The bot's tests that run it in-process compose every picture they cause (its texts,
lines and layout) but do not rasterize it: the bot sends a blank PNG of the picture's size.
Rasterizing and encoding is three quarters of a picture's cost and was a sixth of the
tests' CPU. The tests marked ``pictures`` rasterize: each kind of picture, crowded, with
long, Chinese and odd names (test_pictures.py), the pictures each command sends
(test_files_e2e.py), a night of three (test_three_players.py) and the fuzz's inputs
(test_fuzz.py)."""

from __future__ import annotations

import io
from functools import cache
from typing import TYPE_CHECKING

import pytest

# matplotlib and the pictures' modules are imported by the first picture, not here:
# pytest-xdist's controller, which draws none, loads this file too (through the handler
# tier's conftest).
if TYPE_CHECKING:
    from matplotlib.figure import Figure


@cache
def blank_png(size: tuple[int, int]) -> bytes:
    from PIL import Image

    buf = io.BytesIO()
    Image.new("1", size, 1).save(buf, format="PNG")
    return buf.getvalue()


def composed_png(fig: Figure) -> bytes:
    width, height = fig.get_size_inches() * fig.dpi
    return blank_png((int(width), int(height)))  # as the Agg canvas sizes it


@pytest.fixture(autouse=True)
def _pictures_not_rasterized(request: pytest.FixtureRequest,
                             monkeypatch: pytest.MonkeyPatch) -> None:
    if request.node.get_closest_marker("pictures") is None:
        from bot.pictures import drawing

        monkeypatch.setattr(drawing, "_png", composed_png)
