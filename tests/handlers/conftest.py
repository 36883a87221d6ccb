"""The handler tier composes the pictures its tests cause but does not rasterize them, as
the full stack's in-process tests do (tests/bot/conftest.py); a test marked ``pictures``
rasterizes."""

from tests.bot.conftest import _pictures_not_rasterized

__all__ = ["_pictures_not_rasterized"]
