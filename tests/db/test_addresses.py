"""The addresses seated players connect from (docs/security.md): only a seated player's is
recorded, a repeat refreshes ``last_seen``, and rows not seen for the retention are purged;
`AddressBook.seen` never raises into the socket, even when the write fails."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.base import utcnow
from app.db.models import Room, RoomSeat, SeatAddress
from app.services import addresses
from tests.db.ledger_helpers import bare_player

Sessions = async_sessionmaker[AsyncSession]


async def _seated(s: AsyncSession) -> tuple[str, str, str]:
    """A room with one seated player; (room, the player, a player not seated)."""
    player, other = await bare_player(s), await bare_player(s)
    room = Room(host_id=player, game="standard", options={}, seats=2, turn_seconds=0)
    s.add(room)
    await s.flush()
    s.add(RoomSeat(room_id=room.id, seat=0, player_id=player, name="p"))
    await s.flush()
    return room.id, player, other


async def test_seated_players_addresses_are_kept_for_the_retention(sessions: Sessions) -> None:
    now = utcnow()
    async with sessions() as s, s.begin():
        room, player, other = await _seated(s)
        assert await addresses.record(s, player, room, "203.0.113.7", now - timedelta(days=5))
        assert not await addresses.record(s, other, room, "203.0.113.8", now)  # not seated
        assert await addresses.record(s, player, room, "203.0.113.7", now)  # seen again
        assert await addresses.record(s, player, room, "198.51.100.1", now - timedelta(days=91))
    async with sessions() as s, s.begin():
        rows = {r.address: r for r in await s.scalars(select(SeatAddress))}
        assert set(rows) == {"203.0.113.7", "198.51.100.1"}
        kept = rows["203.0.113.7"]
        assert (kept.first_seen, kept.last_seen) == (now - timedelta(days=5), now)
        assert await addresses.purge(s, 90, now) == 1
    async with sessions() as s, s.begin():
        assert list(await s.scalars(select(SeatAddress.address))) == ["203.0.113.7"]


async def test_a_failed_write_does_not_reach_the_socket(sessions: Sessions) -> None:
    def gone() -> AsyncSession:
        raise OSError("the database is gone")

    book = addresses.AddressBook(gone, 90)  # type: ignore[arg-type]
    book.seen("a player", "a room", "203.0.113.9")  # returns at once; the write fails later
    await book.close()  # logged, not raised
