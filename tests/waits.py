"""Waiting in tests: on a condition, with a generous deadline, never a fixed sleep.

The suite must pass on a busy machine (a CPU-bound load of about 8 on two cores), where a step
that takes 0.1 s alone may take several seconds: a deadline here only bounds how long a broken
test hangs, it never measures anything (speed belongs in bench/).

- `wait_until(check)` / `eventually(check)`: the first true value of `check()` (a plain or an
  async function), polled until `DEADLINE`; the test fails with `what` and the last value.
  An empty or zero result counts as "not yet": wrap one that may be an answer in a tuple.
"""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar, cast

import pytest

T = TypeVar("T")

DEADLINE = 60.0  # seconds: far beyond any healthy wait, even at a load of 10 on two cores
STARTUP_DEADLINE = 120.0  # a server process's start: imports, migrations, rebuild of its rooms
POLL = 0.05


def wait_until(check: Callable[[], T], what: str, timeout: float = DEADLINE,
               interval: float = POLL) -> T:
    """The first true value `check()` returns, polled every `interval` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            pytest.fail(f"{what}: not so after {timeout:.0f} s (last: {value!r})")
        time.sleep(interval)


async def eventually(check: Callable[[], T | Awaitable[T]], what: str,
                     timeout: float = DEADLINE, interval: float = POLL) -> T:
    """`wait_until` for async tests: `check` may be a coroutine function; the loop runs on."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if inspect.isawaitable(value):
            value = await value
        if value:
            return cast(T, value)
        if time.monotonic() > deadline:
            pytest.fail(f"{what}: not so after {timeout:.0f} s (last: {value!r})")
        await asyncio.sleep(interval)
