"""The calls the pipeline makes on ``bot.ops.metrics`` land in the exposition."""

from __future__ import annotations

from prometheus_client import REGISTRY

from bot.ops import metrics


def value(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


def test_each_hook_counts_where_the_operator_looks() -> None:
    before = {
        "received": value("tally_updates_received_total", kind="message"),
        "handled": value("tally_updates_handled_total", kind="callback_query"),
        "handle_n": value("tally_update_handle_seconds_count"),
        "recorded": value("tally_reports_recorded_total", kind="hand"),
        "refused": value("tally_refusals_total", code="not_a_player"),
        "answered": value("tally_update_to_answer_seconds_count"),
        "error": value("tally_telegram_errors_total", code="429"),
        "retries": value("tally_telegram_retries_total"),
    }
    metrics.received("message")
    metrics.handled("callback_query", 0.02)
    metrics.recorded("hand")
    metrics.refused("not_a_player")
    metrics.answered(0.12)
    metrics.telegram_error("429")
    metrics.RETRIES.inc()
    assert value("tally_updates_received_total", kind="message") == before["received"] + 1
    assert value("tally_updates_handled_total", kind="callback_query") == before["handled"] + 1
    assert value("tally_update_handle_seconds_count") == before["handle_n"] + 1
    assert value("tally_reports_recorded_total", kind="hand") == before["recorded"] + 1
    assert value("tally_refusals_total", code="not_a_player") == before["refused"] + 1
    assert value("tally_update_to_answer_seconds_count") == before["answered"] + 1
    assert value("tally_telegram_errors_total", code="429") == before["error"] + 1
    assert value("tally_telegram_retries_total") == before["retries"] + 1
    assert b"tally_update_to_answer_seconds_bucket" in metrics.exposition()


def test_the_kind_of_an_update() -> None:
    assert metrics.update_kind({"update_id": 1, "message": {}}) == "message"
    assert metrics.update_kind({"update_id": 1, "callback_query": {}}) == "callback_query"
    assert metrics.update_kind({"update_id": 1, "poll": {}}) == "other"
