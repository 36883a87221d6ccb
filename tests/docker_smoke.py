"""Smoke test of the Docker image: ``make docker-smoke`` (needs a Docker daemon).

Builds the image, checks it refuses to start without a token and runs as a non-root user,
then runs it against the fake Bot API served over HTTP on the host's loopback
(``TALLY_TELEGRAM__BASE_URL``): a table is opened and a hand recorded, the container is
stopped, and a new container on the same volume still shows that hand (the database
lives on the volume; migrations ran on start). Not part of ``make test``, which must run
on machines without Docker.
"""

from __future__ import annotations

import asyncio
import re
import subprocess
import sys
import time
import uuid

from bot.console.fake_api import FakeBotAPI, FakeUser, serve_http

IMAGE = "mahjong-tally:smoke"
GROUP = -100


def docker(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["docker", *args], check=check, capture_output=True, text=True)


def plain(text: str) -> str:
    return re.sub(r"<[^>]+>", "", text)


async def wait_for(api: FakeBotAPI, count: int, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while len(api.outbox) < count:
        if time.monotonic() > deadline:
            raise AssertionError(f"expected {count} bot messages, got {len(api.outbox)}")
        await asyncio.sleep(0.1)


async def run_bot(volume: str, name: str, steps) -> FakeBotAPI:  # type: ignore[no-untyped-def]
    """Start a container against a fresh fake on loopback, run ``steps``, stop it."""
    api = FakeBotAPI()
    api.chat(GROUP, type="group")
    server = await serve_http(api)
    port = server.sockets[0].getsockname()[1]
    docker("run", "-d", "--rm", "--name", name, "--network", "host",
           "-e", "TALLY_TELEGRAM__TOKEN=42:SMOKE",
           "-e", f"TALLY_TELEGRAM__BASE_URL=http://127.0.0.1:{port}/bot",
           "-e", "TALLY_DEFAULT_LANGUAGE=en", "-v", f"{volume}:/data", IMAGE)
    try:
        await steps(api)
    finally:
        logs = docker("logs", name, check=False)
        docker("stop", "-t", "20", name, check=False)
        server.close()
        await server.wait_closed()
    if "Traceback" in logs.stdout + logs.stderr:
        raise AssertionError(f"the bot logged a traceback:\n{logs.stdout}{logs.stderr}")
    return api


async def main() -> None:
    docker("build", "-t", IMAGE, ".")
    refused = docker("run", "--rm", IMAGE, check=False)
    assert refused.returncode != 0 and "no Telegram token" in refused.stderr, refused
    assert docker("run", "--rm", "--entrypoint", "id", IMAGE, "-u").stdout.strip() != "0"
    users = {n: FakeUser(i + 1, n, n, "en") for i, n in enumerate(["alice", "bob", "c", "d"])}
    volume = f"tally-smoke-{uuid.uuid4().hex[:8]}"
    try:
        async def night(api: FakeBotAPI) -> None:
            api.say(users["alice"], GROUP, "/new chengdu @alice @bob @c @d")
            await wait_for(api, 2)
            api.say(users["bob"], GROUP, "/hu bob 自摸")
            await wait_for(api, 3)
            assert "Hand 1 recorded" in plain(api.outbox[2].text), api.outbox[2].text

        async def next_day(api: FakeBotAPI) -> None:
            api.say(users["alice"], GROUP, "/table")
            await wait_for(api, 1)
            assert "bob: +6" in plain(api.outbox[0].text), api.outbox[0].text

        await run_bot(volume, f"{volume}-1", night)
        await run_bot(volume, f"{volume}-2", next_day)
    finally:
        docker("volume", "rm", "-f", volume, check=False)
    print("docker smoke test passed")


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except (AssertionError, subprocess.CalledProcessError) as exc:
        print(f"docker smoke test failed: {exc}", file=sys.stderr)
        if isinstance(exc, subprocess.CalledProcessError):
            print(exc.stdout, exc.stderr, file=sys.stderr)
        sys.exit(1)
