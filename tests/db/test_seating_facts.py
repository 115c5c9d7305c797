"""What the store gives the seating policy, and what the database holds for it, on SQLite and
PostgreSQL: a person's ties (blocks and flags read both ways, their waiting quick-seat seat);
one waiting quick-seat seat per person however many seats are taken at once, cleared when the
seat is left or the room starts or closes; the host's cap of waiting rooms among simultaneous
openings; chat lines that keep their speaker and their speaker's blockers as they are now."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest
from sqlalchemy import select

from app.db.models import Block, FairplayFlag, Player, WaitingQuickSeat
from app.db.session import make_engine, make_sessionmaker
from app.refusals import Code, Refusal
from app.seating_policy import Ask, How, Table, WaitingSeat
from app.services import ledger, tables
from app.services.accounts import create_guest
from app.services.logwriter import LogWriter
from app.services.records import ChatLine, RoomRecord, SeatRecord
from app.services.room_settings import RoomSettings
from app.services.store import SqlMatchStore

SETTINGS = RoomSettings(game="standard", seats=2)


@pytest.fixture
async def store(migrated_url: str) -> AsyncIterator[tuple[SqlMatchStore, Any]]:
    engine = make_engine(migrated_url)
    writer = LogWriter(engine)
    try:
        sessions = make_sessionmaker(engine)
        async with sessions() as s, s.begin():
            await ledger.ensure_bank(s)
        yield SqlMatchStore(sessions, writer), sessions
    finally:
        await writer.close()
        await engine.dispose()


async def _players(sessions: Any, *names: str) -> list[Player]:
    async with sessions() as s, s.begin():
        return [await create_guest(s, name) for name in names]


async def _room(matches: SqlMatchStore, room_id: str, host: Player, quick: str | None = None
                ) -> RoomRecord:
    room = RoomRecord(id=room_id, host_id=host.id, invite_code=room_id, settings=SETTINGS,
                      quick_seat=quick)
    await matches.open_room(room, None)
    return room


def _ask(player: Player, room: RoomRecord) -> Ask:
    return Ask(player.id, How.QUICK_SEAT, Table(room.id, frozenset(
        s.player_id for s in room.taken if s.player_id), quick_seat=room.quick_seat is not None))


async def _sit(matches: SqlMatchStore, room: RoomRecord, player: Player, seat: int) -> None:
    record = SeatRecord(seat, player.id, None, player.name)
    await matches.sit(room, record, _ask(player, room))
    room.taken.append(record)


async def _waiting(sessions: Any) -> set[tuple[str, str, int]]:
    async with sessions() as s:
        rows = await s.execute(select(WaitingQuickSeat.player_id, WaitingQuickSeat.room_id,
                                      WaitingQuickSeat.seat))
        return {(p, r, seat) for p, r, seat in rows}


async def test_ties_are_read_both_ways(store: tuple[SqlMatchStore, Any]) -> None:
    matches, sessions = store
    ann, bob, cat, dan, eve = await _players(sessions, "Ann", "Bob", "Cat", "Dan", "Eve")
    async with sessions() as s, s.begin():
        s.add_all([Block(player_id=ann.id, blocked_id=bob.id),  # ann blocked bob
                   Block(player_id=cat.id, blocked_id=ann.id),  # cat blocked ann
                   Block(player_id=bob.id, blocked_id=cat.id)])  # none of ann's business
        a, b = sorted((ann.id, dan.id))
        s.add(FairplayFlag(player_a=a, player_b=b, score=0.9, reasons=["chip_flow"]))
    room = await _room(matches, "quick1", eve, "key")
    await _sit(matches, room, ann, 1)
    async with sessions() as s:
        ties = await tables.ties_of(s, ann.id)
        others = await tables.ties_of(s, bob.id)
    assert ties.blocks == {bob.id, cat.id} and ties.flagged == {dan.id}
    assert ties.waiting == WaitingSeat("quick1", 1)
    assert others.blocks == {ann.id, cat.id} and others.flagged == set()
    assert others.waiting is None


async def test_one_waiting_quick_seat_seat_per_person_at_once(
        store: tuple[SqlMatchStore, Any]) -> None:
    """Seats asked for at the same moment in several quick-seat rooms (each under its own
    room's lock, as on several processes): one is taken, the others are refused
    ``already_waiting`` naming it, and the database holds that one."""
    matches, sessions = store
    host, ann = await _players(sessions, "Host", "Ann")
    rooms = [await _room(matches, f"quick{i}", host, f"key{i}") for i in range(5)]
    answers = await asyncio.gather(*(_sit(matches, room, ann, 1) for room in rooms),
                                   return_exceptions=True)
    won = [room.id for room, answer in zip(rooms, answers, strict=True) if answer is None]
    assert len(won) == 1, answers
    for answer in answers:
        if answer is not None:
            assert isinstance(answer, Refusal) and answer.code is Code.ALREADY_WAITING, answer
            assert answer.fields == {"room": won[0], "seat": 1}
    assert await _waiting(sessions) == {(ann.id, won[0], 1)}
    other = next(room for room in rooms if room.id != won[0])
    await _sit(matches, other, host, 0)  # others are not held up
    assert await _waiting(sessions) == {(ann.id, won[0], 1), (host.id, other.id, 0)}


async def test_the_waiting_seat_is_cleared_as_the_room_moves_on(
        store: tuple[SqlMatchStore, Any]) -> None:
    matches, sessions = store
    ann, bob, cat = await _players(sessions, "Ann", "Bob", "Cat")
    left = await _room(matches, "left", ann, "k1")
    await _sit(matches, left, ann, 0)
    await matches.stand(left, left.taken.pop())  # left while it waits
    started = await _room(matches, "started", ann, "k1")
    await _sit(matches, started, ann, 0)
    await _sit(matches, started, bob, 1)
    await matches.start_match(started, "match1", 2)
    started.status = "playing"
    closed = await _room(matches, "closed", cat, "k2")
    await _sit(matches, closed, cat, 0)
    assert await _waiting(sessions) == {(cat.id, "closed", 0)}
    closed.status = "closed"
    await matches.save_room(closed)
    assert await _waiting(sessions) == set()
    hosted = await _room(matches, "hosted", ann)  # a host's room: no waiting quick seat
    await _sit(matches, hosted, cat, 0)
    assert await _waiting(sessions) == set()


async def test_the_hosts_cap_holds_for_rooms_opened_at_once(
        store: tuple[SqlMatchStore, Any]) -> None:
    matches, sessions = store
    [host] = await _players(sessions, "Host")
    rooms = [RoomRecord(id=f"room{i}", host_id=host.id, invite_code=f"room{i}",
                        settings=SETTINGS) for i in range(8)]
    answers = await asyncio.gather(*(matches.open_room(r, 3) for r in rooms),
                                   return_exceptions=True)
    refused = [a for a in answers if a is not None]
    assert len(refused) == 5, answers
    assert all(isinstance(a, Refusal) and a.code is Code.TOO_MANY_WAITING_ROOMS
               for a in refused)
    opened = [r for r, a in zip(rooms, answers, strict=True) if a is None]
    opened[0].status = "closed"  # one closes: room for one more
    await matches.save_room(opened[0])
    await matches.open_room(rooms[-1] if rooms[-1] not in opened else rooms[0], 3)


async def test_chat_lines_keep_their_speaker_and_blockers_as_they_are_now(
        store: tuple[SqlMatchStore, Any]) -> None:
    matches, sessions = store
    ann, bob = await _players(sessions, "Ann", "Bob")
    room = await _room(matches, "talk", ann)
    said = await matches.add_chat(room, None, 1, bob.id, "Bob", "before")
    assert said == ChatLine(1, "Bob", "before", bob.id, frozenset())
    async with sessions() as s, s.begin():
        s.add(Block(player_id=ann.id, blocked_id=bob.id))
    said = await matches.add_chat(room, None, 1, bob.id, "Bob", "after")
    assert said.blockers == {ann.id}
    await matches.add_chat(room, None, 0, ann.id, "Ann", "hello")
    rebuilt = (await matches.recent_chat(["talk"]))["talk"]
    assert [(x.text, x.speaker, x.blockers) for x in rebuilt] == [
        ("before", bob.id, {ann.id}), ("after", bob.id, {ann.id}), ("hello", ann.id, set())]
    rematch = await _room(matches, "again", ann)
    carried = await matches.carry_chat(rematch, [
        ChatLine(None, x.name, x.text, x.speaker) for x in rebuilt])
    assert [(x.seat, x.speaker, x.blockers) for x in carried] == [
        (None, bob.id, {ann.id}), (None, bob.id, {ann.id}), (None, ann.id, set())]
    assert (await matches.recent_chat(["again"]))["again"] == carried
