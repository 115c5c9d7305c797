"""Computer play that nobody watches yields the event loop to people.

A room no person is at (a tournament table whose players are all absent, a room of computer
players) plays as fast as its delay allows. At a delay of 0 many such rooms would play back to
back on the one event loop, and a person's action in another room would wait behind all of them
(and behind their log commits). So while people act anywhere in the process, unwatched rooms
take turns, and each turn waits until no person's action is being handled (`person`), for at
most ``YIELD_LIMIT`` seconds: people come first, and unwatched play goes on in the gaps between
their actions, or at least once per ``YIELD_LIMIT`` on a process that has none. Turns are also
spaced by ``INTERVAL`` seconds, or by ``REST_RATIO`` times the last turn's own time if that was
longer: a move costs about 1 ms of the loop besides its decision (applying it, logging it;
measured with bench/tournament.py), and its log rows and database work compete with people's
for the machine. With nobody acting it runs flat out. The computer players of a room a person
is at are never held back: they are part of that person's game.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Iterator

INTERVAL = 0.025
REST_RATIO = 4.0
YIELD_LIMIT = 0.25
# How long after a person's action the process counts as busy with people.
BUSY_SECONDS = 1.0


class Pace:
    """One per process, shared by its rooms (`RoomTiming.pace`)."""

    def __init__(self, interval: float = INTERVAL, rest_ratio: float = REST_RATIO,
                 busy_seconds: float = BUSY_SECONDS, yield_limit: float = YIELD_LIMIT) -> None:
        self.interval = interval
        self.rest_ratio = rest_ratio
        self.busy_seconds = busy_seconds
        self.yield_limit = yield_limit
        self._turn = asyncio.Lock()
        self._person_at = float("-inf")
        self._next_at = float("-inf")
        self._handling = 0  # people's actions being handled now
        self._no_person = asyncio.Event()
        self._no_person.set()

    @contextlib.contextmanager
    def person(self) -> Iterator[None]:
        """Around the handling of a person's action (`Room.act`)."""
        self._person_at = time.monotonic()
        self._handling += 1
        self._no_person.clear()
        try:
            yield
        finally:
            self._handling -= 1
            if not self._handling:
                self._no_person.set()

    def people_busy(self) -> bool:
        return bool(self._handling) or time.monotonic() - self._person_at < self.busy_seconds

    @contextlib.asynccontextmanager
    async def unwatched(self) -> AsyncIterator[None]:
        """Around an unwatched turn (a computer player's decision, a tournament table's
        opening): while people act, wait for the turn, the time the last turn left, and a
        moment no person's action is being handled; then set the next turn's time."""
        if not self.people_busy():
            yield
            return
        async with self._turn:
            wait = self._next_at - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._no_person.wait(), self.yield_limit)
            began = time.monotonic()
            try:
                yield
            finally:
                ended = time.monotonic()
                self._next_at = ended + max(self.interval, self.rest_ratio * (ended - began))
