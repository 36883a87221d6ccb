"""A real browser for the Mini App: Debian's headless ``chromium`` (``/usr/bin/chromium``)
driven by Playwright's Python driver (no browser download), against the bot's own Mini App
server on a free port. Tests skip, saying why, where either is missing."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any
from urllib.parse import quote

from bot.webapp.server import WebAppServer
from tests.bot.harness import Table

CHROMIUM = os.environ.get("TALLY_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
LIGHT = {"bg_color": "#ffffff", "text_color": "#000000", "hint_color": "#707579",
         "link_color": "#3390ec", "button_color": "#3390ec", "button_text_color": "#ffffff",
         "secondary_bg_color": "#f4f4f5"}
DARK = {"bg_color": "#17212b", "text_color": "#f5f5f5", "hint_color": "#708499",
        "link_color": "#6ab3f3", "button_color": "#5288c1", "button_text_color": "#ffffff",
        "secondary_bg_color": "#232e3c"}
PHONE = {"width": 390, "height": 760}


def missing() -> str | None:
    """Why the browser tests cannot run here, or None."""
    try:
        import playwright.async_api  # noqa: F401
    except ImportError:
        return "playwright (the Python driver) is not installed: pip install -e '.[dev]'"
    if not os.path.exists(CHROMIUM):
        return "no chromium: apt-get install chromium (Debian's package; nothing is downloaded)"
    return None


def launch_url(base: str, init_data: str, theme: dict[str, str] | None = None,
               path: str = "/app") -> str:
    """The page as Telegram opens it: launch parameters in the fragment."""
    fragment = (f"tgWebAppData={quote(init_data, safe='')}&tgWebAppVersion=8.0"
                f"&tgWebAppPlatform=tdesktop"
                f"&tgWebAppThemeParams={quote(json.dumps(theme or LIGHT), safe='')}")
    return f"{base}{path}/#{fragment}"


@asynccontextmanager
async def served(t: Table) -> AsyncIterator[str]:
    """The Mini App of ``t``'s bot on 127.0.0.1 (a free port); yields its base URL."""
    server = WebAppServer("127.0.0.1", 0, t.app, t.app.bot_data["settings"])
    await server.start()
    try:
        yield f"http://127.0.0.1:{server.port}"
    finally:
        await server.stop()


@asynccontextmanager
async def browser() -> AsyncIterator[Any]:
    from playwright.async_api import async_playwright

    async with async_playwright() as p:
        b = await p.chromium.launch(executable_path=CHROMIUM, headless=True,
                                    args=["--no-sandbox", "--disable-gpu",
                                          "--disable-dev-shm-usage"])
        try:
            yield b
        finally:
            await b.close()


async def opened(b: Any, url: str, wait: str = "#board") -> tuple[Any, list[str]]:
    """A phone-sized page of browser ``b`` at ``url`` (the Mini App as Telegram opens it),
    once ``wait`` shows; with the list its uncaught script errors go into."""
    page = await b.new_page(viewport=PHONE)
    page.set_default_timeout(15_000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    await page.goto(url)
    await page.wait_for_selector(wait)
    return page, errors
