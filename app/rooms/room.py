"""One live room: the parts that make it, its one entry point, and the one path by which its
match changes.

``Seating`` (seats, host, who may act), ``MatchRunner`` (engine state, durable log, replies),
``Scheduler`` (the room's own moves and the turn clock, run by a ``Supervisor``),
``CallWindow`` (how long a Call Rummy window holds the next move), ``StandIns`` (the computer
players), ``ChatLog`` (stored chat), ``RematchOffer`` (play again), ``ConnectionSet``
(presence, fan-out, recent events) and ``Presenter`` (the summary, and each seat's message
encoded once per change). The room's settings are the record's frozen ``RoomSettings``.

Whatever a route or a socket asks of the room is a command (`app.rooms.commands`) that
:meth:`Room.handle` runs. The room holds one lock: every change is judged, made durable and
then shown under it, and after each change the scheduler replans and every connection is
*queued* its view, so no socket ever holds the room up.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, TypeVar

from app import logs
from app.bots.registry import DEFAULT_LEVEL
from app.engine.actions import Action, parse_action
from app.engine.errors import RuleError
from app.engine.state import Phase
from app.refusals import Code, Refusal
from app.seating_policy import How, shown
from app.services import outage

from .call_window import CallWindow
from .chat_log import ChatLog
from .commands import Caller, RoomCommand
from .connections import Connection, ConnectionSet
from .presenter import Presenter, encode
from .rematch import RematchOffer
from .replies import outcome
from .runner import Events, MatchRunner
from .scheduler import RoomTiming, Scheduler
from .seating import Seating
from .stand_ins import StandIns
from .store import Arrival, LiveMatch, MatchStore, RoomRecord
from .supervisor import Supervisor
from .timeouts import timeout_action

__all__ = ["Room", "RoomTiming"]

log = logging.getLogger(__name__)
ClientId = str | int | None
Answer = TypeVar("Answer")


class Room:
    def __init__(self, record: RoomRecord, store: MatchStore, timing: RoomTiming) -> None:
        self.record = record
        self.rules = record.settings.rules
        self.lock = asyncio.Lock()
        self.seating = Seating(record, store)
        self.runner = MatchRunner(record, self.rules, store)
        self.connections = ConnectionSet()
        self.presenter = Presenter(self)
        self.supervisor = Supervisor(record)
        self.scheduler = Scheduler(self, self.seating, self.connections, timing, record,
                                   self.supervisor)
        self.window = CallWindow(timing.call_grace)
        self.pace = timing.pace
        self.stand_ins = StandIns(record.id, self.seating, self.rules)
        self.chat_log = ChatLog(record, store)
        self.rematch = RematchOffer(record, self.seating)

    @property
    def id(self) -> str:
        return self.record.id

    @property
    def seq(self) -> int:
        return self.runner.seq

    def seat_of(self, player_id: str) -> int | None:
        return self.seating.acting_seat(player_id)

    def admits(self, player_id: str, invite: str | None) -> bool:
        return self.seating.admits(player_id, invite)

    def listed(self) -> bool:
        """Whether the lobby shows the room: a public room that is waiting, or playing with a
        person at the table, connected and not away (a match nobody is at is not shown as
        playing)."""
        r = self.record
        return not r.settings.private and (r.status == "waiting"
                                  or (r.status == "playing" and self.scheduler.attended()))

    def stalled(self) -> bool:
        """A playing room whose own next move is overdue (the health check lists it)."""
        return self.record.status == "playing" and self.supervisor.overdue()

    async def handle(self, command: RoomCommand[Answer], caller: Caller) -> Answer:
        """Run ``command`` (`app.rooms.commands`) for ``caller``: its answer, or the refusal
        raised. What changes the room takes the lock inside, where it changes it. Meanwhile
        log lines name the room, its match and the caller (`app.logs.ROOM`)."""
        where = logs.ROOM.set((self.record, caller.id))
        try:
            return await command.run(self, caller)
        finally:
            logs.ROOM.reset(where)

    # --- seats ----------------------------------------------------------------------------

    async def join(self, player_id: str, name: str, address: str | None = None,
                   how: How = How.JOIN) -> int:
        """Seat the player, who asks ``how`` from the client ``address`` (their seat again if
        they have one; `Seating.join`). The join that fills a quick-seat room starts it; if
        starting fails, the next join (the same player asking again) tries again."""
        async with self.lock:
            seat = await self.seating.join(player_id, name, address, how)
            self._seats_changed()
            if self.seating.starts_itself():
                await self._begin()
        return seat

    async def add_bots(self, player_id: str, count: int, level: str = DEFAULT_LEVEL) -> list[int]:
        async with self.lock:
            seats = await self.seating.add_bots(player_id, count, level)
            self._seats_changed()
        return seats

    async def leave(self, player_id: str) -> None:
        async with self.lock:
            seat = await self.seating.leave(player_id)
            self.stand_ins.forget(seat)
            self.runner.forget_client_seed(seat)
            self.scheduler.acted(seat)  # nothing left to be away from
            self._seats_changed()

    def _seats_changed(self) -> None:
        self.connections.reseat(self.seating.acting_seat)
        self._replan()
        self._push_state([])

    # --- the match ------------------------------------------------------------------------

    async def start(self, player_id: str) -> None:
        async with self.lock:
            self.seating.check_host(player_id)
            self.seating.check_waiting()
            if not self.seating.full():
                raise Refusal(Code.SEATS_EMPTY, "fill every seat (invite players or add bots)")
            await self._begin()

    async def _begin(self) -> None:
        """Start the match and deal its first hand (under the lock, every seat taken); a
        tournament's table deals it when its players are there (`Scheduler.deal_at`)."""
        await self.runner.start()
        self.seating.forget_addresses()
        self._mark_absent_players()
        self._changed([] if self.record.arrival is not None else await self.runner.deal_next())

    def expect(self, arrival: Arrival) -> None:
        """A tournament's table: its first deal waits for its players until ``arrival``'s
        deadline (PROTOCOL.md §8 "Arrival"). The first one known stands: a rebuilt room has it
        from the table's first opening already."""
        if self.record.arrival is None:
            self.record.arrival = arrival
            self._replan()

    async def act(self, player_id: str, client_id: ClientId, action: Any) -> dict[str, Any]:
        """A player's action: the ``ack`` or ``error`` reply for the client."""
        seat = self.seating.acting_seat(player_id)
        if seat is None:
            return Refusal(Code.NOT_SEATED, "you have no seat in this room").reply(client_id)
        key = (player_id, client_id) if client_id is not None else None
        if key is not None and (found := self.runner.replies.get(key)) is not None:
            return found  # a repeated client id is answered as before
        try:
            parsed = parse_action(action)
        except RuleError as exc:
            return Refusal(exc.code, exc.message).reply(client_id)
        was_away = seat in self.scheduler.away
        self.scheduler.acted(seat)
        if was_away:  # back: no stand-in any more, and the presence shows it
            self._replan()
            self._push_state([])
        if parsed.type != "call_rummy" and self.window.is_open(self.runner.state):
            refusal = self.runner.judge(seat, parsed, key, client_id)
            if refusal is not None:  # refused now, not after the window: it changes nothing
                return refusal
            await self.window.wait(self.runner.state)
        with self.pace.person():  # unwatched tables wait while it is handled
            async with self.lock:
                if key is not None and (found := self.runner.replies.get(key)) is not None:
                    return found
                try:
                    reply, events = await self.runner.apply(seat, parsed, key, client_id)
                except Exception as exc:
                    return _storage_refusal(self.id, client_id, exc)
                if events:
                    await self._record_if_over()
                    self._changed(events)
        return reply

    async def seed(self, player_id: str, value: object) -> dict[str, Any]:
        """A seated player's seed for the next deal (PROTOCOL.md §7): the reply names the
        commitment it counts against. Under the lock, so that it falls on one side of a deal."""
        seat = self.seating.acting_seat(player_id)
        if seat is None:
            raise Refusal(Code.NOT_SEATED, "only a seated player may send a seed")
        async with self.lock:
            committed = self.runner.set_client_seed(seat, value)
        return {"type": "seed", "value": value, "next_deal_commitment": committed}

    async def _record_if_over(self) -> None:
        """A hand that just ended is recorded (and settled) before anyone is shown its end; if
        storage fails now, the scheduler's ``results`` job keeps trying."""
        st = self.runner.state
        if st is not None and st.hand_over:
            try:
                await self.runner.record_results()
            except Exception as exc:
                log.warning("room %s: the hand's result waits for storage: %r", self.id, exc)

    def _changed(self, events: Events) -> None:
        """After a change (under the lock): plan the room's next moves, then show it."""
        if events:
            self.window.opened(self.runner.state)
        self._replan()
        self.connections.remember(events)
        self._push_state(events)

    def _replan(self) -> None:
        self.scheduler.replan(self.runner.state, self.record.status == "playing")

    def _mark_absent_players(self) -> None:
        for seat in range(self.record.settings.seats):
            player = self.seating.player_at(seat)
            if player is not None and not self.connections.present(player):
                self.scheduler.gone(seat)

    # --- the room's own moves (called by the scheduler, under its supervisor) ---------------

    def _current(self, seq: int) -> bool:
        return self.runner.state is not None and self.runner.state.seq == seq

    async def deal(self, seq: int) -> None:
        """Record the finished hand, then deal the next one (or finish the match)."""
        async with self.lock:
            if not self._current(seq):
                return
            await self.runner.record_results()
            st = self.runner.state
            if self.record.status != "playing" or st is None:
                self._changed([])
                return
            if st.hand_over and st.game_over:
                return
            if st.phase in (Phase.HAND_OVER, Phase.DEAL):
                self._changed(await self.runner.deal_next())

    async def record_results(self, seq: int) -> None:
        async with self.lock:
            if self._current(seq):
                closed_before = self.record.status == "closed"
                await self.runner.record_results()
                if self.record.status == "closed" and not closed_before:
                    self._changed([])

    async def end_window(self, seq: int) -> None:
        async with self.lock:
            st = self.runner.state
            if self._current(seq) and st is not None and st.phase is Phase.CALL:
                events = self.runner.close_window()
                await self._record_if_over()
                self._changed(events)

    async def computer_call(self, seat: int, seq: int) -> None:
        st = self.runner.state
        if st is None or not self._current(seq):
            return
        call = self.stand_ins.call(st, seat)
        if call is not None:
            await self._server_apply(seat, seq, call, self.stand_ins.played_for(seat, False))

    async def server_move(self, seat: int, seq: int, timed_out: bool) -> None:
        """The turn timer's move, or a computer player's (for a bot, a player who is away, or
        one gone past the grace period). At a table nobody is at, the computer player thinks in
        turn with the process's other unwatched tables (`app.rooms.pace`)."""
        st = self.runner.state
        if st is None or not self._current(seq) or st.turn != seat:
            return
        fallback = timeout_action(st, seat)
        action: Action = fallback
        if timed_out:
            self.scheduler.timed_out(seat)
        elif self.scheduler.attended():
            action = self.stand_ins.choose(st, seat, fallback)
        else:
            async with self.pace.unwatched():
                if not self._current(seq):
                    return
                action = self.stand_ins.choose(st, seat, fallback)
        played_for = self.stand_ins.played_for(seat, timed_out)
        if not await self._server_apply(seat, seq, action, played_for) and action is not fallback:
            log.error("room %s: computer player's move %s refused; playing the timeout move",
                      self.id, action.to_json())
            await self._server_apply(seat, seq, fallback, played_for)

    async def _server_apply(self, seat: int, seq: int, action: Action,
                            played_for: str | None) -> bool:
        """Apply a server move if the state is still ``seq``; storage errors propagate, so the
        supervisor retries the move."""
        async with self.lock:
            if not self._current(seq):
                return True
            where = logs.ROOM.set((self.record, self.seating.person_at(seat)))
            try:
                reply, events = await self.runner.apply(seat, action, None, None, played_for)
                log.debug("room %s: seat %d's action %r by the server (%s): %s", self.id, seat,
                          action.type, played_for or "computer player", outcome(reply))
                if events:
                    await self._record_if_over()
                    self._changed(events)
            finally:
                logs.ROOM.reset(where)
            return bool(reply["type"] == "ack")

    async def abandon(self) -> None:
        """Nobody human has been connected for the abandon delay: end the match."""
        async with self.lock:
            if self.record.status != "playing" or any(
                    self.connections.present(p) for p in self.seating.humans()):
                return
            await self.runner.abandon()
            log.info("room %s: match %s abandoned", self.id, self.record.match_id)
            self._changed([{"type": "abandoned"}])

    # --- connections ----------------------------------------------------------------------

    def connect(self, conn: Connection) -> None:
        """Add a connection and queue it the current state, the recent events and chat."""
        seat = self.seating.acting_seat(conn.player_id)
        arrived = self.connections.add(conn, seat)
        if arrived and seat is not None:
            self.scheduler.seen(seat)
            self._replan()
            self._push_state([], skip=conn)  # the others see the presence change
        conn.push(self.presenter.first(seat, list(self.connections.events),  # seen: no countdown
                                       self.chat_log.recent(conn.player_id)))
        if self.rematch.offered is not None and seat is not None:
            conn.push(self.rematch.message())

    def disconnect(self, conn: Connection) -> None:
        seat = self.seating.acting_seat(conn.player_id)
        if self.connections.remove(conn) and seat is not None:
            self.scheduler.gone(seat)
            self._replan()
            if self.runner.state is not None:
                self._push_state([])  # presence

    def _push_state(self, events: Events, skip: Connection | None = None) -> None:
        """Queue each connection its seat's message for this change (`Presenter.messages`)."""
        if self.runner.state is None and not events and skip is not None:
            return  # no match yet: presence is not shown
        self.connections.push_by_seat(
            self.presenter.messages(self.connections.seats_in_use(), events), skip)

    async def chat(self, player_id: str, name: str, text: str) -> None:
        """Store the line (``ChatLog.say``), then queue it to every connection whose player is
        shown it (`app.seating_policy.shown`: not those who blocked the speaker)."""
        line = await self.chat_log.say(self.seating.acting_seat(player_id), player_id, name,
                                       text)
        self.connections.push_all(encode(line.message()),
                                  lambda listener: shown(listener, line.speaker, line.blockers))

    def offer_rematch(self, room_id: str, invite_code: str) -> None:
        """Invite this room's players to the next room (`RematchOffer`: the first offer stands):
        a ``rematch`` message to each seated player's sockets, and the room's id in its summary."""
        if self.rematch.offer(room_id, invite_code):
            self.connections.push_seated(self.rematch.message())
            self._push_state([])

    # --- recovery -------------------------------------------------------------------------

    def recover(self, live: LiveMatch) -> None:
        """Rebuild the match from its log after a restart or a takeover (no connection is open
        yet), then re-arm the room's moves (so it needs a running loop); a hand the crash left
        unrecorded is recorded by the first planned job."""
        owners = {seat: player for seat in range(self.record.settings.seats)
                  if (player := self.seating.player_at(seat)) is not None}
        self.connections.remember(self.runner.restore(live, owners))
        self.chat_log.restore(live.chat)
        st = self.runner.state
        self.window.opened(st)
        self._mark_absent_players()
        self._replan()
        if st is not None and st.hand_over:
            self.supervisor.run("results", 0.0, lambda: self.record_results(st.seq))

    async def close(self) -> None:
        await self.supervisor.close()


def _storage_refusal(room_id: str, client_id: ClientId, exc: Exception) -> dict[str, Any]:
    """The error a client gets when its action could not be made durable (nothing changed)."""
    if outage.is_storage_outage(exc):
        log.warning("room %s: could not store an action: %r", room_id, exc)
        return Refusal(outage.CODE, "the action could not be saved: " + outage.MESSAGE
                       ).reply(client_id)
    log.exception("room %s: could not store an action", room_id)
    return Refusal(Code.STORAGE_ERROR, "the action could not be saved").reply(client_id)
