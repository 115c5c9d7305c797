"""A player's chips as a whole: the wallet plus the escrow of the seats they sit in and their
entries in tournaments' pots, and the top-up of a player who has none (docs/server.md,
"Top-up"). The caller owns the transaction."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Room, RoomSeat
from app.services import ledger


async def _escrow_ids(session: AsyncSession, player_id: str, pots: bool = True) -> list[int]:
    """The escrow accounts of the seats the player holds in rooms not yet closed, and the
    pots of the tournaments they entered that have not finished."""
    seats = (await session.execute(select(RoomSeat.room_id, RoomSeat.seat)
                                   .join(Room, Room.id == RoomSeat.room_id)
                                   .where(RoomSeat.player_id == player_id,
                                          Room.status != "closed"))).all()
    entered = await ledger.entries_of(session, player_id) if pots else {}
    return ([(await ledger.escrow_for(session, room_id, seat)).id for room_id, seat in seats]
            + [(await ledger.pot_of(session, tournament_id)).id for tournament_id in entered])


async def top_up_status(session: AsyncSession, player_id: str, amount: int,
                        period: timedelta, now: datetime) -> dict[str, Any]:
    """What the top-up would pay, whether it may be claimed now and when the next may be."""
    wallet = await ledger.wallet_of(session, player_id)
    seats = await _escrow_ids(session, player_id, pots=False)
    held = (wallet.balance + sum([await ledger.balance(session, account) for account in seats])
            + sum((await ledger.entries_of(session, player_id)).values()))
    last = await ledger.last_top_up(session, wallet.id)
    next_at = None if last is None else last.created_at + period
    return {"amount": amount, "period_seconds": period.total_seconds(), "chips": held,
            "last_at": None if last is None else last.created_at.isoformat(),
            "next_at": None if next_at is None else next_at.isoformat(),
            "available": held == 0 and (next_at is None or next_at <= now)}


async def claim_top_up(session: AsyncSession, player_id: str, amount: int, period: timedelta,
                       now: datetime) -> int:
    """Pay the top-up (`ledger.top_up`); the wallet's new balance."""
    made = await ledger.top_up(session, player_id, amount, period, now,
                               await _escrow_ids(session, player_id))
    return await ledger.balance(session, made.to_account)
