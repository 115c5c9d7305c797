"""The tournament director: what this process does to run its sit-and-go tournaments.

The database holds every decision (`app.services.tournaments`): who is seated at which table
of which round, each table's winner, the standings and prizes, the last two written in the
transaction that closes a table's match. The director only acts on them: it opens the tables
still to play (each a private room whose match starts at once and whose first deal waits for
its players, PROTOCOL.md §8 "Arrival", through ``open_table``: the room gateway's, which reaches
the table wherever its room is owned), keeps when each first opened, and tells the sockets its
players have open at the table they won before that it opened ("Where to be"), when
one of its tables' results is committed (the match store tells it, and through ``tell`` every
other process), at start-up, and on every sweep (each ``sweep`` seconds): a round whose opening
failed (a database blip) is opened again there, and a tournament whose driver died is taken
over, so a restart or a takeover resumes where the database says.

Which process drives a tournament is decided in one place, ``drives``: the holder of its
``Ownership``. One process alone holds them all (`Solo`); among several, a lease in Redis per
tournament (`app.cluster.leases`), renewed on the cluster's tick (docs/scaling.md,
"Tournaments").
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Coroutine
from typing import Any, Protocol

from app.services.room_settings import RoomSettings
from app.services.tournaments import TableToOpen

from .commands import Caller, Command, NextTable
from .pace import Pace
from .store import Arrival

log = logging.getLogger(__name__)


class TournamentStore(Protocol):
    async def running(self) -> list[str]:
        """The tournaments being played."""

    async def tables_to_open(self, tournament_id: str) -> list[TableToOpen]:
        """The tables still to play, the next round seated first if it is due."""

    async def table_opened(self, room_id: str, at: float) -> None:
        """The table's room opened at ``at`` (epoch seconds); the first time is kept."""


class Tables(Protocol):
    """How the director reaches its tables' rooms, wherever each is owned (the room
    gateway)."""

    async def open_table(self, room_id: str, settings: RoomSettings,
                         players: list[tuple[str, str]], arrival: Arrival) -> None:
        """Seat and start the table (`RoomRegistry.open_table`); safe to repeat."""

    async def run(self, room_id: str, command: Command, caller: Caller) -> dict[str, Any]:
        """Run ``command`` on the room; a refusal raises."""


class Ownership(Protocol):
    """Who drives a tournament: a lease per tournament, or this process alone."""

    def holds(self, tournament_id: str) -> bool:
        """Whether this process may drive the tournament now."""

    async def acquire(self, tournament_id: str) -> bool:
        """Take the tournament if nobody holds it; True if this call took it."""

    async def release(self, tournament_id: str) -> None:
        """Let the tournament go (another process may take it at once)."""

    def holding(self) -> list[str]:
        """The tournaments this process counts as held."""


class Solo:
    """One process: it drives every tournament."""

    def holds(self, tournament_id: str) -> bool:
        return True

    async def acquire(self, tournament_id: str) -> bool:
        return True

    async def release(self, tournament_id: str) -> None:
        """Nothing to let go."""

    def holding(self) -> list[str]:
        return []


class TournamentDirector:
    def __init__(self, store: TournamentStore, tables: Tables,
                 ownership: Ownership | None = None, sweep: float = 5.0,
                 tell: Callable[[str], None] | None = None, pace: Pace | None = None) -> None:
        self.store = store
        self.tables = tables
        # A round's tables are opened one at a time in turn with the unwatched rooms' moves,
        # so that sixteen deals at once do not hold up people playing elsewhere.
        self.pace = pace or Pace()
        self.ownership = ownership or Solo()
        self.sweep_seconds = sweep
        self.tell = tell  # several processes: tell the others that a tournament moved on
        self._locks: dict[str, asyncio.Lock] = {}
        self._opened: dict[str, set[str]] = {}  # tournament -> its tables' rooms opened here
        self._tasks: set[asyncio.Task[None]] = set()
        self._sweeper: asyncio.Task[None] | None = None

    def drives(self, tournament_id: str) -> bool:
        """Whether this process runs the tournament's rounds: the one place that decides it
        (the holder of its lease among several processes, docs/scaling.md)."""
        return self.ownership.holds(tournament_id)

    async def start(self) -> None:
        """At start-up, after the rooms are rebuilt: open what every running tournament is
        due that nobody else drives; then sweep again every ``sweep`` seconds."""
        await self.sweep()
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep_forever())

    async def resume(self) -> None:
        """Open what every running tournament is due (one sweep)."""
        await self.sweep()

    async def sweep(self) -> None:
        """Advance every running tournament this process drives or that nobody drives (its
        driver died, or a round's opening failed), and let go of those that ended."""
        running = await self.store.running()
        for tournament_id in running:
            await self._advance_logged(tournament_id)
        for tournament_id in set(self.ownership.holding()) - set(running):
            self._opened.pop(tournament_id, None)
            await self.ownership.release(tournament_id)

    def poke(self, tournament_id: str) -> None:
        """Something of the tournament was committed here (it filled, a table ended): advance
        it in the background, and tell the other processes (its driver may be one of them)."""
        self.poked(tournament_id)
        if self.tell is not None:
            self.tell(tournament_id)

    def poked(self, tournament_id: str) -> None:
        """Advance the tournament in the background (told by another process, or here), if
        it runs in this database."""
        self._spawn(self._advance_logged(tournament_id, told=True))

    def _spawn(self, job: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(job)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def advance(self, tournament_id: str) -> None:
        """Open the tournament's tables still to play, seating its next round if it is due;
        nothing unless this process drives it (or takes it now, nobody holding it)."""
        if not self.drives(tournament_id):
            if not await self.ownership.acquire(tournament_id):
                return
            log.warning("tournament %s: driven here from now on", tournament_id)
            self._opened.pop(tournament_id, None)  # a new taking opens (or checks) every table
        lock = self._locks.setdefault(tournament_id, asyncio.Lock())
        async with lock:
            opened = self._opened.setdefault(tournament_id, set())
            for table in await self.store.tables_to_open(tournament_id):
                if table.room_id in opened:
                    continue
                if not self.drives(tournament_id):
                    return  # the lease ran out meanwhile: its new driver opens the rest
                now = time.time()
                async with self.pace.unwatched():
                    await self.tables.open_table(table.room_id, table.settings, table.players,
                                                 table.arrival(now))
                if table.opened_at is None:
                    await self.store.table_opened(table.room_id, now)
                opened.add(table.room_id)
                self._spawn(self._point(table))

    async def _point(self, table: TableToOpen) -> None:
        """Tell the sockets each player has open at the table they won the round before (a
        finished room, kept by its owner with its sockets) that this table opened (PROTOCOL.md
        §8 "Where to be"). Best effort: the tournament's ``my_table`` says it too, and a room
        rebuilt after a restart has no sockets of its last match to tell."""
        for player_id, name in table.players:
            previous = table.previous.get(player_id)
            if previous is None:
                continue
            try:
                await self.tables.run(previous, NextTable(table.tournament_id, table.room_id,
                                                          player_id), Caller(player_id, name))
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.info("tournament %s: %s not told at %s of table %s: %r",
                         table.tournament_id, player_id, previous, table.room_id, exc)

    async def _runs_here(self, tournament_id: str) -> bool:
        """Whether a tournament told of is driven here or running in this database: one that
        finished, or another deployment's told through a Redis they share, is left alone."""
        if self.drives(tournament_id) or tournament_id in await self.store.running():
            return True
        log.debug("tournament %s: told of it, but it does not run here", tournament_id)
        return False

    async def _advance_logged(self, tournament_id: str, told: bool = False) -> None:
        try:
            if not told or await self._runs_here(tournament_id):
                await self.advance(tournament_id)
        except asyncio.CancelledError:
            raise
        except Exception:  # the next poke or sweep tries again
            log.exception("tournament %s: could not open its tables", tournament_id)

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(self.sweep_seconds)
            try:
                await self.sweep()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the database is away: the next sweep tries again
                log.warning("tournaments: sweep failed: %r", exc)

    async def close(self) -> None:
        """Stop driving: nothing more is opened here, and the tournaments held are let go
        (another process takes each at its next sweep, without waiting for a lease to run
        out)."""
        tasks = [t for t in (self._sweeper, *self._tasks) if t is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for tournament_id in self.ownership.holding():
            with contextlib.suppress(Exception):
                await self.ownership.release(tournament_id)
