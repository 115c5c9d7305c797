"""Skill ratings per game, with OpenSkill's Plackett-Luce model (docs/server.md, "Ratings").

A finished match of a rated room (every seat a person) updates its players' ratings at that
game, in the transaction that finishes the match; computer players and unrated rooms are never
rated. The match's order of finish: the winner first, then the others by their totals (highest
first, or lowest for the games where the lowest total wins); equal totals share a place.
A player's `ordinal` (mu - 3 sigma, 0 for a new player) is the rating shown and ranked by.

Only a person's own play is rated (`own_play`): a seat that the server played for (timed-out
turns, a stand-in) in more than `STAND_IN_SHARE` of its turns is not rated; a player who left
(resigned) is not rated before `ABORT_TURNS` turns of their own (an abort), and rated as the
loser after that; a match with fewer than two rated people changes nothing. The same rule
(`counted`) decides what a match counts for in a person's profile (`app/services/history.py`).
Nothing here commits: the caller owns the transaction.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.base import utcnow
from app.db.models import MatchAction, Rating, RatingChange
from app.engine.games import game_def

MODEL = PlackettLuce()
STAND_IN_SHARE = 0.2  # a seat played for in more than this share of its turns is not rated
ABORT_TURNS = 2  # a player who leaves before this many turns of their own is not rated


@dataclass(frozen=True)
class Seated:
    """A person at a seat of a finished match."""

    seat: int
    player_id: str


def ordinal(mu: float, sigma: float) -> float:
    """The displayed rating: the model's conservative estimate."""
    return float(MODEL.rating(mu=mu, sigma=sigma).ordinal())


def finishing_ranks(game: str, totals: Sequence[int], winner: int | None) -> list[int]:
    """Each seat's place (0 best): the winner first, then by total; ties share a place."""
    scoring = game_def(game).scoring  # GERMAN-12: the lowest total may be the best

    def better(a: int, b: int) -> bool:
        return scoring.better(totals[a], totals[b])

    seats = range(len(totals))
    return [0 if s == winner else
            (winner is not None) + sum(1 for o in seats if o != winner and better(o, s))
            for s in seats]


@dataclass(frozen=True)
class Turns:
    """A seat's turns in a match: played by its person, and played for them by the server."""

    own: int = 0
    played_for: int = 0

    @property
    def share(self) -> float:
        """The share of the seat's turns that the server played."""
        total = self.own + self.played_for
        return self.played_for / total if total else 0.0


class Count(Enum):
    """What a finished match counts for in a person's record (ratings, profile)."""

    NOT = "not"  # not at all: mostly played for them, or resigned before playing
    PLACE = "place"  # by where their seat finished
    LOSS = "loss"  # a loss, wherever the stand-in that played their seat out finished


def counted(turns: Turns, resigned: bool) -> Count:
    """How a person's match counts, from their seat's turns and whether they resigned: a
    resignation before `ABORT_TURNS` own turns not at all (an abort), after it as a loss; else
    not at all when the server played more than `STAND_IN_SHARE` of the seat's turns."""
    if resigned:
        return Count.NOT if turns.own < ABORT_TURNS else Count.LOSS
    return Count.NOT if turns.share > STAND_IN_SHARE else Count.PLACE


async def turns_by_seat(session: AsyncSession, match_id: str) -> dict[int, Turns]:
    """Each seat's turns, read from the match log: a turn is a run of a seat's actions in a
    hand, played for the person if the server made any of its moves (`played_for`)."""
    rows = await session.execute(
        select(MatchAction.hand_no, MatchAction.seat, MatchAction.played_for)
        .where(MatchAction.match_id == match_id, MatchAction.seat.is_not(None))
        .order_by(MatchAction.hand_no, MatchAction.seq))
    runs: list[tuple[int, Any, bool]] = []  # (hand, seat, played for)
    for hand_no, seat, played_for in rows:
        if runs and runs[-1][:2] == (hand_no, seat):
            runs[-1] = (hand_no, seat, runs[-1][2] or played_for is not None)
        else:
            runs.append((hand_no, seat, played_for is not None))
    out: dict[int, Turns] = {}
    for _, seat, played in runs:
        was = out.get(seat, Turns())
        out[seat] = Turns(was.own + (not played), was.played_for + played)
    return out


def own_play(people: dict[int, str], left: set[int], turns: dict[int, Turns],
             ranks: Sequence[int]) -> tuple[list[Seated], list[int]]:
    """The people to rate and their places (by seat; 0 best among the rated): `people` maps a
    person's seat to them, `left` holds the seats whose person left. A seat mostly played for
    its person is not rated; a leaver is not rated before `ABORT_TURNS` own turns, and placed
    last after."""
    last = max(ranks, default=0) + 1
    rated, places = [], list(ranks)
    for seat, player_id in sorted(people.items()):
        count = counted(turns.get(seat, Turns()), seat in left)
        if count is Count.NOT:
            continue
        if count is Count.LOSS:
            places[seat] = last
        rated.append(Seated(seat, player_id))
    # The places among the rated alone: how many rated seats did better (ties share a place).
    kept = [places[p.seat] for p in rated]
    for person in rated:
        places[person.seat] = sum(1 for other in kept if other < places[person.seat])
    return rated, places


async def _locked(session: AsyncSession, game: str, player_ids: list[str]) -> dict[str, Rating]:
    """The players' ratings at `game`, made at the model's defaults where missing, locked in
    player id order (two matches finishing at once cannot deadlock)."""
    postgres = session.get_bind().dialect.name == "postgresql"
    insert = postgresql.insert if postgres else sqlite.insert
    fresh = MODEL.rating()
    out: dict[str, Rating] = {}
    for player_id in sorted(set(player_ids)):
        # A racing first match of the same player inserts the same row: one insert wins.
        await session.execute(insert(Rating).values(
            player_id=player_id, game=game, mu=fresh.mu, sigma=fresh.sigma,
            ordinal=ordinal(fresh.mu, fresh.sigma), matches=0).on_conflict_do_nothing())
        query = (select(Rating).where(Rating.player_id == player_id, Rating.game == game)
                 .execution_options(populate_existing=True))
        rating = await session.scalar(query.with_for_update() if postgres else query)
        assert rating is not None  # noqa: S101 - inserted above, or by the racing transaction
        out[player_id] = rating
    return out


async def rate_match(session: AsyncSession, match_id: str, game: str, seated: list[Seated],
                     ranks: Sequence[int]) -> list[RatingChange]:
    """Update the ratings of the people at a finished match from their places (`ranks`, by
    seat); a match already rated is returned as it was rated, changing nothing."""
    done = await changes_of(session, match_id)
    if done or len(seated) < 2:
        return done
    ratings = await _locked(session, game, [p.player_id for p in seated])
    before = [ratings[p.player_id] for p in seated]
    teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in before]
    after = MODEL.rate(teams, ranks=[ranks[p.seat] for p in seated])
    changes = []
    for person, rating, (new,) in zip(seated, before, after, strict=True):
        changes.append(RatingChange(
            match_id=match_id, player_id=person.player_id, seat=person.seat, game=game,
            rank=ranks[person.seat], mu_before=rating.mu, sigma_before=rating.sigma,
            mu_after=new.mu, sigma_after=new.sigma))
        rating.mu, rating.sigma = new.mu, new.sigma
        rating.ordinal = ordinal(new.mu, new.sigma)
        rating.matches += 1
        rating.updated_at = utcnow()
    session.add_all(changes)
    await session.flush()
    return changes


async def changes_of(session: AsyncSession, match_id: str) -> list[RatingChange]:
    """What a match did to its players' ratings, by seat (none for an unrated match)."""
    return list(await session.scalars(select(RatingChange).where(
        RatingChange.match_id == match_id).order_by(RatingChange.seat)))


def change_json(change: RatingChange) -> dict[str, Any]:
    """A rating change as the result screen and the history show it."""
    before = ordinal(change.mu_before, change.sigma_before)
    after = ordinal(change.mu_after, change.sigma_after)
    return {"seat": change.seat, "player_id": change.player_id, "rank": change.rank,
            "before": round(before, 2), "after": round(after, 2),
            "delta": round(after - before, 2), "mu": change.mu_after,
            "sigma": change.sigma_after}
