"""Tournament arrival (PROTOCOL.md §8, "Arrival"): a tournament's ``arrival_seconds`` (10–300,
default 60), and when each table first opened (``tournament_tables.opened_at``), from which its
first deal's deadline is worked out again after a restart or a takeover.

Tournaments made before it take the default; their tables already opened have no
``opened_at`` (they were dealt at once, so no deadline is waiting on it).

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-04
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("tournaments") as batch:  # SQLite: a check needs a table copy
        batch.add_column(sa.Column("arrival_seconds", sa.Integer(), nullable=False,
                                   server_default="60"))
        batch.create_check_constraint(op.f("ck_tournaments_arrival_seconds_range"),
                                      "arrival_seconds >= 10 AND arrival_seconds <= 300")
    op.add_column("tournament_tables", sa.Column("opened_at", sa.DateTime(timezone=True),
                                                 nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tournament_tables") as batch:
        batch.drop_column("opened_at")
    with op.batch_alter_table("tournaments") as batch:
        batch.drop_constraint(op.f("ck_tournaments_arrival_seconds_range"), type_="check")
        batch.drop_column("arrival_seconds")
