"""The rooms a player sits in now ("Your games" on the lobby, ``GET /api/me/rooms``), and the
quick-seat rooms waiting for players (the candidates of ``POST /api/quickseat``).

A plain read of the rooms and seats tables, which every room's owner keeps current (a seat taken,
left or handed to a computer player, the room started or closed), so any process of several, or
a process just restarted, can answer it; private rooms included, since the answer is the
caller's own.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Room, RoomSeat

OPEN = ("waiting", "playing")


async def rooms_of(session: AsyncSession, player_id: str) -> list[dict[str, Any]]:
    """The open rooms (waiting or playing) where ``player_id`` holds a seat, newest first;
    ``resigned`` where they gave the seat up during the match (a stand-in plays it to the end:
    the seat's record and escrow stay theirs, and they may only watch)."""
    mine = (select(Room, RoomSeat.seat, RoomSeat.bot)
            .join(RoomSeat, RoomSeat.room_id == Room.id)
            .where(RoomSeat.player_id == player_id, Room.status.in_(OPEN))
            .order_by(Room.created_at.desc(), Room.id))
    rows = (await session.execute(mine)).all()
    ids = [room.id for room, _, _ in rows]
    taken = dict((await session.execute(
        select(RoomSeat.room_id, func.count()).where(RoomSeat.room_id.in_(ids))
        .group_by(RoomSeat.room_id))).tuples().all()) if rows else {}
    # A person's seat with a computer player in it is a resignation (Seating.leave).
    return [{"id": room.id, "game": room.game, "options": room.options, "status": room.status,
             "seats": room.seats, "taken": taken.get(room.id, 0), "stake": room.stake,
             "buy_in": room.buy_in, "private": room.private, "rated": room.rated,
             "host_id": room.host_id, "your_seat": seat, "resigned": stand_in is not None,
             "invite_code": room.invite_code, "created_at": room.created_at.isoformat()}
            for room, seat, stand_in in rows]


async def quick_seat_of(session: AsyncSession, player_id: str) -> str | None:
    """The waiting quick-seat room where ``player_id`` holds a seat, if any."""
    return (await session.scalars(
        select(Room.id).join(RoomSeat, RoomSeat.room_id == Room.id)
        .where(RoomSeat.player_id == player_id, RoomSeat.bot.is_(None),
               Room.quick_seat.is_not(None), Room.status == "waiting")
        .order_by(Room.created_at, Room.id))).first()


async def quick_tables(session: AsyncSession, key: str) -> list[str]:
    """The waiting quick-seat rooms of table key ``key`` with a free seat: the fullest first,
    then the oldest."""
    taken = func.count(RoomSeat.seat)
    rows = await session.scalars(
        select(Room.id).outerjoin(RoomSeat, RoomSeat.room_id == Room.id)
        .where(Room.quick_seat == key, Room.status == "waiting")
        .group_by(Room.id, Room.seats, Room.created_at)
        .having(taken < Room.seats)
        .order_by(taken.desc(), Room.created_at, Room.id))
    return list(rows.all())
