"""Settings from the environment (prefix `RUMMY_`), validated at start-up."""

from __future__ import annotations

from functools import lru_cache

from pydantic import model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

DEV_SECRET_KEY = "dev-insecure-secret"  # noqa: S105 - refused outside development below


class Settings(BaseSettings):
    """The server's configuration; refuses the development secret key outside development."""

    model_config = SettingsConfigDict(env_prefix="RUMMY_", extra="ignore")

    database_url: str = "sqlite+aiosqlite:///rummy.db"
    redis_url: str | None = None
    secret_key: str = DEV_SECRET_KEY
    environment: str = "development"
    allowed_origins: list[str] = []
    dev_stacked_decks: bool = False
    starting_chips: int = 1000
    # Room timers, in seconds (OPT-CALL-4 grace period, computer players, pause between hands).
    call_grace_seconds: float = 3.0
    bot_delay_seconds: float = 0.6
    next_hand_seconds: float = 3.0

    @model_validator(mode="after")
    def _refuse_dev_secret_outside_development(self) -> Settings:
        if self.environment != "development" and self.secret_key == DEV_SECRET_KEY:
            raise ValueError(
                f"RUMMY_SECRET_KEY must be set when RUMMY_ENVIRONMENT is {self.environment!r}"
            )
        return self


@lru_cache
def get_settings() -> Settings:
    """The process-wide settings, read once."""
    return Settings()
