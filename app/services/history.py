"""What players may read of past matches: their own history, profiles, leaderboards and the
replay of a finished match (docs/server.md, "History, profiles and ratings").

Read-only, plain PostgreSQL (or SQLite) reads: any process of several can answer them.
A finished match replays for anyone when its room was public and only for its players when it
was private; a match in progress never replays. A player's replay shows each step as that
player's seat saw it (``views.player_view``): their own hand and the table, and every hand once
a hand's end reveals them; anyone else sees what a spectator saw.

A profile counts a match's win or loss for a person only by the ratings' own-play rule
(``ratings.counted``, from the turns and the resignation its seat keeps, migration 0015): a
seat the server played for in more than a fifth of its turns, or resigned before two turns of
its own, counts neither way; a resignation after that is a loss.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased

from app.db.models import Account, HandResult, Match, MatchSeat, Player, Rating, RatingChange
from app.db.models import Transfer as TransferRow
from app.engine.matchlog import InvalidMatchLog
from app.engine.replay import replay_steps
from app.engine.state import State
from app.engine.views import player_view
from app.refusals import Code, FixedRefusal
from app.services import matches, ratings

OVER = ("finished", "abandoned")
RECENT = 5


class PrivateMatch(FixedRefusal):
    code = Code.PRIVATE_MATCH


class MatchInProgress(FixedRefusal):
    code = Code.MATCH_IN_PROGRESS


def _mine(player_id: str, game: str | None, *, public: bool = False) -> Any:
    """The matches over (finished or abandoned) in which `player_id` sat, with the seat; with
    `public`, only those of public rooms (what anyone may read of the player)."""
    query = (select(Match, MatchSeat).join(MatchSeat, MatchSeat.match_id == Match.id)
             .where(MatchSeat.player_id == player_id, Match.status.in_(OVER)))
    if public:
        query = query.where(Match.private.is_(False))
    return query.where(Match.game == game) if game else query


async def my_matches(s: AsyncSession, player_id: str, *, game: str | None = None,
                     limit: int = 20, offset: int = 0, public: bool = False) -> dict[str, Any]:
    """A player's matches that are over, newest first: game, options, opponents, result,
    score, chips won or lost, rating change and whether a stand-in played the seat out after
    they resigned; with the total for paging. `public`: only matches of public rooms."""
    mine = _mine(player_id, game, public=public)
    total = await s.scalar(select(func.count()).select_from(mine.subquery()))
    rows = (await s.execute(mine.order_by(
        Match.created_at.desc(), Match.id).limit(limit).offset(offset))).all()
    return {"matches": await _entries(s, player_id, rows), "total": int(total or 0),
            "limit": limit, "offset": offset}


async def _entries(s: AsyncSession, player_id: str,
                   rows: Sequence[Any]) -> list[dict[str, Any]]:
    ids = [m.id for m, _ in rows]
    chips = await _chips(s, ids)
    changes = {c.match_id: c for c in await s.scalars(select(RatingChange).where(
        RatingChange.match_id.in_(ids), RatingChange.player_id == player_id))}
    seats = defaultdict(list)
    for seat in await s.scalars(select(MatchSeat).where(MatchSeat.match_id.in_(ids))
                                .order_by(MatchSeat.seat)):
        seats[seat.match_id].append(seat)
    out = []
    for match, mine in rows:
        seat, change = mine.seat, changes.get(match.id)
        out.append({
            "id": match.id, "game": match.game, "options": match.options,
            "status": match.status, "rated": match.rated, "private": match.private,
            "seat": seat, "result": _result(match, seat), "played_out": bool(mine.resigned),
            "score": (match.totals or [None] * match.players)[seat],
            "totals": match.totals, "chips": chips.get((match.id, seat), 0),
            "rating": None if change is None else ratings.change_json(change),
            "opponents": [{"seat": x.seat, "name": x.name, "player_id": x.player_id,
                           "bot": x.bot} for x in seats[match.id] if x.seat != seat],
            "created_at": match.created_at.isoformat(),
            "finished_at": match.finished_at.isoformat() if match.finished_at else None})
    return out


def _result(match: Match, seat: int) -> str:
    if match.status != "finished":
        return "abandoned"
    return "won" if match.winner == seat else "lost"


def _counts_as(match: Match, mine: MatchSeat) -> str | None:
    """What a finished match counts for in its person's profile, by the ratings' own-play
    rule: ``won``, ``lost``, or None (not counted)."""
    turns = ratings.Turns(mine.own_turns or 0, mine.played_for_turns or 0)
    count = ratings.counted(turns, bool(mine.resigned))
    if count is ratings.Count.NOT:
        return None
    return "lost" if count is ratings.Count.LOSS else _result(match, mine.seat)


async def _chips(s: AsyncSession,
                 match_ids: list[str]) -> dict[tuple[str | None, int | None], int]:
    """Chips each seat won (positive) or lost at its matches' hands, by (match id, seat)."""
    payer, payee = aliased(Account), aliased(Account)
    rows = await s.execute(
        select(TransferRow.match_id, TransferRow.amount, payer.seat, payee.seat)
        .join(payer, payer.id == TransferRow.from_account)
        .join(payee, payee.id == TransferRow.to_account)
        .where(TransferRow.match_id.in_(match_ids), TransferRow.reason == "hand"))
    net: dict[tuple[str | None, int | None], int] = defaultdict(int)
    for match_id, amount, from_seat, to_seat in rows:
        net[(match_id, from_seat)] -= amount
        net[(match_id, to_seat)] += amount
    return net


async def profile(s: AsyncSession, player_id: str) -> dict[str, Any]:
    """A player's public profile: name, member since, per game matches, wins and losses (by
    the own-play rule, ``_counts_as``), win rate, average score per hand, chips won and rating;
    and the recent matches. Private matches are left out of all of it (their players alone may
    read them); a rating, public anyway, stays whole."""
    player = await matches.existing_player(s, player_id)
    rows = (await s.execute(_mine(player_id, None, public=True))).all()
    finished = [(m, mine) for m, mine in rows if m.status == "finished"]
    chips = await _chips(s, [m.id for m, _ in finished])
    hands = defaultdict(list)
    for result in await s.scalars(select(HandResult).where(
            HandResult.match_id.in_([m.id for m, _ in finished]))):
        hands[result.match_id].append(result.scores)
    games: dict[str, dict[str, Any]] = defaultdict(_no_games)
    for match, mine in finished:
        g, seat = games[match.game], mine.seat
        g["matches"] += 1
        counts = _counts_as(match, mine)
        g["wins"] += counts == "won"
        g["losses"] += counts == "lost"
        g["chips"] += chips.get((match.id, seat), 0)
        for scores in hands[match.id]:
            g["hands"] += 1
            g["points"] += scores[seat]
    rated = {r.game: r for r in await s.scalars(select(Rating).where(
        Rating.player_id == player_id))}
    stats = []
    for game in sorted(set(games) | set(rated)):
        g = games[game]
        counted = g["wins"] + g["losses"]
        stats.append({"game": game, "matches": g["matches"], "wins": g["wins"],
                      "losses": g["losses"],
                      "win_rate": round(g["wins"] / counted, 4) if counted else None,
                      "average_score": round(g["points"] / g["hands"], 2) if g["hands"]
                      else None, "chips": g["chips"],
                      "rating": _rating_json(rated.get(game))})
    recent = await my_matches(s, player_id, limit=RECENT, public=True)
    return {"id": player.id, "name": player.name, "is_guest": player.is_guest,
            "member_since": player.created_at.isoformat(), "games": stats,
            "recent": recent["matches"]}


def _no_games() -> dict[str, int]:
    return {"matches": 0, "wins": 0, "losses": 0, "hands": 0, "points": 0, "chips": 0}


def _rating_json(rating: Rating | None) -> dict[str, Any] | None:
    if rating is None:
        return None
    return {"rating": round(rating.ordinal, 2), "mu": rating.mu, "sigma": rating.sigma,
            "matches": rating.matches}


async def leaderboard(s: AsyncSession, game: str, *, min_matches: int, limit: int = 20,
                      offset: int = 0, player_id: str | None = None) -> dict[str, Any]:
    """The game's rated players with at least `min_matches` rated matches, best first, ranked
    (equal ratings share a rank), paged; and the asking player's own rank (None if they have
    not played enough)."""
    eligible = (Rating.game == game, Rating.matches >= min_matches)
    rank = func.rank().over(order_by=Rating.ordinal.desc()).label("rank")
    ranked = (select(Rating, Player.name, rank).join(Player, Player.id == Rating.player_id)
              .where(*eligible).subquery())
    row = aliased(Rating, ranked)
    rows = (await s.execute(select(row, ranked.c.name, ranked.c.rank).order_by(
        ranked.c.rank, ranked.c.name, ranked.c.player_id).limit(limit).offset(offset))).all()
    total = await s.scalar(select(func.count()).select_from(Rating).where(*eligible))
    return {"game": game, "min_matches": min_matches, "total": int(total or 0),
            "limit": limit, "offset": offset,
            "players": [_board_row(r, name, n) for r, name, n in rows],
            "me": await _my_rank(s, game, min_matches, player_id)}


def _board_row(rating: Rating, name: str, rank: int) -> dict[str, Any]:
    return {"rank": int(rank), "player_id": rating.player_id, "name": name,
            **(_rating_json(rating) or {})}


async def _my_rank(s: AsyncSession, game: str, min_matches: int,
                   player_id: str | None) -> dict[str, Any] | None:
    if player_id is None:
        return None
    mine = await s.get(Rating, (player_id, game))
    if mine is None:
        return {"rank": None, "matches": 0, "rating": None}
    if mine.matches < min_matches:
        return {"rank": None, **(_rating_json(mine) or {})}
    better = await s.scalar(select(func.count()).select_from(Rating).where(
        Rating.game == game, Rating.matches >= min_matches, Rating.ordinal > mine.ordinal))
    return {"rank": int(better or 0) + 1, **(_rating_json(mine) or {})}


async def replay(s: AsyncSession, match_id: str, viewer_id: str | None) -> dict[str, Any]:
    """A finished match, step by step, as the viewer's seat saw it (a spectator's view for
    anyone not seated in it). Refuses a match in progress and, to anyone but its players, a
    private match."""
    match = await s.get(Match, match_id)
    if match is None:
        raise matches.NotFound(f"no match {match_id!r}")
    if match.status not in OVER:
        raise MatchInProgress("a match in progress cannot be replayed; wait for its end")
    log = await matches.match_log(s, match_id)
    seats = log["match"]["seats"]
    seat = next((x["seat"] for x in seats if viewer_id and x["player_id"] == viewer_id), None)
    if match.private and seat is None:
        raise PrivateMatch("this match was private: only its players can replay it")

    def view(st: State) -> dict[str, Any]:
        return player_view(st, seat)

    out = {"match": {k: v for k, v in log["match"].items() if k != "room_id"},
           "seat": seat, "names": [x["name"] for x in seats], "results": log["results"]}
    try:
        return {**out, "steps": replay_steps(log, view)}
    except InvalidMatchLog as exc:  # a match whose first deal was never stored
        return {**out, "steps": [], "error": str(exc)}
