"""Throttles: at most `count` events per sliding window of `window` seconds under one key.

They guard what costs the server or mints chips: failed logins (per username and per
address), registrations and guest accounts (per address). Two backends share one interface:

- `RedisThrottle`: a sorted set of event times per key, checked and recorded by one Lua script
  (atomic, on the Redis server's clock), so every process using the same Redis and prefix
  shares the counts; keys expire with their window.
- `MemoryThrottle`: the same in this process's memory, for a single process without Redis.

`take` records an event for each (limit, key) or for none, raising `TooManyAttempts` with
the whole seconds until the first would be allowed; `give_back` forgets recorded events (a
successful login is not a failed attempt).
"""

from __future__ import annotations

import math
import secrets
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from app.refusals import Code, FixedRefusal
from app.services.redis_client import make_redis
from app.settings import Settings


class TooManyAttempts(FixedRefusal):
    """Over a limit; `retry_after` is the whole seconds until one more would be allowed."""

    code = Code.TOO_MANY_ATTEMPTS

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message, {"retry_after": retry_after})
        self.retry_after = retry_after


@dataclass(frozen=True)
class Limit:
    """`count` events per `window` seconds for each key of one kind."""

    kind: str  # part of the key: "login_username", "guest", ...
    count: int
    window: float
    what: str  # for the refusal: "failed logins for this username"


@dataclass(frozen=True)
class Limits:
    """The limits of docs/security.md, from the settings."""

    login_username: Limit
    login_address: Limit
    registration: Limit
    guest: Limit

    @classmethod
    def from_settings(cls, settings: Settings) -> Limits:
        hour = 3600.0
        window = settings.login_window_seconds
        return cls(
            Limit("login_username", settings.login_attempts_per_username, window,
                  "failed logins for this username"),
            Limit("login_address", settings.login_attempts_per_address, window,
                  "failed logins from this address"),
            Limit("registration", settings.registrations_per_address_per_hour, hour,
                  "registrations from this address"),
            Limit("guest", settings.guests_per_address_per_hour, hour,
                  "guest accounts from this address"))


@dataclass(frozen=True)
class Ticket:
    """One recorded event, so that it can be given back."""

    key: str
    event: str


class Throttle:
    """The interface; backends implement `_take_one` and `_forget`."""

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix

    async def take(self, *checks: tuple[Limit, str]) -> list[Ticket]:
        """Record one event under every (limit, key), or none of them if any limit is reached."""
        tickets: list[Ticket] = []
        for limit, key in checks:
            ticket = Ticket(f"{self.prefix}:throttle:{limit.kind}:{key}", secrets.token_hex(8))
            wait = await self._take_one(ticket, limit)
            if wait is not None:
                await self.give_back(tickets)
                seconds = max(1, math.ceil(wait))
                raise TooManyAttempts(f"too many {limit.what}: at most {limit.count} in "
                                      f"{_duration(limit.window)}; try again in {seconds} s",
                                      seconds)
            tickets.append(ticket)
        return tickets

    async def give_back(self, tickets: list[Ticket]) -> None:
        for ticket in tickets:
            await self._forget(ticket)

    async def close(self) -> None:
        """Release connections (the Redis backend)."""

    async def _take_one(self, ticket: Ticket, limit: Limit) -> float | None:
        """Record the event and return None, or return the seconds to wait (nothing recorded)."""
        raise NotImplementedError

    async def _forget(self, ticket: Ticket) -> None:
        raise NotImplementedError


def _duration(seconds: float) -> str:
    if seconds % 3600 == 0:
        return f"{int(seconds // 3600)} h"
    if seconds % 60 == 0:
        return f"{int(seconds // 60)} min"
    return f"{seconds:g} s"


# KEYS[1]: the key; ARGV: window seconds, count, event id. Returns nil (recorded) or the wait.
_TAKE = """
local now = redis.call('TIME')
local t = tonumber(now[1]) + tonumber(now[2]) / 1000000
local window = tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', t - window)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return tostring(tonumber(oldest[2]) + window - t)
end
redis.call('ZADD', KEYS[1], t, ARGV[3])
redis.call('PEXPIRE', KEYS[1], math.ceil(window * 1000))
return false
"""


class RedisThrottle(Throttle):
    def __init__(self, url: str, prefix: str) -> None:
        super().__init__(prefix)
        self.redis = make_redis(url, connect_timeout=3, timeout=3)
        self._script = self.redis.register_script(_TAKE)

    async def _take_one(self, ticket: Ticket, limit: Limit) -> float | None:
        wait = await self._script(keys=[ticket.key], args=[limit.window, limit.count,
                                                             ticket.event])
        return None if wait is None else float(wait)

    async def _forget(self, ticket: Ticket) -> None:
        await self.redis.zrem(ticket.key, ticket.event)

    async def close(self) -> None:
        await self.redis.aclose()


class MemoryThrottle(Throttle):
    """Event times per key in this process; keys are swept once their events have expired."""

    SWEEP_EVERY = 1000

    def __init__(self, prefix: str = "memory",
                 clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__(prefix)
        self.clock = clock
        self.events: dict[str, deque[tuple[float, str]]] = {}
        self.windows: dict[str, float] = {}
        self._takes = 0

    async def _take_one(self, ticket: Ticket, limit: Limit) -> float | None:
        now = self.clock()
        self._sweep(now)
        events = self.events.setdefault(ticket.key, deque())
        self.windows[ticket.key] = limit.window
        _expire(events, now - limit.window)
        if len(events) >= limit.count:
            return events[0][0] + limit.window - now
        events.append((now, ticket.event))
        return None

    async def _forget(self, ticket: Ticket) -> None:
        events = self.events.get(ticket.key)
        if events is not None:
            self.events[ticket.key] = deque(e for e in events if e[1] != ticket.event)

    def _sweep(self, now: float) -> None:
        self._takes += 1
        if self._takes % self.SWEEP_EVERY:
            return
        for key in list(self.events):
            _expire(self.events[key], now - self.windows[key])
            if not self.events[key]:
                del self.events[key], self.windows[key]


def _expire(events: deque[tuple[float, str]], before: float) -> None:
    while events and events[0][0] <= before:
        events.popleft()


def make_throttle(settings: Settings) -> Throttle:
    """Redis when `RUMMY_REDIS_URL` is set (shared by every process), else this process's memory."""
    if settings.redis_url:
        return RedisThrottle(settings.redis_url, settings.redis_prefix)
    return MemoryThrottle(settings.redis_prefix)
