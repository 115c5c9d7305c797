"""The tournament director on its own (`app.rooms.tournaments`), with a store and an owner
made up for the test: the sweep opens again what a failed opening left, and only the holder of
a tournament drives it, and a round's tables open in the gaps between people's actions."""

from __future__ import annotations

import asyncio

from app.rooms.pace import Pace
from app.rooms.tournaments import OpenTable, TournamentDirector
from app.services.room_settings import RoomSettings
from app.services.tournaments import TableToOpen
from tests.waits import eventually

TABLE = TableToOpen("t1", "room1", RoomSettings(game="standard", seats=2, private=True),
                    [("p1", "Ann"), ("p2", "Bob")])


def recording() -> tuple[list[str], OpenTable]:
    """An ``open_table`` that notes the rooms it opens, and that list."""
    opened: list[str] = []

    async def open_table(room_id: str, settings: RoomSettings,
                         players: list[tuple[str, str]]) -> None:
        opened.append(room_id)

    return opened, open_table


class FlakyStore:
    """Running tournament t1 with one table; the first ``fails`` reads raise (a blip)."""

    def __init__(self, fails: int) -> None:
        self.fails = fails

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
    opened, open_table = recording()
    store = FlakyStore(fails=2)
    director = TournamentDirector(store, open_table, sweep=0.01)
    try:
        await director.start()  # the first read fails: nothing opened, no error raised
        assert opened == []
        await eventually(lambda: opened, "the table opened by a later sweep")
        await eventually(lambda: store.fails == 0, "sweeps went on")
        assert opened == ["room1"]  # once: an opened table is not opened again
    finally:
        await director.close()


async def test_only_the_holder_drives_and_a_free_tournament_is_taken() -> None:
    opened, open_table = recording()
    owner = Owner()
    director = TournamentDirector(FlakyStore(fails=0), open_table, owner, sweep=0.01)
    try:
        await director.start()
        await director.advance("t1")
        assert not director.drives("t1") and opened == []  # held elsewhere
        owner.free = True  # its driver died: the lease ran out
        await eventually(lambda: opened, "the tournament taken over on a sweep")
        assert director.drives("t1") and opened == ["room1"]
    finally:
        await director.close()
    assert owner.holding() == []  # let go on close, for another process to take at once


async def test_tables_open_in_a_gap_between_peoples_actions() -> None:
    opened, open_table = recording()
    store = ReadCounting()
    pace = Pace(interval=0.0, rest_ratio=0.0, yield_limit=60.0)
    director = TournamentDirector(store, open_table, sweep=60.0, pace=pace)
    try:
        with pace.person():  # a person's action is being handled elsewhere in the process
            director.poked("t1")
            await eventually(lambda: store.reads, "the round's tables read")
            for _ in range(20):  # nothing else to run: the opening has had its chances
                await asyncio.sleep(0)
            assert opened == []
        await eventually(lambda: opened, "the table opened once the action was handled")
        assert opened == ["room1"]
    finally:
        await director.close()
