"""What may be done to a room: one typed command each (PROTOCOL.md §5), whoever asks.

A command is a plain frozen value that `Room.handle` runs: ``run`` takes the room and the
caller and returns the answer. A route's commands (`Command`) answer a body or raise the
refusal; they run where the room lives, here or at the room's owner among several processes,
where each travels as it is (`app.cluster.wire`), named by its ``op``. A socket's commands
(`SocketCommand`, parsed from its text by `app.api.messages`) answer the socket's reply, or
None; they travel between processes as that text, so that a socket's process can send an
action again to a new owner.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, Literal, Protocol, TypeVar

import orjson
from pydantic import Field

from app.bots.registry import DEFAULT_LEVEL
from app.engine import designate
from app.refusals import Code, Refusal
from app.seating_policy import How

from .replies import outcome
from .store import Arrival

if TYPE_CHECKING:
    from .room import Room

log = logging.getLogger(__name__)
Answer = TypeVar("Answer", covariant=True)


@dataclass(frozen=True)
class Caller:
    """The player a command runs for."""

    id: str
    name: str


class RoomCommand(Protocol[Answer]):
    """What a command is to the room that handles it."""

    async def run(self, room: Room, caller: Caller) -> Answer: ...


def room_out(room: Room, player_id: str) -> dict[str, Any]:
    """The room's summary as this player sees it: only members see the invite code."""
    out = room.presenter.summary()
    if player_id == room.record.host_id or room.seat_of(player_id) is not None:
        out["invite_code"] = room.record.invite_code
    out["your_seat"] = room.seat_of(player_id)
    return out


def _check_admits(room: Room, caller: Caller, invite: str | None = None) -> None:
    """A private room answers a stranger as a room that does not exist would."""
    if not room.admits(caller.id, invite):
        raise Refusal(Code.NO_SUCH_ROOM, f"no room {room.id!r}")


@dataclass(frozen=True)
class Info:
    invite: str | None = None
    op: Literal["info"] = "info"

    async def run(self, room: Room, caller: Caller) -> dict[str, Any]:
        _check_admits(room, caller, self.invite)
        return room_out(room, caller.id)


@dataclass(frozen=True)
class Invite:
    """The room an invite code opens (the code was found already)."""

    op: Literal["invite"] = "invite"

    async def run(self, room: Room, caller: Caller) -> dict[str, Any]:
        return {**room.presenter.summary(), "invite_code": room.record.invite_code}


@dataclass(frozen=True)
class Join:
    """Take a seat, asked ``how`` (by id, invite code or quick seat); ``address``: the caller's
    client address; both carried to the room's owner, whose seating policy weighs them
    (`app.seating_policy`; docs/security.md for addresses)."""

    invite: str | None = None
    address: str | None = None
    how: How = How.JOIN
    op: Literal["join"] = "join"

    async def run(self, room: Room, caller: Caller) -> dict[str, Any]:
        _check_admits(room, caller, self.invite)
        seat = await room.join(caller.id, caller.name, self.address, self.how)
        return {"seat": seat, "room": room_out(room, caller.id)}


@dataclass(frozen=True)
class Leave:
    op: Literal["leave"] = "leave"

    async def run(self, room: Room, caller: Caller) -> dict[str, Any]:
        _check_admits(room, caller)
        await room.leave(caller.id)
        return {"left": True}


@dataclass(frozen=True)
class AddBots:
    count: int
    level: str = DEFAULT_LEVEL
    op: Literal["bots"] = "bots"

    async def run(self, room: Room, caller: Caller) -> dict[str, Any]:
        _check_admits(room, caller)
        seats = await room.add_bots(caller.id, self.count, self.level)
        return {"seats": seats, "room": room_out(room, caller.id)}


@dataclass(frozen=True)
class Start:
    op: Literal["start"] = "start"

    async def run(self, room: Room, caller: Caller) -> dict[str, Any]:
        _check_admits(room, caller)
        await room.start(caller.id)
        return room_out(room, caller.id)


@dataclass(frozen=True)
class SeatTable:
    """A tournament's table, which the server seats itself: each player (id, name) seated in
    order, and the match started, its first deal waiting for them until ``arrival``'s deadline
    (PROTOCOL.md §8 "Arrival"). Safe to repeat: what is done already is left as it is (a
    started match plays on, its first deadline stands). Run by the tournament's driver at the
    table's owner, wherever that is (docs/scaling.md, "Tournaments")."""

    players: list[tuple[str, str]]
    arrival: Arrival
    op: Literal["table"] = "table"

    async def run(self, room: Room, caller: Caller) -> dict[str, Any]:
        room.expect(self.arrival)
        if room.record.status == "waiting":
            for player_id, name in self.players:
                await room.join(player_id, name, how=How.TOURNAMENT)
            await room.start(room.record.host_id)
        return {"status": room.record.status}


@dataclass(frozen=True)
class NextTable:
    """Tell ``player``'s sockets at this table (their last, finished) that their next table of
    the tournament opened: each is sent ``{"type": "next_table", "tournament", "room"}``
    (PROTOCOL.md §8 "Where to be"). Answers how many were."""

    tournament: str
    room: str
    player: str
    op: Literal["next_table"] = "next_table"

    async def run(self, room: Room, caller: Caller) -> dict[str, Any]:
        message = {"type": "next_table", "tournament": self.tournament, "room": self.room}
        return {"sent": room.connections.push_player(self.player, orjson.dumps(message))}


@dataclass(frozen=True)
class Present:
    """Which of the people seated at the room have a socket open on it (a tournament's bracket
    shows them: docs/server.md "Tournament arrival")."""

    op: Literal["present"] = "present"

    async def run(self, room: Room, caller: Caller) -> dict[str, Any]:
        _check_admits(room, caller)
        return {"connected": [p for p in room.seating.humans() if room.connections.present(p)]}


@dataclass(frozen=True)
class Rematch:
    """What a rematch needs from the finished room: its settings, the room already offered
    (or None) and its recent chat, each line with its speaker (`ChatLog.carried`)."""

    op: Literal["rematch"] = "rematch"

    async def run(self, room: Room, caller: Caller) -> dict[str, Any]:
        _check_admits(room, caller)
        return {"settings": room.rematch.settings(caller.id), "offered": room.rematch.offered,
                "chat": room.chat_log.carried()}


@dataclass(frozen=True)
class Offer:
    """Offer the new room to the finished room's players; answers the offer that stands."""

    room: str
    invite_code: str
    op: Literal["offer"] = "offer"

    async def run(self, room: Room, caller: Caller) -> dict[str, Any]:
        room.seating.check_host(caller.id)
        room.offer_rematch(self.room, self.invite_code)
        return {"offered": room.rematch.offered}


Command = Annotated[Info | Invite | Join | Leave | AddBots | Start | SeatTable | NextTable
                    | Present | Rematch | Offer, Field(discriminator="op")]


@dataclass(frozen=True)
class Act:
    """A player's action: its ``ack`` or ``error``, which a repeated ``client_id`` gets
    again."""

    client_id: str | int
    action: Any

    async def run(self, room: Room, caller: Caller) -> dict[str, Any]:
        reply = await room.act(caller.id, self.client_id, self.action)
        # One debug line per action: RUMMY_LOG_LEVEL=debug shows every action (the type is
        # the client's text, cut short, until the engine has parsed it).
        kind = self.action.get("type") if isinstance(self.action, dict) else None
        log.debug("room %s: %s's action %.40r: %s", room.id, caller.id, kind, outcome(reply))
        return reply


@dataclass(frozen=True)
class Chat:
    """A chat line: no reply, since every connection is sent the line, the sender's too."""

    text: str

    async def run(self, room: Room, caller: Caller) -> None:
        await room.chat(caller.id, caller.name, self.text)


@dataclass(frozen=True)
class Seed:
    value: Any  # checked by the room (PROTOCOL.md §7 step 2)

    async def run(self, room: Room, caller: Caller) -> dict[str, Any]:
        return await room.seed(caller.id, self.value)


@dataclass(frozen=True)
class Designations:
    """Which designations the wilds of ``cards`` may take (docs/server.md), as a new meld or
    laid off on the table's meld ``meld``; the answer, or the refusal, echoes ``client_id``."""

    client_id: str | int | None
    cards: list[Any]  # card codes, checked by `designate.answer`
    meld: int | None

    async def run(self, room: Room, caller: Caller) -> dict[str, Any]:
        st = room.runner.state
        try:
            found = designate.answer(self.cards, room.rules.meld, st.melds if st else [],
                                     self.meld)
        except Refusal as exc:
            return exc.reply(self.client_id)
        return {"type": "designations", "id": self.client_id, "cards": self.cards,
                "meld": self.meld, **found}


SocketCommand = Act | Chat | Seed | Designations
