"""The fair-play review over what the server keeps (PROTOCOL.md §9, docs/fairplay.md): the
facts of every finished match of the last ``RUMMY_ADDRESS_RETENTION_DAYS`` with a person in it
(seats, the hand settlements the ledger moved, stored analyses, the seats' addresses), scored
by the pure `app.fairplay.score.review`. A match of one person against computer players pairs
nobody, but it is part of that person's results and level against the field.

Only analyses already stored are read: working out a missing one costs about two seconds of
CPU a match (docs/analysis.md), which a review of thousands of matches cannot spend in a
request; a match without one adds nothing to the soft-play signal. A review replaces the flags
(`fairplay_flags`) that the seating policy weighs (`tables.ties_of`, `flagged_among`).

The caller owns the transaction; nothing here commits.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime, timedelta

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.base import utcnow
from app.db.models import (
    FairplayFlag,
    HandResult,
    Match,
    MatchSeat,
    SeatAddress,
)
from app.fairplay.score import MatchFacts, Pair, Seat, review
from app.services import analysis, ledger
from app.services.history import OVER


async def run(s: AsyncSession, window_days: int, now: datetime | None = None) -> list[Pair]:
    """Review every pair, and keep the flagged ones for seating."""
    pairs = review(await match_facts(s, (now or utcnow()) - timedelta(days=window_days)))
    await s.execute(delete(FairplayFlag))
    s.add_all(FairplayFlag(player_a=p.players[0], player_b=p.players[1], score=p.score,
                           reasons=list(p.reasons)) for p in pairs if p.flagged)
    await s.flush()
    return pairs


async def match_facts(s: AsyncSession, since: datetime) -> list[MatchFacts]:
    """The finished matches since ``since`` with a person in them, as the review's facts."""
    matches = (await s.scalars(select(Match).where(
        Match.status.in_(OVER), Match.finished_at >= since).order_by(Match.finished_at))).all()
    seats: dict[str, list[MatchSeat]] = defaultdict(list)
    for row in await s.scalars(select(MatchSeat).where(
            MatchSeat.match_id.in_([m.id for m in matches])).order_by(MatchSeat.seat)):
        seats[row.match_id].append(row)
    played = [m for m in matches if any(x.player_id for x in seats[m.id])]
    ids = [m.id for m in played]
    moves = await ledger.hand_moves(s, ids)
    accuracy = await _accuracies(s, ids)
    addresses = await _addresses(s, [m.room_id for m in played if m.room_id])
    hands = await _hand_numbers(s, [m.id for m in played if m.stake > 0])
    return [MatchFacts(m.id, tuple(
        Seat(x.player_id, accuracy.get((m.id, x.seat)),
             frozenset(addresses.get((m.room_id or "", x.player_id or ""), ())))
        for x in seats[m.id]),
        tuple(tuple((p, q, v / m.stake) for p, q, v in moves.get(m.id, {}).get(h, []))
              for h in hands.get(m.id, [])))
        for m in played]


async def _accuracies(s: AsyncSession, ids: list[str]) -> dict[tuple[str, int], float]:
    """Each analysed seat's accuracy over its player's own decisions (PROTOCOL.md §10, "Who
    decided": a stand-in's or the timer's moves are not the person's play); a seat with no
    decision of its own has none."""
    found = {}
    for match_id, stored in (await analysis.current(s, ids)).items():
        for seat in stored["seats"]:
            if seat["accuracy"] is not None:
                found[(match_id, int(seat["seat"]))] = float(seat["accuracy"])
    return found


async def _addresses(s: AsyncSession, rooms: list[str]) -> dict[tuple[str, str], set[str]]:
    found: dict[tuple[str, str], set[str]] = defaultdict(set)
    for room_id, player_id, address in await s.execute(select(
            SeatAddress.room_id, SeatAddress.player_id, SeatAddress.address).where(
            SeatAddress.room_id.in_(rooms))):
        found[(room_id, player_id)].add(address)
    return found


async def _hand_numbers(s: AsyncSession, ids: list[str]) -> dict[str, list[int]]:
    """Each staked match's hands that ended (a hand that moved no chips is a hand too)."""
    found: dict[str, list[int]] = defaultdict(list)
    for match_id, hand_no in await s.execute(select(HandResult.match_id, HandResult.hand_no)
                                             .where(HandResult.match_id.in_(ids))
                                             .order_by(HandResult.hand_no)):
        found[match_id].append(hand_no)
    return found


async def flagged_among(s: AsyncSession, players: list[str]) -> set[tuple[str, str]]:
    """The flagged pairs among ``players`` (each as (a, b) with a < b)."""
    rows = await s.execute(select(FairplayFlag.player_a, FairplayFlag.player_b).where(
        FairplayFlag.player_a.in_(players), FairplayFlag.player_b.in_(players)))
    return {(a, b) for a, b in rows.all()}
