"""Serving a finished match's analysis (PROTOCOL.md §10), worked out once, off the event loop.

The first request for a finished match has :class:`Analyst` run :func:`app.analysis.analyse_json`
in its worker process (a one-process pool: one core at most, never the room's event loop) and
waits for it (ten hands of Standard take about two seconds of CPU, docs/analysis.md); the
answer is stored in ``match_analyses`` and every later request, on any process, reads it from
there. Two requests for one match in one process share one computation.

Every reader of stored analyses (this one, a player's accuracy over time, the fair-play
review) reads them through :func:`current`: an analysis stored before the rule "who decided"
(docs/analysis.md) is brought up to it there, once, from the match log's ``played_for``.
"""

from __future__ import annotations

import asyncio
import multiprocessing
from collections import defaultdict
from collections.abc import Collection
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.analysis.report import analyse_json, is_current, reweigh
from app.db.models import Match, MatchAction, MatchAnalysis, Player
from app.refusals import Code, FixedRefusal
from app.services import matches
from app.services.history import OVER, MatchInProgress


class NotYourMatch(FixedRefusal):
    code = Code.NOT_YOUR_MATCH


class Analyst:
    """The worker process that analyses matches, started at the first analysis."""

    def __init__(self) -> None:
        self._pool: ProcessPoolExecutor | None = None
        self._running: dict[str, asyncio.Future[dict[str, Any]]] = {}

    async def run(self, match_id: str, log: dict[str, Any]) -> dict[str, Any]:
        """The analysis of ``log``: this process's computation of it if one is under way."""
        running = self._running.get(match_id)
        if running is None:
            if self._pool is None:  # spawn: a fork would copy the server's threads and sockets
                self._pool = ProcessPoolExecutor(1, multiprocessing.get_context("spawn"))
            loop = asyncio.get_running_loop()
            running = loop.run_in_executor(self._pool, analyse_json, log, match_id)
            self._running[match_id] = running
            running.add_done_callback(lambda _: self._running.pop(match_id, None))
        return await asyncio.shield(running)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None


async def analysis(s: AsyncSession, match_id: str, viewer: Player,
                   analyst: Analyst) -> dict[str, Any]:
    """§10's answer for ``viewer`` (a player of the match, or an admin); the match must be over."""
    async with s.begin():
        match = await s.get(Match, match_id)
        if match is None:
            raise matches.NotFound(f"no match {match_id!r}")
        log = await matches.match_log(s, match_id)
        players = [x["player_id"] for x in log["match"]["seats"]]
        if viewer.role != "admin" and viewer.id not in players:
            raise NotYourMatch("a match's analysis is for its players only")
        if match.status not in OVER:
            raise MatchInProgress("a match in progress is analysed once it is over")
        found = (await current(s, [match_id])).get(match_id)
    if found is None:
        found = await analyst.run(match_id, log)
        await _store(s, match_id, found)
    seats = [{**seat, "player": players[seat["seat"]]} for seat in found["seats"]]
    return {"match": match_id, "seats": seats, "decisions": found["decisions"],
            "luck": found.get("luck", [])}


async def current(s: AsyncSession, match_ids: Collection[str]) -> dict[str, dict[str, Any]]:
    """The stored analyses of ``match_ids`` (those analysed), by match, each by the current
    rules: one stored before them is reweighed (``report.reweigh``) and stored back, in the
    caller's transaction (rows in match id order: two readers at once cannot deadlock)."""
    rows = (await s.execute(select(MatchAnalysis.match_id, MatchAnalysis.analysis, Match.game)
                            .join(Match, Match.id == MatchAnalysis.match_id)
                            .where(MatchAnalysis.match_id.in_(match_ids))
                            .order_by(MatchAnalysis.match_id))).all()
    found = {match_id: analysis for match_id, analysis, _ in rows}
    stale = [(match_id, game) for match_id, analysis, game in rows if not is_current(analysis)]
    if stale:
        played_for = await _played_for(s, [match_id for match_id, _ in stale])
        for match_id, game in stale:
            found[match_id] = reweigh(found[match_id], game, played_for[match_id])
            await s.execute(update(MatchAnalysis).where(MatchAnalysis.match_id == match_id)
                            .values(analysis=found[match_id]))
    return found


async def _played_for(s: AsyncSession, match_ids: list[str]
                      ) -> dict[str, dict[tuple[int, int], str]]:
    """The moves the server made for a person's seat in each match, by (hand, index): the
    action's position in its hand's actions, as the match log numbers them (PROTOCOL.md §4)."""
    index = (func.row_number().over(partition_by=(MatchAction.match_id, MatchAction.hand_no),
                                    order_by=MatchAction.seq) - 1).label("index")
    ranked = select(MatchAction.match_id, MatchAction.hand_no, MatchAction.played_for,
                    index).where(MatchAction.match_id.in_(match_ids)).subquery()
    out: dict[str, dict[tuple[int, int], str]] = defaultdict(dict)
    for match_id, hand_no, played_for, position in await s.execute(
            select(ranked).where(ranked.c.played_for.is_not(None))):
        out[match_id][(hand_no, position)] = played_for
    return out


async def _store(s: AsyncSession, match_id: str, found: dict[str, Any]) -> None:
    """Keep the analysis; another process that stored it first has stored the same."""
    try:
        async with s.begin():
            s.add(MatchAnalysis(match_id=match_id, analysis=found))
    except IntegrityError:
        pass
