"""The room's clock: what the room does by itself, and when.

After every change the room asks the scheduler to ``replan``: it works out the turn's deadline
(per turn, fixed when the turn passes to a seat, so the state that starts a turn carries it) and
arms, under the room's supervisor, whatever the new state needs: the next deal, the end of a
Call Rummy window, a computer player's move, the turn timer, a stand-in for a player who is away
or gone past the grace period, or the end of a match nobody plays any more.

Server moves never use client ids, so no client can pre-empt them. A player who times out twice
in a row is *away*: a computer player plays for them until they act again. While the people of a
match are all gone nothing plays (no stand-in plays their table on for nobody): the match waits
for one of them, or for its abandonment. A match every person resigned is played out by the
stand-ins: a resigned hand is not void.

A tournament table (``stand_in_for_absent``) is the exception: its match must end so that the
tournament goes on, with or without its players. Its first hand is dealt once every player seated
at it has a connection open, or at its record's ``arrival.deal_by``, whichever comes first
(PROTOCOL.md §8 "Arrival"): before that nothing is played for anyone. After it, a seat whose
player has no connection open is played by a computer player from the start of its turn (no
grace period, no two timeouts first), the match never waits for its people, and it is never
abandoned.
"""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass, field
from typing import Protocol

from app.engine.state import Phase, State

from .connections import ConnectionSet
from .pace import Pace
from .seating import Seating
from .store import RoomRecord
from .supervisor import Supervisor

AWAY_AFTER_TIMEOUTS = 2
# Phases after which the room deals: between hands, and before the first hand of a match that a
# restart found started but not yet dealt (start_match and record_deal are two transactions).
DEALS_NEXT = (Phase.HAND_OVER, Phase.DEAL)


@dataclass(frozen=True)
class RoomTiming:
    """Delays of the room's own moves, in seconds (tests make them short), and the process's
    pace for computer play nobody watches."""

    call_grace: float = 3.0
    bot_delay: float = 0.6
    next_hand: float = 3.0
    abandon: float = 600.0  # no human connected this long: the match is abandoned
    pace: Pace = field(default_factory=Pace)


class Driver(Protocol):
    """What the scheduler asks the room to do; each checks that ``seq`` is still current."""

    async def record_results(self, seq: int) -> None: ...

    async def deal(self, seq: int) -> None: ...

    async def end_window(self, seq: int) -> None: ...

    async def computer_call(self, seat: int, seq: int) -> None: ...

    async def server_move(self, seat: int, seq: int, timed_out: bool) -> None: ...

    async def abandon(self) -> None: ...


class Scheduler:
    def __init__(self, driver: Driver, seating: Seating, connections: ConnectionSet,
                 timing: RoomTiming, record: RoomRecord, supervisor: Supervisor) -> None:
        self.driver = driver
        self.seating = seating
        self.connections = connections
        self.timing = timing
        self.record = record  # its `arrival` (a tournament's table) may be set after it is made
        settings = record.settings
        self.grace = settings.grace_seconds
        self.turn_seconds = settings.turn_seconds
        self.stand_in_for_absent = settings.stand_in_for_absent
        self.jobs = supervisor
        self.deadline: float | None = None  # the turn's, in epoch seconds (shown to clients)
        self.away: set[int] = set()
        self._turn: tuple[int, int] | None = None
        self._timeouts: dict[int, int] = {}
        self._turn_no = 0  # turns begun since the room started: the key of a turn
        self._counted = -1  # the last turn that timed out
        self._gone_since: dict[int, float] = {}

    # --- presence -------------------------------------------------------------------------

    def presence(self, players: int) -> list[str]:
        """Per seat, ``connected`` (a computer player's seat too), ``away`` (connected, but
        timed out twice) or ``disconnected``: a person with no connection open is
        disconnected, away or not, so that a client can tell from it whether anyone is at the
        table (``anyone_here``, which the match waits on)."""
        out = []
        for seat in range(players):
            player = self.seating.player_at(seat)
            if player is None:
                out.append("connected")
            elif not self.connections.present(player):
                out.append("disconnected")
            else:
                out.append("away" if seat in self.away else "connected")
        return out

    def seen(self, seat: int | None) -> None:
        """The seat's player connected: no stand-in after the grace period."""
        if seat is not None:
            self._gone_since.pop(seat, None)

    def gone(self, seat: int | None) -> None:
        if seat is not None:
            self._gone_since.setdefault(seat, time.monotonic())

    def acted(self, seat: int) -> None:
        """The seat's player sent an action: back from away."""
        self._timeouts.pop(seat, None)
        self.away.discard(seat)

    def timed_out(self, seat: int) -> None:
        """The timer moved for the seat; a turn counts once however many moves it took."""
        if self._counted == self._turn_no:
            return
        self._counted = self._turn_no
        self._timeouts[seat] = self._timeouts.get(seat, 0) + 1
        if self._timeouts[seat] >= AWAY_AFTER_TIMEOUTS:
            self.away.add(seat)

    # --- planning -------------------------------------------------------------------------

    def anyone_here(self) -> bool:
        """Whether a person who plays a seat has a connection open."""
        return any(self.connections.present(p) for p in self.seating.humans())

    def everyone_here(self) -> bool:
        """Whether every person who plays a seat has a connection open."""
        return all(self.connections.present(p) for p in self.seating.humans())

    def deal_at(self, st: State | None) -> float | None:
        """While a tournament's table waits for its players before its first deal: the moment
        (epoch seconds) that deal comes at the latest (PROTOCOL.md §8 "Arrival"); else None."""
        arrival = self.record.arrival
        if arrival is None or st is None or st.hand_no >= 0 or st.phase is not Phase.DEAL:
            return None
        return arrival.deal_by

    def _until_deal(self, st: State) -> float:
        """Seconds until the next deal: between hands the room's pause; a tournament table's
        first deal at once when its last player is there, else at its deadline."""
        deal_by = self.deal_at(st)
        if deal_by is None:
            return self.timing.next_hand
        return 0.0 if self.everyone_here() else max(0.0, deal_by - time.time())

    def attended(self) -> bool:
        """Whether a person is at the table: connected, and not away (timed out twice)."""
        return any(player is not None and seat not in self.away
                   and self.connections.present(player)
                   for seat in range(len(self.seating.seats))
                   if (player := self.seating.player_at(seat)) is not None)

    def paused(self) -> bool:
        """Whether the match waits for its people: some play a seat, none is connected (never
        at a tournament table)."""
        return (not self.stand_in_for_absent and bool(self.seating.humans())
                and not self.anyone_here())

    def stand_ins(self, players: int, st: State | None) -> list[str | None]:
        """Per seat, why a stand-in plays a person's seat now: ``left`` (for good), ``away``
        (timed out twice) or ``absent`` (gone past the grace period); None otherwise, and for
        every seat before a tournament table's first deal (nobody is played for then)."""
        if self.deal_at(st) is not None:
            return [None] * players
        out: list[str | None] = []
        for seat in range(players):
            if self.seating.person_at(seat) is None:
                out.append(None)
            elif self.seating.is_bot(seat):
                out.append("left")
            elif seat in self.away:
                out.append("away")
            elif self._stand_in_plays(seat):
                out.append("absent")
            else:
                out.append(None)
        return out

    def stand_in_at(self, players: int) -> list[float | None]:
        """Per seat, the moment (epoch seconds) a stand-in takes over the seat of a player who
        is gone, in a room without a turn timer; None where none is coming (with a timer the
        turn's deadline says it)."""
        now, mono = time.time(), time.monotonic()
        out: list[float | None] = []
        for seat in range(players):
            gone = self._gone_since.get(seat)
            if (self.turn_seconds == 0 and gone is not None and not self.seating.is_bot(seat)
                    and seat not in self.away and mono - gone < self.grace):
                out.append(round(now + gone + self.grace - mono, 3))
            else:
                out.append(None)
        return out

    def replan(self, st: State | None, playing: bool) -> None:
        """Arm what ``st`` needs (replacing what the previous state needed); while the match
        waits for its people, only what records a finished hand."""
        self.jobs.cancel_all(keep=frozenset({"abandon"}))
        self._plan_abandon(playing)
        if st is None or not playing:
            self.deadline = None
            return
        if self.paused():
            if st.hand_over:
                self.jobs.run("results", 0.0, lambda: self.driver.record_results(st.seq))
            return
        if st.hand_over or st.phase in DEALS_NEXT:
            self.deadline = None
            if st.hand_over:
                self.jobs.run("results", 0.0, lambda: self.driver.record_results(st.seq))
            if not st.game_over:
                self.jobs.run("deal", self._until_deal(st), lambda: self.driver.deal(st.seq))
            return
        if st.phase is Phase.CALL:
            self._plan_window(st)
        self._plan_turn(st)

    def _plan_window(self, st: State) -> None:
        grace = self.timing.call_grace
        self.jobs.run("window", grace, lambda: self.driver.end_window(st.seq))
        for seat in range(st.players):
            if self.seating.is_bot(seat) and st.call is not None and seat != st.call.discarder:
                self.jobs.run(f"call:{seat}", min(self.timing.bot_delay, grace / 2),
                              functools.partial(self.driver.computer_call, seat, st.seq))

    def _plan_turn(self, st: State) -> None:
        seat = st.turn
        if seat is None:
            self.deadline = None
            return
        turn = (st.hand_no, seat)  # a turn lasts while the same seat is to act in the same hand
        if turn != self._turn:
            self._turn = turn
            self._turn_no += 1
            turn_seconds = self.turn_seconds
            self.deadline = time.time() + turn_seconds if turn_seconds > 0 else None
        if self._stand_in_plays(seat):
            self.jobs.run("computer", self.timing.bot_delay,
                          lambda: self.driver.server_move(seat, st.seq, False))
        elif self.deadline is not None:
            self.jobs.run("timer", max(0.0, self.deadline - time.time()),
                          lambda: self.driver.server_move(seat, st.seq, True))
        elif seat in self._gone_since:  # no turn timer: the grace period for a player gone
            left = self._gone_since[seat] + self.grace - time.monotonic()
            self.jobs.run("grace", max(0.0, left),
                          lambda: self.driver.server_move(seat, st.seq, False))

    def _stand_in_plays(self, seat: int) -> bool:
        if self.seating.is_bot(seat) or seat in self.away:
            return True
        if self.stand_in_for_absent:
            player = self.seating.player_at(seat)
            return player is not None and not self.connections.present(player)
        gone = self._gone_since.get(seat)
        return (self.turn_seconds == 0 and gone is not None
                and time.monotonic() - gone >= self.grace)

    def _plan_abandon(self, playing: bool) -> None:
        """A match with no human connected for ``timing.abandon`` seconds is abandoned (never
        a tournament table's, which plays on without them)."""
        if not playing or self.stand_in_for_absent or self.anyone_here():
            self.jobs.cancel("abandon")
        elif not self.jobs.pending("abandon"):
            self.jobs.run("abandon", self.timing.abandon, self.driver.abandon)
