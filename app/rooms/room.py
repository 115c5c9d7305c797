"""One live room: its seats, its match and the one writer that applies every action.

``Room.act`` is the only way the game changes: it takes the room's lock, answers a repeated
client id as before, lets the engine check and apply the action, appends it to the durable match
log through the store, and only then replaces the state, acknowledges and pushes each connection
its own view. Timers (turn timer, Call Rummy grace, computer players, the next deal) all end in
``Room.act`` or in the same post-change step, so there is exactly one path for every change.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any, Protocol

from app.bots import make_bot
from app.engine.actions import parse_action
from app.engine.deal import shuffled_deal, stacked_deal
from app.engine.errors import RuleError
from app.engine.game import apply, close_call_window, new_match, next_dealer, start_hand
from app.engine.games import match_rules
from app.engine.replay import hand_summary, settle_calls
from app.engine.state import Phase, State
from app.engine.views import player_view, redact_events
from app.services import outage
from app.services.errors import ServiceError

from .store import LiveMatch, MatchStore, RoomRecord, SeatRecord
from .timeouts import timeout_action

log = logging.getLogger(__name__)
ClientId = str | int | None
# Phases after which the room deals: between hands, and before the first hand of a match that
# a restart found started but not yet dealt (start_match and record_deal are two transactions).
_DEALS_NEXT = (Phase.HAND_OVER, Phase.DEAL)


class RoomError(Exception):
    """A request the room refuses; ``code`` travels to the client unchanged."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class Connection(Protocol):
    player_id: str

    async def send(self, message: dict[str, Any]) -> None: ...

    async def close(self) -> None: ...


@dataclass(frozen=True)
class RoomTiming:
    """Delays of the room's timers, in seconds (tests make them short)."""

    call_grace: float = 3.0
    bot_delay: float = 0.6
    next_hand: float = 3.0


class Room:
    def __init__(self, record: RoomRecord, store: MatchStore, timing: RoomTiming) -> None:
        self.record = record
        self.rules = match_rules(record.game, record.options, record.seats)
        self.store = store
        self.timing = timing
        self.seats: list[SeatRecord | None] = [None] * record.seats
        for seat in record.taken:
            self.seats[seat.seat] = seat
        self.state: State | None = None
        self.hand_seq = 0
        self.lock = asyncio.Lock()
        self.connections: dict[Connection, int | None] = {}
        self.replies: dict[tuple[str, ClientId], dict[str, Any]] = {}
        self.window_deadline = 0.0
        self.turn_deadline: float | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._timer: asyncio.Task[Any] | None = None
        self._bots: dict[int, Any] = {}
        self.recorded_hands = 0

    # --- seats ------------------------------------------------------------------------------

    @property
    def id(self) -> str:
        return self.record.id

    def seat_of(self, player_id: str) -> int | None:
        return next((s.seat for s in self.seats if s is not None and s.player_id == player_id),
                    None)

    def summary(self) -> dict[str, Any]:
        """The room as the lobby and the table header show it."""
        r = self.record
        return {
            "id": r.id, "host_id": r.host_id, "game": r.game, "options": r.options,
            "seats": r.seats, "stake": r.stake, "buy_in": r.buy_in,
            "turn_seconds": r.turn_seconds, "private": r.private,
            "spectator_chat": r.spectator_chat, "status": r.status, "match_id": r.match_id,
            "players": [None if s is None else {"seat": s.seat, "name": s.name,
                                                "bot": s.bot, "player_id": s.player_id}
                        for s in self.seats],
            "taken": sum(1 for s in self.seats if s is not None),
        }

    def admits(self, player_id: str, invite: str | None) -> bool:
        """Whether the player may see this room: any room that is not private; a private one
        with a seat, as its host, or with its invite code."""
        if not self.record.private or player_id == self.record.host_id:
            return True
        if self.seat_of(player_id) is not None:
            return True
        code = self.record.invite_code
        return bool(invite and code) and secrets.compare_digest(str(invite).encode(),
                                                                code.encode())

    async def join(self, player_id: str, name: str) -> int:
        async with self.lock:
            current = self.seat_of(player_id)
            if current is not None:
                return current
            if self.record.status != "waiting":
                raise RoomError("room_started", "the match has already started")
            seat = self._free_seat()
            record = SeatRecord(seat, player_id, None, name)
            await self._sit(record)
        await self.broadcast()
        return seat

    async def add_bots(self, player_id: str, count: int) -> list[int]:
        async with self.lock:
            self._check_host(player_id)
            if self.record.status != "waiting":
                raise RoomError("room_started", "the match has already started")
            free = [i for i, s in enumerate(self.seats) if s is None]
            if count < 1 or count > len(free):
                raise RoomError("bad_count", f"there are {len(free)} free seats")
            for seat in free[:count]:
                await self._sit(SeatRecord(seat, None, "sensible", f"Bot {seat + 1}"))
        await self.broadcast()
        return free[:count]

    async def leave(self, player_id: str) -> None:
        async with self.lock:
            seat = self.seat_of(player_id)
            if seat is None:
                raise RoomError("not_seated", "you have no seat in this room")
            record = self.seats[seat]
            assert record is not None  # noqa: S101 - seat_of found it
            if self.record.status == "waiting":
                await self.store.stand(self.record, record)
                self.seats[seat] = None
                self._sync_taken()
                await self._close_if_deserted()
            else:  # a computer player takes over the seat until the match ends
                record.bot = "sensible"
                self._bots.pop(seat, None)
                await self.store.save_room(self.record)
        await self.broadcast()
        self._schedule()

    async def _close_if_deserted(self) -> None:
        """A waiting room with no human left closes: its computer players stand up, and it
        leaves the lobby; while humans remain, the first of them becomes the host."""
        humans = [s for s in self.seats if s is not None and s.player_id and not s.bot]
        if humans:
            if self.seat_of(self.record.host_id) is None:
                self.record.host_id = humans[0].player_id or self.record.host_id
                await self.store.save_room(self.record)
            return
        for i, seat in enumerate(self.seats):
            if seat is not None:
                await self.store.stand(self.record, seat)
                self.seats[i] = None
        self._sync_taken()
        self.record.status = "closed"
        await self.store.save_room(self.record)

    async def _sit(self, record: SeatRecord) -> None:
        try:
            await self.store.sit(self.record, record)
        except ServiceError as exc:
            raise RoomError(exc.code, exc.message) from None
        self.seats[record.seat] = record
        self._sync_taken()

    def _sync_taken(self) -> None:
        self.record.taken = [s for s in self.seats if s is not None]

    def _free_seat(self) -> int:
        for i, seat in enumerate(self.seats):
            if seat is None:
                return i
        raise RoomError("room_full", "every seat is taken")

    def _check_host(self, player_id: str) -> None:
        if player_id != self.record.host_id:
            raise RoomError("not_host", "only the host can do that")

    # --- the match --------------------------------------------------------------------------

    async def start(self, player_id: str) -> None:
        async with self.lock:
            self._check_host(player_id)
            if self.record.status != "waiting":
                raise RoomError("room_started", "the match has already started")
            if any(s is None for s in self.seats):
                raise RoomError("seats_empty", "fill every seat (invite players or add bots)")
            match_id = secrets.token_hex(16)
            await self.store.start_match(self.record, match_id, self.record.seats)
            self.record.status = "playing"
            self.record.match_id = match_id
            self.state = new_match(self.rules)
            await self._deal_next()
        await self.broadcast()
        self._schedule()

    async def _deal_next(self) -> None:
        """Deal the next hand (under the lock): stacked deals first, then a fair shuffle."""
        st = self.state
        assert st is not None and self.record.match_id is not None  # noqa: S101
        dealer = next_dealer(st)
        hand_no = st.hand_no + 1
        deals = self.record.deals
        if deals is not None and hand_no < len(deals):
            deal = stacked_deal(self.rules, dealer, deals[hand_no])
        else:
            deal = shuffled_deal(self.rules, dealer, secrets.SystemRandom())
        await self.store.record_deal(self.record.match_id, hand_no, dealer, deal.to_json())
        self.state = start_hand(st, deal, dealer)
        self.hand_seq = 0

    async def act(self, player_id: str, client_id: ClientId, action: Any) -> dict[str, Any]:
        """A player's action: the ``ack`` or ``error`` reply for the client."""
        seat = self.seat_of(player_id)
        if seat is None:
            return _error(client_id, "not_seated", "you have no seat in this room")
        return await self.act_for_seat(seat, player_id, client_id, action)

    async def act_for_seat(self, seat: int, who: str, client_id: ClientId,
                           action: Any) -> dict[str, Any]:
        key = (who, client_id) if client_id is not None else None
        if key is not None and key in self.replies:
            return self.replies[key]  # a repeated client id is answered as before
        try:
            parsed = parse_action(action)
        except RuleError as exc:
            return self._remember(key, _error(client_id, exc.code, exc.message))
        if parsed.type != "call_rummy":
            await self._wait_for_call_window()
        async with self.lock:
            if key is not None and key in self.replies:
                return self.replies[key]
            reply, changed = await self._apply(seat, client_id, parsed.to_json())
            self._remember(key, reply)
        if changed:
            await self._after_change(changed)
        return reply

    def _remember(self, key: tuple[str, ClientId] | None, reply: dict[str, Any]) -> dict[str, Any]:
        if key is not None:
            self.replies[key] = reply
        return reply

    async def _apply(self, seat: int, client_id: ClientId,
                     action: dict[str, Any]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        st = self.state
        if st is None or self.record.match_id is None:
            return _error(client_id, "no_match", "the match has not started"), []
        if st.phase is Phase.CALL and action["type"] != "call_rummy":
            st = await self._close_window(st)
        try:
            new, events = apply(st, seat, action)
        except RuleError as exc:
            return _error(client_id, exc.code, exc.message), []
        try:  # durable before acknowledged or broadcast
            await self.store.append_action(self.record.match_id, st.hand_no, self.hand_seq,
                                           seat, action, client_id)
        except Exception as exc:
            if outage.is_storage_outage(exc):
                log.warning("room %s: could not store an action: %r", self.id, exc)
                return _error(client_id, outage.CODE, "the action could not be saved: "
                              + outage.MESSAGE), []
            log.exception("room %s: could not store an action", self.id)
            return _error(client_id, "storage_error", "the action could not be saved"), []
        self.hand_seq += 1
        self.state = new
        events.insert(0, {"type": "action", "seat": seat, "action": action})  # all public
        return {"type": "ack", "id": client_id, "seq": self.seq}, events

    async def _close_window(self, st: State) -> State:
        """OPT-CALL-4: the grace period is over; the winning call (if any) comes first."""
        new, events = close_call_window(st)
        self.state = new
        if events:
            self._spawn(self._after_change(events))
        return new

    async def _wait_for_call_window(self) -> None:
        """Hold a turn's first move while a Call Rummy window is open (OPT-CALL-4)."""
        delay = self.window_deadline - time.monotonic()
        if self.state is not None and self.state.phase is Phase.CALL and delay > 0:
            await asyncio.sleep(delay)

    @property
    def seq(self) -> int:
        """Actions applied in the room's match (PROTOCOL.md §5 ``seq``)."""
        return self.state.seq if self.state is not None else 0

    async def _after_change(self, events: list[dict[str, Any]]) -> None:
        """Push the new state; record a finished hand; deal on or finish the match."""
        await self.broadcast(events)
        async with self.lock:
            await self._record_results()
        self._schedule()

    async def _record_results(self) -> None:
        st = self.state
        match_id = self.record.match_id
        if st is None or match_id is None or not st.hand_over or st.hand_no < 0:
            return
        if len(st.results) > self.recorded_hands:
            result = st.results[-1].to_json()
            result.update(hand_summary(st, st.hand_no))
            await self.store.record_hand(self.record, match_id, st.hand_no, result)
            self.recorded_hands = len(st.results)
        # Also when the hand was recorded before a restart but the match was not finished:
        # record_hand and finish_match are separate transactions (finish_match is idempotent).
        if st.game_over and self.record.status != "closed":
            await self.store.finish_match(self.record, match_id, "finished", st.game_winner,
                                          list(st.totals))
            self.record.status = "closed"

    # --- timers and computer players ----------------------------------------------------------

    def _spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _schedule(self) -> None:
        """Arm what the new state needs: a deal, a computer move, the turn timer, a window."""
        st = self.state
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self.turn_deadline = None
        if st is None:
            return
        if st.phase in _DEALS_NEXT and self.record.status == "playing":
            self._spawn(self._later(self.timing.next_hand, self._deal_and_push, st.seq))
            return
        if st.hand_over:
            return
        if st.phase is Phase.CALL:
            self.window_deadline = time.monotonic() + self.timing.call_grace
            self._spawn(self._later(self.timing.call_grace, self._close_if_same, st.seq))
            for seat, record in enumerate(self.seats):
                if record is not None and record.bot and st.call and seat != st.call.discarder:
                    self._spawn(self._bot_call(seat, st.seq))
        turn = st.turn
        record = self.seats[turn] if turn is not None else None
        if turn is None or record is None:
            return
        if record.bot:
            self._spawn(self._later(self.timing.bot_delay, self._bot_move, st.seq))
        elif self.record.turn_seconds > 0:
            self.turn_deadline = time.time() + self.record.turn_seconds
            self._timer = asyncio.get_running_loop().create_task(
                self._later(self.record.turn_seconds, self._time_out, st.seq))

    async def _later(self, delay: float, fn: Callable[[int], Coroutine[Any, Any, Any]],
                     seq: int) -> None:
        await asyncio.sleep(delay)
        await fn(seq)

    def _current(self, seq: int) -> bool:
        return self.state is not None and self.state.seq == seq

    async def _deal_and_push(self, seq: int) -> None:
        async with self.lock:
            st = self.state
            if not self._current(seq) or st is None or st.phase not in _DEALS_NEXT:
                return
            await self._deal_next()
            hand_no = self.state.hand_no if self.state is not None else st.hand_no
        await self.broadcast([{"type": "deal", "hand_no": hand_no}])
        self._schedule()

    async def _close_if_same(self, seq: int) -> None:
        async with self.lock:
            if not self._current(seq) or self.state is None or self.state.phase is not Phase.CALL:
                return
            new, events = close_call_window(self.state)
            self.state = new
        await self._after_change(events or [{"type": "call_window_closed"}])

    def _bot(self, seat: int) -> Any:
        if seat not in self._bots:
            record = self.seats[seat]
            kind = record.bot if record is not None and record.bot else "sensible"
            self._bots[seat] = make_bot(kind, secrets.randbits(32))
        return self._bots[seat]

    async def _bot_move(self, seq: int) -> None:
        st = self.state
        if st is None or not self._current(seq) or st.turn is None:
            return
        seat = st.turn
        try:
            action = self._bot(seat).choose(player_view(st, seat), self.rules)
        except Exception:
            log.exception("room %s: computer player failed; playing the timeout move", self.id)
            action = timeout_action(st, seat).to_json()
        reply = await self.act_for_seat(seat, f"bot:{seat}", None, action)
        if reply["type"] == "error" and self._current(seq):
            log.error("room %s: computer player's move refused: %s", self.id, reply)
            await self.act_for_seat(seat, f"bot:{seat}", None,
                                    timeout_action(st, seat).to_json())

    async def _bot_call(self, seat: int, seq: int) -> None:
        await asyncio.sleep(min(self.timing.bot_delay, self.timing.call_grace / 2))
        st = self.state
        if st is None or not self._current(seq):
            return
        call = self._bot(seat).maybe_call(player_view(st, seat), self.rules)
        if call is not None:
            await self.act_for_seat(seat, f"bot:{seat}", None, call)

    async def _time_out(self, seq: int) -> None:
        st = self.state
        if st is None or not self._current(seq) or st.turn is None:
            return
        seat = st.turn
        record = self.seats[seat]
        who = record.player_id if record is not None and record.player_id else f"bot:{seat}"
        await self.act_for_seat(seat, who, f"timeout:{seq}", timeout_action(st, seat).to_json())

    # --- connections ------------------------------------------------------------------------

    def connect(self, conn: Connection) -> None:
        self.connections[conn] = self.seat_of(conn.player_id)

    def disconnect(self, conn: Connection) -> None:
        self.connections.pop(conn, None)

    def message_for(self, conn: Connection,
                    events: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        """The ``state`` message for one connection: only what its seat may see."""
        seat = self.seat_of(conn.player_id)
        self.connections[conn] = seat
        view = None
        if self.state is not None:
            view = player_view(self.state, seat)
            view["turn_deadline"] = self.turn_deadline
        return {"type": "state", "seq": self.seq, "view": view, "room": self.summary(),
                "events": redact_events(events or [], seat)}

    async def broadcast(self, events: list[dict[str, Any]] | None = None) -> None:
        # Every message is built before the first send: while a send waits, another action may
        # change the state, and a later connection must not get that state with these events.
        messages = [(conn, self.message_for(conn, events)) for conn in list(self.connections)]
        for conn, message in messages:
            await self._send(conn, message)

    async def _send(self, conn: Connection, message: dict[str, Any]) -> None:
        try:
            await conn.send(message)
        except Exception:  # a dead socket: forget it and close it; the client reconnects
            log.info("room %s: dropping a connection of %s", self.id, conn.player_id)
            self.connections.pop(conn, None)
            with contextlib.suppress(Exception):
                await conn.close()

    async def chat(self, player_id: str, name: str, text: str) -> None:
        """Store the line, then send it to every connection. Spectators may chat only where the
        host allowed it; a line that cannot be stored is refused (``storage_unavailable``)."""
        seat = self.seat_of(player_id)
        if seat is None and not self.record.spectator_chat:
            raise RoomError("spectators_cannot_chat",
                            "only seated players may chat in this room (the host did not "
                            "allow spectators to chat)")
        try:
            await self.store.add_chat(self.record, self.record.match_id, seat, player_id, name,
                                      text)
        except Exception as exc:
            if not outage.is_storage_outage(exc):
                raise
            log.warning("room %s: could not store a chat line: %r", self.id, exc)
            raise RoomError(outage.CODE, "the chat line could not be stored: " + outage.MESSAGE
                            ) from None
        message = {"type": "chat", "seat": seat, "name": name, "text": text}
        for conn in list(self.connections):
            await self._send(conn, message)

    # --- recovery ---------------------------------------------------------------------------

    def restore(self, live: LiveMatch) -> None:
        """Rebuild the match by replaying its log through the engine (after a restart)."""
        st = new_match(self.rules)
        for hand in live.hands:
            deal = stacked_deal(self.rules, hand.dealer, hand.deal)
            st = start_hand(st, deal, hand.dealer)
            for seat, action, client_id in hand.actions:
                if st.phase is Phase.CALL and action["type"] != "call_rummy":
                    st, _ = close_call_window(st)
                st, _ = apply(st, seat, action)
                record = self.seats[seat]
                who = record.player_id if record is not None and record.player_id else ""
                if client_id is not None:
                    self.replies[(who, client_id)] = {"type": "ack", "id": client_id,
                                                      "seq": st.seq}
            self.hand_seq = len(hand.actions)
            st = settle_calls(st)
        self.state = st
        self.recorded_hands = live.recorded_hands
        self.record.status = "playing"
        self.record.match_id = live.match_id

    def resume(self) -> None:
        """Re-arm timers after :meth:`restore` (needs a running loop)."""
        st = self.state
        if st is not None and st.phase is Phase.CALL:
            self.window_deadline = time.monotonic() + self.timing.call_grace
        self._spawn(self._after_change([]))  # records a hand the crash left unrecorded

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        if self._timer is not None:
            self._timer.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(BaseException):
                await task


def _error(client_id: ClientId, code: str, message: str) -> dict[str, Any]:
    return {"type": "error", "id": client_id, "code": code, "message": message}

