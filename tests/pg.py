"""PostgreSQL for tests: find the server, create and drop throwaway databases.

The server is `RUMMY_TEST_DATABASE_URL` if set (any database on it; throwaway databases are
created next to it), else `postgresql+asyncpg://postgres@127.0.0.1:5432/test`. An unreachable
server skips the test, unless `RUMMY_REQUIRE_POSTGRES=1`, which makes it fail instead.
"""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar
from uuid import uuid4

import asyncpg
import pytest
from sqlalchemy.engine import URL, make_url

DEFAULT_URL = "postgresql+asyncpg://postgres@127.0.0.1:5432/test"
CONNECT_TIMEOUT = 15.0  # generous on a busy machine; an absent server refuses at once

T = TypeVar("T")


def server_url() -> URL:
    """The SQLAlchemy URL of the PostgreSQL database tests connect to first."""
    url = make_url(os.environ.get("RUMMY_TEST_DATABASE_URL") or DEFAULT_URL)
    return url.set(drivername="postgresql+asyncpg")


def is_required() -> bool:
    """Whether a missing PostgreSQL fails (RUMMY_REQUIRE_POSTGRES=1) rather than skips tests."""
    return os.environ.get("RUMMY_REQUIRE_POSTGRES", "") not in ("", "0")


def run_sync(make: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """Run a coroutine to completion in a thread of its own (safe inside a running loop)."""
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["value"] = asyncio.run(make())
        except BaseException as exc:  # re-raised below, in the caller's thread
            box["error"] = exc

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if "error" in box:
        raise box["error"]
    return box["value"]


async def _connect(url: URL) -> asyncpg.Connection:
    return await asyncpg.connect(
        host=url.host or "127.0.0.1", port=url.port or 5432, user=url.username,
        password=url.password, database=url.database, timeout=CONNECT_TIMEOUT,
    )


def unreachable_reason(url: URL | None = None) -> str | None:
    """Why PostgreSQL at `url` cannot be used, or None if a connection succeeds."""
    url = url or server_url()

    async def probe() -> None:
        connection = await _connect(url)
        await connection.close()

    try:
        run_sync(probe)
    except (TimeoutError, OSError, asyncpg.PostgresError) as exc:
        shown = url.render_as_string(hide_password=True)
        return f"PostgreSQL not reachable at {shown}: {type(exc).__name__}: {exc}"
    return None


def require_postgres() -> URL:
    """The server URL, or skip (fail if RUMMY_REQUIRE_POSTGRES=1) when it is unreachable."""
    url = server_url()
    reason = unreachable_reason(url)
    if reason is not None:
        if is_required():
            pytest.fail(f"{reason} (and RUMMY_REQUIRE_POSTGRES=1)")
        pytest.skip(reason)
    return url


def create_database(prefix: str = "rummy_test") -> str:
    """Create an empty database on the test server; return its SQLAlchemy URL (async driver)."""
    url = require_postgres()
    name = f"{prefix}_{uuid4().hex[:12]}"

    async def create() -> None:
        connection = await _connect(url)
        try:
            await connection.execute(f'CREATE DATABASE "{name}"')
        finally:
            await connection.close()

    run_sync(create)
    return url.set(database=name).render_as_string(hide_password=False)


def drop_database(database_url: str) -> None:
    """Drop a database made by `create_database` (closing its connections first)."""
    name = make_url(database_url).database
    url = server_url()

    async def drop() -> None:
        connection = await _connect(url)
        try:
            await connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await connection.close()

    run_sync(drop)


def reset_schema(database_url: str) -> None:
    """Empty the database: drop and recreate its public schema (tables, alembic_version)."""
    url = make_url(database_url)

    async def reset() -> None:
        connection = await _connect(url)
        try:
            await connection.execute("DROP SCHEMA public CASCADE; CREATE SCHEMA public")
        finally:
            await connection.close()

    run_sync(reset)


def empty_if_at(database_url: str, revision: str | None, tables: list[str]) -> bool:
    """Empty `tables` (children first) if the database is at `revision`; else False, nothing done.

    DELETE rather than TRUNCATE: on a handful of rows it takes milliseconds, not a quarter second.
    """
    url = make_url(database_url)

    async def truncate() -> bool:
        connection = await _connect(url)
        try:
            try:
                current = await connection.fetchval("SELECT version_num FROM alembic_version")
            except asyncpg.UndefinedTableError:
                return False
            if current != revision:
                return False
            async with connection.transaction():
                for table in reversed(tables):
                    await connection.execute(f'DELETE FROM "{table}"')  # noqa: S608 - our names
            return True
        finally:
            await connection.close()

    return run_sync(truncate)
