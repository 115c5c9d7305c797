"""The room's seats and its host: who sits where, who may see the room, who may act.

A player who leaves during a match keeps the seat's record (its escrow returns to them at the
end) but a computer player takes it over for good: ``acting_seat`` no longer finds them.

Who may take a seat is the seating policy's (`app.seating_policy`): the room tells the store
the table as it knows it (who sits, the addresses they joined from) and how the person asks
(join, invite, quick seat, rematch, a tournament's table), and the store judges it with the
person's ties, read in the seat's own transaction, under the room's lock, so two joins at once
cannot both pass a rule.
"""

from __future__ import annotations

import secrets
from typing import Any

from app.bots.registry import DEFAULT_LEVEL, LEVELS, level_of
from app.refusals import Code, Refusal
from app.seating_policy import Ask, How, Table

from .store import MatchStore, RoomRecord, SeatRecord

STAND_IN = "sensible"  # the computer player that takes over a seat


class Seating:
    def __init__(self, record: RoomRecord, store: MatchStore) -> None:
        self.record = record
        self.store = store
        self.seats: list[SeatRecord | None] = [None] * record.settings.seats
        for seat in record.taken:
            self.seats[seat.seat] = seat
        # The client address each person seated here while waiting joined from (only for
        # `one_per_address`; forgotten once the match starts). Memory only: a room rebuilt from
        # the database (a restart, another process taking it over) knows none of its seats'.
        self.addresses: dict[int, str] = {}

    def acting_seat(self, player_id: str) -> int | None:
        """The seat ``player_id`` plays (None if they have none, or left it)."""
        return next((s.seat for s in self.seats
                     if s is not None and s.player_id == player_id and not s.bot), None)

    def is_bot(self, seat: int) -> bool:
        record = self.seats[seat]
        return record is None or bool(record.bot)

    def player_at(self, seat: int) -> str | None:
        """The human who plays ``seat`` (None for a computer player)."""
        record = self.seats[seat]
        return None if record is None or record.bot else record.player_id

    def person_at(self, seat: int) -> str | None:
        """The person whose seat it is, playing it or not (a player who left keeps it)."""
        record = self.seats[seat]
        return None if record is None else record.player_id

    def humans(self) -> list[str]:
        return [s.player_id for s in self.seats if s is not None and s.player_id and not s.bot]

    def full(self) -> bool:
        return all(s is not None for s in self.seats)

    def starts_itself(self) -> bool:
        """A quick-seat room starts with no host action, once its last seat is taken."""
        return (self.record.quick_seat is not None and self.record.status == "waiting"
                and self.full())

    def admits(self, player_id: str, invite: str | None) -> bool:
        """Whether the player may see this room: any room that is not private, and a
        tournament's table (private only in that the lobby leaves it out: the tournament's
        bracket, which anyone signed in may read, links to it for spectators, PROTOCOL.md §8);
        a private one with a seat, as its host, or with its invite code."""
        settings = self.record.settings
        if not settings.private or settings.stand_in_for_absent \
                or player_id == self.record.host_id:
            return True
        if any(s is not None and s.player_id == player_id for s in self.seats):
            return True
        code = self.record.invite_code
        return bool(invite and code) and secrets.compare_digest(str(invite).encode(),
                                                                code.encode())

    def check_host(self, player_id: str) -> None:
        if player_id != self.record.host_id:
            raise Refusal(Code.NOT_HOST, "only the host can do that")

    def check_waiting(self) -> None:
        if self.record.status != "waiting":
            raise Refusal(Code.ROOM_STARTED, "the match has already started")

    async def join(self, player_id: str, name: str, address: str | None = None,
                   how: How = How.JOIN) -> int:
        """Seat the player (their seat again if they have one), who asks ``how`` from the client
        ``address``, if the seating policy lets them (`app.seating_policy.refusal`)."""
        current = self.acting_seat(player_id)
        if current is not None:
            return current
        self.check_waiting()
        seat = self._free_seat()
        await self._sit(SeatRecord(seat, player_id, None, name),
                        Ask(player_id, how, self.table(), address))
        if address is not None:
            self.addresses[seat] = address
        return seat

    def table(self) -> Table:
        """The table as the seating policy sees it. The addresses are those of the persons who
        joined since the room was made or rebuilt here (a room rebuilt from the database knows
        none of its seats': docs/security.md)."""
        return Table(self.record.id,
                     frozenset(s.player_id for s in self.seats if s is not None and s.player_id),
                     frozenset(self.addresses.values()), bool(self.record.settings.one_per_address),
                     self.record.quick_seat is not None and self.record.status == "waiting")

    def forget_addresses(self) -> None:
        """The match started: no one joins any more, so the addresses are not needed."""
        self.addresses.clear()

    async def add_bots(self, player_id: str, count: int, level: str = DEFAULT_LEVEL) -> list[int]:
        """Seat ``count`` computer players of ``level`` (easy, normal, hard); the seat's
        ``bot`` column keeps the kind that level plays, so it survives a restart."""
        self.check_host(player_id)
        self.check_waiting()
        if self.record.quick_seat is not None:
            raise Refusal(Code.QUICK_SEAT_HUMANS_ONLY, "quick seat seats people only: the "
                          "room starts by itself once every seat is taken")
        if self.record.settings.rated:
            raise Refusal(Code.RATED_ROOM_HUMANS_ONLY, "a rated room seats people only: invite "
                          "players instead of adding computer players")
        if level not in LEVELS:
            raise Refusal(Code.BAD_LEVEL, f"unknown level {level[:32]!r}; choose one of "
                          + ", ".join(LEVELS))
        free = [i for i, s in enumerate(self.seats) if s is None]
        if count < 1 or count > len(free):
            raise Refusal(Code.BAD_COUNT, f"there are {len(free)} free seats")
        for seat in free[:count]:
            await self._sit(SeatRecord(seat, None, LEVELS[level], f"Bot {seat + 1}"))
        return free[:count]

    async def leave(self, player_id: str) -> int:
        """Stand up before the match, or hand the seat to a computer player during it."""
        seat = self.acting_seat(player_id)
        if seat is None:
            raise Refusal(Code.NOT_SEATED, "you have no seat in this room")
        record = self.seats[seat]
        assert record is not None  # noqa: S101 - acting_seat found it
        if self.record.status == "waiting":
            await self.store.stand(self.record, record)
            self.seats[seat] = None
            self._sync_taken()
            await self._close_if_deserted()
        else:
            record.bot = STAND_IN
            await self.store.save_room(self.record)
        return seat

    async def _close_if_deserted(self) -> None:
        """A waiting room with no human left closes: its computer players stand up, and it
        leaves the lobby; while humans remain, the first of them becomes the host."""
        humans = self.humans()
        if humans:
            if self.acting_seat(self.record.host_id) is None:
                self.record.host_id = humans[0]
                await self.store.save_room(self.record)
            return
        for i, seat in enumerate(self.seats):
            if seat is not None:
                await self.store.stand(self.record, seat)
                self.seats[i] = None
        self._sync_taken()
        self.record.status = "closed"
        await self.store.save_room(self.record)

    async def _sit(self, record: SeatRecord, ask: Ask | None = None) -> None:
        await self.store.sit(self.record, record, ask)
        self.seats[record.seat] = record
        self._sync_taken()

    def _sync_taken(self) -> None:
        self.record.taken = [s for s in self.seats if s is not None]
        self.addresses = {seat: address for seat, address in self.addresses.items()
                          if self.seats[seat] is not None}

    def _free_seat(self) -> int:
        for i, seat in enumerate(self.seats):
            if seat is None:
                return i
        raise Refusal(Code.ROOM_FULL, "every seat is taken")

    def players(self) -> list[dict[str, Any] | None]:
        return [None if s is None else {"seat": s.seat, "name": s.name, "bot": s.bot,
                                        "level": level_of(s.bot), "player_id": s.player_id}
                for s in self.seats]
