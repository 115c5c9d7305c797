"""Sit-and-go knockout tournaments (PROTOCOL.md §8): tournaments, their entries and their tables;
and the rooms' flag that a tournament table plays on for a player who is not connected.

Hand-written and static like 0001.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-03
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

NOW = sa.text("CURRENT_TIMESTAMP")


def _cascade_to_tournament(table: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"], ondelete="CASCADE",
                                   name=op.f(f"fk_{table}_tournament_id_tournaments"))


def upgrade() -> None:
    op.add_column("rooms", sa.Column("stand_in_for_absent", sa.Boolean(), nullable=False,
                                     server_default=sa.text("false")))
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("creator_id", sa.String(32), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("table_seats", sa.Integer(), nullable=False),
        sa.Column("entry", sa.BigInteger(), nullable=False),
        sa.Column("prizes", sa.JSON(), nullable=False),
        sa.Column("turn_seconds", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False, server_default="registering"),
        sa.Column("entries_made", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False, server_default=NOW),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint("status IN ('registering', 'running', 'finished', 'cancelled')",
                           name=op.f("ck_tournaments_status")),
        sa.CheckConstraint("players >= 2 AND players <= 64",
                           name=op.f("ck_tournaments_players_range")),
        sa.CheckConstraint("table_seats >= 2 AND table_seats <= 6",
                           name=op.f("ck_tournaments_table_seats_range")),
        sa.CheckConstraint("entry >= 0", name=op.f("ck_tournaments_entry_nonnegative")),
        sa.CheckConstraint("turn_seconds >= 1",
                           name=op.f("ck_tournaments_turn_seconds_positive")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournaments")),
        sa.ForeignKeyConstraint(["creator_id"], ["players.id"],
                                name=op.f("fk_tournaments_creator_id_players")),
    )
    op.create_index("ix_tournaments_status_created_at", "tournaments", ["status", "created_at"])
    op.create_table(
        "tournament_entries",
        sa.Column("tournament_id", sa.String(32), nullable=False),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("place", sa.Integer(), nullable=True),
        sa.Column("prize", sa.BigInteger(), nullable=True),
        sa.PrimaryKeyConstraint("tournament_id", "player_id",
                                name=op.f("pk_tournament_entries")),
        sa.UniqueConstraint("tournament_id", "number",
                            name=op.f("uq_tournament_entries_tournament_id_number")),
        _cascade_to_tournament("tournament_entries"),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"],
                                name=op.f("fk_tournament_entries_player_id_players")),
    )
    op.create_index(op.f("ix_tournament_entries_player_id"), "tournament_entries",
                    ["player_id"])
    op.create_table(
        "tournament_tables",
        sa.Column("tournament_id", sa.String(32), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("table_no", sa.Integer(), nullable=False),
        sa.Column("room_id", sa.String(32), nullable=True),
        sa.Column("players", sa.JSON(), nullable=False),
        sa.Column("winner", sa.String(32), nullable=True),
        sa.Column("places", sa.JSON(), nullable=True),
        sa.PrimaryKeyConstraint("tournament_id", "round", "table_no",
                                name=op.f("pk_tournament_tables")),
        sa.UniqueConstraint("room_id", name=op.f("uq_tournament_tables_room_id")),
        _cascade_to_tournament("tournament_tables"),
    )


def downgrade() -> None:
    op.drop_table("tournament_tables")
    op.drop_table("tournament_entries")
    op.drop_table("tournaments")
    with op.batch_alter_table("rooms") as batch:  # SQLite: copies the table without it
        batch.drop_column("stand_in_for_absent")
