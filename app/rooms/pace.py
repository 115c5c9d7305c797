"""Computer play that nobody watches yields the event loop to people.

A room no person is at (a tournament table whose players are all absent, a room of computer
players) plays as fast as its delay allows. At a delay of 0 many such rooms would play back to
back on the one event loop, and a person's action in another room would wait behind all of them
(and behind their log commits). So while people act anywhere in the process, unwatched rooms'
computer players take turns to decide, at most one decision per ``INTERVAL`` seconds, or per
``REST_RATIO`` times the last decision's own time if that was longer. A move costs about 1 ms
of the loop besides its decision (applying it, logging it; measured with bench/tournament.py),
so unwatched play then takes about a twentieth of it. With nobody acting it runs flat out. The
computer players of a room a person is at are never held back: they are part of that person's
game.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

INTERVAL = 0.025
REST_RATIO = 4.0
# How long after a person's action the process counts as busy with people.
BUSY_SECONDS = 1.0


class Pace:
    """One per process, shared by its rooms (`RoomTiming.pace`)."""

    def __init__(self, interval: float = INTERVAL, rest_ratio: float = REST_RATIO,
                 busy_seconds: float = BUSY_SECONDS) -> None:
        self.interval = interval
        self.rest_ratio = rest_ratio
        self.busy_seconds = busy_seconds
        self._turn = asyncio.Lock()
        self._person_at = float("-inf")
        self._next_at = float("-inf")

    def person_acted(self) -> None:
        self._person_at = time.monotonic()

    def people_busy(self) -> bool:
        return time.monotonic() - self._person_at < self.busy_seconds

    @asynccontextmanager
    async def unwatched(self) -> AsyncIterator[None]:
        """Around an unwatched computer player's decision: while people act, wait for the
        turn and the time the last decision left, and set the next one's."""
        if not self.people_busy():
            yield
            return
        async with self._turn:
            wait = self._next_at - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            began = time.monotonic()
            try:
                yield
            finally:
                ended = time.monotonic()
                self._next_at = ended + max(self.interval, self.rest_ratio * (ended - began))
