"""Verifiable deals (PROTOCOL.md §7): each hand's server seed and client seeds beside its deal.

Both null for a hand dealt before this revision and for a stacked deal. Hand-written and static
like 0001.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("match_hands") as batch:
        batch.add_column(sa.Column("server_seed", sa.String(length=64), nullable=True))
        batch.add_column(sa.Column("client_seeds", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("match_hands") as batch:
        batch.drop_column("client_seeds")
        batch.drop_column("server_seed")
