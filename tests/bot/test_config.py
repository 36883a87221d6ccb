"""Configuration: the example file is valid, the environment overrides it, and a missing or
invalid file stops the start with a message that says what is wrong."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bot.ops.config import ConfigError, Settings, load_settings, storage_location

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
    ("default_language = 'fr'\n", "default_language must be one of zh-Hans, zh-Hant, en"),
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
    ("[telegram]\nconnection_pool_size = 0\n", "telegram.connection_pool_size"),
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


@pytest.mark.parametrize(("content", "message"), [
    ("[telegram]\nadmin_listn = '127.0.0.1:9090'\n", "unknown setting telegram.admin_listn"),
    ("[delivery]\nlease_second = 3\n", "unknown setting delivery.lease_second"),
    ("[webapp]\npublic_ur = 'https://a.org/app'\n", "unknown setting webapp.public_ur"),
    ("[storage]\nurll = 'sqlite+aiosqlite:///x'\n", "unknown setting storage.urll"),
    ("[logging]\nlevl = 'DEBUG'\n", "unknown setting logging.levl"),
    ("[logging]\nlevel = 'debugg'\n", "logging.level"),
    ("[delivery]\ninbox_retention_hours = 0\n", "delivery.inbox_retention_hours"),
    ("[delivery]\ninbox_retention_hours = 23.5\n", "delivery.inbox_retention_hours"),
    ("[delivery]\nprune_interval_minutes = 0\n", "delivery.prune_interval_minutes"),
    ("[delivery]\noutbox_retention_hours = -1\n", "delivery.outbox_retention_hours"),
    ("[delivery]\nlease_seconds = 0.5\n", "delivery.lease_seconds"),
    ("[telegram]\nboard_interval = 86400\n", "telegram.board_interval"),
    ("[telegram]\noverall_max_rate = 30000\n", "telegram.overall_max_rate"),
    ("[webapp]\ninit_data_max_age_seconds = 5\n", "webapp.init_data_max_age_seconds"),
])
def test_a_misspelt_key_or_a_value_out_of_bounds_in_the_file_stops_the_start(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, content: str, message: str) -> None:
    for key in [k for k in os.environ if k.startswith("TALLY_")]:
        monkeypatch.delenv(key)
    path = tmp_path / "config.toml"
    path.write_text(content)
    with pytest.raises(ConfigError, match=message.replace(".", r"\.")) as err:
        load_settings(path)
    assert f"(in {path})" in str(err.value)  # it says where the mistake is


@pytest.mark.parametrize(("variable", "value", "message"), [
    ("TALLY_DELIVERY__LEASE_SECOND", "3", "unknown setting delivery.lease_second "
     "(from the environment variable TALLY_DELIVERY__LEASE_SECOND)"),
    ("TALLY_TELEGRAM__ADMIN_LISTN", "127.0.0.1:9090", "unknown setting telegram.admin_listn"),
    ("TALLY_ADMINZ", "1", "the environment variable TALLY_ADMINZ names no setting"),
    ("TALLY_DEFAULT_LANG", "en", "the environment variable TALLY_DEFAULT_LANG names no setting"),
    ("TALLY_DELIVRY__LEASE_SECONDS", "3", "TALLY_DELIVRY__LEASE_SECONDS names no setting"),
    ("tally_adminz", "1", "tally_adminz names no setting"),
    ("TALLY_LOGGING__LEVEL", "debugg", "invalid configuration at logging.level: Input should "
     "be 'DEBUG', 'INFO', 'WARNING', 'ERROR' or 'CRITICAL' (from the environment variable "
     "TALLY_LOGGING__LEVEL)"),
    ("TALLY_DELIVERY__INBOX_RETENTION_HOURS", "0", "delivery.inbox_retention_hours: Input "
     "should be greater than or equal to 24"),
    ("TALLY_ADMINS", "1", "TALLY_ADMINS='[1, 2]'"),
    ("TALLY_ADMINS", "[1,", "a list is written as JSON"),
    ("TALLY_ADMINS", '["bob"]', "invalid configuration at admins.0: "),
    ("TALLY_ADMINS", '["bob"]', " (from the environment variable TALLY_ADMINS)"),
])
def test_a_misspelt_variable_or_a_bad_value_in_the_environment_stops_the_start(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, variable: str, value: str,
        message: str) -> None:
    for key in [k for k in os.environ if k.startswith("TALLY_")]:
        monkeypatch.delenv(key)
    monkeypatch.chdir(tmp_path)  # no config.toml
    monkeypatch.setenv(variable, value)
    with pytest.raises(ConfigError) as err:
        load_settings()
    assert message in str(err.value)


def test_the_environment_takes_lists_as_json_levels_in_any_case_and_empty_as_unset(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for key in [k for k in os.environ if k.startswith("TALLY_")]:
        monkeypatch.delenv(key)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("TALLY_ADMINS", "[1, 2]")
    monkeypatch.setenv("TALLY_DEFAULT_LANGUAGE", "en")
    monkeypatch.setenv("TALLY_LOGGING__LEVEL", "debug")
    # compose passes `${TALLY_WEBAPP__PUBLIC_URL:-}`: empty when .env leaves it out
    monkeypatch.setenv("TALLY_WEBAPP__PUBLIC_URL", "")
    monkeypatch.setenv("TALLY_TELEGRAM__TOKEN", "")
    # variables that are not settings but belong to the bot, its tests and CI
    monkeypatch.setenv("TALLY_TEST_POSTGRES_URL", "postgresql+asyncpg://x@y/z")
    monkeypatch.setenv("TALLY_REQUIRE_CJK_FONT", "1")
    settings = load_settings()
    assert settings.admins == [1, 2] and settings.default_language == "en"
    assert settings.logging.level == "DEBUG"
    assert settings.webapp.public_url is None and settings.telegram.token is None
    monkeypatch.setenv("TALLY_WEBAPP__PUBLIC_URL", "https://tally.example.org/app")
    assert load_settings().webapp.path == "/app"


def test_a_bad_log_level_is_a_configuration_error_not_a_traceback(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
        ) -> None:
    from bot.__main__ import main

    for key in [k for k in os.environ if k.startswith("TALLY_")]:
        monkeypatch.delenv(key)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("TALLY_LOGGING__LEVEL", "debugg")
    assert main(["run"]) == 2
    assert capsys.readouterr().err.startswith("configuration error: invalid configuration at "
                                              "logging.level")


def test_the_log_names_the_file_a_relative_sqlite_url_opens(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch
                                                            ) -> None:
    monkeypatch.chdir(tmp_path)
    assert storage_location("sqlite+aiosqlite:///data/tally.sqlite3") == (
        f"sqlite+aiosqlite:///data/tally.sqlite3 (the file {tmp_path / 'data/tally.sqlite3'})")
    assert storage_location("sqlite+aiosqlite:////data/tally.sqlite3") == (
        "sqlite+aiosqlite:////data/tally.sqlite3")
    assert storage_location("postgresql+asyncpg://tally:s3cret@db:5432/tally") == (
        "postgresql+asyncpg://tally:***@db:5432/tally")
