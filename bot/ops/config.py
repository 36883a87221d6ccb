"""Settings from ``config.toml`` (or ``TALLY_CONFIG``), overridden by ``TALLY_*`` variables,
e.g. ``TALLY_TELEGRAM__TOKEN``. A config file that is named but missing, or invalid, stops
the start with a clear message."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit

from pydantic import BaseModel, Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)

LANGUAGES = ("zh-Hans", "en")
# Telegram's rule for setWebhook's secret_token: 1-256 characters A-Z, a-z, 0-9, _ and -.
SECRET_TOKEN = re.compile(r"[A-Za-z0-9_-]{1,256}")
# Paths the webhook server answers itself; the webhook's own path must be another.
ADMIN_PATHS = ("/healthz", "/readyz", "/metrics")


def split_listen(value: str) -> tuple[str, int]:
    """``host:port`` (``[::1]:8443`` for IPv6) as a host and a port."""
    host, sep, port = value.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"{value!r} is not host:port (e.g. 127.0.0.1:8443)")
    return host.strip("[]"), int(port)


class TelegramSettings(BaseModel):
    token: SecretStr | None = None
    base_url: str = "https://api.telegram.org/bot"
    base_file_url: str = "https://api.telegram.org/file/bot"  # where getFile's files are
    # Telegram's limits: about 30 messages a second overall, 20 a minute in one group.
    # 0 turns a limit off (only for a fake or a local Bot API server).
    overall_max_rate: float = Field(30, ge=0)
    group_max_rate: float = Field(20, ge=0)
    # Seconds between edits of one chat's scoreboard; edits in between are merged into
    # one that shows the newest table (the night's end is shown at once). Every answer
    # says what moved, so the board may lag a little: at a table's pace (a hand a minute
    # or so) 180 s keeps Telegram calls near 1.3 per report. 0 edits after every event.
    board_interval: float = Field(180, ge=0)
    # Seconds to wait for Telegram to connect and answer one call (polling's long wait
    # comes on top); a call that takes longer is retried.
    request_timeout: float = Field(10, gt=0, le=300)
    # polling (the default) or webhook: Telegram posts updates to webhook_url, which a
    # reverse proxy with TLS forwards to listen; the URL's path is the path served.
    mode: Literal["polling", "webhook"] = "polling"
    webhook_url: str | None = None
    listen: str = "127.0.0.1:8443"
    secret_token: SecretStr | None = None
    workers: int = Field(1, ge=1, le=64)
    max_connections: int = Field(40, ge=1, le=100)  # Telegram allows 1-100
    # Polling mode: serve /healthz, /readyz and /metrics on this host:port when set.
    admin_listen: str | None = None
    # /readyz answers 503 while more outbox rows than this wait to be sent.
    ready_max_outbox: int = Field(1000, ge=0)

    @field_validator("listen", "admin_listen")
    @classmethod
    def _host_port(cls, value: str | None) -> str | None:
        if value is not None:
            split_listen(value)
        return value

    @field_validator("secret_token")
    @classmethod
    def _secret_charset(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None and not SECRET_TOKEN.fullmatch(value.get_secret_value()):
            raise ValueError("must be 1-256 characters of A-Z, a-z, 0-9, _ and -")
        return value

    @field_validator("webhook_url")
    @classmethod
    def _https_url(cls, value: str | None) -> str | None:
        if value is None:
            return None
        parts = urlsplit(value)
        if parts.scheme != "https" or not parts.hostname:
            raise ValueError("must be an https:// URL (Telegram posts only over TLS)")
        if (parts.path or "/") in ADMIN_PATHS:
            raise ValueError(f"its path may not be one of {', '.join(ADMIN_PATHS)}")
        return value

    @model_validator(mode="after")
    def _webhook_needs(self) -> TelegramSettings:
        if self.mode == "webhook":
            missing = [k for k in ("webhook_url", "secret_token") if getattr(self, k) is None]
            if missing:
                raise ValueError(f"webhook mode needs {' and '.join(missing)}")
        return self

    @property
    def webhook_path(self) -> str:
        return (urlsplit(self.webhook_url).path or "/") if self.webhook_url else "/"


class DeliverySettings(BaseModel):
    """The pipeline between Telegram and the ledger (inbox, dispatcher, outbox, sender)."""

    # Updates handled at once (each chat's strictly in order, chats in parallel).
    max_in_flight: int = Field(64, ge=1, le=10_000)
    # Tries at an update that fails on something passing on Telegram's side (a timeout,
    # a 5xx) before the chat is told that nothing was recorded.
    handle_attempts: int = Field(5, ge=1, le=100)
    # While the database is away (a dropped, refused or reset connection, a restart, a
    # serialization failure, SQLite's "database is locked"), an update is tried again
    # every second or so, for up to this many hours, and handled once it is back.
    database_retry_hours: float = Field(24, gt=0, le=24 * 30)
    # Several workers (webhook mode): seconds a worker holds the inbox and outbox rows it
    # works on. It renews them every third of this while it works; a worker that stops
    # (paused, or dead) loses them this long after its last renewal, to another worker.
    lease_seconds: float = Field(30, ge=1, le=3600)
    # Tries at sending an answer on 5xx, timeouts and network errors (429 waits and
    # does not count).
    send_attempts: int = Field(8, ge=1, le=100)
    # Handled updates and sent answers are forgotten after this long (the ledger's own
    # tables never are).
    # A handled update's key, as long as Telegram may deliver it again (it keeps an
    # unconfirmed update 24 hours); an answer given up on (a sent one is deleted at once),
    # for the operator to look at.
    inbox_retention_hours: float = Field(24, ge=0)
    outbox_retention_hours: float = Field(72, ge=0)
    prune_interval_minutes: float = Field(10, gt=0)


class WebAppSettings(BaseModel):
    """The Mini App (``bot.webapp``): off unless ``public_url`` is set."""

    # The https URL registered with @BotFather for the Mini App (a reverse proxy with TLS
    # in front of the bot); its path is where the pages are served, e.g. /app.
    public_url: str | None = None
    # The Mini App's short name as registered with @BotFather (/newapp): the direct link
    # is https://t.me/<bot username>/<short_name>?startapp=<chat>.
    short_name: str = "tally"
    # Polling mode: serve the Mini App on this host:port (webhook mode serves it on
    # telegram.listen).
    listen: str | None = None
    # Telegram's init data older than this is refused (its auth_date).
    init_data_max_age_seconds: int = Field(3600, ge=10, le=7 * 86400)

    @field_validator("listen")
    @classmethod
    def _host_port(cls, value: str | None) -> str | None:
        if value is not None:
            split_listen(value)
        return value

    @field_validator("public_url")
    @classmethod
    def _https_url(cls, value: str | None) -> str | None:
        if value is None:
            return None
        parts = urlsplit(value)
        if parts.scheme != "https" or not parts.hostname:
            raise ValueError("must be an https:// URL (Telegram opens Mini Apps only over TLS)")
        if (parts.path.rstrip("/") or "/") in (*ADMIN_PATHS, "/"):
            raise ValueError("needs a path of its own, e.g. https://tally.example.org/app")
        return value

    @field_validator("short_name")
    @classmethod
    def _short_name(cls, value: str) -> str:
        if not re.fullmatch(r"[A-Za-z0-9_]{3,30}", value):
            raise ValueError("must be 3-30 characters of A-Z, a-z, 0-9 and _")
        return value

    @property
    def path(self) -> str:
        """Where the pages are served: the public URL's path, without its last slash."""
        return urlsplit(self.public_url).path.rstrip("/") if self.public_url else "/app"


class StorageSettings(BaseModel):
    url: str = "sqlite+aiosqlite:///data/tally.sqlite3"


class LoggingSettings(BaseModel):
    level: str = "INFO"
    format: Literal["plain", "json"] = "plain"


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="TALLY_", env_nested_delimiter="__",
                                      extra="forbid")

    telegram: TelegramSettings = Field(default_factory=TelegramSettings)
    storage: StorageSettings = Field(default_factory=StorageSettings)
    delivery: DeliverySettings = Field(default_factory=DeliverySettings)
    webapp: WebAppSettings = Field(default_factory=WebAppSettings)
    default_language: str = "zh-Hans"
    admins: list[int] = Field(default_factory=list)
    logging: LoggingSettings = Field(default_factory=LoggingSettings)

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        path = _CONFIG_PATH.get("path")
        sources: list[PydanticBaseSettingsSource] = [init_settings, env_settings]
        if path is not None:
            sources.append(TomlConfigSettingsSource(settings_cls, toml_file=path))
        return tuple(sources)


_CONFIG_PATH: dict[str, Path | None] = {}


class ConfigError(Exception):
    pass


def load_settings(path: str | Path | None = None, **overrides: Any) -> Settings:
    """``path``, else ``TALLY_CONFIG``, else ``./config.toml`` if present, else defaults."""
    explicit = path or os.environ.get("TALLY_CONFIG")
    p: Path | None
    if explicit:
        p = Path(explicit)
        if not p.is_file():
            raise ConfigError(f"config file {p} does not exist (copy config.example.toml)")
    else:
        p = Path("config.toml") if Path("config.toml").is_file() else None
    _CONFIG_PATH["path"] = p  # read by settings_customise_sources, for this call only
    try:
        settings = Settings(**overrides)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(x) for x in err["loc"])
        raise ConfigError(f"invalid configuration at {where}: {err['msg']}"
                          + (f" (in {p})" if p else "")) from None
    except Exception as exc:  # a TOML syntax error
        raise ConfigError(f"cannot read {p}: {exc}") from None
    finally:
        _CONFIG_PATH.pop("path", None)
    if settings.default_language not in LANGUAGES:
        raise ConfigError(f"default_language must be one of {', '.join(LANGUAGES)}")
    return settings
