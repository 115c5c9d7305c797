"""Quick seat: a room it opened keeps its table key (the identity of its settings), so that a
restarted process, or another process, still seats callers of those settings there.

Hand-written and static like 0001.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-01
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("quick_seat", sa.String(64), nullable=True))
        batch.create_index("ix_rooms_quick_seat", ["quick_seat"])


def downgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.drop_index("ix_rooms_quick_seat")
        batch.drop_column("quick_seat")
