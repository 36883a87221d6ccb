"""Settings from ``config.toml`` (or ``TALLY_CONFIG``), overridden by ``TALLY_*`` variables,
e.g. ``TALLY_TELEGRAM__TOKEN``. A config file that is named but missing, or invalid, stops
the start with a clear message; so does a key no setting has (in the file, or a ``TALLY_``
variable), and a value out of its bounds."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any, Literal
from urllib.parse import SplitResult, urlsplit

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SecretStr,
    ValidationError,
    field_validator,
    model_validator,
)
from pydantic_core import ErrorDetails
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    SettingsError,
    TomlConfigSettingsSource,
)
from sqlalchemy.engine import URL, make_url

LANGUAGES = ("zh-Hans", "zh-Hant", "en")
# Telegram's rule for setWebhook's secret_token: 1-256 characters A-Z, a-z, 0-9, _ and -.
SECRET_TOKEN = re.compile(r"[A-Za-z0-9_-]{1,256}")
# Paths the webhook server answers itself; the webhook's own path must be another.
ADMIN_PATHS = ("/healthz", "/readyz", "/metrics")
ENV_PREFIX = "TALLY_"
# TALLY_ variables that are not settings: the config file's path, and the test suite's and
# CI's own. Any other TALLY_ variable must name a setting, or the start stops.
NOT_SETTINGS = frozenset({"CONFIG", "TEST_POSTGRES_URL", "REQUIRE_CJK_FONT", "CHROMIUM"})


class Section(BaseModel):
    """A ``[section]`` of the config file: a key it does not have is an error, not ignored."""

    model_config = ConfigDict(extra="forbid")


def split_listen(value: str) -> tuple[str, int]:
    """``host:port`` (``[::1]:8443`` for IPv6) as a host and a port."""
    host, sep, port = value.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"{value!r} is not host:port (e.g. 127.0.0.1:8443)")
    return host.strip("[]"), int(port)


def _host_port(value: str | None) -> str | None:
    """A ``listen`` setting, unset or ``host:port``."""
    if value is not None:
        split_listen(value)
    return value


def _https_parts(value: str, why: str) -> SplitResult:
    """``value`` split, if it is an https:// URL with a host; else the error says ``why``."""
    parts = urlsplit(value)
    if parts.scheme != "https" or not parts.hostname:
        raise ValueError(f"must be an https:// URL ({why})")
    return parts


class TelegramSettings(Section):
    token: SecretStr | None = None
    base_url: str = "https://api.telegram.org/bot"
    base_file_url: str = "https://api.telegram.org/file/bot"  # where getFile's files are
    # Telegram's limits: about 30 messages a second overall, 20 a minute in one group.
    # 0 turns a limit off (only for a fake or a local Bot API server).
    overall_max_rate: float = Field(30, ge=0, le=1000)
    group_max_rate: float = Field(20, ge=0, le=1000)
    # Seconds between edits of one chat's scoreboard; edits in between are merged into
    # one that shows the newest table (the night's end is shown at once). Every answer
    # says what moved, so the board may lag a little: at a table's pace (a hand a minute
    # or so) 180 s keeps Telegram calls near 1.3 per report. 0 edits after every event.
    board_interval: float = Field(180, ge=0, le=3600)
    # Seconds to wait for Telegram to connect and answer one call (polling's long wait
    # comes on top); a call that takes longer is retried.
    request_timeout: float = Field(10, gt=0, le=300)
    # Connections kept open to the Bot API for calls other than getUpdates. A call finding
    # all of them busy waits for one, up to request_timeout. 16 carry more than a bot
    # token's 30 messages a second at half a second a call; python-telegram-bot's own
    # default, 256, costs CPU on every call (its HTTP client looks over every open
    # connection to pick one). See docs/performance.md, "The road to Telegram".
    connection_pool_size: int = Field(16, ge=1, le=1024)
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
    ready_max_outbox: int = Field(1000, ge=0, le=10_000_000)

    _listen = field_validator("listen", "admin_listen")(_host_port)

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
        parts = _https_parts(value, "Telegram posts only over TLS")
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


class DeliverySettings(Section):
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
    # Several workers on PostgreSQL: an update whose chat has nothing else pending is
    # handled within its webhook request, its receipt, write, answers and "handled" in one
    # transaction (bot.delivery.dispatch.Dispatcher.inline). Off: every update is
    # received, then claimed and handled by a chat's run, as a held chat's are.
    at_once: bool = True
    # Tries at sending an answer on 5xx, timeouts and network errors (429 waits and
    # does not count).
    send_attempts: int = Field(8, ge=1, le=100)
    # Handled updates and answers given up on are forgotten after this long (the ledger's
    # own tables never are): a handled update's key, as long as Telegram may deliver it
    # again (it keeps an unconfirmed update 24 hours, so not less: a shorter time would let
    # a late copy be handled twice); an answer given up on (a sent one is deleted at once),
    # for the operator to look at.
    inbox_retention_hours: float = Field(24, ge=24, le=24 * 30)
    outbox_retention_hours: float = Field(72, ge=0, le=24 * 365)
    # A button's draft (a guided report, the seat buttons of /new, "the same hand?")
    # untouched this long was abandoned: it is deleted, and its buttons answer that they
    # are out of date. A table's drafts go when it ends anyway. At least an hour: a dialog
    # takes minutes.
    draft_retention_hours: float = Field(48, ge=1, le=24 * 30)
    prune_interval_minutes: float = Field(10, ge=1, le=24 * 60)


class WebAppSettings(Section):
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

    _listen = field_validator("listen")(_host_port)

    @field_validator("public_url")
    @classmethod
    def _https_url(cls, value: str | None) -> str | None:
        if value is None:
            return None
        parts = _https_parts(value, "Telegram opens Mini Apps only over TLS")
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


class StorageSettings(Section):
    url: str = "sqlite+aiosqlite:///data/tally.sqlite3"


class LoggingSettings(Section):
    level: Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"] = "INFO"
    format: Literal["plain", "json"] = "plain"

    @field_validator("level", mode="before")
    @classmethod
    def _upper(cls, value: object) -> object:
        return value.upper() if isinstance(value, str) else value


class Settings(BaseSettings):
    # An empty variable counts as unset (compose passes `${TALLY_WEBAPP__PUBLIC_URL:-}`).
    model_config = SettingsConfigDict(env_prefix=ENV_PREFIX, env_nested_delimiter="__",
                                      env_ignore_empty=True, extra="forbid")

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
    _refuse_unknown_variables()
    _CONFIG_PATH["path"] = p  # read by settings_customise_sources, for this call only
    try:
        settings = Settings(**overrides)
    except ValidationError as exc:
        raise ConfigError(_explain(exc.errors()[0], p)) from None
    except SettingsError as exc:  # a variable that should hold JSON (a list) does not
        raise ConfigError(f"cannot read the environment: {exc} (a list is written as JSON, "
                          "e.g. TALLY_ADMINS='[1, 2]')") from None
    except Exception as exc:  # a TOML syntax error
        raise ConfigError(f"cannot read {p}: {exc}") from None
    finally:
        _CONFIG_PATH.pop("path", None)
    if settings.default_language not in LANGUAGES:
        raise ConfigError(f"default_language must be one of {', '.join(LANGUAGES)}")
    return settings


def _tally_variables() -> dict[str, str]:
    """The ``TALLY_`` variables, by their name after the prefix, upper-cased (the settings
    read them case-insensitively)."""
    n = len(ENV_PREFIX)
    return {k[n:].upper(): k for k in os.environ if k[:n].upper() == ENV_PREFIX}


def _refuse_unknown_variables() -> None:
    """pydantic-settings reads only the variables that name a setting and passes over the
    rest, so a misspelt top-level name (``TALLY_ADMIN``) would be ignored without a word.
    (A misspelt key inside a section, ``TALLY_DELIVERY__LEASE_SECOND``, reaches the section,
    which refuses it.)"""
    fields = {name.upper() for name in Settings.model_fields}
    for name, variable in sorted(_tally_variables().items()):
        if name.split("__", 1)[0] not in fields and name not in NOT_SETTINGS:
            raise ConfigError(
                f"the environment variable {variable} names no setting (settings: "
                f"{', '.join(sorted(Settings.model_fields))}; TALLY_<SECTION>__<KEY> for a "
                "key of a section, e.g. TALLY_DELIVERY__LEASE_SECONDS)")


def _explain(err: ErrorDetails, path: Path | None) -> str:
    """One validation error as a sentence that names the setting and where it came from: the
    environment variable that set it (variables override the file), else the file."""
    loc = [str(x) for x in err["loc"]]
    where = ".".join(loc)
    variables = _tally_variables()
    variable = next((variables["__".join(loc[:i]).upper()] for i in range(len(loc), 0, -1)
                     if "__".join(loc[:i]).upper() in variables), None)
    source = (f" (from the environment variable {variable})" if variable
              else f" (in {path})" if path else "")
    if err["type"] == "extra_forbidden":
        return f"unknown setting {where}{source}: no such key"
    hint = ""
    if variable and err["type"] == "list_type":
        hint = f"; a list is written as JSON: {variable}='[1, 2]'"
    return f"invalid configuration at {where}: {err['msg']}{source}{hint}"


def storage_location(url: str | URL) -> str:
    """The storage URL for the log, its password hidden; a SQLite file named by a relative
    path is shown with the absolute one it resolves to from the working directory (a bot
    started elsewhere opens, and creates, another ledger)."""
    parsed = make_url(url)
    shown = parsed.render_as_string(hide_password=True)
    database = parsed.database
    if (parsed.get_backend_name() == "sqlite" and database and database != ":memory:"
            and not Path(database).is_absolute()):
        return f"{shown} (the file {Path(database).resolve()})"
    return shown
