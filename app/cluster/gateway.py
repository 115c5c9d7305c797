"""The room gateway of one process among several (docs/scaling.md): a room is served by the
process that holds its lease, this one or another reached through the relay; the lobby and the
locks are shared in Redis, and a logout is told to every process."""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable
from typing import Any

from app.api.sockets import SocketConnection
from app.refusals import Code, Refusal
from app.rooms.commands import Caller, Command, SeatTable
from app.rooms.room import Room
from app.rooms.store import Arrival
from app.rooms.tournaments import Ownership
from app.services.room_settings import RoomSettings

from . import wire
from .cluster import Cluster
from .locks import SharedLocks
from .relay import Link, Relay


class ClusterGateway:
    def __init__(self, cluster: Cluster, relay: Relay, locks: SharedLocks) -> None:
        self.cluster = cluster
        self.relay = relay
        self.locks = locks
        self.registry = cluster.registry  # the rooms held here, and where new ones are made

    async def start(self) -> None:
        await self.cluster.start()  # rooms are taken as they are needed, or found without owner

    async def run(self, room_id: str, command: Command, caller: Caller) -> dict[str, Any]:
        return await self.relay.call(room_id, command, caller)

    async def attach(self, room_id: str, conn: SocketConnection,
                     invite: str | None) -> Link | None:
        link = Link(self.relay, room_id, conn, invite)
        return link if await link.attach() else None

    async def room_by_invite(self, code: str) -> str:
        room_id = await self.cluster.store.room_by_invite(code)
        if room_id is None:
            raise Refusal(Code.NO_SUCH_ROOM, "that invite code does not open any room")
        return room_id

    async def announce(self, room: Room) -> None:
        await self.cluster.publish([room])

    async def lobby(self) -> list[dict[str, Any]]:
        return await self.cluster.lobby.rooms()

    def exclusive(self, name: str) -> contextlib.AbstractAsyncContextManager[None]:
        return self.locks.hold(name)  # in Redis: every process's callers wait on it

    def logged_out(self, token_hash: str) -> None:
        self.cluster.node.broadcast(wire.Logout(token_hash))

    def suspended(self, player_id: str) -> None:
        self.cluster.node.broadcast(wire.Suspend(player_id))

    async def open_table(self, room_id: str, settings: RoomSettings,
                         players: list[tuple[str, str]], arrival: Arrival) -> None:
        """At the room's owner, which takes an orphaned table over first (rebuilt from its
        log); a room that does not exist yet is made here, and owned here."""
        try:
            await self.relay.call(room_id, SeatTable(players, arrival), Caller(*players[0]))
            return
        except Refusal as exc:
            if exc.code != Code.NO_SUCH_ROOM:
                raise
        await self.announce(await self.registry.open_table(room_id, settings, players,
                                                           arrival))

    def tournament_ownership(self) -> Ownership:
        assert self.cluster.tournaments is not None  # noqa: S101 - made with the cluster
        return self.cluster.tournaments

    def tournaments_told(self, poked: Callable[[str], None]) -> Callable[[str], None] | None:
        self.relay.tournament_moved = poked
        node = self.cluster.node
        return lambda tournament_id: node.broadcast(wire.Tournament(tournament_id, node.id))

    def health(self) -> dict[str, Any]:
        return {"cluster": self.cluster.health()}

    async def unready(self) -> list[str]:
        return await self.cluster.unready()

    async def close(self, flush: Awaitable[None]) -> None:
        """Hand the rooms over once their log is committed."""
        await self.cluster.hand_over(flush)
        await self.cluster.close()
