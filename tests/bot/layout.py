"""What a drawn picture's texts must keep to: inside the canvas, off the footer, off each
other (matplotlib's drawn bounding boxes, in pixels)."""

from __future__ import annotations

import pytest
from matplotlib.figure import Figure

from bot.pictures import drawing


def kept_figures(monkeypatch: pytest.MonkeyPatch) -> list[Figure]:
    """Every figure the pictures draw from now on, kept for the test to look at."""
    figures: list[Figure] = []
    figure = drawing._figure

    def kept(size: tuple[int, int]) -> Figure:
        figures.append(figure(size))
        return figures[-1]

    monkeypatch.setattr(drawing, "_figure", kept)
    return figures


def layout_problems(fig: Figure, footer: str) -> list[str]:
    """Each text that leaves the canvas or overlaps another (``footer`` included)."""
    fig.canvas.draw()
    width, height = fig.canvas.get_width_height()
    boxes = [(x.get_text(), x.get_window_extent()) for x in fig.texts if x.get_text()]
    assert any(text == footer for text, _ in boxes), [text for text, _ in boxes]
    problems = [f"{text!r} leaves the {width}x{height} canvas: {box.bounds}"
                for text, box in boxes
                if box.x0 < 0 or box.y0 < 0 or box.x1 > width or box.y1 > height]
    for i, (text, box) in enumerate(boxes):
        problems += [f"{text!r} overlaps {other!r}" for other, box2 in boxes[i + 1:]
                     if box.overlaps(box2)]
    return problems
