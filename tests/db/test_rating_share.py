"""Which seats of a finished match are rated (docs/server.md, "Ratings"): the turns each seat's
person played, read from the match log's `played_for`, against the documented share; a
resignation before the second own turn is not rated, after it is a loss."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models import Match, MatchAction
from app.services import ratings
from app.services.ratings import ABORT_TURNS, STAND_IN_SHARE, Seated, Turns, own_play

Sessions = async_sessionmaker[AsyncSession]


def test_the_documented_share_and_abort_rule() -> None:
    assert (STAND_IN_SHARE, ABORT_TURNS) == (0.2, 2)  # as docs/server.md says
    people = {0: "ann", 1: "ben", 2: "cy"}
    ranks = [1, 0, 2]
    # One turn in five played for Ben is within the share; two in nine is over it.
    assert own_play(people, set(), {0: Turns(5), 1: Turns(4, 1), 2: Turns(5)}, ranks) == (
        [Seated(0, "ann"), Seated(1, "ben"), Seated(2, "cy")], ranks)
    rated, _ = own_play(people, set(), {0: Turns(9), 1: Turns(7, 2), 2: Turns(9)}, ranks)
    assert rated == [Seated(0, "ann"), Seated(2, "cy")]
    # Ben resigned after one own turn: an abort, not rated; after two, a loss (placed last),
    # whatever the stand-in that played his seat out scored.
    rated, _ = own_play(people, {1}, {0: Turns(6), 1: Turns(1, 5), 2: Turns(6)}, ranks)
    assert rated == [Seated(0, "ann"), Seated(2, "cy")]
    rated, places = own_play(people, {1}, {0: Turns(6), 1: Turns(2, 4), 2: Turns(6)}, ranks)
    assert (rated, places) == ([Seated(0, "ann"), Seated(1, "ben"), Seated(2, "cy")], [0, 2, 1])
    # Places count among the rated alone: Ben, first but not rated, leaves Ann first.
    rated, places = own_play(people, set(), {0: Turns(5), 1: Turns(0, 5), 2: Turns(5)}, ranks)
    assert (rated, [places[p.seat] for p in rated]) == (
        [Seated(0, "ann"), Seated(2, "cy")], [0, 1])


async def test_turns_are_read_from_the_match_log(sessions: Sessions) -> None:
    """A turn is a run of one seat's actions in a hand; it counts as played for the person when
    the server made any of its moves."""
    log = [  # (hand, seat, played_for) in order
        (0, 1, None), (0, 1, None), (0, 0, "timeout"), (0, 0, "timeout"), (0, 1, None),
        (0, 0, None), (0, 0, "stand_in"), (1, 0, None), (1, 1, "stand_in"), (1, 1, "stand_in")]
    async with sessions() as session, session.begin():
        session.add(Match(id="m-share", game="standard", options={}, players=2))
        await session.flush()
        seqs: dict[int, int] = {}
        for hand, seat, played_for in log:
            seq = seqs[hand] = seqs.get(hand, -1) + 1
            session.add(MatchAction(match_id="m-share", hand_no=hand, seq=seq, seat=seat,
                                    action={"type": "draw"}, played_for=played_for))
    async with sessions() as session:
        turns = await ratings.turns_by_seat(session, "m-share")
    assert turns == {0: Turns(own=1, played_for=2), 1: Turns(own=2, played_for=1)}
    assert turns[0].share > STAND_IN_SHARE
