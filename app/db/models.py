"""The tables of docs/server.md as SQLAlchemy 2 models.

Ids are `uuid4().hex` strings except the ledger's integer ids (accounts, transfers), whose
ascending order is the row-lock order. Timestamps are timezone-aware UTC. The constraints here
and in the migrations (`migrations/versions/`) must stay identical (a test compares them).

Foreign keys point only where the referenced row always exists first: escrow accounts, matches,
chat messages and transfers name rooms and matches by id without a foreign key, because the
ledger and the logs outlive (and are written independently of) the live room.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import uuid4

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    CheckConstraint,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    func,
    text,
)
from sqlalchemy.orm import Mapped, mapped_column

from app.db.base import Base, UTCDateTime, utcnow

# Integer ids that autoincrement on both backends (SQLite only does so for INTEGER PRIMARY KEY).
BigId = BigInteger().with_variant(Integer(), "sqlite")

ID = 32  # uuid4().hex
NAME = 64
KEY = 200  # idempotency keys like "hand:{match}:{hand}:{payer}:{payee}"


def new_id() -> str:
    """A fresh string id."""
    return uuid4().hex


def _created() -> Mapped[datetime]:
    return mapped_column(UTCDateTime(), default=utcnow, server_default=text("CURRENT_TIMESTAMP"))


class Player(Base):
    """A person (or guest) who plays; registered players have a username and a password."""

    __tablename__ = "players"
    __table_args__ = (
        CheckConstraint("role IN ('player', 'admin')", name="role"),
        CheckConstraint(
            "(is_guest AND username IS NULL AND password_hash IS NULL)"
            " OR (NOT is_guest AND username IS NOT NULL AND password_hash IS NOT NULL)",
            name="guest_has_no_login",
        ),
    )

    id: Mapped[str] = mapped_column(String(ID), primary_key=True, default=new_id)
    name: Mapped[str] = mapped_column(String(NAME))
    username: Mapped[str | None] = mapped_column(String(32), unique=True)
    password_hash: Mapped[str | None] = mapped_column(String(255))
    is_guest: Mapped[bool] = mapped_column(Boolean)
    role: Mapped[str] = mapped_column(String(16), default="player", server_default="player")
    created_at: Mapped[datetime] = _created()


# Usernames are unique without regard to case: `Ann` cannot register beside `ann`.
Index("uq_players_username_lower", func.lower(Player.username), unique=True)
# So are the display names of accounts (guests may share a name: they cannot keep one).
Index("uq_players_account_name_lower", func.lower(Player.name), unique=True,
      sqlite_where=text("NOT is_guest"), postgresql_where=text("NOT is_guest"))


class AuthToken(Base):
    """A bearer token, stored only as its sha256 hex digest."""

    __tablename__ = "auth_tokens"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    player_id: Mapped[str] = mapped_column(
        String(ID), ForeignKey("players.id", ondelete="CASCADE"), index=True
    )
    created_at: Mapped[datetime] = _created()
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime())


class Account(Base):
    """A chip balance: the bank (one), a player's wallet, or a room seat's escrow."""

    __tablename__ = "accounts"
    __table_args__ = (
        CheckConstraint("balance >= 0", name="balance_nonnegative"),
        CheckConstraint("kind IN ('bank', 'wallet', 'escrow')", name="kind"),
        CheckConstraint(
            "(kind = 'bank' AND minted IS NOT NULL AND minted >= balance)"
            " OR (kind <> 'bank' AND minted IS NULL)",
            name="minted_bank_only",
        ),
        CheckConstraint(
            "(kind = 'bank' AND player_id IS NULL AND room_id IS NULL AND seat IS NULL)"
            " OR (kind = 'wallet' AND player_id IS NOT NULL AND room_id IS NULL AND seat IS NULL)"
            " OR (kind = 'escrow' AND player_id IS NULL AND room_id IS NOT NULL"
            " AND seat IS NOT NULL)",
            name="owner",
        ),
        UniqueConstraint("kind", "player_id"),
        UniqueConstraint("room_id", "seat"),
        Index(
            "uq_accounts_one_bank",
            "kind",
            unique=True,
            sqlite_where=text("kind = 'bank'"),
            postgresql_where=text("kind = 'bank'"),
        ),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    kind: Mapped[str] = mapped_column(String(16))
    player_id: Mapped[str | None] = mapped_column(
        String(ID), ForeignKey("players.id", ondelete="RESTRICT")
    )
    room_id: Mapped[str | None] = mapped_column(String(ID))
    seat: Mapped[int | None] = mapped_column(Integer)
    balance: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")
    minted: Mapped[int | None] = mapped_column(BigInteger)


class Transfer(Base):
    """One append-only movement of chips; `from_account` null means minted by the bank."""

    __tablename__ = "transfers"
    __table_args__ = (
        CheckConstraint("amount > 0", name="amount_positive"),
        CheckConstraint(
            "from_account IS NULL OR from_account <> to_account", name="distinct_accounts"
        ),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    idempotency_key: Mapped[str] = mapped_column(String(KEY), unique=True)
    from_account: Mapped[int | None] = mapped_column(
        BigInteger, ForeignKey("accounts.id", ondelete="RESTRICT"), index=True
    )
    to_account: Mapped[int] = mapped_column(
        BigInteger, ForeignKey("accounts.id", ondelete="RESTRICT"), index=True
    )
    amount: Mapped[int] = mapped_column(BigInteger)
    reason: Mapped[str] = mapped_column(String(32))
    match_id: Mapped[str | None] = mapped_column(String(ID), index=True)
    hand_no: Mapped[int | None] = mapped_column(Integer)
    created_at: Mapped[datetime] = _created()


class Room(Base):
    """A table players sit at; `match_id` is its current (or last) match."""

    __tablename__ = "rooms"
    __table_args__ = (
        CheckConstraint("status IN ('waiting', 'playing', 'closed')", name="status"),
        CheckConstraint("seats >= 1", name="seats_positive"),
        CheckConstraint("stake >= 0", name="stake_nonnegative"),
        CheckConstraint("buy_in >= 0", name="buy_in_nonnegative"),
        CheckConstraint("turn_seconds >= 0", name="turn_seconds_nonnegative"),
        CheckConstraint("grace_seconds >= 0", name="grace_seconds_nonnegative"),
    )

    id: Mapped[str] = mapped_column(String(ID), primary_key=True, default=new_id)
    host_id: Mapped[str] = mapped_column(String(ID), ForeignKey("players.id"), index=True)
    game: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    seats: Mapped[int] = mapped_column(Integer)
    stake: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")
    buy_in: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")
    turn_seconds: Mapped[int] = mapped_column(Integer)
    # Without a turn timer: how long a disconnected player's seat waits for them before a
    # computer player stands in.
    grace_seconds: Mapped[int] = mapped_column(Integer, default=60, server_default="60")
    private: Mapped[bool] = mapped_column(Boolean, default=False, server_default=text("false"))
    # A rated room's finished match updates its players' ratings; every seat must be human.
    rated: Mapped[bool] = mapped_column(Boolean, default=False, server_default=text("false"))
    # Spectators (connected without a seat) may chat only where the host allowed it.
    spectator_chat: Mapped[bool] = mapped_column(Boolean, default=False,
                                                 server_default=text("false"))
    invite_code: Mapped[str | None] = mapped_column(String(32), unique=True)
    status: Mapped[str] = mapped_column(String(16), default="waiting", server_default="waiting")
    match_id: Mapped[str | None] = mapped_column(String(ID))
    # Several processes (docs/scaling.md): the fencing token of the process that owns the room;
    # each takeover raises it, and a write carrying an older token is refused.
    fence: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")
    # A room quick seat opened (docs/server.md, "Quick seat"): its table key, the identity of
    # its settings that callers are matched on; null for a room a host made.
    quick_seat: Mapped[str | None] = mapped_column(String(64), index=True)
    # A tournament table (0009): a seat whose player is not connected is played by a computer
    # player, and the match never waits for its people (docs/server.md, "Tournaments").
    stand_in_for_absent: Mapped[bool] = mapped_column(Boolean, default=False,
                                                      server_default=text("false"))
    # One account per client address (0013): a person's seat is refused from the address of a
    # person already seated (docs/security.md); the host's choice, by default on with a stake.
    one_per_address: Mapped[bool] = mapped_column(Boolean, default=False,
                                                  server_default=text("false"))
    # Stacked deals for scripted tests (RUMMY_DEV_STACKED_DECKS only).
    dev_deals: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON)
    created_at: Mapped[datetime] = _created()


class RoomSeat(Base):
    """Who sits at a room's seat: a player, or a bot of some kind."""

    __tablename__ = "room_seats"
    __table_args__ = (
        CheckConstraint("seat >= 0", name="seat_nonnegative"),
        CheckConstraint(
            "player_id IS NOT NULL OR bot IS NOT NULL",
            name="player_or_bot",
        ),
    )

    room_id: Mapped[str] = mapped_column(
        String(ID), ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[str | None] = mapped_column(String(ID), ForeignKey("players.id"), index=True)
    bot: Mapped[str | None] = mapped_column(String(32))
    name: Mapped[str] = mapped_column(String(NAME))


class WaitingQuickSeat(Base):
    """A person's seat in a quick-seat room that waits for players (0016): one per person,
    whatever the race, on one process or several (the primary key; PROTOCOL.md §8). Written in
    the seat's transaction, deleted when the seat is left or the room starts or closes."""

    __tablename__ = "waiting_quick_seats"

    player_id: Mapped[str] = mapped_column(String(ID), ForeignKey("players.id"),
                                           primary_key=True)
    room_id: Mapped[str] = mapped_column(
        String(ID), ForeignKey("rooms.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)


class Match(Base):
    """One game played in a room, from the first deal to the end."""

    __tablename__ = "matches"
    __table_args__ = (
        CheckConstraint("status IN ('active', 'finished', 'abandoned')", name="status"),
        CheckConstraint("players >= 1", name="players_positive"),
        CheckConstraint("stake >= 0", name="stake_nonnegative"),
        Index("ix_matches_created_at", "created_at"),
    )

    id: Mapped[str] = mapped_column(String(ID), primary_key=True, default=new_id)
    room_id: Mapped[str | None] = mapped_column(String(ID), index=True)
    game: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    players: Mapped[int] = mapped_column(Integer)
    stake: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")
    status: Mapped[str] = mapped_column(String(16), default="active", server_default="active")
    winner: Mapped[int | None] = mapped_column(Integer)
    totals: Mapped[list[int] | None] = mapped_column(JSON)
    # Snapshots of the room's flags: a private match replays only for its players; a rated
    # one updated its players' ratings when it finished.
    private: Mapped[bool] = mapped_column(Boolean, default=False, server_default=text("false"))
    rated: Mapped[bool] = mapped_column(Boolean, default=False, server_default=text("false"))
    created_at: Mapped[datetime] = _created()
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime())


class MatchSeat(Base):
    """Who sat at a seat of a match (a snapshot: room seats change, the match does not)."""

    __tablename__ = "match_seats"
    __table_args__ = (CheckConstraint("seat >= 0", name="seat_nonnegative"),)

    match_id: Mapped[str] = mapped_column(
        String(ID), ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[str | None] = mapped_column(String(ID), ForeignKey("players.id"), index=True)
    bot: Mapped[str | None] = mapped_column(String(32))
    name: Mapped[str] = mapped_column(String(NAME))
    # 0015, written when the match ends (null before): the seat's turns its player played and
    # the turns the server played for them, and whether its person resigned; a profile counts
    # the match by them (ratings.counted, docs/server.md "History, profiles and ratings")
    own_turns: Mapped[int | None] = mapped_column(Integer)
    played_for_turns: Mapped[int | None] = mapped_column(Integer)
    resigned: Mapped[bool | None] = mapped_column(Boolean)


class MatchHand(Base):
    """A hand's deal, as the match log records it."""

    __tablename__ = "match_hands"
    __table_args__ = (CheckConstraint("hand_no >= 0", name="hand_no_nonnegative"),)

    match_id: Mapped[str] = mapped_column(
        String(ID), ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
    )
    hand_no: Mapped[int] = mapped_column(Integer, primary_key=True)
    dealer: Mapped[int] = mapped_column(Integer)
    deal: Mapped[dict[str, Any]] = mapped_column(JSON)
    # PROTOCOL.md §7: the seeds the deal came from; null for a stacked deal
    server_seed: Mapped[str | None] = mapped_column(String(64))
    client_seeds: Mapped[list[str] | None] = mapped_column(JSON)


class MatchAction(Base):
    """One applied action of the match log; `seq` orders the actions of a hand."""

    __tablename__ = "match_actions"
    __table_args__ = (
        UniqueConstraint("match_id", "hand_no", "seq"),
        CheckConstraint("seq >= 0", name="seq_nonnegative"),
    )

    id: Mapped[str] = mapped_column(String(ID), primary_key=True, default=new_id)
    match_id: Mapped[str] = mapped_column(
        String(ID), ForeignKey("matches.id", ondelete="CASCADE")
    )
    hand_no: Mapped[int] = mapped_column(Integer)
    seq: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int | None] = mapped_column(Integer)
    action: Mapped[dict[str, Any]] = mapped_column(JSON)
    client_id: Mapped[str | None] = mapped_column(String(NAME))
    # 0007: a server move for a person's seat, "timeout" or "stand_in" (null: their own move)
    played_for: Mapped[str | None] = mapped_column(String(16))
    created_at: Mapped[datetime] = _created()


class HandResult(Base):
    """How a hand ended: the winner, the reason, the scores and the engine's detail."""

    __tablename__ = "hand_results"

    match_id: Mapped[str] = mapped_column(
        String(ID), ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
    )
    hand_no: Mapped[int] = mapped_column(Integer, primary_key=True)
    winner: Mapped[int | None] = mapped_column(Integer)
    reason: Mapped[str] = mapped_column(String(32))
    scores: Mapped[list[int]] = mapped_column(JSON)
    detail: Mapped[dict[str, Any] | None] = mapped_column(JSON)


class ChatMessage(Base):
    """A line of room chat (`seat` null for a spectator)."""

    __tablename__ = "chat_messages"
    __table_args__ = (Index("ix_chat_messages_room_id_created_at", "room_id", "created_at"),)

    id: Mapped[str] = mapped_column(String(ID), primary_key=True, default=new_id)
    room_id: Mapped[str] = mapped_column(String(ID))
    match_id: Mapped[str | None] = mapped_column(String(ID))
    seat: Mapped[int | None] = mapped_column(Integer)
    player_id: Mapped[str | None] = mapped_column(String(ID), ForeignKey("players.id"))
    name: Mapped[str] = mapped_column(String(NAME))
    text: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = _created()


class AdminView(Base):
    """An admin's look at the hidden state of a match in progress (who, which match, when, which
    route): the audit trail listed at `GET /api/admin/views`."""

    __tablename__ = "admin_views"
    __table_args__ = (Index("ix_admin_views_created_at", "created_at"),)

    id: Mapped[str] = mapped_column(String(ID), primary_key=True, default=new_id)
    admin_id: Mapped[str] = mapped_column(String(ID), ForeignKey("players.id"), index=True)
    match_id: Mapped[str] = mapped_column(String(ID), ForeignKey("matches.id"), index=True)
    route: Mapped[str] = mapped_column(String(NAME))
    created_at: Mapped[datetime] = _created()


class Rating(Base):
    """A player's skill rating at one game (OpenSkill's mu and sigma; `ordinal` = mu - 3 sigma
    is what leaderboards rank by) and how many rated matches it has counted."""

    __tablename__ = "ratings"
    __table_args__ = (
        CheckConstraint("matches >= 0", name="matches_nonnegative"),
        CheckConstraint("sigma > 0", name="sigma_positive"),
        Index("ix_ratings_game_ordinal", "game", "ordinal"),
    )

    player_id: Mapped[str] = mapped_column(
        String(ID), ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    ordinal: Mapped[float] = mapped_column(Float)
    matches: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    updated_at: Mapped[datetime] = _created()


class RatingChange(Base):
    """What one rated match did to one player's rating (shown on the result screen and the
    profile); its key makes rating a match twice impossible."""

    __tablename__ = "rating_changes"

    match_id: Mapped[str] = mapped_column(
        String(ID), ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
    )
    player_id: Mapped[str] = mapped_column(
        String(ID), ForeignKey("players.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    seat: Mapped[int] = mapped_column(Integer)
    game: Mapped[str] = mapped_column(String(32))
    rank: Mapped[int] = mapped_column(Integer)
    mu_before: Mapped[float] = mapped_column(Float)
    sigma_before: Mapped[float] = mapped_column(Float)
    mu_after: Mapped[float] = mapped_column(Float)
    sigma_after: Mapped[float] = mapped_column(Float)
    created_at: Mapped[datetime] = _created()


class Tournament(Base):
    """A sit-and-go knockout tournament (PROTOCOL.md §8): its settings, its status, and how many
    entries were ever made (each entry's number keys its ledger transfers)."""

    __tablename__ = "tournaments"
    __table_args__ = (
        CheckConstraint("status IN ('registering', 'running', 'finished', 'cancelled')",
                        name="status"),
        CheckConstraint("players >= 2 AND players <= 64", name="players_range"),
        CheckConstraint("table_seats >= 2 AND table_seats <= 6", name="table_seats_range"),
        CheckConstraint("entry >= 0", name="entry_nonnegative"),
        CheckConstraint("turn_seconds >= 1", name="turn_seconds_positive"),
        CheckConstraint("arrival_seconds >= 10 AND arrival_seconds <= 300",
                        name="arrival_seconds_range"),
        Index("ix_tournaments_status_created_at", "status", "created_at"),
    )

    id: Mapped[str] = mapped_column(String(ID), primary_key=True, default=new_id)
    name: Mapped[str] = mapped_column(String(NAME))
    creator_id: Mapped[str] = mapped_column(String(ID), ForeignKey("players.id"))
    game: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    players: Mapped[int] = mapped_column(Integer)
    table_seats: Mapped[int] = mapped_column(Integer)
    entry: Mapped[int] = mapped_column(BigInteger)
    prizes: Mapped[list[int]] = mapped_column(JSON)  # whole percentages, 1st place first
    turn_seconds: Mapped[int] = mapped_column(Integer)
    # A table's first deal waits this long at most for its players (PROTOCOL.md §8 "Arrival").
    arrival_seconds: Mapped[int] = mapped_column(Integer, default=60, server_default="60")
    status: Mapped[str] = mapped_column(String(16), default="registering",
                                        server_default="registering")
    entries_made: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    created_at: Mapped[datetime] = _created()
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime())


class TournamentEntry(Base):
    """A registered player; `number` is the entry's order (registration order), `place` and
    `prize` are the standings, written with the prizes' payment."""

    __tablename__ = "tournament_entries"
    __table_args__ = (UniqueConstraint("tournament_id", "number"),)

    tournament_id: Mapped[str] = mapped_column(
        String(ID), ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True
    )
    player_id: Mapped[str] = mapped_column(
        String(ID), ForeignKey("players.id"), primary_key=True, index=True
    )
    name: Mapped[str] = mapped_column(String(NAME))
    number: Mapped[int] = mapped_column(Integer)
    place: Mapped[int | None] = mapped_column(Integer)
    prize: Mapped[int | None] = mapped_column(BigInteger)


class TournamentTable(Base):
    """One table of one round: its players in seat order, its room (null for a lone player, who
    advances without playing), when it first opened (its first deal waits for its players from
    then, PROTOCOL.md §8 "Arrival"), and once played its winner and each seat's place at it."""

    __tablename__ = "tournament_tables"

    tournament_id: Mapped[str] = mapped_column(
        String(ID), ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True
    )
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_no: Mapped[int] = mapped_column(Integer, primary_key=True)
    room_id: Mapped[str | None] = mapped_column(String(ID), unique=True)
    players: Mapped[list[str]] = mapped_column(JSON)
    winner: Mapped[str | None] = mapped_column(String(ID))
    places: Mapped[list[int] | None] = mapped_column(JSON)  # per seat, 0 = the winner
    opened_at: Mapped[datetime | None] = mapped_column(UTCDateTime())  # set once, 0014


class MatchAnalysis(Base):
    """A finished match's analysis (PROTOCOL.md §10), worked out once and served from here."""

    __tablename__ = "match_analyses"

    match_id: Mapped[str] = mapped_column(
        String(ID), ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
    )
    analysis: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = _created()


# --- moderation (PROTOCOL.md §9) ---------------------------------------------------------------


class Block(Base):
    """``player_id`` blocked ``blocked_id``: no seat beside each other, and the blocked player's
    chat is not delivered to the one who blocked them."""

    __tablename__ = "blocks"
    __table_args__ = (CheckConstraint("player_id <> blocked_id", name="not_self"),)

    player_id: Mapped[str] = mapped_column(String(ID), ForeignKey("players.id"),
                                           primary_key=True)
    blocked_id: Mapped[str] = mapped_column(String(ID), ForeignKey("players.id"),
                                            primary_key=True, index=True)
    created_at: Mapped[datetime] = _created()


class Report(Base):
    """A player's report of another (about a match, optionally), and an admin's decision."""

    __tablename__ = "reports"
    __table_args__ = (
        CheckConstraint("reason IN ('cheating', 'collusion', 'abuse', 'other')", name="reason"),
        CheckConstraint("status IN ('open', 'dismissed', 'actioned')", name="status"),
        Index("ix_reports_created_at", "created_at"),
    )

    id: Mapped[str] = mapped_column(String(ID), primary_key=True, default=new_id)
    reporter_id: Mapped[str] = mapped_column(String(ID), ForeignKey("players.id"))
    player_id: Mapped[str] = mapped_column(String(ID), ForeignKey("players.id"), index=True)
    match_id: Mapped[str | None] = mapped_column(String(ID))
    reason: Mapped[str] = mapped_column(String(16))
    text: Mapped[str] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String(16), default="open", server_default="open")
    note: Mapped[str | None] = mapped_column(Text)
    decided_by: Mapped[str | None] = mapped_column(String(ID), ForeignKey("players.id"))
    decided_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    created_at: Mapped[datetime] = _created()


class Sanction(Base):
    """A chat mute or a suspension of a player, from ``created_at`` until ``ends_at`` (or until
    ``lifted_at``, if an admin lifted it early)."""

    __tablename__ = "sanctions"
    __table_args__ = (
        CheckConstraint("kind IN ('chat_mute', 'suspension')", name="kind"),
        Index("ix_sanctions_player_id_kind", "player_id", "kind"),
    )

    id: Mapped[str] = mapped_column(String(ID), primary_key=True, default=new_id)
    player_id: Mapped[str] = mapped_column(String(ID), ForeignKey("players.id"))
    kind: Mapped[str] = mapped_column(String(16))
    reason: Mapped[str] = mapped_column(Text)
    admin_id: Mapped[str] = mapped_column(String(ID), ForeignKey("players.id"))
    ends_at: Mapped[datetime] = mapped_column(UTCDateTime())
    lifted_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    lifted_by: Mapped[str | None] = mapped_column(String(ID), ForeignKey("players.id"))
    created_at: Mapped[datetime] = _created()


class AdminAction(Base):
    """Every admin action but the views of live matches (``admin_views``): who, what, on whom,
    why, when; ``subject`` names the report, sanction or transfer acted on."""

    __tablename__ = "admin_actions"
    __table_args__ = (Index("ix_admin_actions_created_at", "created_at"),)

    id: Mapped[str] = mapped_column(String(ID), primary_key=True, default=new_id)
    admin_id: Mapped[str] = mapped_column(String(ID), ForeignKey("players.id"), index=True)
    action: Mapped[str] = mapped_column(String(32))
    player_id: Mapped[str | None] = mapped_column(String(ID), ForeignKey("players.id"))
    subject: Mapped[str | None] = mapped_column(String(ID))
    reason: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = _created()


# --- fair play (PROTOCOL.md §9, docs/fairplay.md) ---------------------------------------------


class SeatAddress(Base):
    """The address a seated player's socket connected to a room from (as uvicorn gives it,
    after ``RUMMY_TRUSTED_PROXIES``), kept ``RUMMY_ADDRESS_RETENTION_DAYS`` after it was last
    seen: the fair-play review's shared-address signal (docs/security.md)."""

    __tablename__ = "seat_addresses"

    player_id: Mapped[str] = mapped_column(String(ID), ForeignKey("players.id"),
                                           primary_key=True)
    room_id: Mapped[str] = mapped_column(String(ID), primary_key=True, index=True)
    address: Mapped[str] = mapped_column(String(NAME), primary_key=True)
    first_seen: Mapped[datetime] = mapped_column(UTCDateTime())
    last_seen: Mapped[datetime] = mapped_column(UTCDateTime(), index=True)


class FairplayFlag(Base):
    """A pair the last fair-play review flagged (``player_a`` < ``player_b``): quick seat and
    tournament seating keep them apart until a later review clears them."""

    __tablename__ = "fairplay_flags"
    __table_args__ = (CheckConstraint("player_a < player_b", name="ordered"),)

    player_a: Mapped[str] = mapped_column(String(ID), ForeignKey("players.id"),
                                          primary_key=True)
    player_b: Mapped[str] = mapped_column(String(ID), ForeignKey("players.id"),
                                          primary_key=True, index=True)
    score: Mapped[float] = mapped_column(Float)
    reasons: Mapped[list[str]] = mapped_column(JSON)
    created_at: Mapped[datetime] = _created()
