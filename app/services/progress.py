"""A player's accuracy match by match (an extension of PROTOCOL.md §10, docs/server.md): the
``accuracy`` of their seat in each of their matches whose analysis is stored, over their own
decisions only (a match in which the server made every move of theirs has none: left out).

Only analysed matches count: a match is analysed at the first request for its analysis (its
replay, or the result screen at the match's end, asks for it), never here, so this read is a
plain query that any process can answer and that never waits for the worker process.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Match, MatchAnalysis, MatchSeat
from app.services import analysis


async def accuracies(s: AsyncSession, player_id: str, limit: int) -> list[dict[str, Any]]:
    """The player's ``limit`` latest analysed matches, oldest first: the match, its game, when
    it finished, and the accuracy and number of decisions of the player's seat (its player's
    own; a match where they made no decision of their own is left out)."""
    rows = (await s.execute(
        select(Match.id, Match.game, Match.finished_at, MatchSeat.seat)
        .join(MatchSeat, MatchSeat.match_id == Match.id)
        .join(MatchAnalysis, MatchAnalysis.match_id == Match.id)
        .where(MatchSeat.player_id == player_id)
        .order_by(Match.finished_at.desc(), Match.id).limit(limit))).all()
    found = await analysis.current(s, [match_id for match_id, *_ in rows])
    out = []
    for match_id, game, finished_at, seat in reversed(rows):
        seats = found[match_id]["seats"]
        mine = next((x for x in seats if x.get("seat") == seat), None)
        if mine is None or mine["accuracy"] is None:
            continue
        out.append({"match": match_id, "game": game,
                    "finished_at": finished_at.isoformat() if finished_at else None,
                    "accuracy": mine["accuracy"], "decisions": mine["decisions"]})
    return out
