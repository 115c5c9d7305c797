"""Run the Alembic migrations from code: the CLI, the server's start-up and the tests.

Alembic's env.py runs the async engine with `asyncio.run`, which cannot nest inside a running
event loop, so every command here runs in a short-lived thread of its own. The helpers block
the caller until done; from async code use `await asyncio.to_thread(upgrade, url)`.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from sqlalchemy.engine import Connection

from app.db.session import make_engine

ROOT = Path(__file__).resolve().parent.parent.parent
ALEMBIC_INI = ROOT / "alembic.ini"
SCRIPT_LOCATION = ROOT / "migrations"

T = TypeVar("T")


def alembic_config(url: str) -> Config:
    """An Alembic configuration for `url` that leaves the process's logging alone."""
    config = Config(str(ALEMBIC_INI)) if ALEMBIC_INI.exists() else Config()
    config.set_main_option("script_location", str(SCRIPT_LOCATION))
    config.attributes["url"] = url
    config.attributes["configure_logger"] = False
    return config


def _in_thread(work: Callable[[], T]) -> T:
    """Run `work` in a fresh thread (so it may start its own event loop) and return its value."""
    result: list[T] = []
    errors: list[BaseException] = []

    def target() -> None:
        try:
            result.append(work())
        except BaseException as exc:  # re-raised in the caller's thread below
            errors.append(exc)

    thread = threading.Thread(target=target, name="alembic")
    thread.start()
    thread.join()
    if errors:
        raise errors[0]
    return result[0]


def upgrade(url: str, revision: str = "head") -> str | None:
    """Apply the migrations up to `revision`; return the database's revision afterwards."""
    _in_thread(lambda: command.upgrade(alembic_config(url), revision))
    return current(url)


def downgrade(url: str, revision: str) -> str | None:
    """Revert the migrations down to `revision` (`"base"` drops everything); return the revision."""
    _in_thread(lambda: command.downgrade(alembic_config(url), revision))
    return current(url)


def current(url: str) -> str | None:
    """The database's current revision, or None before the first migration."""

    def read(connection: Connection) -> str | None:
        return MigrationContext.configure(connection).get_current_revision()

    async def run() -> str | None:
        engine = make_engine(url)
        try:
            async with engine.connect() as connection:
                return await connection.run_sync(read)
        finally:
            await engine.dispose()

    import asyncio

    return _in_thread(lambda: asyncio.run(run()))


def head() -> str | None:
    """The newest revision in the migration scripts."""
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(alembic_config("")).get_current_head()
