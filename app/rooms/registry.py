"""All rooms of this process: creation, lookup, the lobby, and recovery after a restart."""

from __future__ import annotations

import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

from app import logs
from app.refusals import Code, Refusal
from app.seating_policy import How
from app.services.room_settings import RoomSettings

from .commands import Caller, SeatTable
from .room import Room
from .scheduler import RoomTiming
from .store import Arrival, ChatLine, MatchStore, RoomRecord

log = logging.getLogger(__name__)

DEFAULT_WAITING_ROOMS_PER_HOST = 5


class RoomRegistry:
    def __init__(self, store: MatchStore, timing: RoomTiming,
                 claim: Callable[[str], Awaitable[None]] | None = None,
                 max_waiting_per_host: int = DEFAULT_WAITING_ROOMS_PER_HOST) -> None:
        self.store = store
        self.timing = timing
        self.rooms: dict[str, Room] = {}
        # A host has at most this many rooms waiting for players at once, among every process
        # (counted by the store), so that one player cannot fill the lobby.
        self.max_waiting_per_host = max_waiting_per_host
        # Several processes: takes a new room's lease before it is stored (docs/scaling.md).
        self.claim = claim

    async def create(self, host_id: str, host_name: str, settings: RoomSettings,
                     quick_seat: str | None = None, address: str | None = None,
                     how: How = How.JOIN) -> Room:
        """Persist a room with the host's (already validated) settings and seat the host, who
        asks ``how`` (a room of their own, quick seat's, a rematch's) from the client
        ``address``; ``quick_seat``: the table key of a room quick seat opens
        (`RoomRecord.quick_seat`). Refused (``too_many_waiting_rooms``) beyond the host's cap
        of rooms waiting for players."""
        return await self._open(host_id, host_name, RoomRecord(
            id=secrets.token_hex(8), host_id=host_id, settings=settings,
            invite_code=secrets.token_urlsafe(9), quick_seat=quick_seat), address, how,
            self.max_waiting_per_host)

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
                invite_code=secrets.token_urlsafe(9), arrival=arrival), None,
                How.TOURNAMENT, None)
        await room.handle(SeatTable(players, arrival), Caller(host_id, host_name))
        return room

    async def _open(self, host_id: str, host_name: str, record: RoomRecord,
                    address: str | None, how: How, cap: int | None) -> Room:
        """Store the new room (within the host's ``cap`` of waiting rooms, if any) and seat its
        host, who asks ``how`` from ``address``. One line says so, with the request's id: the
        link from the request that made a room to the room's own lines."""
        if self.claim is not None:
            await self.claim(record.id)
            record.fence = 1
        await self.store.open_room(record, cap)
        room = Room(record, self.store, self.timing)
        try:
            await room.join(host_id, host_name, address, how)
        except Refusal:  # the host cannot sit (the buy-in, a waiting quick seat elsewhere):
            # no room without its host
            record.status = "closed"
            await self.store.save_room(record)
            raise
        self.rooms[record.id] = room
        where = logs.ROOM.set((record, host_id))
        log.info("room %s: opened (%s, %d seats, %s)", record.id, record.settings.game,
                 record.settings.seats, how.value)
        logs.ROOM.reset(where)
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
        waiting = await self.store.open_rooms()
        chat = await self.store.recent_chat([record.id for record in waiting])
        for record in waiting:
            self.rooms[record.id] = self._waiting(record, chat.get(record.id, []))
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
            chat = await self.store.recent_chat([room_id])
            room = self.rooms[room_id] = self._waiting(record, chat.get(room_id, []))
            return room
        return None

    def _waiting(self, record: RoomRecord, chat: list[ChatLine]) -> Room:
        """A waiting room rebuilt from the database, with its recent chat."""
        room = Room(record, self.store, self.timing)
        room.chat_log.restore(chat)
        return room

    async def close(self) -> None:
        for room in self.rooms.values():
            await room.close()

