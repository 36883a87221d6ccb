"""Logging: plain text lines by default, or JSON lines (``logging.format = "json"``).

A JSON line holds ``time`` (UTC, ISO 8601), ``level``, ``logger`` and ``message``, then the
fields a caller gives through ``extra=`` when it knows them: ``chat_id``, ``update_id``,
``hand`` and ``latency_ms`` (``log.info("recorded", extra={"chat_id": c, "hand": 3})``),
and ``exception`` with the traceback when there is one.
"""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime
from typing import Any

FIELDS = ("chat_id", "update_id", "hand", "latency_ms")
HANDLER = "tally"  # the name of the handler setup() installs, so a second call replaces it
PLAIN = "%(asctime)s %(levelname)s %(name)s: %(message)s"


class JsonFormatter(logging.Formatter):
    """One JSON object a line, the same field set for every record."""

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for name in FIELDS:
            value = getattr(record, name, None)
            if value is not None:
                out[name] = value
        if record.exc_info:
            out["exception"] = self.formatException(record.exc_info)
        elif record.exc_text:
            out["exception"] = record.exc_text
        if record.stack_info:
            out["stack"] = self.formatStack(record.stack_info)
        return json.dumps(out, ensure_ascii=False, default=str)


def formatter(kind: str) -> logging.Formatter:
    return JsonFormatter() if kind == "json" else logging.Formatter(PLAIN)


def setup(level: str, kind: str = "plain") -> None:
    """Configure the root logger once per process (the parent and every worker)."""
    handler = logging.StreamHandler()
    handler.set_name(HANDLER)
    handler.setFormatter(formatter(kind))
    root = logging.getLogger()
    for old in [h for h in root.handlers if h.get_name() == HANDLER]:
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level.upper())
    logging.getLogger("httpx").setLevel(logging.WARNING)
    logging.getLogger("alembic").setLevel(logging.WARNING)  # its plugin set-up is noise
