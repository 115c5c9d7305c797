"""One waiting quick-seat seat per person (PROTOCOL.md §8; docs/server.md "Who may sit where"):
the table ``waiting_quick_seats``, whose primary key is the person, written in the seat's own
transaction, so that no race on one process or several seats a person in two quick-seat rooms
that wait for players.

A person seated in several such rooms before it (the race it closes) keeps those seats; the
table names the first of them by id, which is the seat quick seat answers them again.

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-04
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0016"
down_revision: str | None = "0015"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# A person's seats in quick-seat rooms that wait for players (not a computer player's).
_WAITING = """
    FROM room_seats {s} JOIN rooms {r} ON {r}.id = {s}.room_id
    WHERE {r}.quick_seat IS NOT NULL AND {r}.status = 'waiting'
      AND {s}.player_id IS NOT NULL AND {s}.bot IS NULL"""


def upgrade() -> None:
    op.create_table(
        "waiting_quick_seats",
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("room_id", sa.String(32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("player_id", name=op.f("pk_waiting_quick_seats")),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"],
                                name=op.f("fk_waiting_quick_seats_player_id_players")),
        sa.ForeignKeyConstraint(["room_id"], ["rooms.id"], ondelete="CASCADE",
                                name=op.f("fk_waiting_quick_seats_room_id_rooms")),
    )
    op.create_index(op.f("ix_waiting_quick_seats_room_id"), "waiting_quick_seats", ["room_id"])
    op.execute(sa.text(
        "INSERT INTO waiting_quick_seats (player_id, room_id, seat) SELECT s.player_id, "
        "s.room_id, s.seat" + _WAITING.format(s="s", r="r")
        + " AND s.room_id = (SELECT MIN(s2.room_id)" + _WAITING.format(s="s2", r="r2")
        + " AND s2.player_id = s.player_id)"))


def downgrade() -> None:
    op.drop_table("waiting_quick_seats")
