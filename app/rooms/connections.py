"""The room's connection set: who is connected, and fan-out that never waits.

A connection only ever *queues* an encoded message (``push``); the transport drains each queue in
its own task and closes a connection that falls too far behind, so no socket can delay the room
or another player. Each change is encoded once per seat in use (one text for all spectators).
The set also keeps the recent events a (re)connecting client is given.
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Callable, Iterable
from typing import Any, Protocol

RECENT = 50


class Connection(Protocol):
    player_id: str

    def push(self, data: bytes) -> None:
        """Queue one message, encoded as UTF-8 JSON; never waits."""


class ConnectionSet:
    def __init__(self) -> None:
        self._seats: dict[Connection, int | None] = {}
        self._players: Counter[str] = Counter()
        self.events: deque[dict[str, Any]] = deque(maxlen=RECENT)

    def add(self, conn: Connection, seat: int | None) -> bool:
        """Add ``conn``; whether its player was absent until now."""
        self._seats[conn] = seat
        self._players[conn.player_id] += 1
        return self._players[conn.player_id] == 1

    def remove(self, conn: Connection) -> bool:
        """Remove ``conn``; whether its player is now absent."""
        if self._seats.pop(conn, _ABSENT) is _ABSENT:
            return False
        self._players[conn.player_id] -= 1
        if self._players[conn.player_id] > 0:
            return False
        del self._players[conn.player_id]
        return True

    def present(self, player_id: str | None) -> bool:
        return player_id is not None and player_id in self._players

    def reseat(self, seat_of: Callable[[str], int | None]) -> None:
        """Seats change when players join or leave: look each connection's seat up again."""
        for conn in self._seats:
            self._seats[conn] = seat_of(conn.player_id)

    def seats_in_use(self) -> set[int | None]:
        return set(self._seats.values())

    def push_by_seat(self, messages: dict[int | None, bytes], skip: Connection | None = None
                     ) -> None:
        for conn, seat in list(self._seats.items()):
            if conn is not skip:
                conn.push(messages[seat])

    def push_seated(self, data: bytes) -> None:
        """To the players who hold a seat (not spectators)."""
        for conn, seat in list(self._seats.items()):
            if seat is not None:
                conn.push(data)

    def push_player(self, player_id: str, data: bytes) -> int:
        """To every connection of ``player_id``; how many there were."""
        conns = [conn for conn in self._seats if conn.player_id == player_id]
        for conn in conns:
            conn.push(data)
        return len(conns)

    def push_all(self, data: bytes, to: Callable[[str], bool]) -> None:
        """To every connection whose player ``to`` answers true for."""
        for conn in list(self._seats):
            if to(conn.player_id):
                conn.push(data)

    def remember(self, events: Iterable[dict[str, Any]]) -> None:
        self.events.extend(events)


_ABSENT = object()
