"""``/api/admin``: match history, match logs and ledgers; every route needs an admin.

The routes that reveal a match's hidden state refuse an admin seated in it while it is in
progress (403 ``seated_in_match``) and record every view of a match in progress
(``GET /api/admin/views`` lists them): ``app.services.audit``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from fastapi import APIRouter, Query
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Player
from app.engine.matchlog import InvalidMatchLog
from app.engine.replay import replay_steps
from app.services import audit, matches

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


async def _open(session: AsyncSession, admin: Player, match_id: str, route: str) -> None:
    await audit.open_hidden_state(session, admin.id, match_id, route)


@router.get("/matches/{match_id}")
async def match_log(match_id: str, admin: AdminPlayer, session: SessionDep) -> dict[str, Any]:
    """The match log (the admin's export), with results, transfers and chat."""
    async with session.begin():
        await _open(session, admin, match_id, "GET /api/admin/matches/{id}")
        return await matches.match_log(session, match_id)


@router.get("/matches/{match_id}/states")
async def match_states(match_id: str, admin: AdminPlayer, session: SessionDep) -> dict[str, Any]:
    """The engine's full state after the deal and after each action: the admin replay."""
    async with session.begin():
        await _open(session, admin, match_id, "GET /api/admin/matches/{id}/states")
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


@router.get("/views")
async def views(admin: AdminPlayer, session: SessionDep, limit: int = Query(50, ge=1, le=500),
                offset: int = Query(0, ge=0)) -> dict[str, Any]:
    """Admin views of matches in progress (who, which match, when, which route), newest first."""
    async with session.begin():
        return {"views": await audit.list_views(session, limit=limit, offset=offset)}
