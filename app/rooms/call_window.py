"""The Call Rummy window's clock (OPT-CALL-4): how long a turn's first move is held.

A discard that opens the window gives every seat ``call_grace`` seconds to call; a move of the
next turn sent meanwhile waits for the window to end (the scheduler's ``window`` job closes it),
so that a quick player cannot shut out a slower caller.
"""

from __future__ import annotations

import asyncio
import time

from app.engine.state import Phase, State


class CallWindow:
    def __init__(self, grace: float) -> None:
        self.grace = grace
        self.deadline = 0.0  # monotonic seconds

    def opened(self, st: State | None) -> None:
        """``st`` (just made, or restored) may have opened a window: it lasts ``grace`` from
        now."""
        if st is not None and st.phase is Phase.CALL:
            self.deadline = time.monotonic() + self.grace

    def is_open(self, st: State | None) -> bool:
        return st is not None and st.phase is Phase.CALL and self.deadline > time.monotonic()

    async def wait(self, st: State | None) -> None:
        """Hold a turn's first move while the window is open."""
        delay = self.deadline - time.monotonic()
        if self.is_open(st) and delay > 0:
            await asyncio.sleep(delay)
