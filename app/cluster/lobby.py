"""The lobby shared by every process: each listed room's summary under a key of its own that
its owner keeps fresh (it expires with a dead owner and returns when a survivor takes the room
over), and a sorted set of room ids, newest first."""

from __future__ import annotations

import time
from typing import Any

import orjson
from redis.asyncio import Redis


class SharedLobby:
    def __init__(self, redis: Redis, prefix: str, ttl: float) -> None:
        self.redis = redis
        self.index = f"{prefix}:lobby"
        self.prefix = prefix
        self.ttl_ms = int(ttl * 3000)

    def _key(self, room_id: str) -> str:
        return f"{self.prefix}:summary:{room_id}"

    async def publish(self, summaries: list[tuple[dict[str, Any], bool]]) -> None:
        """Each (summary, listed): a listed room is shown (its summary refreshed), another one
        taken off the list."""
        if not summaries:
            return
        now = time.time()
        async with self.redis.pipeline(transaction=False) as pipe:
            for summary, listed in summaries:
                room_id = summary["id"]
                if listed:
                    pipe.set(self._key(room_id), orjson.dumps(summary), px=self.ttl_ms)
                    pipe.zadd(self.index, {room_id: now}, nx=True)
                else:
                    pipe.delete(self._key(room_id))
                    pipe.zrem(self.index, room_id)
            await pipe.execute()

    async def rooms(self) -> list[dict[str, Any]]:
        ids = [_text(i) for i in await self.redis.zrevrange(self.index, 0, -1)]
        if not ids:
            return []
        found = await self.redis.mget([self._key(i) for i in ids])
        return [orjson.loads(value) for value in found if value is not None]


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else value
