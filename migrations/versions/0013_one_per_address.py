"""One account per client address (docs/security.md): the room setting ``one_per_address``.

Rooms made before it take the default a new room takes: on where the room has a stake.

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-03
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("rooms", sa.Column("one_per_address", sa.Boolean(), nullable=False,
                                     server_default=sa.text("false")))
    op.execute(sa.text("UPDATE rooms SET one_per_address = (stake > 0)"))


def downgrade() -> None:
    with op.batch_alter_table("rooms") as batch:  # SQLite: copies the table without it
        batch.drop_column("one_per_address")
