"""Quick seat (PROTOCOL.md §8): the caller is seated at the fullest waiting quick-seat room of
exactly their settings (then the oldest), or at a new one, which starts by itself when full.

A person's calls are made one at a time (`Gateway.exclusive` of the person: in this process
alone, in Redis among several), whatever their settings, so that the second of two finds the
first's seat and answers it again; the database keeps one waiting quick-seat seat per person
whatever else races (a join by id: `waiting_quick_seats`). The choice and the join are made
holding the lock of the settings' table key too, so that calls at the same time never open two
rooms that one room could have held. The candidates come from the database, which every room's
owner keeps current (seats taken and left, a room started or closed): a process just restarted,
or any process of several, sees the same rooms. The seating policy (`app.seating_policy`)
chooses among them, and judges the join again where the seat is taken; a join goes to the room
wherever it lives (`Gateway.run`); a room that filled, started or vanished since it was read is
passed over for the next.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from app import seating_policy
from app.refusals import Code, Refusal
from app.rooms.commands import Caller, Join, room_out
from app.rooms.registry import RoomRegistry
from app.seating_policy import Ask, How, Table, Ties
from app.services import tables
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
    (then the oldest) that the seating policy lets them take, else a new one."""
    key = settings.table_key()
    join = Join(address=address, how=How.QUICK_SEAT)
    async with gateway.exclusive(f"quickseat-player:{caller.id}"), \
            gateway.exclusive(f"quickseat:{key}"):
        async with session.begin():
            ties = await tables.ties_of(session, caller.id)
            candidates = await tables.quick_tables(session, key)
        mine = [] if ties.waiting is None else [ties.waiting.room]
        for room_id in mine + [t.room for t in candidates if _welcome(caller, t, ties, address)]:
            try:
                return Seated(await gateway.run(room_id, join, caller), opened=False)
            except Refusal as exc:
                if exc.code is Code.ALREADY_WAITING:
                    return await _seated_elsewhere(gateway, exc, join, caller)
                if exc.code not in PASSED_OVER:
                    raise
        try:
            room = await registry.create(caller.id, caller.name, settings, quick_seat=key,
                                         address=address, how=How.QUICK_SEAT)
        except Refusal as exc:
            if exc.code is Code.ALREADY_WAITING:
                return await _seated_elsewhere(gateway, exc, join, caller)
            raise
        await gateway.announce(room)
        return Seated({"seat": room.seat_of(caller.id), "room": room_out(room, caller.id)},
                      opened=True)


async def _seated_elsewhere(gateway: Gateway, refused: Refusal, join: Join, caller: Caller
                            ) -> Seated:
    """The caller took a seat in another waiting quick-seat room meanwhile (a join by its id,
    which the person's lock does not hold up): that room and seat are the answer (§8)."""
    return Seated(await gateway.run(str(refused.fields["room"]), join, caller), opened=False)


def _welcome(caller: Caller, table: Table, ties: Ties, address: str | None) -> bool:
    """Whether quick seat offers the caller this table: the seating policy neither refuses nor
    avoids it (a block, a player the fair-play review flagged with them; PROTOCOL.md §9). The
    room's seats' addresses are known only where it lives, which judges them at the join."""
    ask = Ask(caller.id, How.QUICK_SEAT, table, address)
    return seating_policy.refusal(ask, ties) is None and not seating_policy.avoids(ask, ties)
