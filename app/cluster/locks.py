"""Locks every process shares, by name, in Redis: ``SET key token NX PX ttl`` takes one, and a
Lua compare-and-delete releases it only for the holding that took it (as a lease is released).

Held for a short critical section (quick seat's choice of a room and the join, docs/scaling.md);
the expiry only frees a lock whose holder died or stalled in the middle.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import AsyncIterator

from redis.asyncio import Redis

from app.refusals import Code, Refusal

from .leases import RELEASE

log = logging.getLogger(__name__)

HOLD_SECONDS = 30.0  # a holder that has not released by then has died or stalled
WAIT_SECONDS = 30.0  # how long a caller waits for the lock before `try_again`
POLL_SECONDS = (0.005, 0.1)  # the first and the longest pause between two attempts


class SharedLocks:
    def __init__(self, redis: Redis, prefix: str) -> None:
        self.redis = redis
        self.prefix = prefix
        self._release = redis.register_script(RELEASE)

    @contextlib.asynccontextmanager
    async def hold(self, name: str) -> AsyncIterator[None]:
        """Hold lock ``name`` for the block; ``try_again`` if it stays taken too long."""
        key = f"{self.prefix}:lock:{name}"
        token = secrets.token_hex(8)
        deadline = time.monotonic() + WAIT_SECONDS
        pause = POLL_SECONDS[0]
        while not await self.redis.set(key, token, nx=True, px=int(HOLD_SECONDS * 1000)):
            if time.monotonic() > deadline:
                raise Refusal(Code.TRY_AGAIN, "too many calls at once; try again in a moment")
            await asyncio.sleep(pause)
            pause = min(pause * 2, POLL_SECONDS[1])
        try:
            yield
        finally:
            try:
                await self._release(keys=[key], args=[token])
            except Exception as exc:  # it expires on its own
                log.warning("cluster: lock %s not released: %r", name, exc)
