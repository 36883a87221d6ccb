"""The one error the engine raises for bad input: a code, its parameters and a message."""

from __future__ import annotations


class ReportError(ValueError):
    """A report, option or tile string the engine refuses. ``code`` and ``params`` let the
    bot say it in the chat's language; ``str()`` is the English message."""

    def __init__(self, code: str, message: str, **params: str | int) -> None:
        super().__init__(clip(message, 300))
        self.code = code
        self.params = {k: clip(v) if isinstance(v, str) else v for k, v in params.items()}


ECHO = 40  # characters of a player's input a message may repeat


def clip(text: str, limit: int = ECHO) -> str:
    """Input as a message repeats it: never more than ``limit`` characters, so that no
    input makes an answer long."""
    return text if len(text) <= limit else text[: limit - 1] + "…"
