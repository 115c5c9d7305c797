"""The match log marks the server's moves for a person's seat (a timed-out turn, a stand-in),
so that a table can say so and a rating counts only the person's own play.

Hand-written and static like 0001.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("match_actions") as batch:
        batch.add_column(sa.Column("played_for", sa.String(16), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("match_actions") as batch:
        batch.drop_column("played_for")
