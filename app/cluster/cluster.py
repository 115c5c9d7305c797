"""The coordinator: which process holds which room, taking rooms over, and handing them on.

`locate` answers where a room lives: here (a `Room`), at another process (its lease's value,
which names the process), or nowhere (no such live room). A room with no owner is taken on the
spot by whoever needs it: its lease, then a new fencing token in the database (so the previous
owner's writes fail from then on), then the room rebuilt from PostgreSQL. A tick every quarter
lease period renews the leases, refreshes the shared lobby, drops connections relayed from dead
processes, moves sockets whose room changed owner, and (in a task of its own) takes over rooms
whose owner is gone.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import Awaitable, Coroutine
from typing import Any, Protocol

from app.refusals import Code, Refusal
from app.rooms.registry import RoomRegistry
from app.rooms.room import Room
from app.services.store import SqlMatchStore

from .leases import SAFETY, Leases, node_of
from .lobby import SharedLobby
from .node import Node
from .store import OwnedStore

log = logging.getLogger(__name__)
UNREADY_TIMEOUT = 1.0  # seconds Redis has to answer the readiness check's ping


class Attachment(Protocol):
    """A connection to a room held here (a local socket's link, or a relayed socket)."""

    def moved(self) -> None:
        """The room left this process: find its new owner (or tell the socket's process)."""


class Watcher(Protocol):
    """A local socket whose room lives at another process (``owner``: the lease's value)."""

    room_id: str
    owner: str | None

    def moved(self) -> None: ...


class Cluster:
    def __init__(self, node: Node, leases: Leases, lobby: SharedLobby, store: SqlMatchStore,
                 owned: OwnedStore, registry: RoomRegistry,
                 tournaments: Leases | None = None) -> None:
        self.node = node
        self.tournaments = tournaments  # who drives which tournament, renewed on the tick
        self.owned = owned
        self.leases = leases
        self.lobby = lobby
        self.store = store
        self.registry = registry
        self.attached: dict[str, set[Attachment]] = {}
        self.watchers: set[Watcher] = set()
        self.remote_proxies: dict[Attachment, str] = {}  # relayed connection -> its process
        self._taking: dict[str, asyncio.Task[Room | None]] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._ticker: asyncio.Task[None] | None = None
        self._scanning: asyncio.Task[None] | None = None
        self.leaving = False

    async def start(self) -> None:
        await self.node.start()
        self._ticker = asyncio.create_task(self._tick())

    async def unready(self) -> list[str]:
        """Why this process cannot take actions now: Redis does not answer, its heartbeat has
        not reached Redis within the part of a lease period it relies on, or rooms it holds
        have lost their leases (they are being dropped). Empty when it can."""
        reasons = []
        try:
            async with asyncio.timeout(UNREADY_TIMEOUT):
                await self.node.redis.ping()
        except Exception as exc:
            reasons.append(f"redis unreachable ({type(exc).__name__})")
        if time.monotonic() - self.node.last_beat > self.leases.ttl * SAFETY:
            reasons.append("no heartbeat reached redis within the lease period")
        lapsed = sum(1 for room_id in self.registry.rooms if not self.leases.holds(room_id))
        if lapsed:
            reasons.append(f"{lapsed} rooms held here have lost their leases")
        return reasons

    def health(self) -> dict[str, Any]:
        """This process in the cluster, for the health check."""
        return {"process": self.node.id, "rooms": len(self.registry.rooms),
                "fenced_writes": self.owned.fenced, "unleased_writes": self.owned.unleased}

    # --- where a room lives ---------------------------------------------------------------

    async def locate(self, room_id: str) -> Room | str | None:
        for _ in range(5):
            room = self.registry.rooms.get(room_id)
            if room is not None and self.leases.holds(room_id):
                return room
            owner = await self.leases.owner(room_id)
            if owner is not None and node_of(owner) != self.node.id:
                return owner
            if self.leaving:
                await asyncio.sleep(0.1)
                continue
            task = self._taking.get(room_id)
            if task is None:
                task = asyncio.create_task(self._take(room_id))
                self._taking[room_id] = task
                task.add_done_callback(lambda _t: self._taking.pop(room_id, None))
            room = await asyncio.shield(task)
            if room is not None:
                return room
            if await self.leases.owner(room_id) is None:
                return None  # closed or unknown
        raise Refusal(Code.TRY_AGAIN, "the room is changing hands; try again in a moment")

    async def ready(self, room_id: str) -> Room | None:
        """The room if this process holds it, once a takeover in progress has loaded it."""
        task = self._taking.get(room_id)
        if task is not None:
            with contextlib.suppress(Exception):
                await asyncio.shield(task)
        room = self.registry.rooms.get(room_id)
        return room if room is not None and self.leases.holds(room_id) else None

    async def _take(self, room_id: str) -> Room | None:
        if not await self.leases.acquire(room_id):
            return None
        try:
            fence = await self.store.take_over(room_id)
            room = None if fence is None else await self.registry.load(room_id)
        except BaseException:
            await self._release(room_id)
            raise
        if room is None:
            await self._release(room_id)
            return None
        for lost in await self.leases.renew():  # loading took a while: renew before use
            self.lost(lost)
        if self.registry.rooms.get(room_id) is not room:
            return None
        log.warning("cluster: took room %s over (fence %s)", room_id, fence)
        await self.publish([room])
        return room

    async def claim_new(self, room_id: str) -> None:
        """A room created here is owned here from the start."""
        if not await self.leases.acquire(room_id):
            raise Refusal(Code.TRY_AGAIN, "could not take the new room; try again")

    # --- rooms leaving this process -------------------------------------------------------

    def attach(self, room_id: str, attachment: Attachment) -> None:
        self.attached.setdefault(room_id, set()).add(attachment)

    def detach(self, room_id: str, attachment: Attachment) -> None:
        attached = self.attached.get(room_id)
        if attached is not None:
            attached.discard(attachment)
            if not attached:
                del self.attached[room_id]
        self.remote_proxies.pop(attachment, None)

    def lost(self, room_id: str) -> None:
        """This process may no longer act for the room (its lease ran out or went to another
        process, or the database fenced a write off): stop it here and move its sockets."""
        room = self.registry.rooms.pop(room_id, None)
        taking = self.leases.stop(room_id)
        if room is None:
            self.leases.forget(room_id)
            return
        log.warning("cluster: room %s lost; its sockets move to its new owner", room_id)
        self._spawn(self._drop(room, taking))

    async def _drop(self, room: Room, taking: str | None) -> None:
        await room.close()
        async with room.lock:  # let an action in flight finish (or fail) first
            pass
        # If that taking's lease is still ours (a fenced write), at once; only that taking's:
        # this process may have taken the room again meanwhile.
        await self._release(room.id, taking)
        for attachment in self.attached.pop(room.id, set()):
            attachment.moved()

    async def _release(self, room_id: str, taking: str | None = None) -> None:
        try:
            await self.leases.release(room_id, taking)
        except Exception as exc:  # it expires on its own
            log.warning("cluster: lease of %s not released: %r", room_id, exc)

    async def hand_over(self, flush: Awaitable[None] | None = None) -> None:
        """Before this process exits: stop every room, let the log writer commit what they
        appended (``flush``), then release the leases and move the sockets."""
        self.leaving = True
        rooms = list(self.registry.rooms.values())
        self.registry.rooms.clear()
        for room in rooms:
            await room.close()
            async with room.lock:
                pass
        if flush is not None:
            await flush
        for room in rooms:
            await self._release(room.id)
            for attachment in self.attached.pop(room.id, set()):
                attachment.moved()

    async def close(self) -> None:
        if self._ticker is not None:
            self._ticker.cancel()
            with contextlib.suppress(BaseException):
                await self._ticker
        if self._scanning is not None:
            self._scanning.cancel()
        for task in list(self._tasks):
            task.cancel()
        await self.node.close()

    # --- the tick -------------------------------------------------------------------------

    def _spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def publish(self, rooms: list[Room]) -> None:
        """Refresh these rooms' lobby entries (best effort: the next tick does it again)."""
        try:
            await self.lobby.publish([
                (r.presenter.summary(), r.listed()) for r in rooms])
        except Exception as exc:
            log.warning("cluster: lobby not updated: %r", exc)

    async def _tick(self) -> None:
        period = self.leases.ttl / 4
        beats = 0
        while True:
            await asyncio.sleep(period * random.uniform(0.9, 1.1))  # noqa: S311 - jitter
            beats += 1
            try:
                await self._beat(scan=beats % 2 == 0)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("cluster tick: %r", exc)

    async def _beat(self, scan: bool) -> None:
        await self.node.beat()
        for room_id in await self.leases.renew():
            self.lost(room_id)
        if self.tournaments is not None:
            for tournament_id in await self.tournaments.renew():  # drives() is False at once
                log.warning("cluster: tournament %s lost", tournament_id)
        await self.publish([r for r in self.registry.rooms.values()
                            if self.leases.holds(r.id)])
        proxies = set(self.remote_proxies.values())
        alive = await self.node.alive(proxies)
        for attachment, proxy in list(self.remote_proxies.items()):
            if proxy not in alive:
                attachment.moved()  # its socket's process is gone
        watched = sorted({w.room_id for w in self.watchers})
        owners = await self.leases.owners(watched)
        for watcher in list(self.watchers):
            if owners.get(watcher.room_id) != watcher.owner:
                watcher.moved()
        if scan and not self.leaving and (self._scanning is None or self._scanning.done()):
            # A task of its own: taking rooms over must not hold up the renewals.
            self._scanning = asyncio.create_task(self._scan())

    async def _scan(self) -> None:
        """Take over live rooms that have no owner (their process died or was cut off)."""
        try:
            await self._take_orphans()
        except Exception as exc:
            log.warning("cluster: scan for rooms without an owner failed: %r", exc)

    async def _take_orphans(self) -> None:
        ids = await self.store.live_room_ids()
        owners = await self.leases.owners(ids)
        orphans = [room_id for room_id, owner in owners.items() if owner is None]
        random.shuffle(orphans)
        for room_id in orphans:
            try:
                await self.locate(room_id)
            except Exception as exc:
                log.warning("cluster: room %s not taken over: %r", room_id, exc)
