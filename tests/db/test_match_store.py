"""The match store on real PostgreSQL: a hand's settlement is reported as the ledger moved it
(capped by the payer's escrow), and read back the same after a restart; a match's end keeps
who played each seat."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from sqlalchemy import select

from app.db.migrate import upgrade
from app.db.models import MatchSeat
from app.db.session import make_engine, make_sessionmaker
from app.services import ledger
from app.services.accounts import create_guest
from app.services.logwriter import LogWriter
from app.services.records import RoomRecord, SeatRecord
from app.services.room_settings import RoomSettings
from app.services.store import SqlMatchStore
from tests import pg

pytestmark = pytest.mark.postgres


@pytest.fixture
async def store() -> AsyncIterator[tuple[SqlMatchStore, Any]]:
    url = pg.create_database("rummy_store")
    try:
        upgrade(url)
        engine = make_engine(url)
        writer = LogWriter(engine)
        try:
            yield SqlMatchStore(make_sessionmaker(engine), writer), make_sessionmaker(engine)
        finally:
            await writer.close()
            await engine.dispose()
    finally:
        pg.drop_database(url)


async def _three_seats(store: tuple[SqlMatchStore, Any], name: str,
                       settings: RoomSettings) -> tuple[RoomRecord, str]:
    """Room ``room-NAME`` with Ann, Ben and a computer player seated and its match
    ``match-NAME`` started and dealt; the room and Ben's id."""
    matches, sessions = store
    async with sessions() as s, s.begin():
        await ledger.ensure_bank(s)
        ann, ben = await create_guest(s, "Ann"), await create_guest(s, "Ben")
    room = RoomRecord(id=f"room-{name}", host_id=ann.id, invite_code=name, settings=settings)
    await matches.save_room(room)
    for seat in (SeatRecord(0, ann.id, None, "Ann"), SeatRecord(1, ben.id, None, "Ben"),
                 SeatRecord(2, None, "basic", "Bot 3")):
        await matches.sit(room, seat)
        room.taken.append(seat)
    await matches.start_match(room, f"match-{name}", 3)
    await matches.record_deal(room, f"match-{name}", 0, 0, {"hands": []}, None)
    return room, ben.id


async def test_a_capped_settlement_is_reported_and_restored_as_moved(
        store: tuple[SqlMatchStore, Any]) -> None:
    matches, _ = store
    room, _ = await _three_seats(store, "capped",
                                 RoomSettings(game="standard", seats=3, stake=50, buy_in=10))

    # Ben owes 7 points (350 chips) and the computer player 1 (50): each holds 10 in escrow.
    moved = await matches.record_hand(room, "match-capped", 0, {
        "winner": 0, "reason": "went_out", "scores": [8, 0, 0],
        "payments": [[1, 0, 7], [2, 0, 1]]})
    assert moved == [20, -10, -10]

    [live] = await matches.live_matches()
    assert (live.recorded_hands, live.settled) == (1, [[20, -10, -10]])


async def test_free_play_reports_no_settlement(store: tuple[SqlMatchStore, Any]) -> None:
    matches, sessions = store
    async with sessions() as s, s.begin():
        await ledger.ensure_bank(s)
        ann = await create_guest(s, "Ann")
    room = RoomRecord(id="room-free", host_id=ann.id, invite_code="free",
                      settings=RoomSettings(game="standard", seats=2),
                      taken=[SeatRecord(0, ann.id, None, "Ann")])
    await matches.save_room(room)
    await matches.sit(room, room.taken[0])
    await matches.start_match(room, "match-free", 2)
    await matches.record_deal(room, "match-free", 0, 0, {"hands": []}, None)
    assert await matches.record_hand(room, "match-free", 0, {
        "winner": 0, "reason": "went_out", "scores": [5, 0], "payments": [[1, 0, 5]]}) is None
    [live] = await matches.live_matches()
    assert live.settled == []


async def test_the_end_of_a_match_keeps_who_played_each_seat(
        store: tuple[SqlMatchStore, Any]) -> None:
    """Each seat's turns, own and played for, and whether its person resigned are written in
    the transaction that ends the match (docs/server.md: a profile counts the match by them)."""
    matches, sessions = store
    room, ben = await _three_seats(store, "who", RoomSettings(game="standard", seats=3))
    moves = [(1, None), (1, None), (2, None), (2, None), (0, "timeout"), (0, "timeout"),
             (1, None), (1, None), (2, None), (2, None), (0, None), (0, None),
             (1, "stand_in"), (1, "stand_in")]
    for seq, (seat, played_for) in enumerate(moves):
        await matches.append_action(room, "match-who", 0, seq, seat, {"type": "draw"}, None,
                                    played_for)
    room.taken[1] = SeatRecord(1, ben, "sensible", "Ben")  # Ben resigned: a stand-in's
    await matches.finish_match(room, "match-who", "finished", 2, [0, 0, 10])

    async with sessions() as s:
        rows = [(x.seat, x.own_turns, x.played_for_turns, x.resigned)
                for x in await s.scalars(select(MatchSeat).where(
                    MatchSeat.match_id == "match-who").order_by(MatchSeat.seat))]
    assert rows == [(0, 1, 1, False), (1, 2, 1, True), (2, 2, 0, False)]
