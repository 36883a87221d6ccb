"""Build the python-telegram-bot Application: handlers, Defaults, rate limiter, one error
handler, post_init (storage, migrations, the delivery pipeline, command menus) and
post_shutdown; and run it, polling, with the pipeline (:func:`running`, :func:`serve`)."""

from __future__ import annotations

import asyncio
import logging
import signal
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from telegram.constants import ParseMode
from telegram.ext import (
    AIORateLimiter,
    ApplicationBuilder,
    ContextTypes,
    Defaults,
)
from telegram.request import BaseRequest

from bot.delivery.pipeline import Pipeline, pipeline_of
from bot.handlers import app_link as links
from bot.handlers import (
    buttons,
    calculator,
    chat,
    chat_settings,
    context,
    corrections,
    details,
    ending,
    files,
    lookback,
    money,
    reporting,
    table,
    welcome,
)
from bot.handlers.context import TallyApp, TallyContext
from bot.ops import collector
from bot.ops.config import Settings, storage_location
from bot.text.menus import set_menus
from storage.ledger import Ledger

log = logging.getLogger(__name__)

# Each feature registers its own commands and buttons; the guided buttons' router
# (bot.handlers.buttons) comes last, since it takes every button the others leave.
FEATURES = (reporting, table, ending, corrections, chat_settings, money, lookback, files,
            calculator, welcome, links, details)
COMMANDS = {name: callback for feature in (reporting, table, ending, corrections,
                                            chat_settings, money, lookback, files,
                                            calculator, welcome, links)
            for name, callback in feature.COMMANDS.items()}


class RetryAfterIsNotAnError(logging.Filter):
    """python-telegram-bot's rate limiter, set not to retry (``max_retries=0``), logs a
    429 it passes on as an ERROR with a traceback. The sender (and the dispatcher) wait
    as Telegram asks and try again, so it is no failure: logged at INFO, without the
    traceback, as the sender logs its own 429s (and ``tally_telegram_errors_total``
    counts them)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno >= logging.ERROR and record.getMessage().startswith(
                "Rate limit hit after maximum of"):
            record.levelno, record.levelname = logging.INFO, "INFO"
            record.exc_info, record.exc_text = None, None
        return True


def quiet_rate_limiter() -> None:
    limiter_log = logging.getLogger("telegram.ext.AIORateLimiter")
    if not any(isinstance(f, RetryAfterIsNotAnError) for f in limiter_log.filters):
        limiter_log.addFilter(RetryAfterIsNotAnError())


def build_application(settings: Settings, request: BaseRequest | None = None,
                      token: str | None = None, *, shared: bool = False
                      ) -> TallyApp:
    """``shared``: several worker processes share the inbox (webhook mode)."""

    async def post_init(app: TallyApp) -> None:
        # Webhook workers find the schema migrated and the menus set by their parent
        # (bot.serving), once, however many start.
        # A stalled worker's open transaction ends after a lease, so its row locks do not
        # hold up the workers that take over its leases (PostgreSQL).
        ledger = await Ledger.open(settings.storage.url, run_migrations=not shared,
                                   idle_transaction_seconds=settings.delivery.lease_seconds
                                   if settings.storage.url.startswith("postgresql") else None)
        ledger.batching = not shared  # see storage.sql.store: several workers, no batches
        app.bot_data["services"] = context.Services(
            ledger=ledger, admins=frozenset(settings.admins),
            default_language=settings.default_language, cache=not shared)
        app.bot_data["pipeline"] = Pipeline(
            app, ledger, settings.delivery, board_interval=settings.telegram.board_interval,
            default_language=settings.default_language, shared=shared)
        links.configure(app.bot.username, app.bot.token, settings.webapp)
        if not shared:
            await set_menus(app.bot)
        log.info("storage ready at %s", storage_location(ledger.engine.url))

    async def post_shutdown(app: TallyApp) -> None:
        links.clear()
        app.bot_data.pop("pipeline", None)
        services = app.bot_data.pop("services", None)
        if services is not None:
            await services.ledger.close()

    secret = token or (settings.telegram.token.get_secret_value()
                       if settings.telegram.token else None)
    if not secret:
        raise ValueError("a token is needed (or a fake request, as console mode uses)")
    quiet_rate_limiter()
    builder = (
        ApplicationBuilder()
        .context_types(ContextTypes(context=TallyContext))
        .job_queue(None)  # nothing is scheduled: the delivery pipeline runs its own tasks
        .token(secret)
        .defaults(Defaults(parse_mode=ParseMode.HTML, disable_notification=False))
        .rate_limiter(AIORateLimiter(
            overall_max_rate=settings.telegram.overall_max_rate,
            group_max_rate=settings.telegram.group_max_rate, max_retries=0))
        .updater(None)  # the pipeline polls: see bot.delivery.poller
        .post_init(post_init)
        .post_shutdown(post_shutdown)
    )
    if request is not None:
        builder = builder.request(request).get_updates_request(request)
    else:
        timeout = settings.telegram.request_timeout
        builder = (builder.base_url(settings.telegram.base_url)
                   .base_file_url(settings.telegram.base_file_url)
                   .connect_timeout(timeout).read_timeout(timeout).write_timeout(timeout)
                   .pool_timeout(timeout).get_updates_connect_timeout(timeout)
                   .connection_pool_size(settings.telegram.connection_pool_size)
                   .get_updates_write_timeout(timeout).get_updates_pool_timeout(timeout))
    app = builder.build()
    app.bot_data["settings"] = settings  # the Mini App's server reads its section
    for feature in FEATURES:
        feature.register(app)
    buttons.register(app)
    app.add_error_handler(chat.on_error)
    return app


@asynccontextmanager
async def running(app: TallyApp, poll_timeout: float = 1.0, *, poll: bool = True
                  ) -> AsyncIterator[TallyApp]:
    """Run ``app`` inside the caller's event loop: storage, the delivery pipeline and (with
    ``poll``) polling; on the way out, finish what is in hand and close everything."""
    await app.initialize()
    try:
        if app.post_init:
            await app.post_init(app)
        await app.start()
        try:
            await pipeline_of(app).start(poll=poll, poll_timeout=poll_timeout)
            try:
                with collector.tuned():  # what has loaded by now stays for good
                    yield app
            finally:
                await pipeline_of(app).stop()
        finally:
            await app.stop()
    finally:
        await app.shutdown()
        if app.post_shutdown:
            await app.post_shutdown(app)


async def serve(app: TallyApp) -> None:
    """Poll until SIGINT or SIGTERM, then stop cleanly (``python -m bot run``)."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    async with running(app, poll_timeout=10.0):
        log.info("polling; stop with Ctrl-C or SIGTERM")
        await stop.wait()
