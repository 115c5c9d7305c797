"""The audit of admins: their views of the hidden state of matches in progress, and (with
``app.services.moderation``, which records them) every other admin action.

An admin seated in a match in progress may not open its hidden state (they would see the other
hands); every admin view of a match in progress is recorded in ``admin_views`` in the same
transaction as the read, so no such view goes unrecorded.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import literal, null, select, union_all
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import AdminAction, AdminView, Match, MatchSeat, Player
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


VIEW = "view_live_match"  # the action of an admin view of a match in progress


async def list_actions(s: AsyncSession, *, limit: int = 50, offset: int = 0
                       ) -> list[dict[str, Any]]:
    """Every admin action, newest first: sanctions, lifts, corrections, report decisions and
    views of matches in progress (``view_live_match``, the route as the reason)."""
    actions = select(AdminAction.id, AdminAction.admin_id, AdminAction.action,
                     AdminAction.player_id, AdminAction.subject, AdminAction.reason,
                     AdminAction.created_at)
    views = select(AdminView.id, AdminView.admin_id, literal(VIEW), null(), AdminView.match_id,
                   AdminView.route, AdminView.created_at)
    both = union_all(actions, views).subquery()
    rows = (await s.execute(
        select(both, Player.name).join(Player, Player.id == both.c.admin_id)
        .order_by(both.c.created_at.desc(), both.c.id).limit(limit).offset(offset))).all()
    return [{"id": row[0], "admin": row[1], "action": row[2], "player": row[3],
             "subject": row[4], "reason": row[5], "at": row[6].isoformat(),
             "admin_name": row[7]} for row in rows]
