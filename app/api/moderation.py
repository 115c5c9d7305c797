"""A player's blocks and reports (PROTOCOL.md §9): ``/api/players/{id}/block``,
``/api/me/blocks`` and ``/api/reports``. The admins' side is in ``app.api.admin``."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from app.services import moderation

from .deps import CurrentPlayer, SessionDep
from .schemas import MAX_TEXT, BlocksOut, CreatedOut, api_router, errors

router = api_router("/api", "moderation", 401, 503)


class ReportIn(BaseModel):
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


@router.post("/reports", status_code=201, responses=errors(400, 404))
async def report(body: ReportIn, player: CurrentPlayer, session: SessionDep) -> CreatedOut:
    """Report a player (optionally about a match) to the admins."""
    async with session.begin():
        return CreatedOut(id=await moderation.report(session, player.id, body.player,
                                                     body.match, body.reason, body.text))
