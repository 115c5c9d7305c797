"""Runs a room's own jobs (deals, computer moves, the turn clock, windows) so none dies unseen.

A job that fails because storage is unavailable is retried with backoff until it succeeds, the
room no longer needs it, or it is cancelled: every room resumes by itself once the database is
back. Any other failure is logged with its traceback and retried the same way (a room must not
freeze on one bad moment). ``overdue`` tells the health check about jobs that should have run by
now and did not. A job's log lines name the room and its match (`app.logs.ROOM`), not the
request or the player whose change planned it.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any

from app import logs
from app.services import outage

if TYPE_CHECKING:
    from app.services.records import RoomRecord

log = logging.getLogger(__name__)

FIRST_RETRY = 0.25
LAST_RETRY = 4.0
# How late a job may be before the room counts as stalled (a storage retry in progress is late).
STALL_SLACK = 5.0

Job = Callable[[], Coroutine[Any, Any, Any]]


class Supervisor:
    def __init__(self, record: RoomRecord) -> None:
        self.record = record
        self.room_id = record.id
        self._tasks: dict[str, asyncio.Task[Any]] = {}
        self._due: dict[str, float] = {}
        self._running: set[asyncio.Task[Any]] = set()  # past their delay: never cancelled

    def run(self, name: str, delay: float, job: Job) -> None:
        """Run ``job`` after ``delay`` seconds, replacing any pending job of the same name."""
        self.cancel(name)
        self._due[name] = time.monotonic() + delay
        task = asyncio.get_running_loop().create_task(self._guard(name, delay, job))
        self._tasks[name] = task
        task.add_done_callback(functools.partial(self._forget, name))

    def cancel(self, name: str) -> None:
        """Drop a job; one still waiting for its time is cancelled, one already running
        finishes (it checks that the room is where it was planned, and does nothing if not)."""
        task = self._tasks.pop(name, None)
        self._due.pop(name, None)
        if task is not None and task not in self._running:
            task.cancel()

    def cancel_all(self, keep: frozenset[str] = frozenset()) -> None:
        for name in list(self._tasks):
            if name not in keep:
                self.cancel(name)

    def pending(self, name: str) -> bool:
        return name in self._tasks

    def overdue(self, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        return any(due + STALL_SLACK < now for due in self._due.values())

    async def close(self) -> None:
        tasks = [*self._tasks.values(), *self._running]
        self._tasks.clear()
        self._due.clear()
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task

    def _forget(self, name: str, task: asyncio.Task[Any]) -> None:
        if self._tasks.get(name) is task:
            del self._tasks[name]
            self._due.pop(name, None)

    async def _guard(self, name: str, delay: float, job: Job) -> None:
        # The task copied the context of whoever planned the job: its lines are the room's.
        logs.REQUEST_ID.set(None)
        logs.ROOM.set((self.record, None))
        await asyncio.sleep(delay)
        task = asyncio.current_task()
        assert task is not None  # noqa: S101 - a job runs in its own task
        self._running.add(task)
        try:
            await self._retrying(name, job)
        finally:
            self._running.discard(task)

    async def _retrying(self, name: str, job: Job) -> None:
        backoff = FIRST_RETRY
        while True:
            try:
                await job()
                return
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if not outage.is_storage_outage(exc):
                    log.exception("room %s: job %s failed; retry in %.2f s", self.room_id, name,
                                  backoff)
                else:
                    log.warning("room %s: job %s waits for storage (%r); retry in %.2f s",
                                self.room_id, name, exc, backoff)
            await asyncio.sleep(backoff)
            backoff = min(backoff * 2, LAST_RETRY)
