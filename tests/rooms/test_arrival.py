"""A tournament table's first deal waits for its players (PROTOCOL.md §8 "Arrival"), tested on
the room itself: the SQL store on a SQLite file of the test's own, connections made up for the
test (each keeps the messages the room queues it), no server.

- The last player's arrival deals at once; before it, nothing is dealt or played.
- A player who never comes: the deal comes at the deadline, then a stand-in plays their seat.
- A room rebuilt from the database (a restart) has the deadline of the table's first opening.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson
import pytest

from app.db.migrate import upgrade
from app.db.models import Player
from app.db.session import make_engine, make_sessionmaker
from app.rooms.registry import RoomRegistry
from app.rooms.room import Room
from app.rooms.scheduler import RoomTiming
from app.rooms.store import Arrival
from app.services import ledger, tournaments
from app.services.accounts import create_guest
from app.services.logwriter import LogWriter
from app.services.room_settings import RoomSettings
from app.services.store import SqlMatchStore
from app.services.tournaments import SqlTournamentStore, TournamentSettings
from tests.waits import eventually

# Migrating SQLite warns that it cannot reflect the expression indexes on lower(username).
pytestmark = pytest.mark.filterwarnings("ignore:Skipped unsupported reflection of expression")

TIMING = RoomTiming(call_grace=0.05, bot_delay=0.01, next_hand=0.05)
TABLE = RoomSettings(game="knock", seats=2, options={"target_score": 1}, turn_seconds=60,
                     private=True, stand_in_for_absent=True)


@dataclass(eq=False)
class Conn:
    """A socket as the room sees it: every message queued to it, decoded."""

    player_id: str
    got: list[dict[str, Any]] = field(default_factory=list)

    def push(self, data: bytes) -> None:
        self.got.append(orjson.loads(data))

    def states(self) -> list[dict[str, Any]]:
        return [m for m in self.got if m["type"] == "state"]


@dataclass
class Hall:
    store: SqlMatchStore
    tournaments: SqlTournamentStore
    players: list[tuple[str, str]]  # two guests (id, name)

    def registry(self) -> RoomRegistry:
        return RoomRegistry(self.store, TIMING)


@pytest.fixture
async def hall(tmp_path: Path) -> AsyncIterator[Hall]:
    url = f"sqlite+aiosqlite:///{tmp_path / 'rummy.db'}"
    upgrade(url)
    engine = make_engine(url)
    writer = LogWriter(engine)
    sessions = make_sessionmaker(engine)
    async with sessions() as s, s.begin():
        await ledger.ensure_bank(s)
        guests = [await create_guest(s, name) for name in ("Ann", "Bob")]
    try:
        yield Hall(SqlMatchStore(sessions, writer), SqlTournamentStore(sessions),
                   [(g.id, g.name) for g in guests])
    finally:
        await writer.close()
        await engine.dispose()


def dealt(room: Room) -> bool:
    st = room.runner.state
    return st is not None and st.hand_no >= 0


async def test_the_last_arrival_deals_at_once(hall: Hall) -> None:
    registry = hall.registry()
    deal_by = time.time() + 60
    try:
        room = await registry.open_table("t-room-1", TABLE, hall.players, Arrival("t1", deal_by))
        assert room.record.status == "playing" and not dealt(room)
        assert room.presenter.summary()["deal_at"] == deal_by
        assert room.presenter.summary()["tournament"] == "t1"
        ann, bob = (Conn(player) for player, _ in hall.players)
        room.connect(ann)
        first = ann.states()[0]
        assert first["view"]["hand_no"] == -1 and first["view"]["turn_deadline"] is None
        assert first["view"]["presence"] == ["connected", "disconnected"]
        assert first["view"]["stand_ins"] == [None, None]  # nobody is played for yet
        assert not room.supervisor.pending("computer") and not room.supervisor.pending("timer")
        room.connect(bob)
        await eventually(lambda: dealt(room), "dealt as the last player came")
        assert room.presenter.summary()["deal_at"] is None
        assert time.time() < deal_by
        assert not any(e.get("played_for") for m in ann.states() for e in m["events"])
    finally:
        await registry.close()


async def test_a_player_who_never_comes_is_played_for_after_the_deadline(hall: Hall) -> None:
    registry = hall.registry()
    deal_by = time.time() + 1.0
    try:
        room = await registry.open_table("t-room-2", TABLE, hall.players, Arrival("t1", deal_by))
        ann = Conn(hall.players[0][0])
        room.connect(ann)
        await eventually(lambda: dealt(room), "dealt at the deadline")
        assert time.time() >= deal_by
        events = [e["type"] for m in ann.states() for e in m["events"]]
        assert "action" not in events[:events.index("deal")]  # nothing before the deal
        bob = 1  # seated second; he plays first, after the dealer (seat 0)
        await eventually(lambda: [e for m in ann.states() for e in m["events"]
                                  if e["type"] == "action" and e["seat"] == bob],
                         "a stand-in's move for Bob")
        assert {e.get("played_for") for m in ann.states() for e in m["events"]
                if e["type"] == "action"} == {"stand_in"}
    finally:
        await registry.close()


async def test_a_rebuilt_table_keeps_the_deadline_of_its_first_opening(hall: Hall) -> None:
    """A running tournament's table, opened as the director opens it, then rebuilt from the
    database by a second registry (a restart): the same deadline, still undealt."""
    sessions = hall.tournaments.sessions
    settings = TournamentSettings(game="knock", players=2, table_seats=2, entry=0,
                                  prizes=[100], turn_seconds=60, options={"target_score": 1},
                                  arrival_seconds=30)
    async with sessions() as s, s.begin():
        people = [await s.get(Player, player_id) for player_id, _ in hall.players]
        t = await tournaments.create(s, people[0], settings)
        for who in people:
            await tournaments.register(s, t.id, who)
        tid = t.id
    [table] = await hall.tournaments.tables_to_open(tid)
    opened = time.time() - 5  # it opened a few seconds before the restart
    first = hall.registry()
    try:
        await first.open_table(table.room_id, table.settings, table.players,
                               table.arrival(opened))
        await hall.tournaments.table_opened(table.room_id, opened)
    finally:
        await first.close()
    again = hall.registry()
    try:
        assert await again.restore() == 1
        room = again.get(table.room_id)
        assert room.record.arrival == Arrival(tid, pytest.approx(opened + 30, abs=0.01))
        assert not dealt(room)
        assert room.presenter.summary()["deal_at"] == pytest.approx(opened + 30, abs=0.01)
    finally:
        await again.close()

