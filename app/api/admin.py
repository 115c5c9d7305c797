"""``/api/admin``: match history, match logs and ledgers; every route needs an admin."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from fastapi import APIRouter, Query

from app.engine.replay import InvalidMatchLog, replay_steps
from app.services import matches

from .deps import AdminPlayer, SessionDep

router = APIRouter(prefix="/api/admin", tags=["admin"])


@router.get("/matches")
async def list_matches(
        admin: AdminPlayer, session: SessionDep, player: str | None = None,
        game: str | None = None, status: str | None = None, since: datetime | None = None,
        until: datetime | None = None, limit: int = Query(50, ge=1, le=500),
        offset: int = Query(0, ge=0)) -> dict[str, Any]:
    async with session.begin():
        found = await matches.list_matches(session, player=player, game=game, status=status,
                                           since=since, until=until, limit=limit,
                                           offset=offset)
    return {"matches": found}


@router.get("/matches/{match_id}")
async def match_log(match_id: str, admin: AdminPlayer, session: SessionDep) -> dict[str, Any]:
    async with session.begin():
        return await matches.match_log(session, match_id)


@router.get("/matches/{match_id}/states")
async def match_states(match_id: str, admin: AdminPlayer, session: SessionDep) -> dict[str, Any]:
    """The engine's full state after the deal and after each action: the admin replay."""
    async with session.begin():
        log = await matches.match_log(session, match_id)
    try:
        return {"steps": replay_steps(log)}
    except InvalidMatchLog as exc:  # a match whose first deal was never stored
        return {"steps": [], "error": str(exc)}


@router.get("/players")
async def players(admin: AdminPlayer, session: SessionDep,
                  q: str | None = None) -> dict[str, Any]:
    async with session.begin():
        return {"players": await matches.list_players(session, q)}


@router.get("/players/{player_id}/ledger")
async def player_ledger(player_id: str, admin: AdminPlayer,
                        session: SessionDep) -> dict[str, Any]:
    async with session.begin():
        return await matches.player_ledger(session, player_id)
