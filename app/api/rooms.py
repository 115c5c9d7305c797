"""``/api/rooms``: the lobby, creating rooms, seats, computer players, starting (PROTOCOL.md §5).

A private room answers only its members (seated players and the host) and callers with its
invite code; anyone else gets the 404 ``no_such_room`` of a room that does not exist.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from pydantic import BaseModel, Field

from app.rooms.errors import RoomError
from app.rooms.registry import RoomRegistry
from app.rooms.room import Room

from .deps import CurrentPlayer, RegistryDep, http_error

router = APIRouter(prefix="/api", tags=["rooms"])


class RoomIn(BaseModel):
    game: str
    options: dict[str, Any] = Field(default_factory=dict)
    seats: int
    stake: int = 0
    buy_in: int = 0
    turn_seconds: int = 0
    grace_seconds: int = 60
    private: bool = False
    spectator_chat: bool = False
    deals: list[dict[str, Any]] | None = None


class JoinIn(BaseModel):
    invite: str | None = Field(None, max_length=64)


class BotsIn(BaseModel):
    count: int = Field(ge=1, le=12)


def _room_out(room: Room, player_id: str) -> dict[str, Any]:
    out = room.summary()
    if player_id == room.record.host_id or room.seat_of(player_id) is not None:
        out["invite_code"] = room.record.invite_code  # only members see the invite
    out["your_seat"] = room.seat_of(player_id)
    return out


@router.post("/rooms")
async def create_room(body: RoomIn, player: CurrentPlayer, registry: RegistryDep,
                      request: Request) -> dict[str, Any]:
    if body.deals is not None and not request.app.state.settings.dev_stacked_decks:
        raise http_error(400, "deals_not_allowed",
                         "stacked deals need RUMMY_DEV_STACKED_DECKS=1 (never in production)")
    room = await registry.create(player.id, player.name, body.game, body.options, body.seats,
                                 body.stake, body.buy_in, body.turn_seconds, body.private,
                                 body.deals, body.spectator_chat, body.grace_seconds)
    return _room_out(room, player.id)


def _visible(registry: RoomRegistry, room_id: str, player_id: str,
             invite: str | None = None) -> Room:
    """The room if the player may see it (``Room.admits``), else ``no_such_room``."""
    room = registry.get(room_id)
    if not room.admits(player_id, invite):
        raise RoomError("no_such_room", f"no room {room_id!r}")
    return room


@router.get("/rooms")
async def lobby(registry: RegistryDep) -> dict[str, Any]:
    return {"rooms": registry.lobby()}


@router.get("/rooms/{room_id}")
async def room_info(room_id: str, player: CurrentPlayer, registry: RegistryDep,
                    invite: Annotated[str | None, Query(max_length=64)] = None
                    ) -> dict[str, Any]:
    return _room_out(_visible(registry, room_id, player.id, invite), player.id)


@router.get("/invites/{code}")
async def invite(code: str, player: CurrentPlayer, registry: RegistryDep) -> dict[str, Any]:
    room = registry.by_invite(code)
    return {**room.summary(), "invite_code": code}


@router.post("/rooms/{room_id}/join")
async def join(room_id: str, player: CurrentPlayer, registry: RegistryDep,
               body: JoinIn | None = None) -> dict[str, Any]:
    room = _visible(registry, room_id, player.id, body.invite if body is not None else None)
    seat = await room.join(player.id, player.name)
    return {"seat": seat, "room": _room_out(room, player.id)}


@router.post("/rooms/{room_id}/leave")
async def leave(room_id: str, player: CurrentPlayer, registry: RegistryDep) -> dict[str, Any]:
    room = _visible(registry, room_id, player.id)
    await room.leave(player.id)
    return {"left": True}


@router.post("/rooms/{room_id}/bots")
async def add_bots(room_id: str, body: BotsIn, player: CurrentPlayer,
                   registry: RegistryDep) -> dict[str, Any]:
    room = _visible(registry, room_id, player.id)
    seats = await room.add_bots(player.id, body.count)
    return {"seats": seats, "room": _room_out(room, player.id)}


@router.post("/rooms/{room_id}/start")
async def start(room_id: str, player: CurrentPlayer, registry: RegistryDep) -> dict[str, Any]:
    room = _visible(registry, room_id, player.id)
    await room.start(player.id)
    return _room_out(room, player.id)
