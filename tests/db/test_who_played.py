"""Who played a match's seats (PROTOCOL.md §10, "Who decided"), on SQLite and PostgreSQL:
migration 0015 fills in each seat's turns (own and played for) and resignation for the matches
already over, as the ratings count them from the log; and the fair-play review reads an
analysis stored before the rule by its player's own decisions only, storing it brought up to
date."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from sqlalchemy import select, text
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.analysis.report import VERSION, accuracy
from app.db import migrate
from app.db.base import utcnow
from app.db.models import Match, MatchAction, MatchAnalysis, MatchSeat
from app.db.session import make_engine, make_sessionmaker
from app.services import fairplay, ratings
from app.services.accounts import create_guest
from app.services.ratings import Turns

Sessions = async_sessionmaker[AsyncSession]

# (hand, seat, played_for) in order: seat 0 played one turn of its own and the server two;
# seat 1 two of its own and the server one (tests/db/test_rating_share.py's log).
LOG = [(0, 1, None), (0, 1, None), (0, 0, "timeout"), (0, 0, "timeout"), (0, 1, None),
       (0, 0, None), (0, 0, "stand_in"), (1, 0, None), (1, 1, "stand_in"), (1, 1, "stand_in")]


async def _run(url: str, statements: list[tuple[str, dict[str, Any]]]) -> None:
    engine = make_engine(url)
    try:
        async with engine.begin() as connection:
            for sql, params in statements:
                await connection.execute(text(sql), params)
    finally:
        await engine.dispose()


def _match(match_id: str, room_id: str, status: str, seats: list[tuple[str | None, str | None]],
           room_seats: list[tuple[str | None, str | None]]) -> list[tuple[str, dict[str, Any]]]:
    """A room and its match at migration 0013, with its seats (player, bot) and the room's."""
    out = [("INSERT INTO rooms (id, host_id, game, options, seats, turn_seconds, status, match_id)"
            " VALUES (:room, 'p-ann', 'standard', '{}', 3, 0, 'closed', :match)",
            {"room": room_id, "match": match_id}),
           ("INSERT INTO matches (id, room_id, game, options, players, status)"
            " VALUES (:match, :room, 'standard', '{}', 3, :status)",
            {"match": match_id, "room": room_id, "status": status})]
    for seat, (player, bot) in enumerate(seats):
        out.append(("INSERT INTO match_seats (match_id, seat, player_id, bot, name)"
                    " VALUES (:match, :seat, :player, :bot, 'x')",
                    {"match": match_id, "seat": seat, "player": player, "bot": bot}))
    for seat, (player, bot) in enumerate(room_seats):
        out.append(("INSERT INTO room_seats (room_id, seat, player_id, bot, name)"
                    " VALUES (:room, :seat, :player, :bot, 'x')",
                    {"room": room_id, "seat": seat, "player": player, "bot": bot}))
    seqs: dict[int, int] = {}
    for hand, seat, played_for in LOG:
        seqs[hand] = seqs.get(hand, -1) + 1
        out.append(("INSERT INTO match_actions (id, match_id, hand_no, seq, seat, action,"
                    " played_for) VALUES (:id, :match, :hand, :seq, :seat, '{}', :played_for)",
                    {"id": f"{match_id}-{hand}-{seqs[hand]}", "match": match_id, "hand": hand,
                     "seq": seqs[hand], "seat": seat, "played_for": played_for}))
    return out


async def test_0015_fills_in_who_played_the_matches_already_over(db_url: str) -> None:
    migrate.upgrade(db_url, "0013")
    players = [("INSERT INTO players (id, name, is_guest, role)"
                " VALUES (:id, :id, true, 'player')", {"id": p})
               for p in ("p-ann", "p-ben")]
    people = [("p-ann", None), ("p-ben", None), (None, "basic")]
    # Ben resigned from the finished match (his room seat names him, a computer plays it);
    # the other match is still played, with the same log.
    over = _match("m-over", "r-over", "finished", people,
                  [("p-ann", None), ("p-ben", "sensible"), (None, "basic")])
    active = _match("m-live", "r-live", "active", people, people)
    await _run(db_url, players + over + active)
    assert migrate.upgrade(db_url) == migrate.head()

    engine = make_engine(db_url)
    try:
        async with make_sessionmaker(engine)() as s:
            rows = {(x.match_id, x.seat): (x.own_turns, x.played_for_turns, x.resigned)
                    for x in await s.scalars(select(MatchSeat))}
            counted = await ratings.turns_by_seat(s, "m-over")
    finally:
        await engine.dispose()
    assert counted == {0: Turns(own=1, played_for=2), 1: Turns(own=2, played_for=1)}
    assert rows == {
        ("m-over", 0): (1, 2, False), ("m-over", 1): (2, 1, True), ("m-over", 2): (0, 0, False),
        ("m-live", 0): (None, None, None), ("m-live", 1): (None, None, None),
        ("m-live", 2): (None, None, None)}


# A stored analysis as it was made before the rule (no version): seat 0's decisions at (hand,
# index) (0, 2) and (0, 3) were the timer's, seat 1's every decision a stand-in's.
STALE = {"seats": [{"seat": 0, "decisions": 3, "accuracy": 61.2, "loss": 13.0, "luck": 1.5},
                   {"seat": 1, "decisions": 2, "accuracy": 80.0, "loss": 4.0, "luck": -1.5}],
         "decisions": [
             {"hand": 0, "index": 0, "seat": 1, "played": {}, "best": {}, "loss": 1.0,
              "grade": "good"},
             {"hand": 0, "index": 2, "seat": 0, "played": {}, "best": {}, "loss": 12.0,
              "grade": "mistake"},
             {"hand": 0, "index": 4, "seat": 1, "played": {}, "best": {}, "loss": 3.0,
              "grade": "inaccuracy"},
             {"hand": 0, "index": 5, "seat": 0, "played": {}, "best": {}, "loss": 1.0,
              "grade": "good"},
             {"hand": 1, "index": 0, "seat": 0, "played": {}, "best": {}, "loss": 0.0,
              "grade": "best"}],
         "luck": []}
REVIEW_LOG = [(0, 1, "stand_in"), (0, 1, "stand_in"), (0, 0, "timeout"), (0, 0, "timeout"),
              (0, 1, "stand_in"), (0, 0, None), (0, 0, None), (1, 0, None), (1, 1, "stand_in")]


async def test_the_review_reads_a_stale_analysis_by_its_players_own_decisions(
        sessions: Sessions) -> None:
    async with sessions() as s, s.begin():
        ann, ben = await create_guest(s, "Ann"), await create_guest(s, "Ben")
        s.add(Match(id="m-fair", game="standard", options={}, players=2, status="finished",
                    finished_at=utcnow()))
        await s.flush()
        s.add_all([MatchSeat(match_id="m-fair", seat=0, player_id=ann.id, name="Ann"),
                   MatchSeat(match_id="m-fair", seat=1, player_id=ben.id, name="Ben")])
        seqs: dict[int, int] = {}
        for hand, seat, played_for in REVIEW_LOG:
            seqs[hand] = seqs.get(hand, -1) + 1
            s.add(MatchAction(match_id="m-fair", hand_no=hand, seq=seqs[hand], seat=seat,
                              action={"type": "draw"}, played_for=played_for))
        s.add(MatchAnalysis(match_id="m-fair", analysis=STALE))
    async with sessions() as s, s.begin():
        [facts] = await fairplay.match_facts(s, utcnow() - timedelta(days=1))
    # Seat 0: its own decisions at (0, 5) and (1, 0) alone; seat 1 made none of its own.
    assert [(x.player, x.accuracy) for x in facts.seats] == [
        (ann.id, accuracy([1.0, 0.0], 1.0)), (ben.id, None)]
    async with sessions() as s:
        stored = (await s.get(MatchAnalysis, "m-fair")).analysis
    assert stored["version"] == VERSION
    assert [(x["decisions"], x["accuracy"], x["loss"], x["luck"]) for x in stored["seats"]] == [
        (2, accuracy([1.0, 0.0], 1.0), 1.0, 1.5), (0, None, 0.0, -1.5)]
    assert [d.get("played_for") for d in stored["decisions"]] == [
        "stand_in", "timeout", "stand_in", None, None]
