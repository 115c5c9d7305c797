"""Moderation (PROTOCOL.md §9): players' blocks and reports, sanctions, and the audit of admin
actions.

Hand-written and static like 0001.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-03
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

NOW = sa.text("CURRENT_TIMESTAMP")


def _id(name: str, nullable: bool = False) -> sa.Column:
    return sa.Column(name, sa.String(32), nullable=nullable)


def _to_player(table: str, column: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint([column], ["players.id"],
                                   name=op.f(f"fk_{table}_{column}_players"))


def _created() -> sa.Column:
    return sa.Column("created_at", sa.DateTime(timezone=True), nullable=False,
                     server_default=NOW)


def upgrade() -> None:
    op.create_table(
        "blocks",
        _id("player_id"), _id("blocked_id"), _created(),
        sa.CheckConstraint("player_id <> blocked_id", name=op.f("ck_blocks_not_self")),
        sa.PrimaryKeyConstraint("player_id", "blocked_id", name=op.f("pk_blocks")),
        _to_player("blocks", "player_id"), _to_player("blocks", "blocked_id"),
    )
    op.create_index(op.f("ix_blocks_blocked_id"), "blocks", ["blocked_id"])
    op.create_table(
        "reports",
        _id("id"), _id("reporter_id"), _id("player_id"), _id("match_id", nullable=True),
        sa.Column("reason", sa.String(16), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False, server_default="open"),
        sa.Column("note", sa.Text(), nullable=True),
        _id("decided_by", nullable=True),
        sa.Column("decided_at", sa.DateTime(timezone=True), nullable=True),
        _created(),
        sa.CheckConstraint("reason IN ('cheating', 'collusion', 'abuse', 'other')",
                           name=op.f("ck_reports_reason")),
        sa.CheckConstraint("status IN ('open', 'dismissed', 'actioned')",
                           name=op.f("ck_reports_status")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_reports")),
        _to_player("reports", "reporter_id"), _to_player("reports", "player_id"),
        _to_player("reports", "decided_by"),
    )
    op.create_index("ix_reports_created_at", "reports", ["created_at"])
    op.create_index(op.f("ix_reports_player_id"), "reports", ["player_id"])
    op.create_table(
        "sanctions",
        _id("id"), _id("player_id"),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        _id("admin_id"),
        sa.Column("ends_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("lifted_at", sa.DateTime(timezone=True), nullable=True),
        _id("lifted_by", nullable=True),
        _created(),
        sa.CheckConstraint("kind IN ('chat_mute', 'suspension')", name=op.f("ck_sanctions_kind")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_sanctions")),
        _to_player("sanctions", "player_id"), _to_player("sanctions", "admin_id"),
        _to_player("sanctions", "lifted_by"),
    )
    op.create_index("ix_sanctions_player_id_kind", "sanctions", ["player_id", "kind"])
    op.create_table(
        "admin_actions",
        _id("id"), _id("admin_id"),
        sa.Column("action", sa.String(32), nullable=False),
        _id("player_id", nullable=True), _id("subject", nullable=True),
        sa.Column("reason", sa.Text(), nullable=False),
        _created(),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_admin_actions")),
        _to_player("admin_actions", "admin_id"), _to_player("admin_actions", "player_id"),
    )
    op.create_index("ix_admin_actions_created_at", "admin_actions", ["created_at"])
    op.create_index(op.f("ix_admin_actions_admin_id"), "admin_actions", ["admin_id"])


def downgrade() -> None:
    op.drop_table("admin_actions")
    op.drop_table("sanctions")
    op.drop_table("reports")
    op.drop_table("blocks")
