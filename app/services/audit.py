"""Admins and the hidden state of matches in progress.

An admin seated in a match in progress may not open its hidden state (they would see the other
hands); every admin view of a match in progress is recorded in ``admin_views`` in the same
transaction as the read, so no such view goes unrecorded.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import AdminView, Match, MatchSeat, Player
from app.refusals import Code, FixedRefusal
from app.services.matches import NotFound

IN_PROGRESS = "active"


class SeatedInMatch(FixedRefusal):
    code = Code.SEATED_IN_MATCH


async def open_hidden_state(s: AsyncSession, admin_id: str, match_id: str, route: str) -> None:
    """Allow an admin to read the match's hidden state: `NotFound`, `SeatedInMatch` for an
    admin seated in it while it is in progress, and a recorded view for a match in progress."""
    match = await s.get(Match, match_id)
    if match is None:
        raise NotFound(f"no match {match_id!r}")
    if match.status != IN_PROGRESS:
        return
    seated = await s.scalar(select(MatchSeat.seat).where(MatchSeat.match_id == match_id,
                                                         MatchSeat.player_id == admin_id))
    if seated is not None:
        raise SeatedInMatch(f"you are seated (seat {seated}) in match {match_id!r}, which is in "
                            "progress: its hidden state opens to you when it is over")
    s.add(AdminView(admin_id=admin_id, match_id=match_id, route=route))
    await s.flush()


async def list_views(s: AsyncSession, *, limit: int = 50, offset: int = 0) -> list[dict[str, Any]]:
    """Recorded admin views of matches in progress, newest first."""
    rows = (await s.execute(
        select(AdminView, Player.name).join(Player, Player.id == AdminView.admin_id)
        .order_by(AdminView.created_at.desc(), AdminView.id).limit(limit).offset(offset))).all()
    return [{"id": view.id, "admin_id": view.admin_id, "admin_name": name,
             "match_id": view.match_id, "route": view.route, "at": view.created_at.isoformat()}
            for view, name in rows]
