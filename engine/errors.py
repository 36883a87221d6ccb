"""The one error the engine raises for bad input: a code, its parameters and a message."""

from __future__ import annotations


class ReportError(ValueError):
    """A report, option or tile string the engine refuses. ``code`` and ``params`` let the
    bot say it in the chat's language; ``str()`` is the English message."""

    def __init__(self, code: str, message: str, **params: str | int) -> None:
        super().__init__(clip(message, 300))
        self.code = code
        self.params = clip_params(params)


ECHO = 40  # characters of a player's input a message may repeat


# Lists the code writes itself (valid options, presets or values; suggested names): never
# a player's input, so a message gives them whole.
LISTS = frozenset({"valid", "suggestions"})


def clip_params(params: dict[str, str | int]) -> dict[str, str | int]:
    """A message's parameters with a player's input clipped and the code's lists whole."""
    return {k: clip(v) if isinstance(v, str) and k not in LISTS else v
            for k, v in params.items()}


def clip(text: str, limit: int = ECHO) -> str:
    """Input as a message repeats it: never more than ``limit`` characters, so that no
    input makes an answer long."""
    return text if len(text) <= limit else text[: limit - 1] + "…"
