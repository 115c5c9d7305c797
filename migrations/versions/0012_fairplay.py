"""Fair play (PROTOCOL.md §9, docs/fairplay.md): the addresses seated players connected from,
and the pairs the last review flagged.

Hand-written and static like 0001.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-03
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _id(name: str) -> sa.Column:
    return sa.Column(name, sa.String(32), nullable=False)


def _to_player(table: str, column: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint([column], ["players.id"],
                                   name=op.f(f"fk_{table}_{column}_players"))


def _moment(name: str) -> sa.Column:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=False)


def upgrade() -> None:
    op.create_table(
        "seat_addresses",
        _id("player_id"), _id("room_id"),
        sa.Column("address", sa.String(64), nullable=False),
        _moment("first_seen"), _moment("last_seen"),
        sa.PrimaryKeyConstraint("player_id", "room_id", "address",
                                name=op.f("pk_seat_addresses")),
        _to_player("seat_addresses", "player_id"),
    )
    op.create_index(op.f("ix_seat_addresses_room_id"), "seat_addresses", ["room_id"])
    op.create_index(op.f("ix_seat_addresses_last_seen"), "seat_addresses", ["last_seen"])
    op.create_table(
        "fairplay_flags",
        _id("player_a"), _id("player_b"),
        sa.Column("score", sa.Float(), nullable=False),
        sa.Column("reasons", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False,
                  server_default=sa.text("CURRENT_TIMESTAMP")),
        sa.CheckConstraint("player_a < player_b", name=op.f("ck_fairplay_flags_ordered")),
        sa.PrimaryKeyConstraint("player_a", "player_b", name=op.f("pk_fairplay_flags")),
        _to_player("fairplay_flags", "player_a"), _to_player("fairplay_flags", "player_b"),
    )
    op.create_index(op.f("ix_fairplay_flags_player_b"), "fairplay_flags", ["player_b"])


def downgrade() -> None:
    op.drop_table("fairplay_flags")
    op.drop_table("seat_addresses")
