"""Usernames unique without regard to case, spectator chat per room, the admin views audit.

Hand-written and static like 0001. Upgrading refuses, naming them, usernames that differ only
in letter case (the operator decides which account to rename); nothing is changed then.

Revision ID: 0002
Revises: 0001
Create Date: 2025-02-01
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

CLASHES = sa.text(
    "SELECT lower(username) FROM players WHERE username IS NOT NULL"
    " GROUP BY lower(username) HAVING count(*) > 1 ORDER BY 1"
)


def _refuse_case_clashes() -> None:
    clashes = [row[0] for row in op.get_bind().execute(CLASHES)]
    if clashes:
        raise RuntimeError(
            "usernames must be unique without regard to case, but these are used by several "
            f"players in different cases: {', '.join(clashes)}; rename all but one of each, "
            "then migrate again")


def upgrade() -> None:
    _refuse_case_clashes()
    op.create_index(
        "uq_players_username_lower", "players", [sa.text("lower(username)")], unique=True
    )
    op.add_column("rooms", sa.Column(
        "spectator_chat", sa.Boolean(), nullable=False, server_default=sa.text("false")))
    op.create_table(
        "admin_views",
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column("admin_id", sa.String(32), nullable=False),
        sa.Column("match_id", sa.String(32), nullable=False),
        sa.Column("route", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False,
                  server_default=sa.text("CURRENT_TIMESTAMP")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_admin_views")),
        sa.ForeignKeyConstraint(
            ["admin_id"], ["players.id"], name=op.f("fk_admin_views_admin_id_players")
        ),
        sa.ForeignKeyConstraint(
            ["match_id"], ["matches.id"], name=op.f("fk_admin_views_match_id_matches")
        ),
    )
    op.create_index(op.f("ix_admin_views_admin_id"), "admin_views", ["admin_id"])
    op.create_index(op.f("ix_admin_views_match_id"), "admin_views", ["match_id"])
    op.create_index(op.f("ix_admin_views_created_at"), "admin_views", ["created_at"])


def downgrade() -> None:
    op.drop_table("admin_views")
    with op.batch_alter_table("rooms") as batch:  # SQLite: copies the table without it
        batch.drop_column("spectator_chat")
    op.drop_index("uq_players_username_lower", table_name="players")
