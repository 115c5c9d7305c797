"""``/api/rooms``: the lobby, creating rooms, seats, computer players, starting (PROTOCOL.md §5).

A private room answers only its members (seated players and the host) and callers with its
invite code; anyone else gets the 404 ``no_such_room`` of a room that does not exist.
"""

from __future__ import annotations

from collections import Counter
from typing import Annotated, Any

from fastapi import Query, Request
from pydantic import BaseModel, ConfigDict, Field, StrictBool

from app.bots.registry import DEFAULT_LEVEL
from app.db.models import Player
from app.rooms.errors import RoomError
from app.rooms.registry import RoomRegistry
from app.rooms.room import Room

from .deps import CurrentPlayer, RegistryDep, http_error
from .relay import Op, Relay
from .schemas import (
    BotsOut,
    Integer,
    JoinedOut,
    LeftOut,
    LobbyOut,
    RoomOut,
    api_router,
    bot_rules,
    errors,
    room_rules,
)

router = api_router("/api", "rooms", 503)


class RoomIn(BaseModel):
    model_config = ConfigDict(json_schema_extra=room_rules)
    game: str
    options: dict[str, Any] = Field(default_factory=dict)
    seats: Integer
    stake: Integer = 0
    buy_in: Integer = 0
    turn_seconds: Integer = 0
    grace_seconds: Integer = 60
    private: StrictBool = False  # the flags are true or false, not 1 or 0 (as the schema says)
    spectator_chat: StrictBool = False
    rated: StrictBool = False  # ratings change after the match; people only, no computer players
    deals: list[dict[str, Any]] | None = None


class JoinIn(BaseModel):
    invite: str | None = Field(None, max_length=64)


class BotsIn(BaseModel):
    model_config = ConfigDict(json_schema_extra=bot_rules)
    count: Integer = Field(ge=1, le=12)
    level: str = Field(DEFAULT_LEVEL, max_length=32)  # easy, normal or hard


def _room_out(room: Room, player_id: str) -> dict[str, Any]:
    out = room.summary()
    if player_id == room.record.host_id or room.seat_of(player_id) is not None:
        out["invite_code"] = room.record.invite_code  # only members see the invite
    out["your_seat"] = room.seat_of(player_id)
    return out


@router.post("/rooms", responses=errors(400, 401, 409))
async def create_room(body: RoomIn, player: CurrentPlayer, registry: RegistryDep,
                      request: Request) -> RoomOut:
    if body.deals is not None and not request.app.state.settings.dev_stacked_decks:
        raise http_error(400, "deals_not_allowed",
                         "stacked deals need RUMMY_DEV_STACKED_DECKS=1 (never in production)")
    room = await registry.create(player.id, player.name, body.game, body.options, body.seats,
                                 body.stake, body.buy_in, body.turn_seconds, body.private,
                                 body.deals, body.spectator_chat, body.grace_seconds,
                                 body.rated)
    relay: Relay | None = request.app.state.relay
    if relay is not None:
        await relay.cluster.publish([room])
    return RoomOut.model_validate(_room_out(room, player.id))


@router.get("/rooms")
async def lobby(registry: RegistryDep, request: Request) -> LobbyOut:
    relay: Relay | None = request.app.state.relay
    if relay is not None:
        return LobbyOut.model_validate({"rooms": await relay.cluster.lobby.rooms()})
    return LobbyOut.model_validate({"rooms": registry.lobby()})


# What a caller may do to a room: run here when this process holds the room, else at its owner
# (several processes, `app.api.relay`). Each takes the room, the player, the player's name and
# the call's arguments, and returns the answer's body.

async def _info(room: Room, player_id: str, name: str, args: dict[str, Any]) -> dict[str, Any]:
    if not room.admits(player_id, args.get("invite")):
        raise RoomError("no_such_room", f"no room {room.id!r}")
    return _room_out(room, player_id)


async def _invite(room: Room, player_id: str, name: str, args: dict[str, Any]) -> dict[str, Any]:
    return {**room.summary(), "invite_code": room.record.invite_code}


async def _join(room: Room, player_id: str, name: str, args: dict[str, Any]) -> dict[str, Any]:
    await _info(room, player_id, name, args)
    seat = await room.join(player_id, name)
    return {"seat": seat, "room": _room_out(room, player_id)}


async def _leave(room: Room, player_id: str, name: str, args: dict[str, Any]) -> dict[str, Any]:
    await _info(room, player_id, name, {})
    await room.leave(player_id)
    return {"left": True}


async def _bots(room: Room, player_id: str, name: str, args: dict[str, Any]) -> dict[str, Any]:
    await _info(room, player_id, name, {})
    seats = await room.add_bots(player_id, int(args["count"]), str(args.get("level",
                                                                          DEFAULT_LEVEL)))
    return {"seats": seats, "room": _room_out(room, player_id)}


async def _start(room: Room, player_id: str, name: str, args: dict[str, Any]) -> dict[str, Any]:
    await _info(room, player_id, name, {})
    await room.start(player_id)
    return _room_out(room, player_id)


async def _rematch(room: Room, player_id: str, name: str, args: dict[str, Any]
                   ) -> dict[str, Any]:
    await _info(room, player_id, name, {})
    return {"settings": room.rematch_settings(player_id), "offered": room.rematch,
            "chat": room.recent_chat()}


async def _offer(room: Room, player_id: str, name: str, args: dict[str, Any]) -> dict[str, Any]:
    room.seating.check_host(player_id)
    return {"offered": room.offer_rematch(str(args["room"]), str(args["invite_code"]))}


OPS: dict[str, Op] = {"info": _info, "invite": _invite, "join": _join, "leave": _leave,
                      "bots": _bots, "start": _start, "rematch": _rematch, "offer": _offer}


async def _call(request: Request, room_id: str, op: str, player: Player,
                args: dict[str, Any]) -> dict[str, Any]:
    relay: Relay | None = request.app.state.relay
    if relay is not None:
        return await relay.call(room_id, op, player.id, player.name, args)
    registry: RoomRegistry = request.app.state.registry
    return await OPS[op](registry.get(room_id), player.id, player.name, args)


@router.get("/rooms/{room_id}", responses=errors(400, 401, 404))
async def room_info(room_id: str, player: CurrentPlayer, request: Request,
                    invite: Annotated[str | None, Query(max_length=64)] = None) -> RoomOut:
    return RoomOut.model_validate(
        await _call(request, room_id, "info", player, {"invite": invite}))


@router.get("/invites/{code}", responses=errors(400, 401, 404))
async def invite(code: str, player: CurrentPlayer, registry: RegistryDep,
                 request: Request) -> RoomOut:
    relay: Relay | None = request.app.state.relay
    if relay is None:
        room = registry.by_invite(code)
        return RoomOut.model_validate({**room.summary(), "invite_code": code})
    room_id = await relay.cluster.store.room_by_invite(code)
    if room_id is None:
        raise RoomError("no_such_room", "that invite code does not open any room")
    return RoomOut.model_validate(
        await relay.call(room_id, "invite", player.id, player.name, {}))


@router.post("/rooms/{room_id}/join", responses=errors(400, 401, 403, 404, 409))
async def join(room_id: str, player: CurrentPlayer, request: Request,
               body: JoinIn | None = None) -> JoinedOut:
    return JoinedOut.model_validate(await _call(
        request, room_id, "join", player, {"invite": body.invite if body is not None else None}))


@router.post("/rooms/{room_id}/leave", responses=errors(400, 401, 404, 409))
async def leave(room_id: str, player: CurrentPlayer, request: Request) -> LeftOut:
    return LeftOut.model_validate(await _call(request, room_id, "leave", player, {}))


@router.post("/rooms/{room_id}/bots", responses=errors(400, 401, 403, 404, 409))
async def add_bots(room_id: str, body: BotsIn, player: CurrentPlayer,
                   request: Request) -> BotsOut:
    return BotsOut.model_validate(await _call(request, room_id, "bots", player,
                                              {"count": body.count, "level": body.level}))


@router.post("/rooms/{room_id}/start", responses=errors(400, 401, 403, 404, 409))
async def start(room_id: str, player: CurrentPlayer, request: Request) -> RoomOut:
    return RoomOut.model_validate(await _call(request, room_id, "start", player, {}))


@router.post("/rooms/{room_id}/rematch", responses=errors(400, 401, 403, 404, 409))
async def rematch(room_id: str, player: CurrentPlayer, registry: RegistryDep,
                  request: Request) -> RoomOut:
    """Play again (docs/server.md): the host of a finished match opens a room with the same
    game, options, stake, timers, rating and computer players and the old room's recent chat,
    and its players are invited over their sockets. Asked again, it answers the room already
    offered."""
    found = await _call(request, room_id, "rematch", player, {})
    if found["offered"] is not None:
        return RoomOut.model_validate(
            await _call(request, found["offered"]["id"], "info", player, {}))
    s = found["settings"]
    deals = s["deals"] if request.app.state.settings.dev_stacked_decks else None
    room = await registry.create(player.id, player.name, s["game"], s["options"], s["seats"],
                                 s["stake"], s["buy_in"], s["turn_seconds"], s["private"],
                                 deals, s["spectator_chat"], s["grace_seconds"], s["rated"])
    for level, count in Counter(s["bots"]).items():
        await room.add_bots(player.id, count, level)
    await room.carry_chat(found["chat"])
    relay: Relay | None = request.app.state.relay
    if relay is not None:
        await relay.cluster.publish([room])
    offered = await _call(request, room_id, "offer", player,
                          {"room": room.id, "invite_code": room.record.invite_code})
    if offered["offered"]["id"] != room.id:  # another call offered first: that one stands
        await room.leave(player.id)  # and this one closes, deserted
        return RoomOut.model_validate(
            await _call(request, offered["offered"]["id"], "info", player, {}))
    return RoomOut.model_validate(_room_out(room, player.id))
