"""What a room shows: its summary, and each seat's ``state`` message (PROTOCOL.md §5), encoded
once per change.

A change is shown to every seat in use. What the seats share, the room's summary and the table
view with the room's own fields (presence, clock, deal fields, chips settled), is built and
encoded once (`Shown`); each seat's message is that, its own part of the view (`seat_part`:
hand, call window, legal actions, aids) and its events, joined as bytes. orjson's bytes go to
the socket's frame as they are, without a detour through text. A connection's first message is
built the same way, with the recent chat added.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

import orjson

from app.engine.state import State
from app.engine.views import TableView, redact_events, seat_part, table_view

if TYPE_CHECKING:
    from .room import Room

Events = list[dict[str, Any]]
Seat = int | None

encode = orjson.dumps


class RoomTable(TableView, total=False):
    """The engine's table view with the room's fields (docs/server.md): presence, the turn's
    clock, who stands in for whom, the deal fields (PROTOCOL.md §7), and what a finished
    match did to ratings and each stored hand to chips."""

    presence: list[str]
    turn_deadline: float | None
    stand_ins: list[str | None]
    stand_in_at: list[float | None]
    next_deal_commitment: str | None
    deal_commitment: str | None
    stacked_deal: bool
    last_deal: dict[str, Any] | None
    rating_changes: list[dict[str, Any]]
    settled: list[list[int] | None]


@dataclass(frozen=True, slots=True)
class Shown:
    """One change as the seats see it: the encoded parts they share."""

    head: bytes  # '{"type":"state","seq":…,"room":{…}'
    state: State | None  # None: no hand dealt yet (the view is null)
    table: bytes  # the table view's encoding without its closing brace
    tail: bytes  # the fields after the events (the first commitment, while waiting)

    def message(self, seat: Seat, events: bytes, extra: bytes = b"") -> bytes:
        """``seat``'s message, given its encoded events (and ``extra`` encoded fields)."""
        if self.state is None:
            view = b"null"
        else:  # the two objects joined: no key of the seat's part is the table's
            view = self.table + b"," + encode(seat_part(self.state, seat))[1:]
        return b"".join((self.head, b',"view":', view, b',"events":', events, self.tail,
                         extra, b"}"))


class Presenter:
    """The room's summary and state messages, from its runner, scheduler and seating."""

    def __init__(self, room: Room) -> None:
        self.room = room

    def summary(self) -> dict[str, Any]:
        """The room as the lobby and the table header show it; a tournament's table names its
        tournament, and while it waits for its players its first deal's deadline (``deal_at``,
        epoch seconds: docs/server.md "Tournament arrival")."""
        r = self.room.record
        return {
            "id": r.id, "host_id": r.host_id, **r.settings.shown(), "status": r.status,
            "match_id": r.match_id, "players": self._players(),
            "taken": len(r.taken), "quick_seat": r.quick_seat is not None,
            "rematch": offered["id"] if (offered := self.room.rematch.offered) else None,
            "tournament": r.arrival.tournament if r.arrival is not None else None,
            "deal_at": self.room.scheduler.deal_at(self.room.runner.state)
            if r.status == "playing" else None,
        }

    def _players(self) -> list[dict[str, Any] | None]:
        """The seats, each person's saying whether a stand-in plays it now and why
        (``stand_in``: ``left``, ``away``, ``absent`` or null)."""
        room = self.room
        players = room.seating.players()
        if room.record.status != "playing":
            return players
        why = room.scheduler.stand_ins(room.record.settings.seats, room.runner.state)
        return [p if p is None or p["player_id"] is None else {**p, "stand_in": why[p["seat"]]}
                for p in players]

    def shown(self) -> Shown:
        room = self.room
        head = b'{"type":"state","seq":%d,"room":%b' % (room.seq, encode(self.summary()))
        st, table = room.runner.state, self.table()
        if st is None or table is None:  # waiting: the first hand's commitment, before any seed
            return Shown(head, None, b"", b',"next_deal_commitment":'
                         + encode(room.runner.next_commitment))
        return Shown(head, st, encode(table)[:-1], b"")

    def messages(self, seats: set[Seat], events: Events) -> dict[Seat, bytes]:
        """Each seat's message for a change with ``events`` (the events encoded once when no
        event holds a secret card)."""
        shown = self.shown()
        if any("secret" in event for event in events):
            return {seat: shown.message(seat, encode(redact_events(events, seat)))
                    for seat in seats}
        public = encode(events)
        return {seat: shown.message(seat, public) for seat in seats}

    def first(self, seat: Seat, events: Events, chat: Events) -> bytes:
        """A connection's first message: the state, the recent events and the recent chat."""
        return self.shown().message(seat, encode(redact_events(events, seat)),
                                    b',"chat":' + encode(chat))

    def table(self) -> RoomTable | None:
        """What every seat's view shares: the engine's table view with the room's presence,
        clock, deal fields and (with a stake) the chips each hand settled."""
        room = self.room
        st = room.runner.state
        if st is None:
            return None
        scheduler, players = room.scheduler, st.players
        table = cast(RoomTable, table_view(st))  # completed in place: built once per change
        table["presence"] = scheduler.presence(players)
        if room.rematch.offered is not None:  # the host who offered it is at the rematch table
            host = room.seating.acting_seat(room.record.host_id)
            if host is not None:
                table["presence"][host] = "connected"
        table["turn_deadline"] = scheduler.deadline
        table["stand_ins"] = scheduler.stand_ins(players, st)
        table["stand_in_at"] = scheduler.stand_in_at(players)
        table.update(cast(RoomTable, room.runner.deal_info()))
        if st.game_over and room.record.settings.rated:
            table["rating_changes"] = room.runner.rating_changes
        if room.record.settings.stake:
            table["settled"] = room.runner.settled  # the chips each stored hand moved
        return table
