"""The room's computer players: a computer player's own seat, and a person's seat while a
stand-in plays it (away, gone past the grace period, or left for good).

Each seat's player is made on its first move and kept, so a bot keeps what it remembers of the
hand. The room decides when one plays (the scheduler) and applies its move under its lock.
"""

from __future__ import annotations

import logging
import secrets
import time

from app import metrics
from app.bots import Bot, make_bot
from app.engine.actions import Action, CallRummy
from app.engine.rules import GameRules
from app.engine.state import State
from app.engine.views import seat_view_of

from .seating import STAND_IN, Seating

log = logging.getLogger(__name__)


class StandIns:
    def __init__(self, room_id: str, seating: Seating, rules: GameRules) -> None:
        self.room_id = room_id
        self.seating = seating
        self.rules = rules
        self._bots: dict[int, Bot] = {}
        self._kinds: dict[int, str] = {}  # seat -> its player's level

    def call(self, st: State, seat: int) -> CallRummy | None:
        """The seat's Call Rummy, if its computer player makes one."""
        return self._bot(seat).maybe_call(seat_view_of(st, seat), self.rules)

    def choose(self, st: State, seat: int, fallback: Action) -> Action:
        """The seat's computer move; ``fallback`` (the timeout move) if the player fails."""
        began = time.perf_counter()
        try:
            action = self._bot(seat).choose(seat_view_of(st, seat), self.rules)
        except Exception:
            log.exception("room %s: computer player failed; playing the timeout move",
                          self.room_id)
            return fallback
        metrics.bot_decided(self._kinds[seat], time.perf_counter() - began)
        return action

    def played_for(self, seat: int, timed_out: bool) -> str | None:
        """How the match log marks a server move for ``seat``: None for a computer player's
        own seat, else ``timeout`` (the turn timer) or ``stand_in`` (docs/server.md)."""
        if self.seating.person_at(seat) is None:
            return None
        return "timeout" if timed_out else "stand_in"

    def forget(self, seat: int) -> None:
        """The seat changed hands (its player left): its next move makes a new player."""
        self._bots.pop(seat, None)
        self._kinds.pop(seat, None)

    def _bot(self, seat: int) -> Bot:
        if seat not in self._bots:
            record = self.seating.seats[seat]
            kind = record.bot if record is not None and record.bot else STAND_IN
            self._bots[seat] = make_bot(kind, secrets.randbits(32))
            self._kinds[seat] = kind
        return self._bots[seat]
