"""Telling a storage outage (PostgreSQL, SQLite or Redis unreachable or out of connections)
from a wrong query, and remembering the last one.

An outage is answered `storage_unavailable` (HTTP 503, a websocket error) and the request may
be tried again later; any other error is a bug and stays one. `Faults` keeps the process not
ready for a few seconds after the last outage a request met (docs/operations.md, "Storage
faults"): a database out of connection slots still answers the readiness check on a pooled
connection while the requests that need a new one fail.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import asyncpg  # type: ignore[import-untyped]
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError
from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeoutError

from app.refusals import Code

CODE = Code.STORAGE_UNAVAILABLE
MESSAGE = "storage is unreachable at the moment; try again shortly"

# Exceptions that may mean an outage; `is_storage_outage` decides for a given one.
MAYBE_OUTAGE: tuple[type[Exception], ...] = (
    DBAPIError, PoolTimeoutError, OSError, asyncpg.PostgresError, RedisConnectionError,
    RedisTimeoutError)

_OUTAGE = (
    OperationalError,  # connection refused or lost, SQLite busy past its timeout
    InterfaceError,  # the driver's connection is closed
    OSError,  # refused, reset, unreachable; TimeoutError (connecting) is one too
    PoolTimeoutError,  # no pooled connection came free within the pool's wait
    asyncpg.PostgresConnectionError,  # SQLSTATE class 08
    asyncpg.InsufficientResourcesError,  # class 53: out of connection slots, memory, disk
    asyncpg.OperatorInterventionError,  # class 57: shutting down, starting up
    RedisConnectionError,
    RedisTimeoutError,
)


def is_storage_outage(exc: BaseException) -> bool:
    """Whether `exc` (or the driver error it wraps) says storage cannot be reached now."""
    return any((isinstance(seen, DBAPIError) and seen.connection_invalidated)
               or isinstance(seen, _OUTAGE) for seen in _wrapped(exc, 4))


def _wrapped(exc: BaseException, most: int) -> list[BaseException]:
    """`exc` and the errors it wraps, outermost first, at most `most` of them (SQLAlchemy error
    -> adapted driver error -> asyncpg error)."""
    chain = [exc]
    while len(chain) < most:
        inner = chain[-1].__cause__ or getattr(chain[-1], "orig", None)
        if not isinstance(inner, BaseException):
            break
        chain.append(inner)
    return chain


HOLD_SECONDS = 5  # not ready this long after the last outage a request met (Retry-After too)


class Faults:
    """When storage last failed a request of this process, and how."""

    def __init__(self, hold: float = HOLD_SECONDS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.hold = hold
        self.clock = clock
        self._last: tuple[float, str] | None = None

    def note(self, exc: BaseException) -> None:
        """An outage (`is_storage_outage(exc)`) failed a request just now."""
        self._last = (self.clock(), cause_name(exc))

    def recent(self) -> str | None:
        """Why the process is not ready (the last outage, within `hold` seconds), or None."""
        if self._last is None:
            return None
        at, name = self._last
        ago = self.clock() - at
        return None if ago > self.hold else f"storage failed a request {ago:.1f} s ago ({name})"


def cause_name(exc: BaseException) -> str:
    """The innermost error's type (`TooManyConnectionsError`, not SQLAlchemy's `DBAPIError`)."""
    return type(_wrapped(exc, 5)[-1]).__name__
