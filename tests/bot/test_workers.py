"""``python -m bot run`` in webhook mode with 2 workers, as a process on loopback: the
parent migrates and calls setWebhook once, two child processes answer on one port, and
``/metrics`` in either sums what both counted. The fake Bot API runs over HTTP in this
process; nothing reaches Telegram. Every wait is bounded."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import pytest

from bot.fake_api import FakeBotAPI, serve_http

ROOT = Path(__file__).resolve().parents[2]
SECRET = "worker-test_secret"
START_SECONDS = 120  # two workers importing the bot on a busy 2-core machine
STOP_SECONDS = 60


class WebhookFake(FakeBotAPI):
    """The fake Bot API, also taking setWebhook."""

    def __init__(self) -> None:
        super().__init__()
        self.webhooks: list[dict[str, Any]] = []

    async def api_setwebhook(self, p: dict[str, Any]) -> Any:
        self.webhooks.append(p)
        return True


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def parent_of(pid: int) -> int:
    stat = Path(f"/proc/{pid}/stat").read_text()
    return int(stat.rsplit(")", 1)[1].split()[1])


async def until_healthy(client: httpx.AsyncClient, process: asyncio.subprocess.Process,
                        log: Path) -> None:
    deadline = asyncio.get_running_loop().time() + START_SECONDS
    while asyncio.get_running_loop().time() < deadline:
        if process.returncode is not None:
            raise AssertionError(f"the bot exited with {process.returncode}:\n{log.read_text()}")
        try:
            if (await client.get("/healthz")).status_code == 200:
                return
        except httpx.TransportError:
            pass
        await asyncio.sleep(0.25)
    raise AssertionError(f"no /healthz within {START_SECONDS} s:\n{log.read_text()}")


def sample(text: str, name: str, **labels: str) -> float:
    want = ",".join(f'{k}="{v}"' for k, v in labels.items())
    prefix = f"{name}{{{want}}} " if labels else f"{name} "
    values = [float(line[len(prefix):]) for line in text.splitlines()
              if line.startswith(prefix)]
    return values[0] if values else 0.0


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
async def test_two_workers_answer_on_one_port_and_metrics_sum_over_both(tmp_path: Path
                                                                        ) -> None:
    api = WebhookFake()
    fake = await serve_http(api)
    port = free_port()
    temp = tmp_path / "tmp"
    temp.mkdir()
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("TALLY_", "PROMETHEUS_"))}
    env.update({
        "PYTHONPATH": str(ROOT), "TMPDIR": str(temp),
        "TALLY_TELEGRAM__TOKEN": "42:WORKERS",
        "TALLY_TELEGRAM__BASE_URL": f"http://127.0.0.1:{fake.sockets[0].getsockname()[1]}/bot",
        "TALLY_TELEGRAM__MODE": "webhook",
        "TALLY_TELEGRAM__WEBHOOK_URL": "https://bot.example.org/telegram",
        "TALLY_TELEGRAM__SECRET_TOKEN": SECRET,
        "TALLY_TELEGRAM__LISTEN": f"127.0.0.1:{port}",
        "TALLY_TELEGRAM__WORKERS": "2",
        "TALLY_TELEGRAM__MAX_CONNECTIONS": "8",
        "TALLY_STORAGE__URL": f"sqlite+aiosqlite:///{tmp_path / 'tally.sqlite3'}",
        "TALLY_LOGGING__FORMAT": "json",
    })
    log = tmp_path / "bot.log"
    with log.open("wb") as out:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", "run", cwd=tmp_path, env=env,
            stdout=out, stderr=asyncio.subprocess.STDOUT)
    # A new connection for every request, so that either worker may take it.
    client = httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=30,
                               limits=httpx.Limits(max_keepalive_connections=0))
    try:
        await until_healthy(client, process, log)
        assert len(api.webhooks) == 1  # once, from the parent
        hook = api.webhooks[0]
        assert hook["url"] == "https://bot.example.org/telegram"
        assert hook["secret_token"] == SECRET and hook["max_connections"] == 8
        assert sorted(hook["allowed_updates"]) == ["callback_query", "message",
                                                   "my_chat_member"]

        served: Counter[int] = Counter()
        for _ in range(400):  # the kernel hands each connection to one waiting worker
            response = await client.get("/healthz")
            assert response.status_code == 200
            served[response.json()["pid"]] += 1
            if len(served) == 2 and min(served.values()) >= 3:
                break
        assert len(served) == 2, f"one worker served all {sum(served.values())} requests"
        assert {parent_of(pid) for pid in served} == {process.pid}  # children of the one

        refused = await client.post("/telegram", content=b"{}",
                                    headers={"X-Telegram-Bot-Api-Secret-Token": "no"})
        assert refused.status_code == 403
        for _ in range(6):  # whichever worker answers the scrape reports both
            text = (await client.get("/metrics")).text
            assert sample(text, "tally_http_requests_total", route="healthz",
                          status="200") == sum(served.values()) + 1  # + until_healthy's
            assert sample(text, "tally_http_requests_total", route="webhook",
                          status="403") == 1
        ready = await client.get("/readyz")
        assert ready.status_code == 200 and ready.json()["schema"] == "at head"
    finally:
        await client.aclose()
        if process.returncode is None:
            process.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(process.wait(), STOP_SECONDS)
        except TimeoutError:
            process.kill()
            await process.wait()
        fake.close()
        await fake.wait_closed()
    output = log.read_text()
    assert process.returncode == 0, output
    assert "Traceback" not in output, output
    lines = [line for line in output.splitlines() if line.strip()]
    assert lines and all(json.loads(line)["level"] for line in lines), output
    assert list(temp.iterdir()) == []  # the metrics directory went with the parent
