"""The rooms a player sits in now ("Your games" on the lobby, ``GET /api/me/rooms``), the
quick-seat rooms waiting for players (the candidates of ``POST /api/quickseat``), and what the
seating policy (`app.seating_policy`) needs to know of a person: their ties.

A plain read of the rooms and seats tables, which every room's owner keeps current (a seat taken,
left or handed to a computer player, the room started or closed), so any process of several, or
a process just restarted, can answer it; private rooms included, since the answer is the
caller's own.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Block, FairplayFlag, Room, RoomSeat, WaitingQuickSeat
from app.seating_policy import Table, Ties, WaitingSeat

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


async def ties_of(session: AsyncSession, player_id: str) -> Ties:
    """What the seating policy weighs of ``player_id``: the players a block stands between them
    and (either way), those the last fair-play review flagged with them, and their seat in a
    quick-seat room that waits for players (`waiting_quick_seats`)."""
    blocks = await session.execute(
        select(Block.player_id, Block.blocked_id).where(
            (Block.player_id == player_id) | (Block.blocked_id == player_id)))
    flags = await session.execute(
        select(FairplayFlag.player_a, FairplayFlag.player_b).where(
            (FairplayFlag.player_a == player_id) | (FairplayFlag.player_b == player_id)))
    waiting = (await session.execute(
        select(WaitingQuickSeat.room_id, WaitingQuickSeat.seat)
        .where(WaitingQuickSeat.player_id == player_id))).first()
    return Ties(blocks=_others(player_id, blocks), flagged=_others(player_id, flags),
                waiting=None if waiting is None else WaitingSeat(*waiting))


def _others(player_id: str, pairs: Any) -> frozenset[str]:
    """The other player of each pair (a, b) that holds ``player_id``."""
    return frozenset(b if a == player_id else a for a, b in pairs)


async def quick_tables(session: AsyncSession, key: str) -> list[Table]:
    """The waiting quick-seat rooms of table key ``key`` with a free seat, the fullest first,
    then the oldest, each as the seating policy sees it (the addresses of its seats are the
    room's own, and not known here)."""
    taken = func.count(RoomSeat.seat)
    rows = (await session.execute(
        select(Room.id, Room.one_per_address).outerjoin(RoomSeat, RoomSeat.room_id == Room.id)
        .where(Room.quick_seat == key, Room.status == "waiting")
        .group_by(Room.id, Room.seats, Room.created_at, Room.one_per_address)
        .having(taken < Room.seats)
        .order_by(taken.desc(), Room.created_at, Room.id))).all()
    seated = await session.execute(
        select(RoomSeat.room_id, RoomSeat.player_id).where(
            RoomSeat.room_id.in_([room_id for room_id, _ in rows]),
            RoomSeat.player_id.is_not(None)))
    people: dict[str, set[str]] = {}
    for room_id, person in seated.tuples():
        people.setdefault(room_id, set()).add(str(person))
    return [Table(room_id, frozenset(people.get(room_id, ())), one_per_address=one,
                  quick_seat=True) for room_id, one in rows]
