"""What a room needs from durable storage; ``app.services.store`` implements it over SQL.

Rooms never see SQL: they call these coroutines and the store owns the transactions. A method
that raises leaves the room unchanged (the room applies its change only after the store).
"""

from __future__ import annotations

from typing import Any, Protocol

from app.seating_policy import Ask
from app.services.records import Arrival, ChatLine, HandRecord, LiveMatch, RoomRecord, SeatRecord

__all__ = ["Arrival", "ChatLine", "HandRecord", "LiveMatch", "MatchStore", "RoomRecord",
           "SeatRecord"]


class MatchStore(Protocol):
    async def save_room(self, room: RoomRecord) -> None: ...

    async def open_room(self, room: RoomRecord, cap: int | None) -> None:
        """Store a new room; ``cap``: refused (``too_many_waiting_rooms``) when its host hosts
        that many rooms waiting for players already, among every process."""

    async def sit(self, room: RoomRecord, seat: SeatRecord, ask: Ask | None = None) -> None:
        """Record the seat and escrow its buy-in (raises a ``Refusal`` if it cannot). ``ask``:
        a person's own request, judged by `app.seating_policy.check` with the person's ties
        read in the same transaction (``already_waiting``, ``blocked``, ``same_address``); the
        room's lock keeps other seats of the room from being taken meanwhile, and the database
        a person's second seat in a waiting quick-seat room anywhere."""

    async def stand(self, room: RoomRecord, seat: SeatRecord) -> None:
        """Free the seat and return its escrow."""

    async def start_match(self, room: RoomRecord, match_id: str, players: int) -> None: ...

    async def record_deal(self, room: RoomRecord, match_id: str, hand_no: int, dealer: int,
                          deal: dict[str, Any], seeds: dict[str, Any] | None) -> None:
        """Store a hand's deal beside its seeds (``server_seed``, ``client_seeds``; None for a
        stacked deal)."""

    async def append_action(self, room: RoomRecord, match_id: str, hand_no: int, seq: int,
                            seat: int, action: dict[str, Any],
                            client_id: str | int | None, played_for: str | None = None
                            ) -> None:
        """Append to the match log; ``played_for`` marks a server move for a person's seat
        (``timeout`` or ``stand_in``)."""

    async def record_hand(self, room: RoomRecord, match_id: str, hand_no: int,
                          result: dict[str, Any]) -> list[int] | None:
        """Store a finished hand's result and settle its payments from escrow; return each
        seat's chips won (+) or lost (-) as the ledger moved them (None: the room has no
        stake)."""

    async def finish_match(self, room: RoomRecord, match_id: str, status: str,
                           winner: int | None, totals: list[int]) -> list[dict[str, Any]]:
        """Close the match and return every seat's escrow; a rated room's finished match
        updates its players' ratings, and the changes are returned (docs/server.md)."""

    async def add_chat(self, room: RoomRecord, match_id: str | None, seat: int | None,
                       player_id: str, name: str, text: str) -> ChatLine:
        """Store a chat line; it comes back with the players who blocked its speaker. A speaker
        whose chat is muted is refused (``chat_muted``), nothing stored."""

    async def carry_chat(self, room: RoomRecord, lines: list[ChatLine]) -> list[ChatLine]:
        """Store another room's lines as this room's, speakers kept and seats dropped; they come
        back with their speakers' blockers."""

    async def recent_chat(self, room_ids: list[str]) -> dict[str, list[ChatLine]]:
        """Each room's recent chat lines, oldest first, with their speakers' blockers."""

    async def live_matches(self, only: str | None = None) -> list[LiveMatch]: ...

    async def open_rooms(self, only: str | None = None) -> list[RoomRecord]: ...
