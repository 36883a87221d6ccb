"""The Mini App against the fake Bot API in headless chromium: screenshots of every page in
both languages and both themes (docs/mini-app/), the first load (bytes and time) and the
delay from a report made in the chat to the open board showing it.

    python -m bench.mini_app_bench [--shots docs/mini-app] [--reports 10]

Needs Debian's chromium and Playwright's Python driver (tests/bot/webapp_browser.py).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import io
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from tests.bot.harness import Table
from tests.bot.webapp_browser import DARK, LIGHT, browser, launch_url, missing, served
from tests.bot.webapp_harness import app_table, init_data

NIGHT_ONE = ["/new chengdu @alice @bob @carol @dave", "/set stake 0.5",
             "/hu bob 自摸 清一色 根1", "/hu carol from alice 七对", "/hu dave 自摸",
             "/hu alice from bob 对对胡", "/hu bob 自摸", "/hu carol 自摸 七对", "/end"]
NIGHT_TWO = ["/new chengdu @alice @bob @carol @dave", "/hu carol 自摸 清一色",
             "/hu dave from alice 对对胡", "/hu bob 自摸", "/hu alice 自摸 七对",
             "/hu carol from bob 七对", "/hu dave 自摸 清一色", "/hu alice from carol 对对胡",
             "/hu bob 自摸 清一色", "/hu carol from dave 七对", "/hu dave 自摸"]
PAGES = ["board", "chart", "hands", "players", "debts", "enter"]
SIZE = {"width": 360, "height": 640}


async def play(t: Table, lines: list[str]) -> None:
    for line in lines:
        await t.say("alice", line)


def small_png(data: bytes) -> bytes:
    """A screenshot as a 64-colour PNG: a few dozen kilobytes."""
    from PIL import Image

    image = Image.open(io.BytesIO(data)).convert("RGB").quantize(colors=64)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


async def open_page(b: Any, url: str, *, pictures: bool = False
                    ) -> tuple[Any, dict[str, int], float]:
    """A new tab on ``url``: the page, the bytes received for each request, and the seconds from
    navigating to the board's rows shown."""
    page = await b.new_page(viewport=SIZE, bypass_csp=pictures)  # pictures: a style added
    page.set_default_timeout(20_000)
    sizes: dict[str, int] = {}

    async def count(response: Any) -> None:
        with contextlib.suppress(Exception):  # bytes on the wire: headers and (gzipped) body
            got = await response.request.sizes()
            sizes[response.url.split("#")[0]] = (got["responseBodySize"]
                                                  + got["responseHeadersSize"])

    page.on("response", lambda r: asyncio.ensure_future(count(r)))
    await page.goto(url)
    await page.wait_for_selector("#board tbody tr")
    # the page's own clock: from the start of navigation to the board's rows in place
    shown = await page.get_attribute("body", "data-shown")
    return page, sizes, int(shown or 0) / 1000


async def screenshots(t: Table, b: Any, base: str, out: Path) -> list[str]:
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for lang in ("zh-Hans", "en"):
        for theme_name, theme in (("light", LIGHT), ("dark", DARK)):
            page, _, _ = await open_page(b, launch_url(base, init_data(t, "alice", lang=lang),
                                                       theme), pictures=True)
            for name in PAGES:
                await page.click(f'nav button[data-tab="{name}"]')
                if name == "chart":
                    await page.wait_for_selector("#chart")
                    await page.click('#chart rect[data-hand="3"]')
                elif name == "hands":
                    await page.wait_for_selector(".hand")
                    await page.click('.hand[data-hand="2"]')
                elif name == "players":
                    await page.wait_for_selector("#standings tbody tr")
                    await page.click("#standings tbody tr")
                    await page.wait_for_selector("#player h3")
                elif name == "debts":
                    await page.wait_for_selector("#debts")
                elif name == "enter":
                    await page.wait_for_selector("#palette")
                    await page.click('button[data-winner="S"]')
                    for tile in ["1m", "1m", "1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m",
                                 "9m", "9m", "9m", "5m"]:
                        await page.click(f'#palette button[data-tile="{tile}"]')
                    await page.click("#preview-button")
                    await page.wait_for_selector("#preview-lines")
                else:
                    await page.wait_for_selector("#board tbody tr")
                # a whole-page picture: the sticky tab bar at the top, not where it scrolled to
                await page.add_style_tag(content="nav { position: static !important; }")
                path = out / f"{name}-{'zh' if lang == 'zh-Hans' else 'en'}-{theme_name}.png"
                path.write_bytes(small_png(await page.screenshot(full_page=True)))
                written.append(path.name)
            await page.close()
    return written


async def first_load(t: Table, b: Any, base: str, runs: int = 5) -> dict[str, float]:
    times = []
    sizes: dict[str, int] = {}
    for _ in range(runs):  # the first warms the browser's process up
        page, sizes, seconds = await open_page(b, launch_url(base, init_data(t, "alice")))
        times.append(seconds)
        await page.close()
    total = sum(sizes.values())
    return {"bytes": total, "requests": len(sizes), "median_ms": 1000 * statistics.median(times),
            "max_ms": 1000 * max(times)}


async def api_time(t: Table, base: str, runs: int = 30) -> dict[str, float]:
    """Milliseconds for the board's poll (``GET /api/board``) over HTTP, and for the page's
    first two calls."""
    import httpx

    headers = {"Authorization": "tma " + init_data(t, "alice")}
    times: dict[str, list[float]] = {"me": [], "board": []}
    async with httpx.AsyncClient(base_url=base) as c:
        for _ in range(runs):  # the first warms the browser's process up
            for name in times:
                started = time.perf_counter()
                (await c.get(f"/app/api/{name}", headers=headers)).raise_for_status()
                times[name].append(1000 * (time.perf_counter() - started))
    return {name: statistics.median(v) for name, v in times.items()}


async def report_delay(t: Table, b: Any, base: str, reports: int) -> list[float]:
    """Seconds from a chat report reaching the fake Bot API to the open board showing it."""
    await t.say("alice", "/new chengdu @alice @bob @carol @dave")
    page, _, _ = await open_page(b, launch_url(base, init_data(t, "bob")))
    delays = []
    for i in range(reports):
        night = await t.ledger.open_nights.current_night(t.chat_id)
        seat = ("E", "S", "W", "N")[i % 4]
        name = night.seats[seat].name
        started = time.perf_counter()
        t.api.say(t.user(name), t.chat_id, f"/hu {name} 自摸")
        selector = f'#board tr[data-seat="{seat}"] td[data-total]'
        await page.wait_for_function(
            "([sel, old]) => { const c = document.querySelector(sel);"
            " return c && Number(c.dataset.total) !== old; }",
            arg=[selector, night.totals[seat]])
        delays.append(time.perf_counter() - started)
        await t.app.bot_data["pipeline"].idle()
    await page.close()
    return delays


async def main(shots: Path | None, reports: int) -> int:
    why = missing()
    if why:
        print(f"cannot run: {why}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        async with app_table(Path(tmp), "zh-Hans") as t, served(t) as base, browser() as b:
            await play(t, NIGHT_ONE)
            await play(t, NIGHT_TWO)
            if shots is not None:
                names = await screenshots(t, b, base, shots)
                print(f"{len(names)} screenshots in {shots}")
            load = await first_load(t, b, base)
            print(f"first load: {load['bytes']} bytes in {load['requests']} requests, "
                  f"median {load['median_ms']:.0f} ms, max {load['max_ms']:.0f} ms (5 loads)")
            api = await api_time(t, base)
            print(f"API over HTTP: /api/me median {api['me']:.1f} ms, /api/board median "
                  f"{api['board']:.1f} ms")
            await t.say("alice", "/end")
            delays = await report_delay(t, b, base, reports)
            print(f"report to board: median {1000 * statistics.median(delays):.0f} ms, "
                  f"max {1000 * max(delays):.0f} ms over {len(delays)} reports "
                  f"(the page polls every second)")
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shots", type=Path, default=None)
    parser.add_argument("--reports", type=int, default=10)
    args = parser.parse_args()
    sys.exit(asyncio.run(main(args.shots, args.reports)))
