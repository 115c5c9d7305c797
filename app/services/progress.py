"""A player's accuracy match by match (an extension of PROTOCOL.md §10, docs/server.md): the
``accuracy`` of their seat in each of their matches whose analysis is stored.

Only analysed matches count: a match is analysed at the first request for its analysis (its
replay, or the result screen at the match's end, asks for it), never here, so this read is a
plain query that any process can answer and that never waits for the worker process.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Match, MatchAnalysis, MatchSeat


async def accuracies(s: AsyncSession, player_id: str, limit: int) -> list[dict[str, Any]]:
    """The player's ``limit`` latest analysed matches, oldest first: the match, its game, when
    it finished, and the accuracy and number of decisions of the player's seat."""
    rows = (await s.execute(
        select(Match.id, Match.game, Match.finished_at, MatchSeat.seat,
               MatchAnalysis.analysis["seats"])
        .join(MatchSeat, MatchSeat.match_id == Match.id)
        .join(MatchAnalysis, MatchAnalysis.match_id == Match.id)
        .where(MatchSeat.player_id == player_id)
        .order_by(Match.finished_at.desc(), Match.id).limit(limit))).all()
    out = []
    for match_id, game, finished_at, seat, seats in reversed(rows):
        mine = next((x for x in seats or [] if x.get("seat") == seat), None)
        if mine is None:
            continue
        out.append({"match": match_id, "game": game,
                    "finished_at": finished_at.isoformat() if finished_at else None,
                    "accuracy": mine["accuracy"], "decisions": mine["decisions"]})
    return out
