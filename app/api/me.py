"""``/api/me``: who I am and my chips."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from app.services import ledger

from .deps import CurrentPlayer, SessionDep

router = APIRouter(prefix="/api/me", tags=["me"])


@router.get("")
async def me(player: CurrentPlayer, session: SessionDep) -> dict[str, Any]:
    async with session.begin():
        wallet = await ledger.wallet_of(session, player.id)
        tables = await ledger.escrows_of(session, player.id)
    return {"id": player.id, "name": player.name, "username": player.username,
            "role": player.role, "is_guest": player.is_guest, "balance": wallet.balance,
            "escrow": sum(tables.values()), "tables": tables}
