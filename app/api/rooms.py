"""``/api/rooms``: the lobby, creating rooms, seats, computer players, starting (PROTOCOL.md §5).

A private room answers only its members (seated players and the host) and callers with its
invite code; anyone else gets the 404 ``no_such_room`` of a room that does not exist.
"""

from __future__ import annotations

from collections import Counter
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from pydantic import BaseModel, Field

from app.bots.registry import DEFAULT_LEVEL
from app.db.models import Player
from app.refusals import Code, Refusal
from app.services.room_settings import RoomSettings

from .commands import AddBots, Caller, Info, Invite, Join, Leave, Offer, Rematch, Start, room_out
from .deps import CurrentPlayer, GatewayDep, RegistryDep

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
    rated: bool = False  # ratings change after the match; people only, no computer players
    deals: list[dict[str, Any]] | None = None

    def settings(self) -> RoomSettings:
        """The body as the room's settings (validated there: ``bad_stake``, ``bad_options``…)."""
        return RoomSettings(**self.model_dump())


class JoinIn(BaseModel):
    invite: str | None = Field(None, max_length=64)


class BotsIn(BaseModel):
    count: int = Field(ge=1, le=12)
    level: str = Field(DEFAULT_LEVEL, max_length=32)  # easy, normal or hard


def _caller(player: Player) -> Caller:
    return Caller(player.id, player.name)


@router.post("/rooms")
async def create_room(body: RoomIn, player: CurrentPlayer, registry: RegistryDep,
                      gateway: GatewayDep, request: Request) -> dict[str, Any]:
    if body.deals is not None and not request.app.state.settings.dev_stacked_decks:
        raise Refusal(Code.DEALS_NOT_ALLOWED,
                      "stacked deals need RUMMY_DEV_STACKED_DECKS=1 (never in production)")
    room = await registry.create(player.id, player.name, body.settings())
    await gateway.announce(room)
    return room_out(room, player.id)


@router.get("/rooms")
async def lobby(gateway: GatewayDep) -> dict[str, Any]:
    return {"rooms": await gateway.lobby()}


@router.get("/rooms/{room_id}")
async def room_info(room_id: str, player: CurrentPlayer, gateway: GatewayDep,
                    invite: Annotated[str | None, Query(max_length=64)] = None
                    ) -> dict[str, Any]:
    return await gateway.run(room_id, Info(invite), _caller(player))


@router.get("/invites/{code}")
async def invite(code: str, player: CurrentPlayer, gateway: GatewayDep) -> dict[str, Any]:
    room_id = await gateway.room_by_invite(code)
    return await gateway.run(room_id, Invite(), _caller(player))


@router.post("/rooms/{room_id}/join")
async def join(room_id: str, player: CurrentPlayer, gateway: GatewayDep,
               body: JoinIn | None = None) -> dict[str, Any]:
    return await gateway.run(room_id, Join(body.invite if body is not None else None),
                             _caller(player))


@router.post("/rooms/{room_id}/leave")
async def leave(room_id: str, player: CurrentPlayer, gateway: GatewayDep) -> dict[str, Any]:
    return await gateway.run(room_id, Leave(), _caller(player))


@router.post("/rooms/{room_id}/bots")
async def add_bots(room_id: str, body: BotsIn, player: CurrentPlayer,
                   gateway: GatewayDep) -> dict[str, Any]:
    return await gateway.run(room_id, AddBots(body.count, body.level), _caller(player))


@router.post("/rooms/{room_id}/start")
async def start(room_id: str, player: CurrentPlayer, gateway: GatewayDep) -> dict[str, Any]:
    return await gateway.run(room_id, Start(), _caller(player))


@router.post("/rooms/{room_id}/rematch")
async def rematch(room_id: str, player: CurrentPlayer, registry: RegistryDep,
                  gateway: GatewayDep, request: Request) -> dict[str, Any]:
    """Play again (docs/server.md): the host of a finished match opens a room with the same
    game, options, stake, timers, rating and computer players and the old room's recent chat,
    and its players are invited over their sockets. Asked again, it answers the room already
    offered."""
    caller = _caller(player)
    found = await gateway.run(room_id, Rematch(), caller)
    if found["offered"] is not None:
        return await gateway.run(found["offered"]["id"], Info(), caller)
    s = found["settings"]
    deals = s["deals"] if request.app.state.settings.dev_stacked_decks else None
    room = await registry.create(player.id, player.name,
                                 RoomSettings.from_json({**s, "deals": deals}))
    for level, count in Counter(s["bots"]).items():
        await room.add_bots(player.id, count, level)
    await room.chat_log.carry(found["chat"])
    await gateway.announce(room)
    offered = await gateway.run(room_id, Offer(room.id, room.record.invite_code), caller)
    if offered["offered"]["id"] != room.id:  # another call offered first: that one stands
        await room.leave(player.id)  # and this one closes, deserted
        return await gateway.run(offered["offered"]["id"], Info(), caller)
    return room_out(room, player.id)
