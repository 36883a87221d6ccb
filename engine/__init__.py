"""Mahjong Tally's scoring engine: pure, synchronous, no I/O.

Public entry points: :mod:`engine.tiles` (notation), :mod:`engine.analysis` (wins and
waits over counts), :mod:`engine.readings` (every reading, with wildcards),
:mod:`engine.rules` (families, presets, options) and :mod:`engine.settle` (who pays whom).
"""

__version__ = "0.1.0"
