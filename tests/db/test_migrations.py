"""The migrations create every table of docs/server.md, revert cleanly and match the models."""

from __future__ import annotations

from typing import Any
from uuid import uuid4

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import CheckConstraint, inspect, text
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from app.db import migrate
from app.db.base import Base
from app.db.models import Account  # noqa: F401 - registers the models
from app.db.session import make_engine

TABLES = {
    "players", "auth_tokens", "accounts", "transfers", "rooms", "room_seats", "matches",
    "match_seats", "match_hands", "match_actions", "hand_results", "chat_messages",
    "admin_views", "ratings", "rating_changes", "tournaments", "tournament_entries",
    "tournament_tables", "match_analyses", "blocks", "reports", "sanctions", "admin_actions",
    "seat_addresses", "fairplay_flags",
}
HEAD = "0014"

# SQLite cannot reflect the expression index on lower(username); a test below checks it works.
pytestmark = [
    pytest.mark.filterwarnings("ignore:autogenerate skipping metadata-specified expression"),
    pytest.mark.filterwarnings("ignore:Skipped unsupported reflection of expression-based"),
]


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

    assert migrate.upgrade(db_url) == migrate.head() == HEAD
    assert await _inspect(db_url, _tables) == TABLES

    assert migrate.downgrade(db_url, "base") is None
    assert await _inspect(db_url, _tables) == set()

    assert migrate.upgrade(db_url) == HEAD
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
    assert migrate.upgrade(migrated_url) == HEAD


def _rooms_shape(connection: Connection) -> tuple[set[str], set[str | None]]:
    inspector = inspect(connection)
    return ({c["name"] for c in inspector.get_columns("rooms")},
            {c["name"] for c in inspector.get_check_constraints("rooms")})


async def test_downgrade_to_0001_restores_its_schema(db_url: str) -> None:
    migrate.upgrade(db_url, "0001")
    columns, checks = await _inspect(db_url, _rooms_shape)
    migrate.upgrade(db_url)
    assert "spectator_chat" in (await _inspect(db_url, _rooms_shape))[0]

    assert migrate.downgrade(db_url, "0001") == "0001"
    assert await _inspect(db_url, _tables) == TABLES - {
        "admin_views", "ratings", "rating_changes", "tournaments", "tournament_entries",
        "tournament_tables", "match_analyses", "blocks", "reports", "sanctions",
        "admin_actions", "seat_addresses", "fairplay_flags"}
    assert await _inspect(db_url, _rooms_shape) == (columns, checks)
    assert migrate.upgrade(db_url) == HEAD


async def _add_player(url: str, username: str) -> None:
    engine = make_engine(url)
    try:
        async with engine.begin() as connection:
            await connection.execute(text(
                "INSERT INTO players (id, name, username, password_hash, is_guest, role)"
                " VALUES (:id, :name, :name, 'hash', false, 'player')"),
                {"id": uuid4().hex, "name": username})
    finally:
        await engine.dispose()


async def test_usernames_are_unique_without_regard_to_case(migrated_url: str) -> None:
    await _add_player(migrated_url, "ann")
    with pytest.raises(IntegrityError):
        await _add_player(migrated_url, "Ann")


async def test_upgrade_names_usernames_that_differ_only_in_case(db_url: str) -> None:
    """A careless operator's database with `Bob` and `bob`: 0002 refuses, naming them, and the
    database stays at 0001 until one is renamed."""
    migrate.upgrade(db_url, "0001")
    for username in ("Bob", "bob", "carol"):
        await _add_player(db_url, username)
    with pytest.raises(RuntimeError, match="different cases: bob; rename"):
        migrate.upgrade(db_url)
    assert migrate.current(db_url) == "0001"
