"""Database fixtures: every test runs on SQLite and on PostgreSQL.

- `db_url`: an empty, unmigrated database (SQLite: a fresh file; PostgreSQL: the session's
  throwaway database with its schema emptied).
- `migrated_url`: an empty database at the newest migration (PostgreSQL: tables emptied
  when the session database is already there, which is much faster than migrating again).
- `sessions`: an async session factory on `migrated_url`.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

import app.db.models  # noqa: F401 - registers the models on Base.metadata
from app.db.base import Base
from app.db.migrate import head, upgrade
from app.db.session import make_engine, make_sessionmaker
from tests import pg

BACKENDS = [
    pytest.param("sqlite", id="sqlite"),
    pytest.param("postgresql", id="postgresql", marks=pytest.mark.postgres),
]


@pytest.fixture(scope="session")
def pg_database() -> Iterator[str]:
    """A throwaway PostgreSQL database for the whole test session (dropped afterwards)."""
    url = pg.create_database()
    try:
        yield url
    finally:
        pg.drop_database(url)


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    """"sqlite" or "postgresql": every database test runs once on each."""
    return str(request.param)


@pytest.fixture
def db_url(backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty, unmigrated database URL."""
    if backend == "sqlite":
        return f"sqlite+aiosqlite:///{tmp_path / 'rummy.db'}"
    url: str = request.getfixturevalue("pg_database")
    pg.reset_schema(url)
    return url


@pytest.fixture
def pg_url(pg_database: str) -> str:
    """The PostgreSQL database only, empty and migrated (for PostgreSQL-specific tests)."""
    tables = [table.name for table in Base.metadata.sorted_tables]
    if not pg.empty_if_at(pg_database, head(), tables):
        pg.reset_schema(pg_database)
        upgrade(pg_database)
    return pg_database


@pytest.fixture
def migrated_url(backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty database URL with every migration applied."""
    if backend == "postgresql":
        return str(request.getfixturevalue("pg_url"))
    url = f"sqlite+aiosqlite:///{tmp_path / 'rummy.db'}"
    upgrade(url)
    return url


@pytest.fixture
async def sessions(migrated_url: str) -> AsyncIterator[async_sessionmaker[AsyncSession]]:
    """Session factory on the migrated database; the engine is disposed afterwards."""
    engine = make_engine(migrated_url)
    try:
        yield make_sessionmaker(engine)
    finally:
        await engine.dispose()
