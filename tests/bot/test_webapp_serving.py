"""Where the Mini App is served: beside the webhook, on ``webapp.listen`` in polling mode,
nowhere unless ``webapp.public_url`` is set; and its settings are checked at start."""

from __future__ import annotations

import socket
from pathlib import Path

import httpx
import pytest

from bot import webhook
from bot.app import build_application, running
from bot.console.fake_api import FakeBotAPI, FakeRequest
from bot.ops.config import ConfigError, Settings, WebAppSettings, load_settings
from bot.webapp import server as webapp_server

SECRET = "s3cret"


def webhook_settings(tmp_path: Path, **webapp: str) -> Settings:
    return Settings(telegram={"mode": "webhook", "token": "42:TEST", "secret_token": SECRET,
                              "webhook_url": "https://bot.example.org/tg"},
                    storage={"url": f"sqlite+aiosqlite:///{tmp_path}/bot.db"}, webapp=webapp)


@pytest.mark.parametrize("public_url", ["https://bot.example.org/mini", None])
async def test_mounted_beside_the_webhook_only_when_enabled(tmp_path: Path,
                                                            public_url: str | None) -> None:
    settings = webhook_settings(tmp_path, **({"public_url": public_url} if public_url else {}))
    application = build_application(settings, request=FakeRequest(FakeBotAPI()),
                                    token="42:TEST")
    app = webhook.create_app(settings, application)
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="https://bot.example.org") as c:
        bare = await c.get("/mini")  # the URL as registered, without its last slash
        page = await c.get("/mini/")
        api = await c.get("/mini/api/board")
        asset = await c.get("/mini/static/app.js")
    if public_url:
        assert bare.status_code == 307 and bare.headers["location"].endswith("/mini/")
        assert page.status_code == 200 and b"/mini/static/app.js" in page.content
        assert "script-src 'self'" in page.headers["content-security-policy"]
        assert api.status_code == 401
        assert asset.status_code == 200 and asset.headers["content-type"].startswith(
            "text/javascript")
        # nothing from a CDN, not even Telegram's script: every asset is the bot's
        assert b'src="http' not in page.content and b'href="http' not in page.content
        assert b"telegram-web-app.js" not in page.content + asset.content
    else:
        assert page.status_code == api.status_code == asset.status_code == 404


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def test_polling_mode_serves_it_on_its_own_port(tmp_path: Path) -> None:
    port = free_port()
    settings = Settings(storage={"url": f"sqlite+aiosqlite:///{tmp_path}/bot.db"},
                        telegram={"overall_max_rate": 0, "group_max_rate": 0},
                        webapp={"public_url": "https://x.example.org/app",
                                "listen": f"127.0.0.1:{port}"})
    app = build_application(settings, request=FakeRequest(FakeBotAPI()), token="42:TEST")
    webapp_server.attach(app, settings)
    async with running(app, poll_timeout=1), httpx.AsyncClient() as c:
        r = await c.get(f"http://127.0.0.1:{port}/app/")
        assert r.status_code == 200 and b"app.js" in r.content
        assert (await c.get(f"http://127.0.0.1:{port}/app/api/me")).status_code == 401
    with pytest.raises(httpx.ConnectError):  # stopped with the bot
        async with httpx.AsyncClient() as c:
            await c.get(f"http://127.0.0.1:{port}/app/")


@pytest.mark.parametrize("webapp", [{"public_url": "http://x.example.org/app"},
                                    {"public_url": "https://x.example.org/"},
                                    {"public_url": "https://x.example.org/healthz"},
                                    {"short_name": "a b"}, {"listen": "nowhere"},
                                    {"init_data_max_age_seconds": 0}])
def test_bad_settings_stop_the_start(webapp: dict[str, object]) -> None:
    with pytest.raises(ConfigError, match="webapp"):
        load_settings(webapp=webapp)


def test_defaults() -> None:
    w = WebAppSettings()
    assert w.public_url is None and w.init_data_max_age_seconds == 3600 and w.path == "/app"
    assert WebAppSettings(public_url="https://x.example.org/a/b/").path == "/a/b"


def test_the_page_names_honours_as_the_engine_reads_them() -> None:
    """The palette's 5z is 白 and 7z 中 (a tap on 中 must send 7z)."""
    from importlib import resources

    from engine.tiles import HONOR_NAMES_ZH

    script = (resources.files("bot.webapp") / "static" / "app.js").read_text("utf-8")
    names = '", "'.join(HONOR_NAMES_ZH)
    assert f'const HONORS = ["{names}"];' in script
