"""``/api/me``: who I am, my chips, my name, my matches, my rooms and my top-up."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from fastapi import APIRouter, Query, Request
from pydantic import BaseModel, Field

from app.db.base import utcnow
from app.services import accounts, history, ledger, tables, wallet

from .deps import CurrentPlayer, SessionDep

router = APIRouter(prefix="/api/me", tags=["me"])


class NameIn(BaseModel):
    name: str = Field(max_length=64)


@router.get("")
async def me(player: CurrentPlayer, session: SessionDep) -> dict[str, Any]:
    async with session.begin():
        account = await ledger.wallet_of(session, player.id)
        tables = await ledger.escrows_of(session, player.id)
    return {"id": player.id, "name": player.name, "username": player.username,
            "role": player.role, "is_guest": player.is_guest, "balance": account.balance,
            "escrow": sum(tables.values()), "tables": tables}


@router.patch("")
async def rename(body: NameIn, player: CurrentPlayer, session: SessionDep) -> dict[str, Any]:
    """Change my display name (an account's is unique among accounts without regard to case)."""
    async with session.begin():
        renamed = await accounts.rename(session, player.id, body.name)
        return {"id": renamed.id, "name": renamed.name}


@router.get("/matches")
async def my_matches(player: CurrentPlayer, session: SessionDep,
                     game: str | None = Query(None, max_length=32),
                     limit: int = Query(20, ge=1, le=100),
                     offset: int = Query(0, ge=0)) -> dict[str, Any]:
    """My matches that are over, newest first (paged, optionally of one game)."""
    async with session.begin():
        return await history.my_matches(session, player.id, game=game, limit=limit,
                                        offset=offset)


@router.get("/rooms")
async def my_rooms(player: CurrentPlayer, session: SessionDep) -> dict[str, Any]:
    """The open rooms I sit in, private ones included: the lobby's way back to them."""
    async with session.begin():
        return {"rooms": await tables.rooms_of(session, player.id)}


def _period(request: Request) -> tuple[int, timedelta]:
    settings = request.app.state.settings
    return settings.topup_chips, timedelta(seconds=settings.topup_period_seconds)


@router.get("/topup")
async def top_up_status(player: CurrentPlayer, session: SessionDep,
                        request: Request) -> dict[str, Any]:
    async with session.begin():
        return await wallet.top_up_status(session, player.id, *_period(request), utcnow())


@router.post("/topup")
async def top_up(player: CurrentPlayer, session: SessionDep, request: Request) -> dict[str, Any]:
    """Claim the top-up: only with no chips at all, once per period (409 otherwise)."""
    amount, period = _period(request)
    async with session.begin():
        balance = await wallet.claim_top_up(session, player.id, amount, period, utcnow())
    return {"amount": amount, "balance": balance}
