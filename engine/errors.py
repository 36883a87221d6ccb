"""The one error the engine raises for bad input: a code, its parameters and a message."""

from __future__ import annotations


class ReportError(ValueError):
    """A report, option or tile string the engine refuses. ``code`` and ``params`` let the
    bot say it in the chat's language; ``str()`` is the English message."""

    def __init__(self, code: str, message: str, **params: str | int) -> None:
        super().__init__(message)
        self.code = code
        self.params = params
