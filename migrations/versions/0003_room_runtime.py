"""The room runtime: each room's grace period before a computer player stands in.

Hand-written and static like 0001.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("grace_seconds", sa.Integer(), nullable=False,
                                   server_default="60"))
        batch.create_check_constraint(op.f("ck_rooms_grace_seconds_nonnegative"),
                                     "grace_seconds >= 0")


def downgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.drop_constraint(op.f("ck_rooms_grace_seconds_nonnegative"), type_="check")
        batch.drop_column("grace_seconds")
