"""The migrations create every table of docs/server.md, revert cleanly and match the models."""

from __future__ import annotations

from typing import Any

from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import CheckConstraint, inspect
from sqlalchemy.engine import Connection

from app.db import migrate
from app.db.base import Base
from app.db.models import Account  # noqa: F401 - registers the models
from app.db.session import make_engine

TABLES = {
    "players", "auth_tokens", "accounts", "transfers", "rooms", "room_seats", "matches",
    "match_seats", "match_hands", "match_actions", "hand_results", "chat_messages",
}


async def _inspect(url: str, look: Any) -> Any:
    engine = make_engine(url)
    try:
        async with engine.connect() as connection:
            return await connection.run_sync(look)
    finally:
        await engine.dispose()


def _tables(connection: Connection) -> set[str]:
    return set(inspect(connection).get_table_names()) - {"alembic_version"}


def _checks(connection: Connection) -> dict[str, set[str]]:
    inspector = inspect(connection)
    return {
        table: {check["name"] for check in inspector.get_check_constraints(table)}
        for table in TABLES
    }


def _diff(connection: Connection) -> list[Any]:
    context = MigrationContext.configure(connection, opts={"compare_type": True})
    return list(compare_metadata(context, Base.metadata))


async def test_upgrade_downgrade_upgrade(db_url: str) -> None:
    assert migrate.current(db_url) is None

    assert migrate.upgrade(db_url) == migrate.head() == "0001"
    assert await _inspect(db_url, _tables) == TABLES

    assert migrate.downgrade(db_url, "base") is None
    assert await _inspect(db_url, _tables) == set()

    assert migrate.upgrade(db_url) == "0001"
    assert await _inspect(db_url, _tables) == TABLES


async def test_migration_matches_the_models(migrated_url: str) -> None:
    assert await _inspect(migrated_url, _diff) == []


async def test_migration_has_the_models_check_constraints(migrated_url: str) -> None:
    expected = {
        table.name: {str(c.name) for c in table.constraints if isinstance(c, CheckConstraint)}
        for table in Base.metadata.sorted_tables
    }
    actual = await _inspect(migrated_url, _checks)
    # Boolean columns may add unnamed checks on some backends; compare the named ones.
    assert {t: {n for n in names if n} for t, names in actual.items()} == expected
    assert "ck_accounts_balance_nonnegative" in actual["accounts"]
    assert "ck_transfers_amount_positive" in actual["transfers"]


def test_upgrade_twice_is_a_no_op(migrated_url: str) -> None:
    assert migrate.upgrade(migrated_url) == "0001"
