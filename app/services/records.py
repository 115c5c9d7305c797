"""Plain records of rooms and matches passed between the rooms and their storage."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from app.services.room_settings import RoomSettings


@dataclass
class SeatRecord:
    seat: int
    player_id: str | None
    bot: str | None
    name: str


@dataclass(frozen=True)
class Arrival:
    """A tournament's table (PROTOCOL.md §8 "Arrival"): its tournament, and the moment (epoch
    seconds) its first hand is dealt at the latest if its players are not all connected by
    then: the table's first opening plus the tournament's ``arrival_seconds``."""

    tournament: str
    deal_by: float


@dataclass
class RoomRecord:
    """A room as the lobby and recovery need it: its settings and what changes as it runs."""

    id: str
    host_id: str
    settings: RoomSettings
    invite_code: str
    status: str = "waiting"
    match_id: str | None = None
    taken: list[SeatRecord] = field(default_factory=list)
    # A room quick seat opened: its settings' `RoomSettings.table_key` (None: a host's room).
    # Such a room seats people only and starts by itself when its last seat is taken.
    quick_seat: str | None = None
    # Several processes: the fencing token this process holds the room with (its writes carry
    # it); None for a single process, whose writes are never fenced.
    fence: int | None = None
    # A tournament's table: whose, and when its first deal comes at the latest. Kept in the
    # tournament's tables (`tournament_tables.opened_at`), from which a rebuilt room has it.
    arrival: Arrival | None = None


@dataclass
class HandRecord:
    hand_no: int
    dealer: int
    deal: dict[str, Any]
    # (seat, action, client id, played for: None, "timeout" or "stand_in")
    actions: list[tuple[int, dict[str, Any], str | None, str | None]]
    server_seed: str | None = None  # the seeds the deal came from (None: a stacked deal)
    client_seeds: list[str] | None = None


@dataclass(frozen=True)
class ChatLine:
    """A chat line as the room keeps it: the message's fields, its speaker (None: a line
    carried into a rematch's room before speakers were kept) and the players who blocked the
    speaker, not shown it (`app.seating_policy.shown`), read when it was stored or rebuilt."""

    seat: int | None
    name: str
    text: str
    speaker: str | None
    blockers: frozenset[str] = frozenset()

    def message(self) -> dict[str, Any]:
        """The ``chat`` message (PROTOCOL.md §5): no speaker's id, no blockers."""
        return {"type": "chat", "seat": self.seat, "name": self.name, "text": self.text}


@dataclass
class LiveMatch:
    """A room that was playing when the server stopped, with its match log so far."""

    room: RoomRecord
    match_id: str
    hands: list[HandRecord]
    recorded_hands: int
    chat: list[ChatLine] = field(default_factory=list)  # recent lines, oldest first
    settled: list[list[int]] = field(default_factory=list)  # per recorded hand, staked rooms
