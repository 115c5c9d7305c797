"""Ratings per game and what each rated match changed; rated rooms and matches, the match's
privacy kept beside it (for player replays); account display names unique without regard to
case.

Hand-written and static like 0001. Upgrading refuses, naming them, account display names that
differ only in letter case (the operator renames all but one); nothing is changed then.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

CLASHES = sa.text(
    "SELECT lower(name) FROM players WHERE NOT is_guest"
    " GROUP BY lower(name) HAVING count(*) > 1 ORDER BY 1"
)
NOW = sa.text("CURRENT_TIMESTAMP")


def _refuse_name_clashes() -> None:
    clashes = [row[0] for row in op.get_bind().execute(CLASHES)]
    if clashes:
        raise RuntimeError(
            "account display names must be unique without regard to case, but these are used "
            f"by several accounts: {', '.join(clashes)}; rename all but one of each, then "
            "migrate again")


def _flag(name: str) -> sa.Column:  # type: ignore[type-arg]
    return sa.Column(name, sa.Boolean(), nullable=False, server_default=sa.text("false"))


def upgrade() -> None:
    _refuse_name_clashes()
    op.create_index("uq_players_account_name_lower", "players", [sa.text("lower(name)")],
                    unique=True, sqlite_where=sa.text("NOT is_guest"),
                    postgresql_where=sa.text("NOT is_guest"))
    op.add_column("rooms", _flag("rated"))
    op.add_column("matches", _flag("private"))
    op.add_column("matches", _flag("rated"))
    op.create_table(
        "ratings",
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("ordinal", sa.Float(), nullable=False),
        sa.Column("matches", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False, server_default=NOW),
        sa.CheckConstraint("matches >= 0", name=op.f("ck_ratings_matches_nonnegative")),
        sa.CheckConstraint("sigma > 0", name=op.f("ck_ratings_sigma_positive")),
        sa.PrimaryKeyConstraint("player_id", "game", name=op.f("pk_ratings")),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], ondelete="CASCADE",
                                name=op.f("fk_ratings_player_id_players")),
    )
    op.create_index("ix_ratings_game_ordinal", "ratings", ["game", "ordinal"])
    op.create_table(
        "rating_changes",
        sa.Column("match_id", sa.String(32), nullable=False),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("rank", sa.Integer(), nullable=False),
        sa.Column("mu_before", sa.Float(), nullable=False),
        sa.Column("sigma_before", sa.Float(), nullable=False),
        sa.Column("mu_after", sa.Float(), nullable=False),
        sa.Column("sigma_after", sa.Float(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False, server_default=NOW),
        sa.PrimaryKeyConstraint("match_id", "player_id", name=op.f("pk_rating_changes")),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"], ondelete="CASCADE",
                                name=op.f("fk_rating_changes_match_id_matches")),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], ondelete="CASCADE",
                                name=op.f("fk_rating_changes_player_id_players")),
    )
    op.create_index(op.f("ix_rating_changes_player_id"), "rating_changes", ["player_id"])


def downgrade() -> None:
    op.drop_table("rating_changes")
    op.drop_table("ratings")
    with op.batch_alter_table("matches") as batch:  # SQLite: copies the table without them
        batch.drop_column("rated")
        batch.drop_column("private")
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("rated")
    op.drop_index("uq_players_account_name_lower", table_name="players")
