"""Play again (docs/server.md, the rematch route): what a finished room's next room copies, and
the offer of that room to this room's players. The first offer stands; it lives in the finished
room's memory only."""

from __future__ import annotations

from typing import Any

import orjson

from app.bots.registry import DEFAULT_LEVEL, level_of
from app.refusals import Code, Refusal

from .seating import Seating
from .store import RoomRecord


class RematchOffer:
    def __init__(self, record: RoomRecord, seating: Seating) -> None:
        self.record = record
        self.seating = seating
        self.offered: dict[str, str] | None = None  # the next room: id, invite code

    def settings(self, player_id: str) -> dict[str, Any]:
        """For the host once the match is over: what the next room copies (its computer players'
        levels; a seat a leaver handed to the computer is not one)."""
        self.seating.check_host(player_id)
        if self.record.settings.stand_in_for_absent:
            raise Refusal(Code.TOURNAMENT_TABLE, "a tournament table has no rematch: the "
                          "tournament seats its next round itself")
        if self.record.status != "closed" or self.record.match_id is None:
            raise Refusal(Code.MATCH_NOT_OVER, "a rematch is offered once the match is over")
        bots = [level_of(s.bot) or DEFAULT_LEVEL for s in self.seating.seats
                if s is not None and s.bot and not s.player_id]  # their levels
        return {**self.record.settings.to_json(), "bots": bots}

    def offer(self, room_id: str, invite_code: str) -> bool:
        """Offer the room ``room_id`` unless an offer stands: whether this one is new."""
        if self.offered is not None:
            return False
        self.offered = {"id": room_id, "invite_code": invite_code}
        return True

    def message(self) -> bytes:
        """The ``rematch`` message for a seated player's sockets, once offered."""
        assert self.offered is not None  # noqa: S101 - only once offered
        return orjson.dumps({"type": "rematch", "from": self.record.id,
                             "room": self.offered["id"],
                             "invite_code": self.offered["invite_code"]})
