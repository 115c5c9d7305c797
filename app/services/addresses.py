"""The addresses seated players connect from (PROTOCOL.md §9's shared-address signal;
docs/fairplay.md, docs/security.md).

`AddressBook.seen` is called once per authenticated socket attached to a room, never per
action: it starts a task and returns at once, so the socket never waits for the database, and a
failed write is logged and forgotten (the socket is not affected). Only a player seated in the
room is recorded (a spectator's address is none of the review's business). Rows not seen for
``RUMMY_ADDRESS_RETENTION_DAYS`` are deleted by the next write after an hour has passed since
the last purge (one purge an hour per process, not one per socket).
"""

from __future__ import annotations

import asyncio
import logging
import time
from datetime import datetime, timedelta

from sqlalchemy import delete, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.base import utcnow
from app.db.models import RoomSeat, SeatAddress

log = logging.getLogger(__name__)

PURGE_EVERY = 3600.0  # seconds between two purges by one process


async def record(s: AsyncSession, player_id: str, room_id: str, address: str,
                 now: datetime) -> bool:
    """Record (or refresh ``last_seen`` of) the address of ``player_id`` seated in the room;
    False, recording nothing, when the player has no seat there."""
    seated = await s.scalar(select(RoomSeat.seat).where(RoomSeat.room_id == room_id,
                                                        RoomSeat.player_id == player_id))
    if seated is None:
        return False
    dialect = postgresql if s.get_bind().dialect.name == "postgresql" else sqlite
    await s.execute(dialect.insert(SeatAddress).values(
        player_id=player_id, room_id=room_id, address=address[:64], first_seen=now,
        last_seen=now).on_conflict_do_update(
        index_elements=["player_id", "room_id", "address"], set_={"last_seen": now}))
    return True


async def purge(s: AsyncSession, retention_days: int, now: datetime) -> int:
    """Delete the addresses last seen more than ``retention_days`` ago; how many went."""
    done = await s.execute(delete(SeatAddress).where(
        SeatAddress.last_seen < now - timedelta(days=retention_days)))
    return int(getattr(done, "rowcount", 0) or 0)


class AddressBook:
    """This process's writer of `seat_addresses`, off the socket's path."""

    def __init__(self, sessions: async_sessionmaker[AsyncSession], retention_days: int) -> None:
        self.sessions = sessions
        self.retention_days = retention_days
        self._next_purge = 0.0
        self._tasks: set[asyncio.Task[None]] = set()

    def seen(self, player_id: str, room_id: str, address: str) -> None:
        """A socket of ``player_id`` attached to the room from ``address``: recorded soon."""
        task = asyncio.create_task(self._write(player_id, room_id, address))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _write(self, player_id: str, room_id: str, address: str) -> None:
        now = utcnow()
        try:
            async with self.sessions() as s, s.begin():
                await record(s, player_id, room_id, address, now)
                if time.monotonic() >= self._next_purge:
                    self._next_purge = time.monotonic() + PURGE_EVERY
                    await purge(s, self.retention_days, now)
        except Exception as exc:  # the socket goes on; the next connect records it again
            log.warning("address of %s in room %s not recorded: %r", player_id, room_id[:40],
                        exc)

    async def close(self) -> None:
        """Let the writes under way finish."""
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
