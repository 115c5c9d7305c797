"""Who may sit where, and whose chat a listener is shown: the one seating policy (PROTOCOL.md §8
quick seat, §9 blocks; docs/server.md "Who may sit where"; docs/security.md, one account per
address).

Pure: facts in, a decision out; no SQL, no I/O, no clock. Whoever seats a person asks it with
what they know: the room, under its lock, knows the table (who sits there, the addresses they
joined from); the store, in the seat's own transaction, reads the asker's ties (blocks, fair-play
flags, their seat in a waiting quick-seat room) and calls :func:`check`, so the decision and the
seat are one transaction. Quick seat asks it to choose its candidates, a tournament's draw to
keep flagged pairs apart, and the room's chat to decide whom a line reaches. A leaf module
(nothing of the app but the refusals), so rooms, api and services may all import it.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from app.refusals import Code, Refusal


class How(StrEnum):
    """How a person comes to ask for a seat."""

    JOIN = "join"  # by the room's id, and a host's own seat in the room they open
    INVITE = "invite"  # with the room's invite code (a private room's, a rematch's players)
    QUICK_SEAT = "quick_seat"  # quick seat's choice, and the seat of the room it opens
    REMATCH = "rematch"  # the host's own seat in the room of a rematch
    TOURNAMENT = "tournament"  # a tournament's table, which the server seats


@dataclass(frozen=True)
class Table:
    """A table as the room knows it while someone asks for a seat."""

    room: str
    seated: frozenset[str] = frozenset()  # the persons holding a seat
    # The client addresses the persons seated joined from, as far as the room knows them (in
    # memory only: a room rebuilt from the database knows none of the seats taken before).
    addresses: frozenset[str] = frozenset()
    one_per_address: bool = False
    quick_seat: bool = False  # a quick-seat room waiting for players


@dataclass(frozen=True)
class Ask:
    """A person asking for a seat at ``table``: who, how, and from which client address."""

    player: str
    how: How
    table: Table
    address: str | None = None


@dataclass(frozen=True)
class WaitingSeat:
    """A person's seat in a quick-seat room that waits for players."""

    room: str
    seat: int


@dataclass(frozen=True)
class Ties:
    """What storage knows of the asker (read in the seat's transaction)."""

    blocks: frozenset[str] = frozenset()  # players a block stands between them and the asker
    flagged: frozenset[str] = frozenset()  # players the last fair-play review flagged with them
    waiting: WaitingSeat | None = None  # the asker's seat in a waiting quick-seat room


def refusal(ask: Ask, ties: Ties) -> Refusal | None:
    """Why ``ask`` may not have a seat at its table, or None if it may. A person seated there
    already is never refused (they get their seat again). In order:

    - ``already_waiting`` (409): a quick-seat room is asked for by a person seated in another
      waiting quick-seat room (PROTOCOL.md §8: one at a time, everywhere); the refusal names
      that room and seat.
    - ``blocked`` (403): a block, either way, stands between the asker and a person seated
      (PROTOCOL.md §9), except at a tournament's table.
    - ``same_address`` (403): the table keeps one account per address and a person seated
      joined from the asker's address (docs/security.md), except at a tournament's table.
    """
    table = ask.table
    if ask.player in table.seated:
        return None
    if table.quick_seat and ties.waiting is not None and ties.waiting.room != table.room:
        return Refusal(Code.ALREADY_WAITING, "you already wait for players in another "
                       "quick-seat room: leave it before you take a seat in this one",
                       {"room": ties.waiting.room, "seat": ties.waiting.seat})
    if ask.how is How.TOURNAMENT:  # the tournament seats its draw (PROTOCOL.md §9)
        return None
    if ties.blocks & table.seated:
        return Refusal(Code.BLOCKED, "a block stands between you and a player seated in this "
                       "room")
    if table.one_per_address and ask.address is not None and ask.address in table.addresses:
        return Refusal(Code.SAME_ADDRESS, "someone from your address is seated in this room "
                       "already, and the room allows one account per address")
    return None


def check(ask: Ask, ties: Ties) -> None:
    """Raise :func:`refusal`'s answer, if any."""
    refused = refusal(ask, ties)
    if refused is not None:
        raise refused


def avoids(ask: Ask, ties: Ties) -> bool:
    """Whether the seat is one to avoid where a choice is left: a person the last fair-play
    review flagged with the asker is seated. Quick seat's choice passes such a table over, and a
    tournament's draw swaps players to keep such pairs apart (docs/fairplay.md); a seat asked
    for by id or invite is not judged by it, nor is a seat once chosen (the draw may have had no
    other way)."""
    return ask.how in (How.QUICK_SEAT, How.TOURNAMENT) and bool(ties.flagged & ask.table.seated)


def may_open(waiting_hosted: int, cap: int) -> Refusal | None:
    """Whether a host who already hosts ``waiting_hosted`` rooms that wait for players may open
    one more: at most ``cap`` at once (``RUMMY_MAX_WAITING_ROOMS_PER_HOST``), so that one player
    cannot fill the lobby; else ``too_many_waiting_rooms`` (409)."""
    if waiting_hosted < cap:
        return None
    return Refusal(Code.TOO_MANY_WAITING_ROOMS, f"you already host {cap} rooms that wait for "
                   "players (the most at once): start or leave one first")


def shown(listener: str, speaker: str | None, blockers: frozenset[str]) -> bool:
    """Whether ``listener`` is shown a chat line of ``speaker`` (None: no one's own, such as an
    old carried line); ``blockers``: the players who blocked the speaker. A line is never shown
    to a player who blocked its speaker (PROTOCOL.md §9), live, in the recent chat a socket is
    first given, after a restart or a takeover, or carried into a rematch's room."""
    return speaker is None or listener not in blockers
