"""Room ownership: a lease per live room in Redis, held by one process and renewed by it.
A second set of them, under a prefix of its own, says who drives each running tournament
(`app.rooms.tournaments`).

A lease's value is the holder's process id and a nonce of this taking (``node_of`` reads the
process), so a socket relayed to the room can tell that its owner dropped the room and took it
again (its connection there is gone) from an owner that kept it. ``SET key value NX PX ttl``
takes a lease; a Lua compare-and-set renews or releases it only for
its holder. A lease only says who *should* write a room: this process counts it as held until a
safety margin before its expiry measured from when it asked, so a paused or cut-off process stops
on its own; the database's fencing token (`app.cluster.store`) is what makes a late write fail.
"""

from __future__ import annotations

import logging
import secrets
import time

from redis.asyncio import Redis

from app import metrics

log = logging.getLogger(__name__)

SAFETY = 0.8  # of the lease period: how much of it this process relies on

_RENEW = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
"""
# Compare-and-delete: only the holding that set the value removes it (leases, shared locks).
RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""


class Leases:
    def __init__(self, redis: Redis, prefix: str, node_id: str, ttl: float) -> None:
        self.redis = redis
        self.prefix = prefix
        self.node_id = node_id
        self.ttl = ttl
        self._until: dict[str, float] = {}  # room -> monotonic time it is held until
        self._values: dict[str, str] = {}  # room -> this taking's lease value
        self._renew = redis.register_script(_RENEW)
        self._release = redis.register_script(RELEASE)

    def key(self, room_id: str) -> str:
        return f"{self.prefix}:lease:{room_id}"

    def holds(self, room_id: str) -> bool:
        return self._until.get(room_id, 0.0) > time.monotonic()

    def held(self) -> int:
        """How many leases this process counts as held now."""
        now = time.monotonic()
        return sum(1 for until in self._until.values() if until > now)

    def holding(self) -> list[str]:
        """What this process counts as held now."""
        now = time.monotonic()
        return [room_id for room_id, until in self._until.items() if until > now]

    async def acquire(self, room_id: str) -> bool:
        asked = time.monotonic()
        value = f"{self.node_id} {secrets.token_hex(4)}"
        if not await self.redis.set(self.key(room_id), value, nx=True,
                                    px=int(self.ttl * 1000)):
            return False
        self._until[room_id] = asked + self.ttl * SAFETY
        self._values[room_id] = value
        return True

    async def renew(self) -> list[str]:
        """Renew every lease held; returns the rooms whose lease is gone or someone else's.
        If Redis cannot be reached nothing is renewed, and the leases run out on their own."""
        rooms = list(self._until)
        if not rooms:
            return []
        asked = time.monotonic()
        try:
            async with self.redis.pipeline(transaction=False) as pipe:
                for room_id in rooms:
                    await self._renew(keys=[self.key(room_id)],
                                      args=[self._values[room_id], int(self.ttl * 1000)],
                                      client=pipe)
                results = await pipe.execute()
        except Exception as exc:
            log.warning("cluster: leases not renewed: %r", exc)
            metrics.leases_renewed(0, 0, len(rooms))
            return [r for r in rooms if not self.holds(r)]
        metrics.redis_round_trip(time.monotonic() - asked)
        lost = []
        for room_id, renewed in zip(rooms, results, strict=True):
            if renewed:
                self._until[room_id] = asked + self.ttl * SAFETY
            else:
                lost.append(room_id)
                self.forget(room_id)
        metrics.leases_renewed(len(rooms) - len(lost), len(lost), 0)
        return lost

    def forget(self, room_id: str) -> None:
        self._until.pop(room_id, None)
        self._values.pop(room_id, None)

    def stop(self, room_id: str) -> str | None:
        """Count the room as not held from now on; returns this taking's lease value, for
        `release` (which still deletes the lease)."""
        self._until.pop(room_id, None)
        return self._values.get(room_id)

    async def release(self, room_id: str, value: str | None = None) -> None:
        """Delete the lease if it is still this taking's (`value`: a taking that was stopped;
        the room may have been taken again here since, and that taking is left alone)."""
        if value is None:
            value = self._values.get(room_id)
        if self._values.get(room_id) == value:
            self.forget(room_id)
        if value is not None:
            await self._release(keys=[self.key(room_id)], args=[value])

    async def owner(self, room_id: str) -> str | None:
        """The room's lease value (``node_of`` gives the process), or None."""
        value = await self.redis.get(self.key(room_id))
        return None if value is None else _text(value)

    async def owners(self, room_ids: list[str]) -> dict[str, str | None]:
        if not room_ids:
            return {}
        values = await self.redis.mget([self.key(r) for r in room_ids])
        return {r: None if v is None else _text(v)
                for r, v in zip(room_ids, values, strict=True)}


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def node_of(lease: str) -> str:
    """The process that holds a lease of this value."""
    return lease.split(" ", 1)[0]
