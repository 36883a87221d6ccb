"""Log lines: JSON when configured (one field set, extras where given), plain by default."""

from __future__ import annotations

import json
import logging
import sys

from bot.ops import logs


def record(msg: str, *args: object, extra: dict[str, object] | None = None,
           exc_info: bool = False) -> logging.LogRecord:
    rec = logging.getLogger("bot.test").makeRecord(
        "bot.test", logging.WARNING, __file__, 1, msg, args,
        sys.exc_info() if exc_info else None, extra=extra)
    return rec


def test_a_json_line_holds_the_field_set_and_the_extras_given() -> None:
    line = logs.JsonFormatter().format(record(
        "recorded hand %d in 报告", 3,
        extra={"chat_id": -100123, "update_id": 77, "hand": 3, "latency_ms": 41.5}))
    assert "\n" not in line
    out = json.loads(line)
    assert out.pop("time").endswith("+00:00")
    assert out == {"level": "WARNING", "logger": "bot.test", "message": "recorded hand 3 in 报告",
                   "chat_id": -100123, "update_id": 77, "hand": 3, "latency_ms": 41.5}


def test_a_json_line_without_extras_has_only_the_four_fields() -> None:
    out = json.loads(logs.JsonFormatter().format(record("started")))
    assert sorted(out) == ["level", "logger", "message", "time"]


def test_an_exception_stays_on_one_json_line() -> None:
    try:
        raise ValueError("bad\nthing")
    except ValueError:
        line = logs.JsonFormatter().format(record("failed", exc_info=True,
                                                  extra={"update_id": 5}))
    assert "\n" not in line
    out = json.loads(line)
    assert out["update_id"] == 5 and "ValueError: bad" in out["exception"]


def test_plain_is_the_default_format() -> None:
    plain = logs.formatter("plain").format(record("hello", extra={"chat_id": 1}))
    assert plain.endswith("WARNING bot.test: hello")
    assert isinstance(logs.formatter("json"), logs.JsonFormatter)


def test_setup_replaces_its_own_handler_and_keeps_others() -> None:
    root = logging.getLogger()
    before = list(root.handlers)
    level = root.level
    try:
        logs.setup("info", "json")
        logs.setup("warning", "plain")
        ours = [h for h in root.handlers if h.get_name() == logs.HANDLER]
        assert len(ours) == 1 and not isinstance(ours[0].formatter, logs.JsonFormatter)
        assert all(h in root.handlers for h in before) and root.level == logging.WARNING
    finally:
        for h in [h for h in root.handlers if h.get_name() == logs.HANDLER]:
            root.removeHandler(h)
        root.setLevel(level)
