"""Chinese Official rules (MCR, 国标麻将): the 81 fans counted from the tiles.

:mod:`engine.mcr.fans` names the fans, :mod:`engine.mcr.hand` checks a hand report's tiles,
:mod:`engine.mcr.divide` splits tiles into sets and finds waits, :mod:`engine.mcr.count`
counts one hand's best reading, and :mod:`engine.mcr.match` keeps a 16-hand match.
"""
