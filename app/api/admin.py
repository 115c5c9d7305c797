"""``/api/admin``: match history, match logs and ledgers; every route needs an admin.

The routes that reveal a match's hidden state refuse an admin seated in it while it is in
progress (403 ``seated_in_match``) and record every view of a match in progress
(``GET /api/admin/views`` lists them): ``app.services.audit``.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Annotated, Any

from fastapi import Query
from pydantic import BeforeValidator
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Player
from app.engine.matchlog import InvalidMatchLog
from app.engine.replay import replay_steps
from app.services import audit, matches

from .deps import AdminPlayer, SessionDep
from .schemas import (
    MAX_OFFSET,
    MAX_TEXT,
    LedgerOut,
    MatchListOut,
    MatchLogOut,
    PlayersOut,
    StatesOut,
    ViewsOut,
    api_router,
    errors,
)

router = api_router("/api/admin", "admin", 400, 401, 403, 503)

_NUMBER = re.compile(r"\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*")


def _iso_only(value: Any) -> Any:
    """A moment is an ISO 8601 date-time, as the schema says (pydantic would also read a number
    as seconds since 1970)."""
    if isinstance(value, str) and _NUMBER.fullmatch(value):
        raise ValueError("a date-time is written in ISO 8601, e.g. 2026-01-31T12:00:00Z")
    return value


Moment = Annotated[datetime | None, BeforeValidator(_iso_only)]
Filter = Annotated[str | None, Query(max_length=MAX_TEXT)]
Offset = Annotated[int, Query(ge=0, le=MAX_OFFSET)]


@router.get("/matches")
async def list_matches(
        admin: AdminPlayer, session: SessionDep, player: Filter = None, game: Filter = None,
        status: Filter = None, since: Moment = None, until: Moment = None,
        limit: int = Query(50, ge=1, le=500), offset: Offset = 0) -> MatchListOut:
    async with session.begin():
        found = await matches.list_matches(session, player=player, game=game, status=status,
                                           since=since, until=until, limit=limit,
                                           offset=offset)
    return MatchListOut.model_validate({"matches": found})


async def _open(session: AsyncSession, admin: Player, match_id: str, route: str) -> None:
    await audit.open_hidden_state(session, admin.id, match_id, route)


@router.get("/matches/{match_id}", responses=errors(404))
async def match_log(match_id: str, admin: AdminPlayer, session: SessionDep) -> MatchLogOut:
    """The match log (the admin's export), with results, transfers and chat."""
    async with session.begin():
        await _open(session, admin, match_id, "GET /api/admin/matches/{id}")
        return MatchLogOut.model_validate(await matches.match_log(session, match_id))


@router.get("/matches/{match_id}/states", responses=errors(404))
async def match_states(match_id: str, admin: AdminPlayer, session: SessionDep) -> StatesOut:
    """The engine's full state after the deal and after each action: the admin replay."""
    async with session.begin():
        await _open(session, admin, match_id, "GET /api/admin/matches/{id}/states")
        log = await matches.match_log(session, match_id)
    try:
        return StatesOut.model_validate({"steps": replay_steps(log)})
    except InvalidMatchLog as exc:  # a match whose first deal was never stored
        return StatesOut(steps=[], error=str(exc))


@router.get("/players")
async def players(admin: AdminPlayer, session: SessionDep, q: Filter = None) -> PlayersOut:
    async with session.begin():
        return PlayersOut.model_validate({"players": await matches.list_players(session, q)})


@router.get("/players/{player_id}/ledger", responses=errors(404))
async def player_ledger(player_id: str, admin: AdminPlayer, session: SessionDep) -> LedgerOut:
    async with session.begin():
        return LedgerOut.model_validate(await matches.player_ledger(session, player_id))


@router.get("/views")
async def views(admin: AdminPlayer, session: SessionDep, limit: int = Query(50, ge=1, le=500),
                offset: Offset = 0) -> ViewsOut:
    """Admin views of matches in progress (who, which match, when, which route), newest first."""
    async with session.begin():
        return ViewsOut.model_validate(
            {"views": await audit.list_views(session, limit=limit, offset=offset)})
