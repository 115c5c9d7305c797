"""The tournament director: what this process does to run its sit-and-go tournaments.

The database holds every decision (`app.services.tournaments`): who is seated at which table
of which round, each table's winner, the standings and prizes, the last two written in the
transaction that closes a table's match. The director only acts on them: it opens the tables
still to play through the room registry (each a private room that starts at once) when a
tournament fills, when one of its tables' results is committed (the match store tells it), and
at start-up for every running tournament, so a restart resumes where the database says.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Protocol

from app.services.tournaments import TableToOpen

from .registry import RoomRegistry

log = logging.getLogger(__name__)


class TournamentStore(Protocol):
    async def running(self) -> list[str]:
        """The tournaments being played."""

    async def tables_to_open(self, tournament_id: str) -> list[TableToOpen]:
        """The tables still to play, the next round seated first if it is due."""


class TournamentDirector:
    def __init__(self, store: TournamentStore, registry: RoomRegistry) -> None:
        self.store = store
        self.registry = registry
        self._locks: dict[str, asyncio.Lock] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    def drives(self, tournament_id: str) -> bool:
        """Whether this process runs the tournament's rounds: the one place that decides it.
        One process drives them all; several processes would hold a lease here, as a room's
        owner does (docs/scaling.md)."""
        return True

    async def resume(self) -> None:
        """At start-up, after the rooms are rebuilt: open what every running tournament is due."""
        for tournament_id in await self.store.running():
            await self._advance_logged(tournament_id)

    def poke(self, tournament_id: str) -> None:
        """Something of the tournament was committed (it filled, a table ended): advance it
        in the background."""
        task = asyncio.get_running_loop().create_task(self._advance_logged(tournament_id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def advance(self, tournament_id: str) -> None:
        """Open the tournament's tables still to play, seating its next round if it is due."""
        if not self.drives(tournament_id):
            return
        lock = self._locks.setdefault(tournament_id, asyncio.Lock())
        async with lock:
            for table in await self.store.tables_to_open(tournament_id):
                await self.registry.open_table(table.room_id, table.settings, table.players)

    async def _advance_logged(self, tournament_id: str) -> None:
        try:
            await self.advance(tournament_id)
        except Exception:  # the next poke, or the next start-up, tries again
            log.exception("tournament %s: could not open its tables", tournament_id)

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
