"""``python -m bot run`` in webhook mode with 2 workers, as a process on loopback: the
parent migrates and calls setWebhook once, two child processes answer on one port, and
``/metrics`` in either sums what both counted (checked on the bot of
tests/bot/test_webhook_workers.py, which runs these first); several workers on one SQLite
file are refused. The fake Bot API runs over HTTP in this process; nothing reaches
Telegram. Every wait is bounded."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tests.fake_webhook import BotProcess, WebhookBotAPI, parent_of


def sample(text: str, name: str, **labels: str) -> float:
    want = ",".join(f'{k}="{v}"' for k, v in labels.items())
    prefix = f"{name}{{{want}}} " if labels else f"{name} "
    values = [float(line[len(prefix):]) for line in text.splitlines()
              if line.startswith(prefix)]
    return values[0] if values else 0.0


async def test_several_workers_on_one_sqlite_file_are_refused_at_start(tmp_path: Path
                                                                        ) -> None:
    bot = BotProcess("http://127.0.0.1:9/bot", tmp_path, {
        "TALLY_TELEGRAM__WORKERS": "2",
        "TALLY_STORAGE__URL": f"sqlite+aiosqlite:///{tmp_path / 'tally.sqlite3'}",
    })
    with pytest.raises(AssertionError, match="exited with 2") as refused:
        async with bot:
            pass
    assert "needs PostgreSQL" in str(refused.value)
    assert not (tmp_path / "tally.sqlite3").exists()  # refused before anything was written


# The two workers' checks run on the bot of tests/bot/test_webhook_workers.py (2 workers
# on PostgreSQL), before its scenarios: starting a bot (a supervisor and two workers) costs
# more CPU than these checks, so they share it.
MAX_CONNECTIONS = 8
SETTINGS = {"TALLY_TELEGRAM__MAX_CONNECTIONS": str(MAX_CONNECTIONS),
            "TALLY_LOGGING__FORMAT": "json"}


def count_calls(api: WebhookBotAPI) -> Counter[str]:
    """The Bot API's calls by method, from now on."""
    calls: Counter[str] = Counter()

    async def count(method: str, _params: dict[str, Any]) -> None:
        calls[method] += 1

    api.faults.append(count)
    return calls


async def two_workers_on_one_port(api: WebhookBotAPI, bot: BotProcess) -> None:
    """Just started with 2 workers: the parent set the webhook once; both workers answer
    on the one port (the kernel hands each connection to one waiting worker), and either's
    /metrics sums what both counted."""
    assert len(api.webhooks) == 1  # once, from the parent
    hook = api.webhooks[0]
    assert hook["url"] == "https://bot.example.org/telegram"
    assert hook["secret_token"] == bot.secret and hook["max_connections"] == MAX_CONNECTIONS
    assert sorted(hook["allowed_updates"]) == ["callback_query", "message", "my_chat_member"]
    assert len(bot.workers()) == 2

    served: Counter[int] = Counter()
    for _ in range(400):  # the kernel hands each connection to one waiting worker
        response = await bot.client.get("/healthz")
        assert response.status_code == 200
        served[response.json()["pid"]] += 1
        if len(served) == 2 and min(served.values()) >= 3:
            break
    assert len(served) == 2, f"one worker served all {sum(served.values())} requests"
    assert {parent_of(pid) for pid in served} == {bot.process.pid}  # type: ignore[union-attr]

    refused = await bot.client.post(bot.path, content=b"{}",
                                    headers={"X-Telegram-Bot-Api-Secret-Token": "no"})
    assert refused.status_code == 403
    for _ in range(6):  # whichever worker answers the scrape reports both
        text = (await bot.client.get("/metrics")).text
        assert sample(text, "tally_http_requests_total", route="healthz",
                      status="200") == sum(served.values()) + 1  # + healthy()'s
        assert sample(text, "tally_http_requests_total", route="webhook",
                      status="403") == 1
    ready = await bot.client.get("/readyz")
    assert ready.status_code == 200 and ready.json()["schema"] == "at head"


def stopped_cleanly(bot: BotProcess, calls: Counter[str], temp: Path, workers: int) -> None:
    """After SIGTERM: exit code 0, no traceback, every log line JSON, ``workers`` workers
    started (each said its storage is ready), the menus set once by the parent, and the
    metrics directory gone with it."""
    output = bot.log.read_text()
    assert bot.process is not None and bot.process.returncode == 0, output
    assert "Traceback" not in output, output
    # Every log line is a JSON object (a library may still print text of its own).
    logged = [json.loads(line) for line in output.splitlines() if line.startswith("{")]
    assert all(set(entry) >= {"time", "level", "logger", "message"} for entry in logged)
    messages = [entry["message"] for entry in logged]
    assert any(m.startswith("webhook set to https://bot.example.org/telegram")
               for m in messages)
    assert sum(m.startswith("storage ready") for m in messages) == workers  # one each
    assert calls["setMyCommands"] == 6  # the menus, once, by the parent (3 scopes, 2 langs)
    assert list(temp.iterdir()) == []  # the metrics directory went with the parent
