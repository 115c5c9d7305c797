"""A player's blocks and reports (PROTOCOL.md §9): ``/api/players/{id}/block``,
``/api/me/blocks`` and ``/api/reports``. The admins' side is in ``app.api.admin``."""

from __future__ import annotations

from typing import Literal

from fastapi import Request, Response
from pydantic import Field

from app.services import moderation

from .deps import CurrentPlayer, SessionDep
from .schemas import MAX_TEXT, BlocksOut, CreatedOut, In, api_router, errors

router = api_router("/api", "moderation", 401, 503)


class ReportIn(In):
    player: str = Field(max_length=MAX_TEXT)
    match: str | None = Field(None, max_length=MAX_TEXT)
    reason: Literal["cheating", "collusion", "abuse", "other"]
    text: str = Field(max_length=moderation.MAX_REPORT_TEXT)


@router.post("/players/{player_id}/block", responses=errors(400, 404))
async def block(player_id: str, player: CurrentPlayer, session: SessionDep) -> BlocksOut:
    """Block a player: no seat beside them, and their chat is not delivered to the caller."""
    async with session.begin():
        return BlocksOut(blocked=await moderation.block(session, player.id, player_id))


@router.delete("/players/{player_id}/block", responses=errors(400))
async def unblock(player_id: str, player: CurrentPlayer, session: SessionDep) -> BlocksOut:
    async with session.begin():
        return BlocksOut(blocked=await moderation.unblock(session, player.id, player_id))


@router.get("/me/blocks")
async def my_blocks(player: CurrentPlayer, session: SessionDep) -> BlocksOut:
    async with session.begin():
        return BlocksOut(blocked=await moderation.blocked_by(session, player.id))


@router.post("/reports", status_code=201, responses={
    200: {"model": CreatedOut, "description": "The reporter's open report of the same player "
                                              "and match: a repeat is folded into it"},
    **errors(400, 404, 429)})
async def report(body: ReportIn, player: CurrentPlayer, session: SessionDep, request: Request,
                 response: Response) -> CreatedOut:
    """Report a player (optionally about a match) to the admins: 201 and the new report, or
    200 and the caller's open one of the same player and match."""
    per_hour = request.app.state.settings.reports_per_player_per_hour
    async with session.begin():
        report_id, new = await moderation.report(session, player.id, body.player, body.match,
                                                 body.reason, body.text, per_hour=per_hour)
    if not new:
        response.status_code = 200
    return CreatedOut(id=report_id)
