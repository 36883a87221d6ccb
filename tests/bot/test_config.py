"""Configuration: the example file is valid, the environment overrides it, and a missing or
invalid file stops the start with a message that says what is wrong."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bot.config import ConfigError, Settings, load_settings

EXAMPLE = Path(__file__).resolve().parents[2] / "config.example.toml"


def test_the_example_file_loads_and_matches_the_defaults(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    for key in [k for k in os.environ if k.startswith("TALLY_")]:
        monkeypatch.delenv(key)
    settings = load_settings(EXAMPLE)
    assert settings.model_dump() == Settings().model_dump()  # it documents the defaults
    assert settings.telegram.token is None and settings.telegram.board_interval == 180


def test_environment_overrides_the_file(monkeypatch) -> None:  # type: ignore[no-untyped-def]
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
