"""The one error the engine raises for bad input: a code, its parameters and a message."""

from __future__ import annotations


class ReportError(ValueError):
    """A report, option or tile string the engine refuses. ``code`` and ``params`` let the
    bot say it in the chat's language; ``str()`` is the English message."""

    def __init__(self, code: str, message: str, **params: str | int) -> None:
        super().__init__(clip(message, 300))
        self.code = code
        self.params = clip_params(params)


def foreign(family: str, fields: dict[str, object], message: str) -> ReportError:
    """A refusal of what another family counts: ``field`` names the first such field of
    the report that is set (for the bot to name the words that said it) and ``family``
    the family it belongs to."""
    field = next((k for k, v in fields.items() if v not in (None, 0, (), [], {})), "")
    return ReportError("wrong_family", message, field=field, family=family)


ECHO = 40  # characters of a player's input a message may repeat


# Lists the code writes itself (valid options, presets or values; suggested names): never
# a player's input, so a message gives them whole.
LISTS = frozenset({"valid", "suggestions", "names"})


def clip_params(params: dict[str, str | int]) -> dict[str, str | int]:
    """A message's parameters with a player's input clipped and the code's lists whole."""
    return {k: clip(v) if isinstance(v, str) and k not in LISTS else v
            for k, v in params.items()}


def clip(text: str, limit: int = ECHO) -> str:
    """Input as a message repeats it: never more than ``limit`` characters, so that no
    input makes an answer long."""
    return text if len(text) <= limit else text[: limit - 1] + "…"
