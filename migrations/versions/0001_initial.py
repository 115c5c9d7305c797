"""The initial schema: players, tokens, the chip ledger, rooms, matches and their logs, chat.

Hand-written and static (no imports from app.db.models), so it means the same thing forever.
Every constraint is named explicitly (`op.f`) with the names app.db.base's convention gives.

Revision ID: 0001
Revises:
Create Date: 2025-01-01
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BIG_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
TABLES = (  # creation order; downgrade drops them in reverse
    "players",
    "auth_tokens",
    "accounts",
    "transfers",
    "rooms",
    "room_seats",
    "matches",
    "match_seats",
    "match_hands",
    "match_actions",
    "hand_results",
    "chat_messages",
)


def _id(name: str = "id", **kwargs: object) -> sa.Column:
    return sa.Column(name, sa.String(32), **kwargs)


def _timestamp(name: str = "created_at", nullable: bool = False) -> sa.Column:
    default = sa.text("CURRENT_TIMESTAMP") if name == "created_at" else None
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable, server_default=default)


def _players() -> None:
    op.create_table(
        "players",
        _id(nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("username", sa.String(32), nullable=True),
        sa.Column("password_hash", sa.String(255), nullable=True),
        sa.Column("is_guest", sa.Boolean(), nullable=False),
        sa.Column("role", sa.String(16), nullable=False, server_default="player"),
        _timestamp(),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_players")),
        sa.UniqueConstraint("username", name=op.f("uq_players_username")),
        sa.CheckConstraint("role IN ('player', 'admin')", name=op.f("ck_players_role")),
        sa.CheckConstraint(
            "(is_guest AND username IS NULL AND password_hash IS NULL)"
            " OR (NOT is_guest AND username IS NOT NULL AND password_hash IS NOT NULL)",
            name=op.f("ck_players_guest_has_no_login"),
        ),
    )
    op.create_table(
        "auth_tokens",
        sa.Column("token_hash", sa.String(64), nullable=False),
        _id("player_id", nullable=False),
        _timestamp(),
        _timestamp("expires_at"),
        sa.PrimaryKeyConstraint("token_hash", name=op.f("pk_auth_tokens")),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], ondelete="CASCADE",
            name=op.f("fk_auth_tokens_player_id_players"),
        ),
    )
    op.create_index(op.f("ix_auth_tokens_player_id"), "auth_tokens", ["player_id"])


def _ledger() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", BIG_ID, nullable=False, autoincrement=True),
        sa.Column("kind", sa.String(16), nullable=False),
        _id("player_id", nullable=True),
        _id("room_id", nullable=True),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("balance", sa.BigInteger(), nullable=False, server_default="0"),
        sa.Column("minted", sa.BigInteger(), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_accounts")),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], ondelete="RESTRICT",
            name=op.f("fk_accounts_player_id_players"),
        ),
        sa.UniqueConstraint("kind", "player_id", name=op.f("uq_accounts_kind_player_id")),
        sa.UniqueConstraint("room_id", "seat", name=op.f("uq_accounts_room_id_seat")),
        sa.CheckConstraint("balance >= 0", name=op.f("ck_accounts_balance_nonnegative")),
        sa.CheckConstraint(
            "kind IN ('bank', 'wallet', 'escrow')", name=op.f("ck_accounts_kind")
        ),
        sa.CheckConstraint(
            "(kind = 'bank' AND minted IS NOT NULL AND minted >= balance)"
            " OR (kind <> 'bank' AND minted IS NULL)",
            name=op.f("ck_accounts_minted_bank_only"),
        ),
        sa.CheckConstraint(
            "(kind = 'bank' AND player_id IS NULL AND room_id IS NULL AND seat IS NULL)"
            " OR (kind = 'wallet' AND player_id IS NOT NULL AND room_id IS NULL AND seat IS NULL)"
            " OR (kind = 'escrow' AND player_id IS NULL AND room_id IS NOT NULL"
            " AND seat IS NOT NULL)",
            name=op.f("ck_accounts_owner"),
        ),
    )
    op.create_index(
        op.f("uq_accounts_one_bank"), "accounts", ["kind"], unique=True,
        sqlite_where=sa.text("kind = 'bank'"), postgresql_where=sa.text("kind = 'bank'"),
    )
    op.create_table(
        "transfers",
        sa.Column("id", BIG_ID, nullable=False, autoincrement=True),
        sa.Column("idempotency_key", sa.String(200), nullable=False),
        sa.Column("from_account", sa.BigInteger(), nullable=True),
        sa.Column("to_account", sa.BigInteger(), nullable=False),
        sa.Column("amount", sa.BigInteger(), nullable=False),
        sa.Column("reason", sa.String(32), nullable=False),
        _id("match_id", nullable=True),
        sa.Column("hand_no", sa.Integer(), nullable=True),
        _timestamp(),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_transfers")),
        sa.UniqueConstraint("idempotency_key", name=op.f("uq_transfers_idempotency_key")),
        sa.ForeignKeyConstraint(
            ["from_account"], ["accounts.id"], ondelete="RESTRICT",
            name=op.f("fk_transfers_from_account_accounts"),
        ),
        sa.ForeignKeyConstraint(
            ["to_account"], ["accounts.id"], ondelete="RESTRICT",
            name=op.f("fk_transfers_to_account_accounts"),
        ),
        sa.CheckConstraint("amount > 0", name=op.f("ck_transfers_amount_positive")),
        sa.CheckConstraint(
            "from_account IS NULL OR from_account <> to_account",
            name=op.f("ck_transfers_distinct_accounts"),
        ),
    )
    op.create_index(op.f("ix_transfers_from_account"), "transfers", ["from_account"])
    op.create_index(op.f("ix_transfers_to_account"), "transfers", ["to_account"])
    op.create_index(op.f("ix_transfers_match_id"), "transfers", ["match_id"])


def _rooms() -> None:
    op.create_table(
        "rooms",
        _id(nullable=False),
        _id("host_id", nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("seats", sa.Integer(), nullable=False),
        sa.Column("stake", sa.BigInteger(), nullable=False, server_default="0"),
        sa.Column("buy_in", sa.BigInteger(), nullable=False, server_default="0"),
        sa.Column("turn_seconds", sa.Integer(), nullable=False),
        sa.Column("private", sa.Boolean(), nullable=False, server_default=sa.text("false")),
        sa.Column("invite_code", sa.String(32), nullable=True),
        sa.Column("status", sa.String(16), nullable=False, server_default="waiting"),
        _id("match_id", nullable=True),
        sa.Column("dev_deals", sa.JSON(), nullable=True),
        _timestamp(),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rooms")),
        sa.ForeignKeyConstraint(
            ["host_id"], ["players.id"], name=op.f("fk_rooms_host_id_players")
        ),
        sa.UniqueConstraint("invite_code", name=op.f("uq_rooms_invite_code")),
        sa.CheckConstraint(
            "status IN ('waiting', 'playing', 'closed')", name=op.f("ck_rooms_status")
        ),
        sa.CheckConstraint("seats >= 1", name=op.f("ck_rooms_seats_positive")),
        sa.CheckConstraint("stake >= 0", name=op.f("ck_rooms_stake_nonnegative")),
        sa.CheckConstraint("buy_in >= 0", name=op.f("ck_rooms_buy_in_nonnegative")),
        sa.CheckConstraint(
            "turn_seconds >= 0", name=op.f("ck_rooms_turn_seconds_nonnegative")
        ),
    )
    op.create_index(op.f("ix_rooms_host_id"), "rooms", ["host_id"])
    op.create_table(
        "room_seats",
        _id("room_id", nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        _id("player_id", nullable=True),
        sa.Column("bot", sa.String(32), nullable=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.PrimaryKeyConstraint("room_id", "seat", name=op.f("pk_room_seats")),
        sa.ForeignKeyConstraint(
            ["room_id"], ["rooms.id"], ondelete="CASCADE",
            name=op.f("fk_room_seats_room_id_rooms"),
        ),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_room_seats_player_id_players")
        ),
        sa.CheckConstraint("seat >= 0", name=op.f("ck_room_seats_seat_nonnegative")),
        sa.CheckConstraint(
            "player_id IS NOT NULL OR bot IS NOT NULL",
            name=op.f("ck_room_seats_player_or_bot"),
        ),
    )
    op.create_index(op.f("ix_room_seats_player_id"), "room_seats", ["player_id"])


def _match_fk(table: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(
        ["match_id"], ["matches.id"], ondelete="CASCADE",
        name=op.f(f"fk_{table}_match_id_matches"),
    )


def _matches() -> None:
    op.create_table(
        "matches",
        _id(nullable=False),
        _id("room_id", nullable=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("stake", sa.BigInteger(), nullable=False, server_default="0"),
        sa.Column("status", sa.String(16), nullable=False, server_default="active"),
        sa.Column("winner", sa.Integer(), nullable=True),
        sa.Column("totals", sa.JSON(), nullable=True),
        _timestamp(),
        _timestamp("finished_at", nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_matches")),
        sa.CheckConstraint(
            "status IN ('active', 'finished', 'abandoned')", name=op.f("ck_matches_status")
        ),
        sa.CheckConstraint("players >= 1", name=op.f("ck_matches_players_positive")),
        sa.CheckConstraint("stake >= 0", name=op.f("ck_matches_stake_nonnegative")),
    )
    op.create_index(op.f("ix_matches_created_at"), "matches", ["created_at"])
    op.create_index(op.f("ix_matches_room_id"), "matches", ["room_id"])
    op.create_table(
        "match_seats",
        _id("match_id", nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        _id("player_id", nullable=True),
        sa.Column("bot", sa.String(32), nullable=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.PrimaryKeyConstraint("match_id", "seat", name=op.f("pk_match_seats")),
        _match_fk("match_seats"),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_match_seats_player_id_players")
        ),
        sa.CheckConstraint("seat >= 0", name=op.f("ck_match_seats_seat_nonnegative")),
    )
    op.create_index(op.f("ix_match_seats_player_id"), "match_seats", ["player_id"])
    op.create_table(
        "match_hands",
        _id("match_id", nullable=False),
        sa.Column("hand_no", sa.Integer(), nullable=False),
        sa.Column("dealer", sa.Integer(), nullable=False),
        sa.Column("deal", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("match_id", "hand_no", name=op.f("pk_match_hands")),
        _match_fk("match_hands"),
        sa.CheckConstraint("hand_no >= 0", name=op.f("ck_match_hands_hand_no_nonnegative")),
    )


def _match_log() -> None:
    op.create_table(
        "match_actions",
        _id(nullable=False),
        _id("match_id", nullable=False),
        sa.Column("hand_no", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("action", sa.JSON(), nullable=False),
        sa.Column("client_id", sa.String(64), nullable=True),
        _timestamp(),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_match_actions")),
        _match_fk("match_actions"),
        sa.UniqueConstraint(
            "match_id", "hand_no", "seq", name=op.f("uq_match_actions_match_id_hand_no_seq")
        ),
        sa.CheckConstraint("seq >= 0", name=op.f("ck_match_actions_seq_nonnegative")),
    )
    op.create_table(
        "hand_results",
        _id("match_id", nullable=False),
        sa.Column("hand_no", sa.Integer(), nullable=False),
        sa.Column("winner", sa.Integer(), nullable=True),
        sa.Column("reason", sa.String(32), nullable=False),
        sa.Column("scores", sa.JSON(), nullable=False),
        sa.Column("detail", sa.JSON(), nullable=True),
        sa.PrimaryKeyConstraint("match_id", "hand_no", name=op.f("pk_hand_results")),
        _match_fk("hand_results"),
    )
    op.create_table(
        "chat_messages",
        _id(nullable=False),
        _id("room_id", nullable=False),
        _id("match_id", nullable=True),
        sa.Column("seat", sa.Integer(), nullable=True),
        _id("player_id", nullable=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        _timestamp(),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_chat_messages")),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_chat_messages_player_id_players")
        ),
    )
    op.create_index(
        op.f("ix_chat_messages_room_id_created_at"), "chat_messages", ["room_id", "created_at"]
    )


def upgrade() -> None:
    _players()
    _ledger()
    _rooms()
    _matches()
    _match_log()


def downgrade() -> None:
    for table in reversed(TABLES):
        op.drop_table(table)
