"""Engines and session factories for SQLite (aiosqlite) and PostgreSQL (asyncpg).

SQLite gets foreign keys, WAL and a busy timeout on every connection, and SQLAlchemy emits
`BEGIN IMMEDIATE` itself instead of the driver's lazy BEGIN: savepoints then work, DDL is
transactional, and a transaction takes the single write lock when it starts, so a
read-then-write transaction (like a ledger transfer) can never act on a stale read; other
writers wait for it (up to the busy timeout) instead of failing with "database is locked".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import URL, Connection, make_url
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

SQLITE_BUSY_TIMEOUT_MS = 30_000
# During a PostgreSQL outage a request fails within seconds (503) instead of hanging: the
# time to open a connection (the wait for a pooled one is `Pool.timeout`).
PG_CONNECT_TIMEOUT_SECONDS = 5
# The match log writer's concurrent commits, each on a connection of the writer's own asyncpg
# pool (app.services.logwriter), besides the engine's `Pool` for requests and the rooms' other
# writes.
PG_LOG_COMMITS = 2


@dataclass(frozen=True)
class Pool:
    """A PostgreSQL engine's pool (RUMMY_DATABASE_POOL_SIZE, _OVERFLOW and _TIMEOUT, whose
    defaults these are): connections kept open, more opened while all of those are in use,
    and the seconds a checkout waits for one before it fails (`sqlalchemy.exc.TimeoutError`,
    answered 503). A process opens at most ``size + overflow + PG_LOG_COMMITS`` connections."""

    size: int = 5
    overflow: int = 10
    timeout: float = 10.0


def make_engine(url: str, pool: Pool | None = None, **kwargs: Any) -> AsyncEngine:
    """An async engine for `url` (`sqlite+aiosqlite://...` or `postgresql+asyncpg://...`).

    Plain `sqlite://` and `postgresql://` URLs are given their async drivers. `pool` applies to
    PostgreSQL only (SQLite has a single writer and its connections are files, not server
    slots). Extra keyword arguments go to `create_async_engine` (echo, ...).
    """
    # A statement's parameters (invite codes, the seed of a hand in play, password hashes)
    # stay out of its errors' text, so out of the logs their tracebacks go to.
    kwargs.setdefault("hide_parameters", True)
    parsed = make_url(url)
    if parsed.drivername in ("sqlite", "sqlite+pysqlite"):
        parsed = parsed.set(drivername="sqlite+aiosqlite")
    elif parsed.drivername in ("postgresql", "postgres", "postgresql+psycopg2"):
        parsed = parsed.set(drivername="postgresql+asyncpg")
    if parsed.get_backend_name() == "sqlite":
        engine = create_async_engine(parsed, **kwargs)
        _configure_sqlite(engine)
        return engine
    # No ping per checkout (a round trip each time): a connection that died is found by its
    # first failure, which invalidates the whole pool, so later checkouts connect afresh.
    pool = pool or Pool()
    kwargs.setdefault("connect_args", {"timeout": PG_CONNECT_TIMEOUT_SECONDS})
    return create_async_engine(parsed, pool_size=pool.size, max_overflow=pool.overflow,
                               pool_timeout=pool.timeout, **kwargs)


def _configure_sqlite(engine: AsyncEngine) -> None:
    @event.listens_for(engine.sync_engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # we emit BEGIN ourselves (below)
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys = ON")
        cursor.execute(f"PRAGMA busy_timeout = {SQLITE_BUSY_TIMEOUT_MS}")
        cursor.execute("PRAGMA journal_mode = WAL")
        cursor.execute("PRAGMA synchronous = NORMAL")
        cursor.close()

    @event.listens_for(engine.sync_engine, "begin")
    def _on_begin(connection: Connection) -> None:
        connection.exec_driver_sql("BEGIN IMMEDIATE")


def asyncpg_dsn(url: URL) -> str:
    """The engine's URL as asyncpg's own connect takes it (a pool outside SQLAlchemy's)."""
    return url.set(drivername="postgresql").render_as_string(hide_password=False)


def make_sessionmaker(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    """Sessions whose objects stay readable after commit; the caller owns each transaction."""
    return async_sessionmaker(engine, expire_on_commit=False, autoflush=True)


def pool_levels(engine: AsyncEngine) -> tuple[int, int, int]:
    """The engine's pool: connections in use, idle, and checkouts waiting for one. SQLAlchemy
    has no public count of waiters: it is read from the asyncio queue behind the async pool
    (0 where there is none, as with SQLite's pool)."""
    pool = engine.sync_engine.pool
    in_use = getattr(pool, "checkedout", lambda: 0)()
    idle = getattr(pool, "checkedin", lambda: 0)()
    queue = getattr(getattr(pool, "_pool", None), "__dict__", {}).get("_queue")  # made lazily
    waiting = len(getattr(queue, "_getters", ()))
    return in_use, idle, waiting
