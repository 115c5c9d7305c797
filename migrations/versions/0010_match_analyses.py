"""The analysis of finished matches (PROTOCOL.md §10): one row per match, worked out once.

Hand-written and static like 0001.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-03
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "match_analyses",
        sa.Column("match_id", sa.String(32), nullable=False),
        sa.Column("analysis", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False,
                  server_default=sa.text("CURRENT_TIMESTAMP")),
        sa.PrimaryKeyConstraint("match_id", name=op.f("pk_match_analyses")),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"], ondelete="CASCADE",
                                name=op.f("fk_match_analyses_match_id_matches")),
    )


def downgrade() -> None:
    op.drop_table("match_analyses")
