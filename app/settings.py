"""Settings from the environment (prefix `RUMMY_`), validated at start-up.

Every field's type carries its bounds, so a bad value is refused before the server serves
anything; `problem` turns the refusal into one line naming the variable, what is wrong and a
good value (the field's first `examples` entry, else its default), which `app.cli` prints
before exiting with status 2. docs/security.md lists every setting and limit.
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BeforeValidator,
    Field,
    ValidationError,
    ValidationInfo,
    field_validator,
)
from pydantic_settings import BaseSettings, SettingsConfigDict

DEV_SECRET_KEY = "dev-insecure-secret"  # noqa: S105 - refused outside development below
MIN_SECRET_KEY = 32
MAX_CHIPS = 1_000_000_000
MAX_SECONDS = 86_400.0
DATABASE_FORMS = "sqlite+aiosqlite:///PATH or postgresql+asyncpg://USER:PASSWORD@HOST:PORT/DB"
REDIS_FORMS = "redis://HOST:PORT/DB, rediss://HOST:PORT/DB or unix:///PATH"
LIST_FORMS = 'JSON (["a", "b"]) or comma-separated text (a,b)'
# A shell command that makes a good key, shown as the example (not a key itself).
SECRET_KEY_EXAMPLE = "$(python3 -c 'import secrets; print(secrets.token_urlsafe(32))')"  # noqa: S105


def _text_list(value: Any) -> Any:
    """A list from JSON (`["a", "b"]`) or comma-separated text (`a,b`)."""
    if not isinstance(value, str):
        return value
    text = value.strip()
    if not text.startswith("["):
        return [item.strip() for item in text.split(",") if item.strip()]
    try:
        return json.loads(text)
    except ValueError:
        raise ValueError(f"is not a JSON list; use {LIST_FORMS}") from None


def _database_url(value: str) -> str:
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        url = make_url(value)
    except ArgumentError:
        raise ValueError(f"is not a database URL; use {DATABASE_FORMS}") from None
    backend = url.get_backend_name()
    if backend not in ("sqlite", "postgresql"):
        raise ValueError(f"names {backend}, which is not supported; use {DATABASE_FORMS}")
    folder = Path(url.database or ".").parent
    if backend == "sqlite" and url.database != ":memory:" and not folder.is_dir():
        raise ValueError(f"names a SQLite file in {folder}, a folder that does not exist")
    return value


def _redis_url(value: str | None) -> str | None:
    from urllib.parse import urlsplit

    if value is None or value == "":
        return None
    parts = urlsplit(value)
    if parts.scheme not in ("redis", "rediss", "unix") or not (parts.netloc or parts.path):
        raise ValueError(f"is not a Redis URL; use {REDIS_FORMS}")
    try:
        parts.port  # noqa: B018 - raises on a port that is not a number
    except ValueError:
        raise ValueError(f"has a port that is not a number; use {REDIS_FORMS}") from None
    database = parts.path.strip("/")
    if parts.scheme != "unix" and database and not database.isdigit():
        raise ValueError(f"has a database that is not a number; use {REDIS_FORMS}")
    return value


def _lower(value: Any) -> Any:
    """Names such as log levels read the same in any case (`INFO`, `info`)."""
    return value.lower() if isinstance(value, str) else value


def _origin(value: str) -> str:
    from urllib.parse import urlsplit

    parts = urlsplit(value)
    if value != "*" and (parts.scheme not in ("http", "https") or not parts.netloc
                         or parts.path or parts.query or parts.fragment):
        raise ValueError(f"{value!r} is not an origin; use SCHEME://HOST[:PORT], no path")
    return value


def _network(value: str) -> str:
    import ipaddress

    try:
        ipaddress.ip_network(value, strict=False)
    except ValueError:
        raise ValueError(f"{value!r} is not an IP address or network") from None
    return value


def _proxy(value: str) -> str:
    if value != "*":
        _network(value)
    return value


Seconds = Annotated[float, Field(ge=0, le=MAX_SECONDS, allow_inf_nan=False)]
PositiveSeconds = Annotated[float, Field(gt=0, le=MAX_SECONDS, allow_inf_nan=False)]
Chips = Annotated[int, Field(ge=0, le=MAX_CHIPS)]
Count = Annotated[int, Field(ge=1, le=100_000)]
# Lists read from JSON or comma-separated text.
TextList = Annotated[list[str], BeforeValidator(_text_list)]
Origins = Annotated[list[Annotated[str, AfterValidator(_origin)]], BeforeValidator(_text_list)]
Proxies = Annotated[list[Annotated[str, AfterValidator(_proxy)]], BeforeValidator(_text_list)]
Networks = Annotated[list[Annotated[str, AfterValidator(_network)]], BeforeValidator(_text_list)]
DatabaseUrl = Annotated[str, AfterValidator(_database_url),
                        Field(examples=["postgresql+asyncpg://rummy:PASSWORD@db:5432/rummy"])]
RedisUrl = Annotated[str | None, AfterValidator(_redis_url),
                     Field(examples=["redis://127.0.0.1:6379/0"])]


class Settings(BaseSettings):
    """The server's configuration. Refuses, at start-up: the development secret key (or one
    shorter than 32 characters) and stacked decks outside development, unsupported database and
    Redis URLs, negative or unbounded amounts and durations."""

    # No JSON decoding by the source: lists parse in `_text_list`, so every bad value is a
    # validation error that names its field.
    model_config = SettingsConfigDict(env_prefix="RUMMY_", extra="ignore", enable_decoding=False)

    environment: Literal["development", "production"] = "development"
    database_url: DatabaseUrl = "sqlite+aiosqlite:///rummy.db"
    # PostgreSQL's pool in each process (app.db.session.Pool; SQLite ignores them): connections
    # kept open, more opened under load, and how long a request waits for one before it is
    # answered 503 (docs/operations.md, "Storage faults": sizing against max_connections).
    database_pool_size: Annotated[int, Field(ge=1, le=1000)] = 5
    database_pool_overflow: Annotated[int, Field(ge=0, le=1000)] = 10
    database_pool_timeout: Annotated[float, Field(gt=0, le=600, allow_inf_nan=False)] = 10.0
    redis_url: RedisUrl = None
    secret_key: Annotated[str, Field(examples=[SECRET_KEY_EXAMPLE])] = DEV_SECRET_KEY
    allowed_origins: Annotated[Origins, Field(examples=[["https://rummy.example.com"]])] = []
    # Addresses of reverse proxies whose X-Forwarded-For is believed (uvicorn's
    # forwarded_allow_ips); empty: the socket's peer is the client's address.
    trusted_proxies: Annotated[Proxies, Field(examples=[["127.0.0.1", "10.0.0.0/8"]])] = []
    api_docs: bool = False  # /docs and /openapi.json outside development
    dev_stacked_decks: bool = False
    starting_chips: Chips = 1000
    # A player with no chips (wallet and seats' escrow) may claim this from the bank once per
    # period (docs/server.md, "Top-up").
    topup_chips: Annotated[int, Field(ge=1, le=MAX_CHIPS)] = 200
    topup_period_seconds: Annotated[float, Field(ge=1, le=366 * MAX_SECONDS,
                                                 allow_inf_nan=False)] = 86_400.0
    # Rated matches a player needs at a game to appear on its leaderboard.
    leaderboard_min_matches: Annotated[int, Field(ge=1, le=100_000)] = 5

    # Room timers (OPT-CALL-4 grace period, computer players, pause between hands).
    call_grace_seconds: Seconds = 3.0
    bot_delay_seconds: Seconds = 0.6
    next_hand_seconds: Seconds = 3.0
    # A match with no human connected this long ends as abandoned (docs/server.md).
    abandon_seconds: PositiveSeconds = 600.0

    # Abuse limits (docs/security.md): open sockets per account, and throttles per window.
    max_sockets_per_player: Annotated[int, Field(ge=1, le=100)] = 5
    # Per socket: messages a client may send (a token bucket), messages queued to it before it
    # counts as too slow and is closed (1013), and the kernel's send buffer for it in bytes.
    socket_messages_per_second: Annotated[float, Field(gt=0, le=10_000)] = 20.0
    socket_burst: Annotated[int, Field(ge=1, le=100_000)] = 40
    socket_queue: Annotated[int, Field(ge=8, le=100_000)] = 256
    socket_send_buffer: Annotated[int, Field(ge=4096, le=64 * 1024 * 1024)] = 262_144
    login_attempts_per_username: Count = 10
    login_attempts_per_address: Count = 30
    login_window_seconds: PositiveSeconds = 900.0
    registrations_per_address_per_hour: Count = 10
    # Many people share an address (a café, a school, a mobile network's NAT): the guest limit
    # is for scripts making thousands, not for a room full of newcomers.
    guests_per_address_per_hour: Count = 200
    # Reports one player may file per hour (issue 36: one guest sent 300 in a burst).
    reports_per_player_per_hour: Count = 10
    # Rooms one host may have waiting for players at once (issue 18: one guest hosted 300).
    max_waiting_rooms_per_host: Annotated[int, Field(ge=1, le=1000)] = 5
    # Prefix of this deployment's Redis keys and pub/sub channels, so that deployments (or
    # tests) sharing one Redis keep apart (a Redis database number does not: pub/sub ignores
    # it). Unset or empty: `rummy:` and a hash of where the database is (`deployment_prefix`).
    redis_prefix: Annotated[str, Field(pattern=r"^[A-Za-z0-9_.:-]{1,64}$",
                                       examples=["rummy"])] = ""
    # Several processes (PostgreSQL and Redis, docs/scaling.md): how long a room's lease lasts
    # without renewal, so how soon a dead process's rooms are taken over.
    lease_seconds: Annotated[float, Field(ge=0.5, le=60, allow_inf_nan=False)] = 5.0
    # Logs (docs/operations.md, "Logs"): plain lines for a person, or one JSON object a line
    # for a collector; the level of the server's own loggers (other libraries stay at info).
    log_format: Annotated[Literal["text", "json"], BeforeValidator(_lower)] = "text"
    log_level: Annotated[Literal["debug", "info", "warning", "error"],
                         BeforeValidator(_lower)] = "info"

    # Fair play (docs/fairplay.md, docs/security.md): how long the address a seated player
    # connected from is kept after it was last seen; the review reads matches of this window.
    address_retention_days: Annotated[int, Field(ge=1, le=3650)] = 90

    # Operations (docs/operations.md): the Prometheus metrics, and who may read /metrics (the
    # address the request came from, after RUMMY_TRUSTED_PROXIES; others get 404).
    metrics_enabled: bool = True
    metrics_allow: Annotated[Networks, Field(examples=[["127.0.0.1", "10.0.0.0/8"]])] = [
        "127.0.0.1/32", "::1/128"]

    @property
    def is_development(self) -> bool:
        return self.environment == "development"

    @property
    def is_cluster(self) -> bool:
        """Rooms are shared among processes: Redis coordinates, PostgreSQL holds the truth."""
        return bool(self.redis_url) and self.database_url.startswith("postgresql")

    @field_validator("redis_prefix", mode="before")
    @classmethod
    def _prefix_of_the_database(cls, value: Any, info: ValidationInfo) -> Any:
        if value not in (None, ""):
            return value
        # A bad database URL is refused on its own; the prefix does not add a second refusal.
        database_url = info.data.get("database_url")
        return "rummy" if database_url is None else deployment_prefix(database_url)

    # Field validators rather than a model validator, so that each refusal names its variable;
    # `environment` is declared first, so it is in `info.data` when it was valid.
    @field_validator("secret_key")
    @classmethod
    def _strong_key_outside_development(cls, value: str, info: ValidationInfo) -> str:
        environment = info.data.get("environment", "development")
        if environment != "development" and (value == DEV_SECRET_KEY
                                             or len(value) < MIN_SECRET_KEY):
            raise ValueError(f"must be a random string of at least {MIN_SECRET_KEY} characters "
                             f"(not the development key) when RUMMY_ENVIRONMENT={environment}")
        return value

    @field_validator("dev_stacked_decks")
    @classmethod
    def _stacked_decks_in_development_only(cls, value: bool, info: ValidationInfo) -> bool:
        environment = info.data.get("environment", "development")
        if value and environment != "development":
            raise ValueError(f"is refused when RUMMY_ENVIRONMENT={environment}: stacked decks "
                             "are for development only")
        return value


def deployment_prefix(database_url: str) -> str:
    """The default Redis prefix: `rummy:` and a hash of where the database is (its kind, host,
    port and name; not the user, password, driver or options), so every process of one
    deployment shares it and another deployment's differs."""
    from sqlalchemy.engine import make_url

    url = make_url(database_url)
    backend = url.get_backend_name()
    port = url.port or (5432 if backend == "postgresql" else "")
    place = f"{backend}://{url.host or ''}:{port}/{url.database or ''}"
    return f"rummy:{hashlib.sha256(place.encode()).hexdigest()[:12]}"


def example(name: str) -> str:
    """A good value of the field `name`, written as its environment variable's text."""
    field = Settings.model_fields[name]
    value = field.examples[0] if field.examples else field.default
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, list):
        return ",".join(value)
    return str(value)


def problem(exc: ValidationError) -> str:
    """One line naming each refused variable, what is wrong and a good value. The values are
    not repeated: some hold passwords."""
    prefix = Settings.model_config.get("env_prefix", "")
    said: dict[str, str] = {}
    for error in exc.errors():
        name = str(error["loc"][0]) if error["loc"] else ""
        if name in Settings.model_fields and name not in said:
            variable = f"{prefix}{name}".upper()
            what = error["msg"].removeprefix("Value error, ")
            said[name] = f"{variable}: {what[:1].lower()}{what[1:]} " \
                         f"(for example {variable}={example(name)})"
    return "; ".join(said.values()) or str(exc).replace("\n", " ")


@lru_cache
def get_settings() -> Settings:
    """The process-wide settings, read once."""
    return Settings()
