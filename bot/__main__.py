"""``python -m bot``: with a configured token, polling or webhook mode (``telegram.mode``);
console mode without one.

``python -m bot console`` forces console mode; ``--config PATH`` names the config file.
"""

from __future__ import annotations

import argparse
import logging
import sys

from bot.ops import logs
from bot.ops.config import ConfigError, load_settings


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot", description=__doc__)
    parser.add_argument("mode", nargs="?", choices=["run", "console"], default=None,
                        help="run: poll Telegram (needs a token); console: the simulated "
                        "group; default: run with a token, console without")
    parser.add_argument("--config", help="config file (default: $TALLY_CONFIG or ./config.toml)")
    args = parser.parse_args(argv)
    try:
        settings = load_settings(args.config)
    except ConfigError as exc:
        print(f"configuration error: {exc}", file=sys.stderr)
        return 2
    logs.setup(settings.logging.level, settings.logging.format)
    if args.mode == "run" and settings.telegram.token is None:
        print("configuration error: no Telegram token; set TALLY_TELEGRAM__TOKEN or "
              "telegram.token in config.toml", file=sys.stderr)
        return 2
    if args.mode == "console" or settings.telegram.token is None:
        from bot.console.terminal import main as console_main

        if args.mode != "console":
            print("No Telegram token configured (TALLY_TELEGRAM__TOKEN or config.toml): "
                  "starting console mode.", file=sys.stderr)
        logging.getLogger().setLevel(logging.WARNING)
        console_main(settings)
        return 0
    if settings.telegram.mode == "webhook":
        from bot import serving

        return serving.run(settings, args.config)
    import asyncio

    from bot.app import build_application, serve

    app = build_application(settings)
    # Their servers imported only when configured (a start without them imports less).
    if settings.telegram.admin_listen is not None:
        from bot.ops import admin

        admin.attach(app, settings)  # /healthz, /readyz, /metrics on telegram.admin_listen
    if settings.webapp.listen is not None:
        from bot.webapp import server as webapp_server

        webapp_server.attach(app, settings)  # the Mini App on webapp.listen (with public_url)
    asyncio.run(serve(app))
    return 0


if __name__ == "__main__":
    sys.exit(main())
