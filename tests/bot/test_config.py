"""Configuration: the example file is valid, the environment overrides it, and a missing or
invalid file stops the start with a message that says what is wrong."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bot.ops.config import ConfigError, Settings, load_settings

EXAMPLE = Path(__file__).resolve().parents[2] / "config.example.toml"


def test_the_example_file_loads_and_matches_the_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    for key in [k for k in os.environ if k.startswith("TALLY_")]:
        monkeypatch.delenv(key)
    settings = load_settings(EXAMPLE)
    assert settings.model_dump() == Settings().model_dump()  # it documents the defaults
    assert settings.telegram.token is None and settings.telegram.board_interval == 180


def test_environment_overrides_the_file(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TALLY_TELEGRAM__TOKEN", "123:abc")
    monkeypatch.setenv("TALLY_TELEGRAM__BOARD_INTERVAL", "0")
    monkeypatch.setenv("TALLY_DEFAULT_LANGUAGE", "en")
    settings = load_settings(EXAMPLE)
    assert settings.telegram.token is not None
    assert settings.telegram.token.get_secret_value() == "123:abc"
    assert "123:abc" not in repr(settings)  # a secret is not printed
    assert settings.telegram.board_interval == 0 and settings.default_language == "en"


def test_a_missing_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="does not exist"):
        load_settings(tmp_path / "nope.toml")


@pytest.mark.parametrize(("content", "message"), [
    ("[telegram]\nboard_interval = -1\n", "telegram.board_interval"),
    ("[storage]\nurl = 5\n", "storage.url"),
    ("colour = 'red'\n", "colour"),
    ("default_language = 'fr'\n", "default_language must be one of zh-Hans, en"),
    ("[telegram\n", "cannot read"),
])
def test_an_invalid_file_names_what_is_wrong(tmp_path: Path, content: str, message: str
                                             ) -> None:
    path = tmp_path / "config.toml"
    path.write_text(content)
    with pytest.raises(ConfigError, match=message.replace(".", r"\.")):
        load_settings(path)


WEBHOOK = ("[telegram]\nmode = 'webhook'\nwebhook_url = 'https://bot.example.org/tg/hook'\n"
           "secret_token = 'Abc_09-xyz'\n")


def test_webhook_keys_from_the_file_and_the_environment(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    for key in [k for k in os.environ if k.startswith("TALLY_")]:
        monkeypatch.delenv(key)
    path = tmp_path / "config.toml"
    path.write_text(WEBHOOK)
    monkeypatch.setenv("TALLY_TELEGRAM__WORKERS", "2")
    monkeypatch.setenv("TALLY_TELEGRAM__LISTEN", "0.0.0.0:8080")
    monkeypatch.setenv("TALLY_LOGGING__FORMAT", "json")
    settings = load_settings(path)
    tg = settings.telegram
    assert (tg.mode, tg.workers, tg.listen, tg.max_connections) == ("webhook", 2,
                                                                     "0.0.0.0:8080", 40)
    assert tg.webhook_path == "/tg/hook" and settings.logging.format == "json"
    assert tg.secret_token is not None and "Abc_09" not in repr(settings)
    monkeypatch.setenv("TALLY_TELEGRAM__MODE", "polling")
    monkeypatch.setenv("TALLY_TELEGRAM__ADMIN_LISTEN", "[::1]:9090")
    assert load_settings(path).telegram.mode == "polling"


def test_defaults_are_polling_on_one_worker() -> None:
    tg = Settings().telegram
    assert (tg.mode, tg.workers, tg.listen, tg.admin_listen) == ("polling", 1,
                                                                 "127.0.0.1:8443", None)
    assert Settings().logging.format == "plain"


@pytest.mark.parametrize(("content", "message"), [
    ("[telegram]\nmode = 'webhook'\n", "webhook mode needs webhook_url and secret_token"),
    ("[telegram]\nmode = 'webhook'\nwebhook_url = 'https://a.org/x'\n",
     "webhook mode needs secret_token"),
    ("[telegram]\nmode = 'hook'\n", "telegram.mode"),
    ("[telegram]\nsecret_token = 'has space'\n", "telegram.secret_token"),
    ("[telegram]\nsecret_token = ''\n", "telegram.secret_token"),
    (f"[telegram]\nsecret_token = '{'a' * 257}'\n", "telegram.secret_token"),
    ("[telegram]\nsecret_token = 'ключ'\n", "telegram.secret_token"),
    ("[telegram]\nwebhook_url = 'http://a.org/x'\n", "must be an https:// URL"),
    ("[telegram]\nwebhook_url = 'https://a.org/healthz'\n", "telegram.webhook_url"),
    ("[telegram]\nlisten = '8443'\n", "telegram.listen"),
    ("[telegram]\nadmin_listen = 'host:99999'\n", "telegram.admin_listen"),
    ("[telegram]\nworkers = 0\n", "telegram.workers"),
    ("[telegram]\nmax_connections = 101\n", "telegram.max_connections"),
    ("[logging]\nformat = 'xml'\n", "logging.format"),
])
def test_invalid_webhook_settings_say_what_is_wrong(tmp_path: Path, content: str,
                                                    message: str) -> None:
    path = tmp_path / "config.toml"
    path.write_text(content)
    with pytest.raises(ConfigError, match=message.replace(".", r"\.")):
        load_settings(path)


def test_a_secret_token_of_256_allowed_characters_is_valid(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    token = ("AZaz09_-" * 32)
    path.write_text(f"[telegram]\nsecret_token = '{token}'\n")
    secret = load_settings(path).telegram.secret_token
    assert secret is not None and secret.get_secret_value() == token
