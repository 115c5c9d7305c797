"""The room gateway: how routes and sockets reach a room, whichever deployment serves it.

`Gateway` is the one interface: run a command on room R, attach a socket to room R, and the few
things the deployment answers (the lobby, an invite code's room, a logout heard by every
process, the health check's part). `LocalGateway` serves this process's rooms; the gateway of
one process among several lives in `app.cluster.gateway`. `app.main` chooses one at start-up;
nothing else asks which it is.

`serve` is the one place a socket's message is applied to a room and its reply sent, for a
socket here and for one relayed from another process alike.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, Protocol

from app import metrics
from app.refusals import Code, Refusal
from app.rooms.commands import Act, Caller, Command, SocketCommand
from app.rooms.connections import Connection
from app.rooms.registry import RoomRegistry
from app.rooms.room import Room
from app.rooms.store import Arrival
from app.rooms.tournaments import Ownership, Solo
from app.services.room_settings import RoomSettings

from . import messages
from .sockets import SocketConnection


class Client(Connection, Protocol):
    """A socket as the room serves it: here, or at another process."""

    player_id: str
    name: str

    def send(self, message: dict[str, Any]) -> None: ...


class RoomLink(Protocol):
    """A socket attached to its room, wherever the room lives."""

    async def handle(self, raw: str | bytes, msg: messages.Inbound) -> None:
        """One message from the socket, parsed and within its rate (``raw``: as it came)."""

    def close(self) -> None:
        """The socket is gone."""


class Gateway(Protocol):
    async def start(self) -> None:
        """Before serving: rebuild or find the live rooms."""

    async def run(self, room_id: str, command: Command, caller: Caller) -> dict[str, Any]:
        """Run ``command`` on the room and return the answer's body; a refusal raises."""

    async def attach(self, room_id: str, conn: SocketConnection,
                     invite: str | None) -> RoomLink | None:
        """Connect the socket to the room (which sends it the state); None if there is no
        such room for this player. A refusal that comes later closes the socket itself."""

    async def room_by_invite(self, code: str) -> str:
        """The id of the open room this invite code opens; ``no_such_room`` if none."""

    async def announce(self, room: Room) -> None:
        """A room was made or changed here outside a command (creation, a rematch's room)."""

    async def lobby(self) -> list[dict[str, Any]]:
        """The listed rooms' summaries, newest first."""

    def exclusive(self, name: str) -> contextlib.AbstractAsyncContextManager[None]:
        """Hold the lock ``name`` against every process of the deployment for the block (quick
        seat's choice of a room); ``try_again`` if it stays taken too long."""

    def logged_out(self, token_hash: str) -> None:
        """A token was revoked here (its sockets here are closed already): tell the rest."""

    def suspended(self, player_id: str) -> None:
        """A player was suspended here (their sockets here are closed already): tell the
        rest."""

    async def open_table(self, room_id: str, settings: RoomSettings,
                         players: list[tuple[str, str]], arrival: Arrival) -> None:
        """Seat and start a tournament's table (`RoomRegistry.open_table`): at its room's
        owner if the room exists, here otherwise. Safe to repeat."""

    def tournament_ownership(self) -> Ownership:
        """Who drives which tournament (`app.rooms.tournaments`)."""

    def tournaments_told(self, poked: Callable[[str], None]) -> Callable[[str], None] | None:
        """Have ``poked`` called with the id of a tournament that moved on at another process;
        answers how to tell the others of one that moved on here (None: no others)."""

    def health(self) -> dict[str, Any]:
        """What the deployment adds to the health check."""

    async def unready(self) -> list[str]:
        """Why the deployment cannot take actions now (readiness); empty when it can."""

    async def close(self, flush: Awaitable[None]) -> None:
        """Stop the rooms, and let the log writer commit what they appended (``flush``)."""


def _always() -> bool:
    return True


async def serve(room: Room, conn: Client, msg: messages.Inbound,
                held: Callable[[], bool] = _always) -> bool:
    """Have the room handle one parsed message and send its reply. ``held`` says whether the
    room is still this process's once an action has run: if it is not, the action was refused
    because the room left, so no reply is sent (the new owner answers it) and False is
    returned. A player's action is counted, with the time to its answer, in the metrics."""
    if not isinstance(msg, SocketCommand):
        conn.send(Refusal(Code.ALREADY_AUTHENTICATED,
                          "this connection is already authenticated").reply())
        return True
    began = time.perf_counter()
    try:
        reply = await room.handle(msg, Caller(conn.player_id, conn.name))
    except Refusal as exc:  # a chat line's or a seed's
        reply = exc.reply()
    if isinstance(msg, Act):
        if not held():
            return False
        metrics.action(room.record.settings.game, reply is not None and reply["type"] == "ack",
                       began)
    if reply is not None:
        conn.send(reply)
    return True


class LocalLink:
    """A socket attached to a room of this process."""

    def __init__(self, room: Room, conn: SocketConnection) -> None:
        self.room = room
        self.conn = conn

    async def handle(self, raw: str | bytes, msg: messages.Inbound) -> None:
        await serve(self.room, self.conn, msg)

    def close(self) -> None:
        self.room.disconnect(self.conn)


class NamedLocks:
    """This process's locks by name, each kept only while it is held or awaited."""

    def __init__(self) -> None:
        self._locks: dict[str, tuple[asyncio.Lock, int]] = {}  # name -> (lock, users)

    @contextlib.asynccontextmanager
    async def hold(self, name: str) -> AsyncIterator[None]:
        lock, users = self._locks.get(name, (asyncio.Lock(), 0))
        self._locks[name] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._locks[name]
            if users == 1:
                del self._locks[name]
            else:
                self._locks[name] = (lock, users - 1)


class LocalGateway:
    """One process: every room is in this registry."""

    def __init__(self, registry: RoomRegistry) -> None:
        self.registry = registry
        self.locks = NamedLocks()

    async def start(self) -> None:
        await self.registry.restore()

    async def run(self, room_id: str, command: Command, caller: Caller) -> dict[str, Any]:
        return await self.registry.get(room_id).handle(command, caller)

    async def attach(self, room_id: str, conn: SocketConnection,
                     invite: str | None) -> LocalLink | None:
        try:
            room = self.registry.get(room_id)
        except Refusal:
            return None
        if not room.admits(conn.player_id, invite):
            return None  # unknown and private look alike
        room.connect(conn)  # queues the current state at once
        return LocalLink(room, conn)

    async def room_by_invite(self, code: str) -> str:
        return self.registry.by_invite(code).id

    async def announce(self, room: Room) -> None:
        """The registry is the lobby: nothing to tell."""

    async def lobby(self) -> list[dict[str, Any]]:
        return self.registry.lobby()

    def exclusive(self, name: str) -> contextlib.AbstractAsyncContextManager[None]:
        return self.locks.hold(name)  # this process is the whole deployment

    def logged_out(self, token_hash: str) -> None:
        """No other process to tell."""

    def suspended(self, player_id: str) -> None:
        """No other process to tell."""

    async def open_table(self, room_id: str, settings: RoomSettings,
                         players: list[tuple[str, str]], arrival: Arrival) -> None:
        await self.registry.open_table(room_id, settings, players, arrival)

    def tournament_ownership(self) -> Ownership:
        return Solo()

    def tournaments_told(self, poked: Callable[[str], None]) -> Callable[[str], None] | None:
        return None  # this process is the whole deployment

    def health(self) -> dict[str, Any]:
        return {}

    async def unready(self) -> list[str]:
        return []  # this process alone: the database is all it needs

    async def close(self, flush: Awaitable[None]) -> None:
        await self.registry.close()
        await flush
