"""The match store as a room's owner uses it among several processes.

A write is attempted only while this process holds the room's lease (a process cut off from
Redis stops writing on its own), and a write the database refused because another process took
the room over (`StaleOwner`, the fencing token) tells the coordinator, which drops the room here.
Both refusals happen before anything changes, like any storage error.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from app.seating_policy import Ask
from app.services.logwriter import StaleOwner
from app.services.records import ChatLine, LiveMatch, RoomRecord, SeatRecord
from app.services.store import SqlMatchStore

from .leases import Leases

log = logging.getLogger(__name__)


class NotOwner(ConnectionError):
    """This process does not hold the room's lease now (counted as a storage outage: the
    room's own moves are retried, a client is told to try again)."""


class OwnedStore:
    def __init__(self, inner: SqlMatchStore, leases: Leases,
                 lost: Callable[[str], None]) -> None:
        self.inner = inner
        self.leases = leases
        self.lost = lost
        self.fenced = 0  # writes the database refused: another process had taken the room
        self.unleased = 0  # writes not attempted: the lease had run out here

    async def _write(self, room: RoomRecord, write: Any) -> Any:
        if room.fence is not None and not self.leases.holds(room.id):
            write.close()
            self.unleased += 1
            raise NotOwner(f"this process does not hold room {room.id} now")
        try:
            return await write
        except StaleOwner:
            self.fenced += 1
            log.warning("room %s: a write was fenced off: another process holds the room",
                        room.id)
            self.lost(room.id)
            raise

    async def save_room(self, room: RoomRecord) -> None:
        await self._write(room, self.inner.save_room(room))

    async def open_room(self, room: RoomRecord, cap: int | None) -> None:
        await self._write(room, self.inner.open_room(room, cap))

    async def sit(self, room: RoomRecord, seat: SeatRecord, ask: Ask | None = None) -> None:
        await self._write(room, self.inner.sit(room, seat, ask))

    async def stand(self, room: RoomRecord, seat: SeatRecord) -> None:
        await self._write(room, self.inner.stand(room, seat))

    async def start_match(self, room: RoomRecord, match_id: str, players: int) -> None:
        await self._write(room, self.inner.start_match(room, match_id, players))

    async def record_deal(self, room: RoomRecord, match_id: str, hand_no: int, dealer: int,
                          deal: dict[str, Any], seeds: dict[str, Any] | None) -> None:
        await self._write(room, self.inner.record_deal(room, match_id, hand_no, dealer, deal,
                                                       seeds))

    async def append_action(self, room: RoomRecord, match_id: str, hand_no: int, seq: int,
                            seat: int, action: dict[str, Any],
                            client_id: str | int | None, played_for: str | None = None
                            ) -> None:
        await self._write(room, self.inner.append_action(room, match_id, hand_no, seq, seat,
                                                         action, client_id, played_for))

    async def record_hand(self, room: RoomRecord, match_id: str, hand_no: int,
                          result: dict[str, Any]) -> list[int] | None:
        chips: list[int] | None = await self._write(
            room, self.inner.record_hand(room, match_id, hand_no, result))
        return chips

    async def finish_match(self, room: RoomRecord, match_id: str, status: str,
                           winner: int | None, totals: list[int]) -> list[dict[str, Any]]:
        changes: list[dict[str, Any]] = await self._write(
            room, self.inner.finish_match(room, match_id, status, winner, totals))
        return changes

    async def add_chat(self, room: RoomRecord, match_id: str | None, seat: int | None,
                       player_id: str, name: str, text: str) -> ChatLine:
        line: ChatLine = await self._write(
            room, self.inner.add_chat(room, match_id, seat, player_id, name, text))
        return line

    async def carry_chat(self, room: RoomRecord, lines: list[ChatLine]) -> list[ChatLine]:
        carried: list[ChatLine] = await self._write(room, self.inner.carry_chat(room, lines))
        return carried

    async def recent_chat(self, room_ids: list[str]) -> dict[str, list[ChatLine]]:
        return await self.inner.recent_chat(room_ids)

    async def live_matches(self, only: str | None = None) -> list[LiveMatch]:
        return await self.inner.live_matches(only)

    async def open_rooms(self, only: str | None = None) -> list[RoomRecord]:
        return await self.inner.open_rooms(only)
