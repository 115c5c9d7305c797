"""Telling a storage outage (PostgreSQL, SQLite or Redis unreachable) from a wrong query.

An outage is answered `storage_unavailable` (HTTP 503, a websocket error) and the request may
be tried again later; any other error is a bug and stays one.
"""

from __future__ import annotations

import asyncpg  # type: ignore[import-untyped]
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError
from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError

from app.refusals import Code

CODE = Code.STORAGE_UNAVAILABLE
MESSAGE = "storage is unreachable at the moment; try again shortly"

# Exceptions that may mean an outage; `is_storage_outage` decides for a given one.
MAYBE_OUTAGE: tuple[type[Exception], ...] = (
    DBAPIError, OSError, asyncpg.PostgresError, RedisConnectionError, RedisTimeoutError)

_OUTAGE = (
    OperationalError,  # connection refused or lost, SQLite busy past its timeout
    InterfaceError,  # the driver's connection is closed
    OSError,  # refused, reset, unreachable; TimeoutError (connecting) is one too
    asyncpg.PostgresConnectionError,  # SQLSTATE class 08
    asyncpg.OperatorInterventionError,  # class 57: shutting down, starting up
    RedisConnectionError,
    RedisTimeoutError,
)


def is_storage_outage(exc: BaseException) -> bool:
    """Whether `exc` (or the driver error it wraps) says storage cannot be reached now."""
    seen: BaseException | None = exc
    for _ in range(4):  # SQLAlchemy error -> adapted driver error -> asyncpg error
        if seen is None:
            return False
        if isinstance(seen, DBAPIError) and seen.connection_invalidated:
            return True
        if isinstance(seen, _OUTAGE):
            return True
        seen = seen.__cause__ or getattr(seen, "orig", None)
    return False
