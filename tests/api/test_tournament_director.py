"""The tournament director on its own (`app.rooms.tournaments`), with a store, tables and an
owner made up for the test: the sweep opens again what a failed opening left, only the holder
of a tournament drives it, a round's tables open in the gaps between people's actions, each
table's first opening is kept (its first deal's deadline, PROTOCOL.md §8 "Arrival"), a next
round's table is told at its players' last tables ("Where to be"), and a tournament not
running in this database is left alone."""

from __future__ import annotations

import asyncio
from typing import Any

from app.rooms.commands import Caller, Command, NextTable
from app.rooms.pace import Pace
from app.rooms.store import Arrival
from app.rooms.tournaments import TournamentDirector
from app.services.room_settings import RoomSettings
from app.services.tournaments import TableToOpen
from tests.waits import eventually

TABLE = TableToOpen("t1", "room1", RoomSettings(game="standard", seats=2, private=True),
                    [("p1", "Ann"), ("p2", "Bob")], arrival_seconds=10)


class Recording:
    """The tables' rooms as the director reaches them: notes the rooms it opens (and their
    first deals' deadlines) and the commands it runs."""

    def __init__(self) -> None:
        self.opened: list[str] = []
        self.arrivals: list[Arrival] = []
        self.ran: list[tuple[str, Command]] = []

    async def open_table(self, room_id: str, settings: RoomSettings,
                         players: list[tuple[str, str]], arrival: Arrival) -> None:
        self.opened.append(room_id)
        self.arrivals.append(arrival)

    async def run(self, room_id: str, command: Command, caller: Caller) -> dict[str, Any]:
        self.ran.append((room_id, command))
        return {}


class FlakyStore:
    """Running tournament t1 with one table; the first ``fails`` reads raise (a blip)."""

    def __init__(self, fails: int) -> None:
        self.fails = fails
        self.kept: dict[str, float] = {}  # room -> when it first opened

    async def table_opened(self, room_id: str, at: float) -> None:
        self.kept.setdefault(room_id, at)

    async def running(self) -> list[str]:
        return ["t1"]

    async def tables_to_open(self, tournament_id: str) -> list[TableToOpen]:
        if self.fails:
            self.fails -= 1
            raise ConnectionError("the database went away for a moment")
        return [TABLE]


class ReadCounting(FlakyStore):
    """Never fails; counts the reads of tables to open."""

    def __init__(self) -> None:
        super().__init__(fails=0)
        self.reads = 0

    async def tables_to_open(self, tournament_id: str) -> list[TableToOpen]:
        self.reads += 1
        return await super().tables_to_open(tournament_id)


class Owner:
    """A lease that another process holds until ``free`` is set."""

    def __init__(self) -> None:
        self.free = False
        self.held: set[str] = set()

    def holds(self, tournament_id: str) -> bool:
        return tournament_id in self.held

    async def acquire(self, tournament_id: str) -> bool:
        if self.free:
            self.held.add(tournament_id)
        return self.free

    async def release(self, tournament_id: str) -> None:
        self.held.discard(tournament_id)

    def holding(self) -> list[str]:
        return sorted(self.held)


async def test_a_blip_while_opening_a_round_is_retried_on_the_sweep() -> None:
    tables = Recording()
    store = FlakyStore(fails=2)
    director = TournamentDirector(store, tables, sweep=0.01)
    try:
        await director.start()  # the first read fails: nothing opened, no error raised
        assert tables.opened == []
        await eventually(lambda: tables.opened, "the table opened by a later sweep")
        await eventually(lambda: store.fails == 0, "sweeps went on")
        assert tables.opened == ["room1"]  # once: an opened table is not opened again
        # Its opening is kept, and its first deal waits arrival_seconds from then.
        assert tables.arrivals == [Arrival("t1", store.kept["room1"] + 10)]
    finally:
        await director.close()


async def test_only_the_holder_drives_and_a_free_tournament_is_taken() -> None:
    tables = Recording()
    owner = Owner()
    director = TournamentDirector(FlakyStore(fails=0), tables, owner, sweep=0.01)
    try:
        await director.start()
        await director.advance("t1")
        assert not director.drives("t1") and tables.opened == []  # held elsewhere
        owner.free = True  # its driver died: the lease ran out
        await eventually(lambda: tables.opened, "the tournament taken over on a sweep")
        assert director.drives("t1") and tables.opened == ["room1"]
    finally:
        await director.close()
    assert owner.holding() == []  # let go on close, for another process to take at once


async def test_tables_open_in_a_gap_between_peoples_actions() -> None:
    tables = Recording()
    store = ReadCounting()
    pace = Pace(interval=0.0, rest_ratio=0.0, yield_limit=60.0)
    director = TournamentDirector(store, tables, sweep=60.0, pace=pace)
    try:
        with pace.person():  # a person's action is being handled elsewhere in the process
            director.poked("t1")
            await eventually(lambda: store.reads, "the round's tables read")
            for _ in range(20):  # nothing else to run: the opening has had its chances
                await asyncio.sleep(0)
            assert tables.opened == []
        await eventually(lambda: tables.opened, "the table opened once the action was handled")
        assert tables.opened == ["room1"]
    finally:
        await director.close()


class Final(FlakyStore):
    """Round 2 of t1: a final that opened before (a restart found it), whose players won their
    round-1 tables in rooms room1 and room2."""

    def __init__(self) -> None:
        super().__init__(fails=0)

    async def tables_to_open(self, tournament_id: str) -> list[TableToOpen]:
        return [TableToOpen("t1", "final", TABLE.settings, [("p1", "Ann"), ("p3", "Cat")],
                            opened_at=1000.0, arrival_seconds=60,
                            previous={"p1": "room1", "p3": "room2"})]


async def test_a_next_table_is_told_at_each_players_last_table() -> None:
    """PROTOCOL.md §8 "Where to be": once the final is open, a `NextTable` runs at each
    finalist's round-1 room (whose sockets it tells); a table that opened before keeps the
    deadline of its first opening."""
    tables = Recording()
    store = Final()
    director = TournamentDirector(store, tables, sweep=60.0)
    try:
        await director.advance("t1")
        await eventually(lambda: len(tables.ran) == 2, "both finalists told")
        assert sorted(tables.ran, key=lambda x: x[0]) == [
            ("room1", NextTable("t1", "final", "p1")), ("room2", NextTable("t1", "final", "p3"))]
        assert tables.opened == ["final"]
        assert tables.arrivals == [Arrival("t1", 1060.0)]
        assert store.kept == {}  # its opening was kept already
    finally:
        await director.close()


async def test_a_tournament_not_running_here_is_left_alone(caplog: Any) -> None:
    """Told of a tournament this database does not run (another deployment's, through a
    shared Redis, or one that finished): not taken, nothing opened, no line above debug."""
    tables = Recording()
    owner = Owner()
    owner.free = True
    director = TournamentDirector(FlakyStore(fails=0), tables, owner, sweep=60.0)
    try:
        with caplog.at_level("DEBUG", logger="app.rooms.tournaments"):
            director.poked("elsewhere")
            await eventually(lambda: caplog.records, "the message considered")
        assert owner.holding() == [] and tables.opened == []
        assert [r.levelname for r in caplog.records] == ["DEBUG"]
        director.poked("t1")  # running here, and nobody drives it: taken
        await eventually(lambda: tables.opened, "t1's table opened")
        assert owner.holding() == ["t1"]
    finally:
        await director.close()
