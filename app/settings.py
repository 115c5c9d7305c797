"""Settings from the environment (prefix `RUMMY_`), validated at start-up.

Every field's type carries its bounds, so a bad value is refused before the server serves
anything; `app.cli` turns the refusal into one line naming the variable (docs/security.md lists
every setting and limit).
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BeforeValidator, Field, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

DEV_SECRET_KEY = "dev-insecure-secret"  # noqa: S105 - refused outside development below
MIN_SECRET_KEY = 32
MAX_CHIPS = 1_000_000_000
MAX_SECONDS = 86_400.0
DATABASE_FORMS = "sqlite+aiosqlite:///PATH or postgresql+asyncpg://USER:PASSWORD@HOST:PORT/DB"
REDIS_FORMS = "redis://HOST:PORT/DB, rediss://HOST:PORT/DB or unix:///PATH"


def _finite(value: float) -> float:
    if not math.isfinite(value):
        raise ValueError("must be a finite number of seconds")
    return value


def _text_list(value: Any) -> Any:
    """A list from JSON (`["a", "b"]`) or comma-separated text (`a,b`)."""
    if not isinstance(value, str):
        return value
    text = value.strip()
    if text.startswith("["):
        import json

        return json.loads(text)
    return [item.strip() for item in text.split(",") if item.strip()]


def _database_url(value: str) -> str:
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        backend = make_url(value).get_backend_name()
    except ArgumentError:
        raise ValueError(f"is not a database URL; use {DATABASE_FORMS}") from None
    if backend not in ("sqlite", "postgresql"):
        raise ValueError(f"{backend} is not supported; use {DATABASE_FORMS}")
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
        raise ValueError(f"has a bad port; use {REDIS_FORMS}") from None
    return value


Seconds = Annotated[float, Field(ge=0, le=MAX_SECONDS), AfterValidator(_finite)]
Chips = Annotated[int, Field(ge=0, le=MAX_CHIPS, strict=False)]
Count = Annotated[int, Field(ge=1, le=100_000)]
TextList = Annotated[list[str], NoDecode, BeforeValidator(_text_list)]


class Settings(BaseSettings):
    """The server's configuration. Refuses, at start-up: the development secret key (or one
    shorter than 32 characters) and stacked decks outside development, unsupported database and
    Redis URLs, negative or unbounded amounts and durations."""

    model_config = SettingsConfigDict(env_prefix="RUMMY_", extra="ignore")

    environment: Literal["development", "production"] = "development"
    database_url: Annotated[str, AfterValidator(_database_url)] = "sqlite+aiosqlite:///rummy.db"
    redis_url: Annotated[str | None, AfterValidator(_redis_url)] = None
    secret_key: str = DEV_SECRET_KEY
    allowed_origins: TextList = []
    # Addresses of reverse proxies whose X-Forwarded-For is believed (uvicorn's
    # forwarded_allow_ips); empty: the socket's peer is the client's address.
    trusted_proxies: TextList = []
    api_docs: bool = False  # /docs and /openapi.json outside development
    dev_stacked_decks: bool = False
    starting_chips: Chips = 1000

    # Room timers (OPT-CALL-4 grace period, computer players, pause between hands).
    call_grace_seconds: Seconds = 3.0
    bot_delay_seconds: Seconds = 0.6
    next_hand_seconds: Seconds = 3.0

    # Abuse limits (docs/security.md): open sockets per account, and throttles per window.
    max_sockets_per_player: Annotated[int, Field(ge=1, le=100)] = 5
    login_attempts_per_username: Count = 10
    login_attempts_per_address: Count = 30
    login_window_seconds: Annotated[float, Field(gt=0, le=MAX_SECONDS)] = 900.0
    registrations_per_address_per_hour: Count = 10
    guests_per_address_per_hour: Count = 20
    # Prefix of this deployment's Redis keys, so that deployments (or tests) sharing one Redis
    # keep their throttles apart.
    redis_prefix: Annotated[str, Field(pattern=r"^[A-Za-z0-9_.:-]{1,64}$")] = "rummy"

    @property
    def is_development(self) -> bool:
        return self.environment == "development"

    @model_validator(mode="after")
    def _refuse_unsafe_production(self) -> Settings:
        if self.is_development:
            return self
        if self.secret_key == DEV_SECRET_KEY or len(self.secret_key) < MIN_SECRET_KEY:
            raise ValueError(f"RUMMY_SECRET_KEY must be a random string of at least "
                             f"{MIN_SECRET_KEY} characters when RUMMY_ENVIRONMENT is "
                             f"{self.environment}")
        if self.dev_stacked_decks:
            raise ValueError("RUMMY_DEV_STACKED_DECKS=1 is refused when RUMMY_ENVIRONMENT is "
                             f"{self.environment}: stacked decks are for development only")
        return self


@lru_cache
def get_settings() -> Settings:
    """The process-wide settings, read once."""
    return Settings()
