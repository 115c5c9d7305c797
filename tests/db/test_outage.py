"""What counts as a storage outage (answered 503, retried later) and what stays a bug, and how
long a process stays not ready after one (`app.services.outage`). The servers' own errors are
met for real in tests/api/test_storage_faults.py and test_outage.py; here each kind is named."""

from __future__ import annotations

import asyncpg  # type: ignore[import-untyped]
import pytest
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.exc import TimeoutError as PoolTimeoutError

from app.services.outage import Faults, cause_name, is_storage_outage


def _wrapped(error: Exception) -> DBAPIError:
    """As SQLAlchemy raises a driver's error: its DBAPI adapter's error, caused by it."""
    adapted = Exception(str(error))
    adapted.__cause__ = error
    return DBAPIError("SELECT 1", None, adapted)


OUTAGES = [
    asyncpg.TooManyConnectionsError("sorry, too many clients already"),  # 53300
    asyncpg.InsufficientResourcesError("out of resources"),  # class 53
    asyncpg.CannotConnectNowError("the database system is starting up"),  # 57P03
    asyncpg.AdminShutdownError("terminating connection due to administrator command"),
    asyncpg.ConnectionDoesNotExistError("connection was closed in the middle of operation"),
    PoolTimeoutError("QueuePool limit of size 1 overflow 0 reached"),
    ConnectionResetError(104, "Connection reset by peer"),
]
BUGS = [
    asyncpg.UniqueViolationError("duplicate key value"),
    asyncpg.PostgresSyntaxError("syntax error at or near"),
    asyncpg.UndefinedTableError("relation does not exist"),
    ValueError("not storage at all"),
]


@pytest.mark.parametrize("error", OUTAGES, ids=lambda e: type(e).__name__)
def test_storage_faults_are_outages_bare_and_wrapped(error: Exception) -> None:
    assert is_storage_outage(error)
    assert is_storage_outage(_wrapped(error))
    assert cause_name(_wrapped(error)) == type(error).__name__


@pytest.mark.parametrize("error", BUGS, ids=lambda e: type(e).__name__)
def test_other_errors_stay_bugs(error: Exception) -> None:
    assert not is_storage_outage(error)
    assert not is_storage_outage(_wrapped(error))


def test_an_integrity_error_is_not_an_outage() -> None:
    assert not is_storage_outage(IntegrityError("INSERT", None, Exception("duplicate")))


def test_a_process_is_not_ready_for_the_hold_after_its_last_fault() -> None:
    now = [100.0]
    faults = Faults(hold=5, clock=lambda: now[0])
    assert faults.recent() is None
    faults.note(_wrapped(asyncpg.TooManyConnectionsError("sorry, too many clients already")))
    now[0] += 3.0
    assert faults.recent() == "storage failed a request 3.0 s ago (TooManyConnectionsError)"
    faults.note(PoolTimeoutError("QueuePool limit reached"))
    now[0] += 4.0  # 7 s after the first fault, 4 s after the last
    assert faults.recent() == "storage failed a request 4.0 s ago (TimeoutError)"
    now[0] += 1.5
    assert faults.recent() is None
