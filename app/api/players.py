"""Public reads of past play: profiles, leaderboards per game and the replay of a finished
match (docs/server.md, "History, profiles and ratings"). A token is optional: it names the
caller's own rank and opens the replays of their private matches. A match's analysis
(PROTOCOL.md §10) is the one read here for its players (and admins) only."""

from __future__ import annotations

from fastapi import Query, Request

from app.engine.games import game_def
from app.services import analysis, history

from .deps import CurrentPlayer, OptionalPlayer, SessionDep
from .schemas import (
    MAX_OFFSET,
    AnalysisOut,
    LeaderboardOut,
    ProfileOut,
    ReplayOut,
    api_router,
    errors,
)

router = api_router("/api", "players", 400, 404, 503)


@router.get("/players/{player_id}")
async def profile(player_id: str, session: SessionDep) -> ProfileOut:
    async with session.begin():
        return ProfileOut.model_validate(await history.profile(session, player_id))


@router.get("/leaderboards/{game}", responses=errors(401))
async def leaderboard(game: str, session: SessionDep, request: Request, viewer: OptionalPlayer,
                      limit: int = Query(20, ge=1, le=100),
                      offset: int = Query(0, ge=0, le=MAX_OFFSET)) -> LeaderboardOut:
    """The game's rated players best first (those with enough rated matches), and mine."""
    game_def(game)  # an unknown game is refused (404)
    async with session.begin():
        return LeaderboardOut.model_validate(await history.leaderboard(
            session, game, min_matches=request.app.state.settings.leaderboard_min_matches,
            limit=limit, offset=offset, player_id=viewer.id if viewer else None))


@router.get("/matches/{match_id}/replay", responses=errors(401, 403, 409))
async def replay(match_id: str, session: SessionDep, viewer: OptionalPlayer) -> ReplayOut:
    """A finished match step by step, as the caller's seat saw it (a spectator's view for
    others); a private match only for its players, a match in progress never."""
    async with session.begin():
        return ReplayOut.model_validate(
            await history.replay(session, match_id, viewer.id if viewer else None))


@router.get("/matches/{match_id}/analysis", responses=errors(401, 403, 409))
async def match_analysis(match_id: str, session: SessionDep, viewer: CurrentPlayer,
                         request: Request) -> AnalysisOut:
    """Every decision of a finished match graded (PROTOCOL.md §10): for its players and
    admins; worked out at the first request (in a worker process), then read from the store."""
    return AnalysisOut.model_validate(await analysis.analysis(
        session, match_id, viewer, request.app.state.analyst))
