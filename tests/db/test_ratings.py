"""Ratings: the order of finish a match gives OpenSkill, and rating a match only once."""

from __future__ import annotations

from openskill.models import PlackettLuce
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models import Match, Rating
from app.services import ratings
from app.services.ratings import Seated, finishing_ranks
from tests.db.ledger_helpers import bare_player

Sessions = async_sessionmaker[AsyncSession]


def test_the_winner_first_then_by_total_with_ties_sharing_a_place() -> None:
    # Standard: the highest total is best. Seat 2 won; seats 0 and 3 tie behind seat 1.
    assert finishing_ranks("standard", [10, 40, 87, 10], 2) == [2, 1, 0, 2]
    # German (GERMAN-12): penalty points, the lowest total is best.
    assert finishing_ranks("german", [30, 5, 60], 1) == [1, 0, 2]
    assert finishing_ranks("german", [30, 30, 60], None) == [0, 0, 2]


async def test_a_match_is_rated_once_as_openskill_computes_it(sessions: Sessions) -> None:
    async with sessions() as session, session.begin():
        people = [await bare_player(session, f"p{i}") for i in range(3)]
        session.add(Match(id="m1", game="standard", options={}, players=3))
        await session.flush()
        seated = [Seated(seat, player) for seat, player in enumerate(people)]
        first = await ratings.rate_match(session, "m1", "standard", seated, [2, 0, 1])
    async with sessions() as session, session.begin():
        again = await ratings.rate_match(session, "m1", "standard", seated, [0, 1, 2])
    model = PlackettLuce()
    fresh = [[model.rating()] for _ in people]
    expected = [(r.mu, r.sigma) for (r,) in model.rate(fresh, ranks=[2, 0, 1])]
    assert [(c.mu_after, c.sigma_after) for c in first] == expected
    assert [(c.mu_after, c.sigma_after, c.rank) for c in again] == [
        (c.mu_after, c.sigma_after, c.rank) for c in first]
    async with sessions() as session:
        stored = {r.player_id: r for r in await session.scalars(select(Rating))}
    assert [stored[p].matches for p in people] == [1, 1, 1]
    assert [(stored[p].mu, stored[p].sigma) for p in people] == expected
    assert stored[people[1]].ordinal == max(r.ordinal for r in stored.values())
