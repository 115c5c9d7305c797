"""Sockets and room calls among several processes (docs/scaling.md).

A socket may land on any process. Its `Link` goes to the room itself when this process owns it,
or else to the owner through the processes' inboxes (`app.cluster.node`): the owner keeps a
`RemoteConnection` for it (to the room, one more connection whose ``push`` goes back to the
socket's process), serves its messages in order and the socket's process writes what comes back
into the socket. When the room changes owner (a process stops, dies or loses its lease) the link
attaches to the new owner, which sends the full state, and sends again the actions still waiting
for their reply: a repeated id is answered as before, never applied twice.

HTTP calls that change a room (`Relay.call`) run at the owner the same way, as a request and a
reply through the inboxes. What travels is `app.cluster.wire`'s typed messages. A call and a
relayed socket carry the id of their request or socket (`app.logs.REQUEST_ID`), so that the
owner's log lines for them name the same request as the lines at the process it came to.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Callable
from typing import Any

import orjson

from app import logs, metrics
from app.api import messages
from app.api.gateway import serve
from app.api.sockets import CLOSE_NO_ROOM, CLOSE_TRY_LATER, SocketConnection, SocketIndex
from app.refusals import Code, Refusal
from app.rooms.commands import Act, Caller, Command
from app.rooms.room import Room
from app.services import outage
from app.services.logwriter import StaleOwner

from . import wire
from .cluster import Cluster
from .leases import node_of
from .store import NotOwner

log = logging.getLogger(__name__)

CALL_TIMEOUT = 10.0
MOVE_TIMEOUT = 30.0


class Relay:
    def __init__(self, cluster: Cluster, sockets: SocketIndex) -> None:
        self.cluster = cluster
        self.node = cluster.node
        self.sockets = sockets
        self.links: dict[str, Link] = {}
        self.remotes: dict[tuple[str, str], RemoteConnection] = {}
        self.calls: dict[str, asyncio.Future[wire.Ret]] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        # Told the id of a tournament that moved on at another process (the director's poked).
        self.tournament_moved: Callable[[str], None] | None = None
        self.node.receive = self._receive
        self.node.reconnected = self._reconnected

    def _receive(self, m: wire.Message) -> None:
        match m:
            case wire.Open():
                self._open(m)
            case wire.In():
                self._in(m)
            case wire.Bye():
                self._bye(m)
            case wire.Call():
                self._call(m)
            case wire.Out():
                self._out(m)
            case wire.Moved():
                self._moved(m)
            case wire.Gone():
                self._gone(m)
            case wire.Ret():
                self._ret(m)
            case wire.Logout():
                self.sockets.revoke_now(m.token_hash)
            case wire.Suspend():
                self.sockets.suspend_now(m.player)
            case wire.Tournament():
                if m.origin != self.node.id and self.tournament_moved is not None:
                    self.tournament_moved(m.tournament)

    def owned(self, room_id: str) -> Room | None:
        room = self.cluster.registry.rooms.get(room_id)
        return room if room is not None and self.cluster.leases.holds(room_id) else None

    # --- at the owner ---------------------------------------------------------------------

    def _open(self, m: wire.Open) -> None:
        old = self.remotes.pop((m.origin, m.link), None)
        if old is not None:
            old.close()
        self.remotes[(m.origin, m.link)] = RemoteConnection(self, m)

    def _reconnected(self) -> None:
        """This process's inbox was cut off for a while and messages may have been lost: every
        relayed socket attaches again and is sent the full state."""
        for link in list(self.links.values()):
            link.moved()

    def _in(self, m: wire.In) -> None:
        conn = self.remotes.get((m.origin, m.link))
        if conn is None:
            self.node.send(m.origin, wire.Moved(m.link))
        else:
            conn.inbox.put_nowait(m.text)

    def _bye(self, m: wire.Bye) -> None:
        conn = self.remotes.pop((m.origin, m.link), None)
        if conn is not None:
            conn.close()

    def _call(self, m: wire.Call) -> None:
        task = asyncio.create_task(self._answer(m))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _answer(self, m: wire.Call) -> None:
        logs.REQUEST_ID.set(m.request_id)  # this task's own: the lines of the caller's request
        log.debug("room %s: %s relayed from %s", m.room, m.command.op, m.origin)
        room = await self.cluster.ready(m.room)
        if room is None:
            self.node.send(m.origin, wire.Ret(m.query, moved=True))
            return
        try:
            reply = wire.Ret(m.query, value=await self._run(room, m.command, m.caller))
        except (StaleOwner, NotOwner):
            reply = wire.Ret(m.query, moved=True)
        except Refusal as exc:
            reply = wire.Ret(m.query, refusal=wire.Refusal(exc.code, exc.message, exc.fields))
        except Exception as exc:
            if not outage.is_storage_outage(exc):
                log.exception("room %s: %s failed", m.room, m.command.op)
            reply = wire.Ret(m.query, refusal=wire.Refusal(outage.CODE, outage.MESSAGE))
        self.node.send(m.origin, reply)

    async def _run(self, room: Room, command: Command, caller: Caller) -> dict[str, Any]:
        value = await room.handle(command, caller)
        await self.cluster.publish([room])
        return value

    # --- at the socket's (or the caller's) process ----------------------------------------

    def _out(self, m: wire.Out) -> None:
        link = self.links.get(m.link)
        # Only from the owner the link is attached to: a former owner that has not yet noticed
        # it lost the room may still be sending.
        if link is not None and link.owner is not None and node_of(link.owner) == m.origin:
            link.deliver(m.text)

    def _moved(self, m: wire.Moved) -> None:
        link = self.links.get(m.link)
        if link is not None:
            link.moved()

    def _gone(self, m: wire.Gone) -> None:
        link = self.links.get(m.link)
        if link is not None:
            link.conn.refuse(Code(m.code), m.message, CLOSE_NO_ROOM)

    def _ret(self, m: wire.Ret) -> None:
        future = self.calls.get(m.query)
        if future is not None and not future.done():
            future.set_result(m)

    async def call(self, room_id: str, command: Command, caller: Caller) -> dict[str, Any]:
        """Run ``command`` on the room at its owner, here or at another process."""
        for _ in range(10):
            target = await self.cluster.locate(room_id)
            if target is None:
                raise Refusal(Code.NO_SUCH_ROOM, f"no room {room_id!r}")
            if isinstance(target, Room):
                try:
                    return await self._run(target, command, caller)
                except (StaleOwner, NotOwner):  # the room left this process: find it again
                    await asyncio.sleep(0.1)
                    continue
            query = secrets.token_hex(8)
            future: asyncio.Future[wire.Ret] = asyncio.get_running_loop().create_future()
            self.calls[query] = future
            self.node.send(node_of(target), wire.Call(query, self.node.id, room_id, caller,
                                                      command, logs.REQUEST_ID.get()))
            try:
                answer = await asyncio.wait_for(future, CALL_TIMEOUT)
            except TimeoutError:
                raise Refusal(Code.TRY_AGAIN, "the room's server did not answer; try again"
                              ) from None
            finally:
                self.calls.pop(query, None)
            if answer.moved:
                await asyncio.sleep(0.1)
                continue
            if answer.refusal is not None:
                refusal = answer.refusal
                raise Refusal(Code(refusal.code), refusal.message, refusal.fields)
            return answer.value or {}
        raise Refusal(Code.TRY_AGAIN, "the room is changing hands; try again in a moment")


class RemoteConnection:
    """A socket at another process, as its room sees it (at the owner). Its messages queue
    from the moment its ``open`` arrives and are served in order once the room is here (a
    takeover in progress is waited for)."""

    def __init__(self, relay: Relay, opened: wire.Open) -> None:
        self.relay = relay
        self.room_id = opened.room
        self.proxy = opened.origin
        self.link_id = opened.link
        self.player_id = opened.player
        self.name = opened.name
        self.invite = opened.invite
        self.request_id = opened.request_id
        self.room: Room | None = None
        self.inbox: asyncio.Queue[str] = asyncio.Queue()
        self._task = asyncio.create_task(self._serve())

    def push(self, data: bytes) -> None:
        self.relay.node.send(self.proxy, wire.Out(self.link_id, self.relay.node.id, data.decode()))

    def send(self, message: dict[str, Any]) -> None:
        """As `SocketConnection.send`: an ``error`` is counted here, at the room's process."""
        if message.get("type") == "error":
            metrics.refused(message["code"])
        self.push(orjson.dumps(message))

    async def _serve(self) -> None:
        """Connect to the room, then serve the socket's messages one at a time, in order, as
        a local socket's are (their lines with the socket's request id)."""
        logs.REQUEST_ID.set(self.request_id)
        room = await self.relay.cluster.ready(self.room_id)
        if room is None or not room.admits(self.player_id, self.invite):
            self.relay.remotes.pop((self.proxy, self.link_id), None)
            self.relay.node.send(self.proxy, wire.Moved(self.link_id) if room is None
                                 else wire.Gone(self.link_id, Code.NO_SUCH_ROOM,
                                                f"no room {self.room_id[:40]!r}"))
            return
        self.room = room
        self.relay.cluster.attach(room.id, self)
        self.relay.cluster.remote_proxies[self] = self.proxy
        room.connect(self)
        while True:
            raw = await self.inbox.get()
            try:
                msg = messages.parse(raw)
            except Refusal as exc:
                self.send(exc.reply())
                continue
            if not await serve(room, self, msg, lambda: self.relay.owned(room.id) is room):
                self.moved()  # refused because the room left us: its new owner will answer
                return

    def moved(self) -> None:
        """The room left this process: the socket's process finds its new owner."""
        self.relay.node.send(self.proxy, wire.Moved(self.link_id))
        self.relay.remotes.pop((self.proxy, self.link_id), None)
        self.close()

    def close(self) -> None:
        self._task.cancel()
        room, self.room = self.room, None
        if room is not None:
            self.relay.cluster.detach(room.id, self)
            if self.relay.owned(room.id) is room:
                room.disconnect(self)


class Link:
    """A socket's way to its room: the room itself, or its owner through the relay."""

    def __init__(self, relay: Relay, room_id: str, conn: SocketConnection,
                 invite: str | None) -> None:
        self.relay = relay
        self.room_id = room_id
        self.conn = conn
        self.invite = invite
        self.request_id = logs.REQUEST_ID.get()  # the socket's (it may move in another task)
        self.id = secrets.token_hex(8)
        self.room: Room | None = None
        self.owner: str | None = None  # the lease of the owning process, when another one
        self.pending: dict[Any, str] = {}  # client id -> its action message, until answered
        self.closed = False
        self._moving: asyncio.Task[None] | None = None

    async def attach(self) -> bool:
        """Connect to the room wherever it is; False if there is no such room for this
        player (another process's refusal arrives later, as a ``gone``)."""
        target = await self.relay.cluster.locate(self.room_id)
        if target is None:
            return False
        if isinstance(target, Room):
            if not target.admits(self.conn.player_id, self.invite):
                return False
            self.room = target
            self.relay.cluster.attach(self.room_id, self)
            target.connect(self.conn)
            return True
        self.owner = target
        self.relay.links[self.id] = self
        self.relay.cluster.watchers.add(self)
        self.relay.node.send(node_of(target), wire.Open(self.id, self.relay.node.id, self.room_id,
                                                        self.conn.player_id, self.conn.name,
                                                        self.invite, self.request_id))
        return True

    async def handle(self, raw: str | bytes, msg: messages.Inbound) -> None:
        """One message from the socket, parsed and within its rate."""
        text = raw if isinstance(raw, str) else raw.decode()
        if isinstance(msg, Act) and msg.client_id is not None:
            self.pending[msg.client_id] = text
        room = self.room
        if room is None:
            if self.owner is not None:
                self.relay.node.send(node_of(self.owner), wire.In(self.id, self.relay.node.id,
                                                                  text))
            return  # moving: a pending action goes to the new owner
        if not await serve(room, self.conn, msg, lambda: self.relay.owned(self.room_id) is room):
            self.moved()  # refused because the room left us: its new owner will answer
        elif isinstance(msg, Act):
            self.pending.pop(msg.client_id, None)

    def deliver(self, text: str) -> None:
        """A message from the owner for this socket."""
        if text.startswith(('{"type":"ack"', '{"type":"error"')):
            with contextlib.suppress(Exception):
                self.pending.pop(orjson.loads(text).get("id"), None)
        self.conn.push(text.encode())

    def moved(self) -> None:
        if self.closed or (self._moving is not None and not self._moving.done()):
            return
        self._moving = asyncio.create_task(self._move())

    async def _move(self) -> None:
        """Find the room's owner again and attach to it. If that is still the process that
        said the room moved, wait a moment first: it may be loading the room, or about to lose
        its lease; it answers ``moved`` again if it does not have the room, and this repeats."""
        old = self.owner
        self._leave()
        deadline = time.monotonic() + MOVE_TIMEOUT
        while not self.closed:
            try:
                target = await self.relay.cluster.locate(self.room_id)
                break
            except Exception as exc:
                log.info("socket of %s: room %s has no owner yet: %r", self.conn.player_id,
                         self.room_id, exc)
                if time.monotonic() > deadline:
                    self.conn.refuse(Code.TRY_AGAIN, "the room has no server at the moment",
                                     CLOSE_TRY_LATER)
                    return
                await asyncio.sleep(0.2)
        if target is None:
            self.conn.refuse(Code.NO_SUCH_ROOM, f"no room {self.room_id[:40]!r}", CLOSE_NO_ROOM)
            return
        if target == old:
            await asyncio.sleep(0.2)
        if self.closed or not await self.attach():
            return
        for raw in list(self.pending.values()):
            with contextlib.suppress(Refusal):
                await self.handle(raw, messages.parse(raw))

    def _leave(self) -> None:
        room, self.room = self.room, None
        if room is not None:
            self.relay.cluster.detach(self.room_id, self)
            if self.relay.owned(self.room_id) is room:
                room.disconnect(self.conn)
        if self.owner is not None:
            self.relay.node.send(node_of(self.owner), wire.Bye(self.id, self.relay.node.id))
            self.relay.links.pop(self.id, None)
            self.relay.cluster.watchers.discard(self)
            self.owner = None

    def close(self) -> None:
        """The socket is gone."""
        self.closed = True
        if self._moving is not None:
            self._moving.cancel()
        self._leave()

