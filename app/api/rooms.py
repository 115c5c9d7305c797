"""``/api/rooms``: the lobby, creating rooms, seats, computer players, starting (PROTOCOL.md §5)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

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
    private: bool = False
    deals: list[dict[str, Any]] | None = None


class JoinIn(BaseModel):
    invite: str | None = None


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
                                 body.deals)
    return _room_out(room, player.id)


@router.get("/rooms")
async def lobby(registry: RegistryDep) -> dict[str, Any]:
    return {"rooms": registry.lobby()}


@router.get("/rooms/{room_id}")
async def room_info(room_id: str, player: CurrentPlayer, registry: RegistryDep) -> dict[str, Any]:
    return _room_out(registry.get(room_id), player.id)


@router.get("/invites/{code}")
async def invite(code: str, player: CurrentPlayer, registry: RegistryDep) -> dict[str, Any]:
    room = registry.by_invite(code)
    return {**room.summary(), "invite_code": code}


@router.post("/rooms/{room_id}/join")
async def join(room_id: str, player: CurrentPlayer, registry: RegistryDep,
               body: JoinIn | None = None) -> dict[str, Any]:
    room = registry.get(room_id)
    invited = body is not None and body.invite == room.record.invite_code
    if room.record.private and not invited and room.seat_of(player.id) is None:
        raise http_error(403, "invite_required", "this room is private: use its invite link")
    seat = await room.join(player.id, player.name)
    return {"seat": seat, "room": _room_out(room, player.id)}


@router.post("/rooms/{room_id}/leave")
async def leave(room_id: str, player: CurrentPlayer, registry: RegistryDep) -> dict[str, Any]:
    room = registry.get(room_id)
    await room.leave(player.id)
    return {"left": True}


@router.post("/rooms/{room_id}/bots")
async def add_bots(room_id: str, body: BotsIn, player: CurrentPlayer,
                   registry: RegistryDep) -> dict[str, Any]:
    room = registry.get(room_id)
    seats = await room.add_bots(player.id, body.count)
    return {"seats": seats, "room": _room_out(room, player.id)}


@router.post("/rooms/{room_id}/start")
async def start(room_id: str, player: CurrentPlayer, registry: RegistryDep) -> dict[str, Any]:
    room = registry.get(room_id)
    await room.start(player.id)
    return _room_out(room, player.id)
