"""The tournament director on its own (`app.rooms.tournaments`), with a store and an owner
made up for the test: the sweep opens again what a failed opening left, and only the holder of
a tournament drives it."""

from __future__ import annotations

from app.rooms.tournaments import TournamentDirector
from app.services.room_settings import RoomSettings
from app.services.tournaments import TableToOpen
from tests.waits import eventually

TABLE = TableToOpen("t1", "room1", RoomSettings(game="standard", seats=2, private=True),
                    [("p1", "Ann"), ("p2", "Bob")])


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
    opened: list[str] = []

    async def open_table(room_id: str, settings: RoomSettings,
                         players: list[tuple[str, str]]) -> None:
        opened.append(room_id)

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
    opened: list[str] = []

    async def open_table(room_id: str, settings: RoomSettings,
                         players: list[tuple[str, str]]) -> None:
        opened.append(room_id)

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
