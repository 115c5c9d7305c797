"""Public reads of past play: profiles, leaderboards per game and the replay of a finished
match (docs/server.md, "History, profiles and ratings"). A token is optional: it names the
caller's own rank and opens the replays of their private matches."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query, Request

from app.engine.games import game_def
from app.services import history

from .deps import OptionalPlayer, SessionDep

router = APIRouter(prefix="/api", tags=["players"])


@router.get("/players/{player_id}")
async def profile(player_id: str, session: SessionDep) -> dict[str, Any]:
    async with session.begin():
        return await history.profile(session, player_id)


@router.get("/leaderboards/{game}")
async def leaderboard(game: str, session: SessionDep, request: Request, viewer: OptionalPlayer,
                      limit: int = Query(20, ge=1, le=100),
                      offset: int = Query(0, ge=0)) -> dict[str, Any]:
    """The game's rated players best first (those with enough rated matches), and mine."""
    game_def(game)  # an unknown game is refused (404)
    async with session.begin():
        return await history.leaderboard(
            session, game, min_matches=request.app.state.settings.leaderboard_min_matches,
            limit=limit, offset=offset, player_id=viewer.id if viewer else None)


@router.get("/matches/{match_id}/replay")
async def replay(match_id: str, session: SessionDep, viewer: OptionalPlayer) -> dict[str, Any]:
    """A finished match step by step, as the caller's seat saw it (a spectator's view for
    others); a private match only for its players, a match in progress never."""
    async with session.begin():
        return await history.replay(session, match_id, viewer.id if viewer else None)
