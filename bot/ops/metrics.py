"""Prometheus metrics, aggregated across worker processes.

With several workers the parent sets ``PROMETHEUS_MULTIPROC_DIR`` to a fresh directory
before any worker starts (``bot.serving``); every process then writes its samples there and
``GET /metrics`` in any worker reports the sum over all of them (prometheus-client's
multiprocess mode). Without it (one process: polling, tests) the default registry is used.
The mode is fixed when this module is first imported, as prometheus-client requires.

Who calls what (functions, so that callers need not know the metric objects):
- intake (``bot.delivery.pipeline``): :func:`received` for every update handed in; the webhook
  (``bot.webhook``): :func:`duplicate` when the inbox already had it, ``HTTP_REQUESTS``
  and ``WEBHOOK_SECONDS``; the admin routes: ``HTTP_REQUESTS``;
- the dispatcher: :func:`handled`, :func:`recorded`, :func:`refused`;
- the sender: :func:`answered` (from an update's arrival to its answer accepted by
  Telegram), :func:`telegram_error`, ``RETRIES.inc()``;
- ``/metrics`` and ``/readyz``: :func:`refresh_backlog`, from ``Ledger.queues.backlog()`` on
  every scrape.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
)

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"
MULTIPROCESS = bool(os.environ.get(MULTIPROC_ENV))  # fixed at import, as the library's is
CONTENT_TYPE = CONTENT_TYPE_LATEST
UPDATE_KINDS = ("message", "edited_message", "callback_query", "my_chat_member")

UPDATES_RECEIVED = Counter(
    "tally_updates_received", "Updates handed to the inbox, by kind", ["kind"])
UPDATES_DUPLICATE = Counter(
    "tally_updates_duplicate", "Updates Telegram delivered again, already in the inbox",
    ["kind"])
UPDATES_HANDLED = Counter(
    "tally_updates_handled", "Updates the dispatcher finished, by kind", ["kind"])
HANDLE_SECONDS = Histogram(
    "tally_update_handle_seconds", "Time to handle one update (its handler and its commit)",
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10))
REPORTS_RECORDED = Counter(
    "tally_reports_recorded", "Events recorded in the ledger (hands, kongs, draws), by kind",
    ["kind"])
REFUSALS = Counter(
    "tally_refusals", "Inputs refused with a message to the chat, by refusal code", ["code"])
ANSWER_LATENCY = Histogram(
    "tally_update_to_answer_seconds",
    "From an update's arrival to its answer accepted by Telegram",
    buckets=(0.025, 0.05, 0.1, 0.15, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60))
TELEGRAM_ERRORS = Counter(
    "tally_telegram_errors",
    "Failed Bot API calls, by code (HTTP status, or timeout / network)", ["code"])
RETRIES = Counter(
    "tally_telegram_retries", "Bot API calls tried again after 5xx, timeouts, network errors")
HTTP_REQUESTS = Counter(
    "tally_http_requests", "Requests to the webhook and admin routes, by route and status",
    ["route", "status"])
WEBHOOK_SECONDS = Histogram(
    "tally_webhook_request_seconds", "Time to answer a webhook request (the inbox commit)",
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5))
# The same number in every worker (read from the database): the newest write wins.
INBOX_BACKLOG = Gauge(
    "tally_inbox_backlog", "Inbox rows not yet handled", multiprocess_mode="mostrecent")
OUTBOX_BACKLOG = Gauge(
    "tally_outbox_backlog", "Outbox rows not yet sent", multiprocess_mode="mostrecent")


def update_kind(payload: Mapping[str, Any]) -> str:
    """The kind of a raw update (its one field besides ``update_id``), or ``other``."""
    for kind in UPDATE_KINDS:
        if kind in payload:
            return kind
    return "other"


def received(kind: str) -> None:
    UPDATES_RECEIVED.labels(kind=kind).inc()


def duplicate(kind: str) -> None:
    UPDATES_DUPLICATE.labels(kind=kind).inc()


def handled(kind: str, seconds: float) -> None:
    UPDATES_HANDLED.labels(kind=kind).inc()
    HANDLE_SECONDS.observe(seconds)


def recorded(kind: str) -> None:
    REPORTS_RECORDED.labels(kind=kind).inc()


def refused(code: str) -> None:
    REFUSALS.labels(code=code).inc()


def answered(seconds: float) -> None:
    ANSWER_LATENCY.observe(seconds)


def telegram_error(code: str) -> None:
    TELEGRAM_ERRORS.labels(code=code).inc()


def refresh_backlog(inbox: int, outbox: int) -> None:
    INBOX_BACKLOG.set(inbox)
    OUTBOX_BACKLOG.set(outbox)


def registry() -> CollectorRegistry:
    """What ``/metrics`` exposes: every process's samples in multiprocess mode."""
    if not MULTIPROCESS:
        return REGISTRY
    collected = CollectorRegistry()
    # prometheus_client leaves this constructor unannotated.
    multiprocess.MultiProcessCollector(collected)  # type: ignore[no-untyped-call]
    return collected


def exposition() -> bytes:
    return generate_latest(registry())

