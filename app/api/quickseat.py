"""Quick seat (PROTOCOL.md §8): the caller is seated at the fullest waiting quick-seat room of
exactly their settings (then the oldest), or at a new one, which starts by itself when full.

The choice and the join are made holding the deployment's lock of the settings' table key
(`Gateway.exclusive`: in this process alone, in Redis among several), so that calls at the same
time never open two rooms that one room could have held. The candidates come from the database,
which every room's owner keeps current (seats taken and left, a room started or closed): a
process just restarted, or any process of several, sees the same rooms. A join goes to the room
wherever it lives (`Gateway.run`); a room that filled, started or vanished since it was read is
passed over for the next.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from app.refusals import Code, Refusal
from app.rooms.commands import Caller, Join, room_out
from app.rooms.registry import RoomRegistry
from app.services import fairplay, moderation, tables
from app.services.room_settings import RoomSettings

from .gateway import Gateway

# A candidate refusing the join with one of these was taken by someone else meanwhile, or
# seats someone the caller may not sit beside (a block, or their client address in a room of
# one account per address: docs/security.md).
PASSED_OVER = frozenset({Code.ROOM_FULL, Code.ROOM_STARTED, Code.NO_SUCH_ROOM, Code.BLOCKED,
                         Code.SAME_ADDRESS})


@dataclass(frozen=True)
class Seated:
    answer: dict[str, Any]  # {"seat", "room"}, as a join answers
    opened: bool  # the room is new


async def quick_seat(gateway: Gateway, registry: RoomRegistry, session: AsyncSession,
                     settings: RoomSettings, caller: Caller, address: str | None = None
                     ) -> Seated:
    """Seat ``caller``, who asks from the client ``address``, by quick seat: the waiting
    quick-seat room they already sit in (of any settings), else the fullest of ``settings``
    (then the oldest), else a new one."""
    key = settings.table_key()
    async with gateway.exclusive(f"quickseat:{key}"):
        async with session.begin():
            mine = await tables.quick_seat_of(session, caller.id)
            candidates = await tables.quick_tables(session, key)
            # PROTOCOL.md §9: a room where a block stands between the caller and a seated
            # player, or where a player the fair-play review flagged with the caller sits, is
            # passed over (the caller's own room never is).
            candidates = [room_id for room_id in candidates
                          if not await moderation.blocks_between(session, caller.id, room_id)
                          and not await fairplay.flagged_seated(session, caller.id, room_id)]
        for room_id in ([mine] if mine is not None else []) + candidates:
            try:
                return Seated(await gateway.run(room_id, Join(address=address), caller),
                              opened=False)
            except Refusal as exc:
                if exc.code not in PASSED_OVER:
                    raise
        room = await registry.create(caller.id, caller.name, settings, quick_seat=key,
                                     address=address)
        await gateway.announce(room)
        return Seated({"seat": room.seat_of(caller.id), "room": room_out(room, caller.id)},
                      opened=True)
