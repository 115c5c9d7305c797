"""All rooms of this process: creation, lookup, the lobby, and recovery after a restart."""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable
from typing import Any

from app.refusals import Code, Refusal
from app.services.room_settings import RoomSettings

from .commands import Caller, SeatTable
from .room import Room
from .scheduler import RoomTiming
from .store import Arrival, MatchStore, RoomRecord

DEFAULT_WAITING_ROOMS_PER_HOST = 5


class RoomRegistry:
    def __init__(self, store: MatchStore, timing: RoomTiming,
                 claim: Callable[[str], Awaitable[None]] | None = None,
                 max_waiting_per_host: int = DEFAULT_WAITING_ROOMS_PER_HOST) -> None:
        self.store = store
        self.timing = timing
        self.rooms: dict[str, Room] = {}
        self.max_waiting_per_host = max_waiting_per_host
        self._opening: dict[str, int] = {}  # host id -> rooms being made for them right now
        # Several processes: takes a new room's lease before it is stored (docs/scaling.md).
        self.claim = claim

    async def create(self, host_id: str, host_name: str, settings: RoomSettings,
                     quick_seat: str | None = None, address: str | None = None) -> Room:
        """Persist a room with the host's (already validated) settings and seat the host, who
        asks from the client ``address``; ``quick_seat``: the table key of a room quick seat
        opens (`RoomRecord.quick_seat`)."""
        self._check_waiting_cap(host_id)
        self._opening[host_id] = self._opening.get(host_id, 0) + 1
        try:
            return await self._open(host_id, host_name, RoomRecord(
                id=secrets.token_hex(8), host_id=host_id, settings=settings,
                invite_code=secrets.token_urlsafe(9), quick_seat=quick_seat), address)
        finally:
            self._opening[host_id] -= 1
            if not self._opening[host_id]:
                del self._opening[host_id]

    async def open_table(self, room_id: str, settings: RoomSettings,
                         players: list[tuple[str, str]], arrival: Arrival) -> Room:
        """A room the server seats and starts itself (a tournament's table): made with this id
        unless it exists, each player (id, name) seated in order, and its match started, its
        first deal waiting for them until ``arrival``'s deadline. Safe to repeat after a crash
        part of the way: what is done already is left as it is."""
        room = self.rooms.get(room_id)
        host_id, host_name = players[0]
        if room is None:
            room = await self._open(host_id, host_name, RoomRecord(
                id=room_id, host_id=host_id, settings=settings,
                invite_code=secrets.token_urlsafe(9), arrival=arrival))
        await room.handle(SeatTable(players, arrival), Caller(host_id, host_name))
        return room

    def _check_waiting_cap(self, host_id: str) -> None:
        """A host has at most `max_waiting_per_host` rooms waiting for players at once (those
        being made count too), so that one player cannot fill the lobby."""
        waiting = sum(1 for r in self.rooms.values()
                      if r.record.host_id == host_id and r.record.status == "waiting")
        if waiting + self._opening.get(host_id, 0) >= self.max_waiting_per_host:
            raise Refusal(Code.TOO_MANY_WAITING_ROOMS, "you already host "
                          f"{self.max_waiting_per_host} rooms that wait for players (the "
                          "most at once): start or leave one first")

    async def _open(self, host_id: str, host_name: str, record: RoomRecord,
                    address: str | None = None) -> Room:
        """Store the new room and seat its host (from ``address``)."""
        if self.claim is not None:
            await self.claim(record.id)
            record.fence = 1
        await self.store.save_room(record)
        room = Room(record, self.store, self.timing)
        try:
            await room.join(host_id, host_name, address)
        except Refusal:  # the host cannot sit (the buy-in): no room without its host
            record.status = "closed"
            await self.store.save_room(record)
            raise
        self.rooms[record.id] = room
        return room

    def get(self, room_id: str) -> Room:
        room = self.rooms.get(room_id)
        if room is None:
            raise Refusal(Code.NO_SUCH_ROOM, f"no room {room_id!r}")
        return room

    def by_invite(self, code: str) -> Room:
        for room in self.rooms.values():
            if room.record.invite_code == code:
                return room
        raise Refusal(Code.NO_SUCH_ROOM, "that invite code does not open any room")

    def stalled(self) -> list[str]:
        """Rooms whose own next move is overdue (for the health check)."""
        return [r.id for r in self.rooms.values() if r.stalled()]

    def lobby(self) -> list[dict[str, Any]]:
        """Listed rooms that are open, or playing with a person there, newest first."""
        rooms = [r for r in self.rooms.values() if r.listed()]
        return [r.presenter.summary() for r in reversed(rooms)]

    async def restore(self) -> int:
        """Rebuild every room from the database: waiting rooms as they were, playing rooms by
        replaying their match logs. Returns how many matches were resumed."""
        for record in await self.store.open_rooms():
            self.rooms[record.id] = Room(record, self.store, self.timing)
        resumed = 0
        for live in await self.store.live_matches():
            room = Room(live.room, self.store, self.timing)
            room.recover(live)
            self.rooms[live.room.id] = room
            resumed += 1
        return resumed

    async def load(self, room_id: str) -> Room | None:
        """Rebuild one room from the database (another process held it), resumed; None if it
        is neither waiting nor playing."""
        for live in await self.store.live_matches(room_id):
            room = Room(live.room, self.store, self.timing)
            room.recover(live)
            self.rooms[room_id] = room
            return room
        for record in await self.store.open_rooms(room_id):
            room = Room(record, self.store, self.timing)
            self.rooms[room_id] = room
            return room
        return None

    async def close(self) -> None:
        for room in self.rooms.values():
            await room.close()

