"""All rooms of this process: creation, lookup, the lobby, and recovery after a restart."""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable
from typing import Any

from app.engine.deal import stacked_deal
from app.engine.errors import InvalidDeal, RuleError
from app.engine.games import match_rules
from app.engine.rules import GameRules

from .errors import RoomError
from .room import Room
from .scheduler import RoomTiming
from .store import MatchStore, RoomRecord

MAX_TURN_SECONDS = 600
MAX_STAKE = 1_000_000
MAX_GRACE_SECONDS = 3600


class RoomRegistry:
    def __init__(self, store: MatchStore, timing: RoomTiming,
                 claim: Callable[[str], Awaitable[None]] | None = None) -> None:
        self.store = store
        self.timing = timing
        self.rooms: dict[str, Room] = {}
        # Several processes: takes a new room's lease before it is stored (docs/scaling.md).
        self.claim = claim

    async def create(self, host_id: str, host_name: str, game: str, options: dict[str, Any],
                     seats: int, stake: int, buy_in: int, turn_seconds: int, private: bool,
                     deals: list[dict[str, Any]] | None = None,
                     spectator_chat: bool = False, grace_seconds: int = 60,
                     rated: bool = False) -> Room:
        """Validate the host's choices with the engine, persist the room, seat the host."""
        if deals is not None and (stake or buy_in):
            raise RoomError("deals_not_allowed", "stacked deals are for free play only: a room "
                            "with a stake or a buy-in is always dealt a fair shuffle")
        try:
            rules = match_rules(game, options, seats)
            if deals is not None:
                _check_deals(rules, deals)
        except RuleError as exc:
            raise RoomError(exc.code, exc.message) from None
        if not 0 <= stake <= MAX_STAKE or not 0 <= buy_in <= MAX_STAKE:
            raise RoomError("bad_stake", "stake and buy-in must be between 0 and 1,000,000")
        if not 0 <= turn_seconds <= MAX_TURN_SECONDS:
            raise RoomError("bad_turn_seconds", f"turn_seconds must be 0..{MAX_TURN_SECONDS}")
        if not 0 <= grace_seconds <= MAX_GRACE_SECONDS:
            raise RoomError("bad_grace_seconds",
                            f"grace_seconds must be 0..{MAX_GRACE_SECONDS}")
        record = RoomRecord(id=secrets.token_hex(8), host_id=host_id, game=game,
                            options=options, seats=seats, stake=stake, buy_in=buy_in,
                            turn_seconds=turn_seconds, private=private,
                            invite_code=secrets.token_urlsafe(9), deals=deals,
                            spectator_chat=spectator_chat, grace_seconds=grace_seconds,
                            rated=rated)
        if self.claim is not None:
            await self.claim(record.id)
            record.fence = 1
        await self.store.save_room(record)
        room = Room(record, self.store, self.timing)
        try:
            await room.join(host_id, host_name)
        except RoomError:  # the host cannot sit (the buy-in): no room without its host
            record.status = "closed"
            await self.store.save_room(record)
            raise
        self.rooms[record.id] = room
        return room

    def get(self, room_id: str) -> Room:
        room = self.rooms.get(room_id)
        if room is None:
            raise RoomError("no_such_room", f"no room {room_id!r}")
        return room

    def by_invite(self, code: str) -> Room:
        for room in self.rooms.values():
            if room.record.invite_code == code:
                return room
        raise RoomError("no_such_room", "that invite code does not open any room")

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
