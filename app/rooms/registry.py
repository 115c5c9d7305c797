"""All rooms of this process: creation, lookup, the lobby, and recovery after a restart."""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable
from typing import Any

from app.engine.deal import stacked_deal
from app.engine.errors import InvalidDeal, InvalidOptions, RuleError
from app.engine.games import match_rules
from app.engine.rules import GameRules
from app.refusals import Code, Refusal

from .room import Room
from .scheduler import RoomTiming
from .store import MatchStore, RoomRecord

MAX_TURN_SECONDS = 600
MAX_STAKE = 1_000_000
MAX_GRACE_SECONDS = 3600
DEFAULT_WAITING_ROOMS_PER_HOST = 5


class RoomRegistry:
    def __init__(self, store: MatchStore, timing: RoomTiming,
                 claim: Callable[[str], Awaitable[None]] | None = None,
                 max_waiting_per_host: int = DEFAULT_WAITING_ROOMS_PER_HOST) -> None:
        self.store = store
        self.timing = timing
        self.rooms: dict[str, Room] = {}
        self.max_waiting_per_host = max_waiting_per_host
        self._opening: dict[str, int] = {}  # host id -> rooms being made for them right now
        # Several processes: takes a new room's lease before it is stored (docs/scaling.md).
        self.claim = claim

    async def create(self, host_id: str, host_name: str, game: str, options: dict[str, Any],
                     seats: int, stake: int, buy_in: int, turn_seconds: int, private: bool,
                     deals: list[dict[str, Any]] | None = None,
                     spectator_chat: bool = False, grace_seconds: int = 60,
                     rated: bool = False) -> Room:
        """Validate the host's choices with the engine, persist the room, seat the host."""
        if deals is not None and (stake or buy_in):
            raise Refusal(Code.DEALS_NOT_ALLOWED, "stacked deals are for free play only: a room "
                          "with a stake or a buy-in is always dealt a fair shuffle")
        try:
            rules = match_rules(game, options, seats)
            if deals is not None:
                _check_deals(rules, deals)
        except RuleError as exc:
            named = exc.options if isinstance(exc, InvalidOptions) and exc.options else None
            raise Refusal(exc.code, exc.message,
                          {"options": list(named)} if named else None) from None
        _check_stake(stake, buy_in)
        if not 0 <= turn_seconds <= MAX_TURN_SECONDS:
            raise Refusal(Code.BAD_TURN_SECONDS, f"turn_seconds must be 0..{MAX_TURN_SECONDS}")
        if not 0 <= grace_seconds <= MAX_GRACE_SECONDS:
            raise Refusal(Code.BAD_GRACE_SECONDS,
                          f"grace_seconds must be 0..{MAX_GRACE_SECONDS}")
        self._check_waiting_cap(host_id)
        self._opening[host_id] = self._opening.get(host_id, 0) + 1
        try:
            return await self._open(host_id, host_name, RoomRecord(
                id=secrets.token_hex(8), host_id=host_id, game=game, options=options,
                seats=seats, stake=stake, buy_in=buy_in, turn_seconds=turn_seconds,
                private=private, invite_code=secrets.token_urlsafe(9), deals=deals,
                spectator_chat=spectator_chat, grace_seconds=grace_seconds, rated=rated))
        finally:
            self._opening[host_id] -= 1
            if not self._opening[host_id]:
                del self._opening[host_id]

    def _check_waiting_cap(self, host_id: str) -> None:
        """A host has at most `max_waiting_per_host` rooms waiting for players at once (those
        being made count too), so that one player cannot fill the lobby."""
        waiting = sum(1 for r in self.rooms.values()
                      if r.record.host_id == host_id and r.record.status == "waiting")
        if waiting + self._opening.get(host_id, 0) >= self.max_waiting_per_host:
            raise Refusal(Code.TOO_MANY_WAITING_ROOMS, "you already host "
                          f"{self.max_waiting_per_host} rooms that wait for players (the "
                          "most at once): start or leave one first")

    async def _open(self, host_id: str, host_name: str, record: RoomRecord) -> Room:
        """Store the new room and seat its host."""
        if self.claim is not None:
            await self.claim(record.id)
            record.fence = 1
        await self.store.save_room(record)
        room = Room(record, self.store, self.timing)
        try:
            await room.join(host_id, host_name)
        except Refusal:  # the host cannot sit (the buy-in): no room without its host
            record.status = "closed"
            await self.store.save_room(record)
            raise
        self.rooms[record.id] = room
        return room

    def get(self, room_id: str) -> Room:
        room = self.rooms.get(room_id)
        if room is None:
            raise Refusal(Code.NO_SUCH_ROOM, f"no room {room_id!r}")
        return room

    def by_invite(self, code: str) -> Room:
        for room in self.rooms.values():
            if room.record.invite_code == code:
                return room
        raise Refusal(Code.NO_SUCH_ROOM, "that invite code does not open any room")

    def stalled(self) -> list[str]:
        """Rooms whose own next move is overdue (for the health check)."""
        return [r.id for r in self.rooms.values() if r.stalled()]

    def lobby(self) -> list[dict[str, Any]]:
        """Listed rooms that are open, or playing with a person there, newest first."""
        rooms = [r for r in self.rooms.values() if r.listed()]
        return [r.summary() for r in reversed(rooms)]

    async def restore(self) -> int:
        """Rebuild every room from the database: waiting rooms as they were, playing rooms by
        replaying their match logs. Returns how many matches were resumed."""
        for record in await self.store.open_rooms():
            self.rooms[record.id] = Room(record, self.store, self.timing)
        resumed = 0
        for live in await self.store.live_matches():
            room = Room(live.room, self.store, self.timing)
            room.restore(live)
            self.rooms[live.room.id] = room
            room.resume()
            resumed += 1
        return resumed

    async def load(self, room_id: str) -> Room | None:
        """Rebuild one room from the database (another process held it), resumed; None if it
        is neither waiting nor playing."""
        for live in await self.store.live_matches(room_id):
            room = Room(live.room, self.store, self.timing)
            room.restore(live)
            self.rooms[room_id] = room
            room.resume()
            return room
        for record in await self.store.open_rooms(room_id):
            room = Room(record, self.store, self.timing)
            self.rooms[room_id] = room
            return room
        return None

    async def close(self) -> None:
        for room in self.rooms.values():
            await room.close()


def _check_stake(stake: int, buy_in: int) -> None:
    """Both 0 to 1,000,000 (`bad_stake`), and a stake only with a buy-in that can pay it
    (`stake_needs_buy_in`): a hand moves at most the payer's chips at the table (docs/server.md,
    "Chips"), so at a stake with no buy-in nobody would win or lose anything."""
    if not 0 <= stake <= MAX_STAKE or not 0 <= buy_in <= MAX_STAKE:
        raise Refusal(Code.BAD_STAKE, "stake and buy-in must be between 0 and 1,000,000")
    if stake > 0 and buy_in == 0:
        raise Refusal(Code.STAKE_NEEDS_BUY_IN, f"a stake of {stake} per point needs a buy-in: "
                      "a hand moves at most the chips a player has at the table, so with "
                      f"none nothing is won or lost (for example {min(stake * 100, MAX_STAKE)}"
                      ", enough for 100 points)")


def _check_deals(rules: GameRules, deals: list[dict[str, Any]]) -> None:
    """Stacked deals must be the game's pack dealt the game's way before a room takes them: the
    first for the first dealer (seat 0, GEN-6), each later one for some dealer (who deals later
    depends on the play). Raises the engine's ``InvalidDeal``."""
    for hand_no, deal in enumerate(deals):
        dealers = [0] if hand_no == 0 else range(rules.players)
        refusals: list[RuleError] = []
        for dealer in dealers:
            try:
                stacked_deal(rules, dealer, deal)
                break
            except RuleError as exc:
                refusals.append(exc)
        else:
            raise InvalidDeal(refusals[0].code, f"deal {hand_no}: {refusals[0].message}")
