"""``/api/rooms``: the lobby and its filters, creating rooms, seats, computer players, starting
(PROTOCOL.md §5); ``/api/quickseat``, a seat at a table of strangers (§8).

A private room answers only its members (seated players and the host) and callers with its
invite code; anyone else gets the 404 ``no_such_room`` of a room that does not exist.
"""

from __future__ import annotations

from collections import Counter
from typing import Annotated, Any

from fastapi import Query, Request, Response
from pydantic import BaseModel, ConfigDict, Field, StrictBool

from app.bots.registry import DEFAULT_LEVEL
from app.db.models import Player
from app.engine.games import GAMES, game_def
from app.refusals import Code, Refusal
from app.rooms.commands import (
    AddBots,
    Caller,
    Info,
    Invite,
    Join,
    Leave,
    Offer,
    Rematch,
    Start,
    room_out,
)
from app.seating_policy import How
from app.services.room_settings import MAX_STAKE, MAX_TURN_SECONDS, RoomSettings

from .deps import CurrentPlayer, GatewayDep, RegistryDep, SessionDep, client_address
from .quickseat import quick_seat
from .schemas import (
    BotsOut,
    In,
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
MAX_SEATS = max(g.max_players for g in GAMES.values())


class RoomIn(In):
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
    # One account per client address (docs/security.md); null: on when the room has a stake.
    one_per_address: StrictBool | None = None
    deals: list[dict[str, Any]] | None = None

    def settings(self) -> RoomSettings:
        """The body as the room's settings (validated there: ``bad_stake``, ``bad_options``…)."""
        return RoomSettings(**self.model_dump())


class QuickSeatIn(In):
    """The settings a quick-seat caller asks for (PROTOCOL.md §8): a public room's, with no
    host choices (grace period, spectator chat, stacked deals) left to make."""

    model_config = ConfigDict(json_schema_extra=room_rules)
    game: str
    seats: Integer
    stake: Integer = 0
    buy_in: Integer = 0
    options: dict[str, Any] = Field(default_factory=dict)
    turn_seconds: Integer = 0
    rated: StrictBool = False

    def settings(self) -> RoomSettings:
        """Validated as a new room's (``bad_stake``, ``bad_options``…)."""
        return RoomSettings(**self.model_dump())


class LobbyFilter(BaseModel):
    """The lobby's filters (query parameters), each optional: a room is kept if it has every
    value given."""

    model_config = ConfigDict(extra="forbid")
    game: str | None = Field(None, max_length=32)
    seats: int | None = Field(None, ge=1, le=MAX_SEATS)
    stake: int | None = Field(None, ge=0, le=MAX_STAKE)
    turn_seconds: int | None = Field(None, ge=0, le=MAX_TURN_SECONDS)

    def keeps(self, room: dict[str, Any]) -> bool:
        return all(value is None or room[name] == value
                   for name, value in self.model_dump().items())


class JoinIn(In):
    invite: str | None = Field(None, max_length=64)


class BotsIn(In):
    model_config = ConfigDict(json_schema_extra=bot_rules)
    count: Integer = Field(ge=1, le=12)
    level: str = Field(DEFAULT_LEVEL, max_length=32)  # easy, normal or hard


def _caller(player: Player) -> Caller:
    return Caller(player.id, player.name)


@router.post("/rooms", responses=errors(400, 401, 404, 409))
async def create_room(body: RoomIn, player: CurrentPlayer, registry: RegistryDep,
                      gateway: GatewayDep, request: Request) -> RoomOut:
    if body.deals is not None and not request.app.state.settings.dev_stacked_decks:
        raise Refusal(Code.DEALS_NOT_ALLOWED,
                      "stacked deals need RUMMY_DEV_STACKED_DECKS=1 (never in production)")
    room = await registry.create(player.id, player.name, body.settings(),
                                 address=client_address(request))
    await gateway.announce(room)
    return RoomOut.model_validate(room_out(room, player.id))


@router.post("/quickseat", status_code=201, responses={
    200: {"model": JoinedOut, "description": "Seated in a quick-seat room that was waiting"},
    201: {"description": "Seated in a new quick-seat room"}, **errors(400, 401, 404, 409)})
async def quickseat(body: QuickSeatIn, player: CurrentPlayer, registry: RegistryDep,
                    gateway: GatewayDep, session: SessionDep, response: Response,
                    request: Request) -> JoinedOut:
    """Play now with strangers (docs/server.md, "Quick seat"): a seat at the fullest waiting
    quick-seat room of these settings, or at a new one (201); the room starts when full."""
    seated = await quick_seat(gateway, registry, session, body.settings(), _caller(player),
                              client_address(request))
    if not seated.opened:
        response.status_code = 200
    return JoinedOut.model_validate(seated.answer)


@router.get("/rooms", responses=errors(400, 404))
async def lobby(gateway: GatewayDep, only: Annotated[LobbyFilter, Query()]) -> LobbyOut:
    """The listed rooms, newest first; each filter given keeps the rooms of that value."""
    if only.game is not None:
        game_def(only.game)  # an unknown game is refused (404)
    return LobbyOut.model_validate({"rooms": [r for r in await gateway.lobby() if only.keeps(r)]})


@router.get("/rooms/{room_id}", responses=errors(400, 401, 404))
async def room_info(room_id: str, player: CurrentPlayer, gateway: GatewayDep,
                    invite: Annotated[str | None, Query(max_length=64)] = None) -> RoomOut:
    return RoomOut.model_validate(await gateway.run(room_id, Info(invite), _caller(player)))


@router.get("/invites/{code}", responses=errors(400, 401, 404))
async def invite(code: str, player: CurrentPlayer, gateway: GatewayDep) -> RoomOut:
    room_id = await gateway.room_by_invite(code)
    return RoomOut.model_validate(await gateway.run(room_id, Invite(), _caller(player)))


@router.post("/rooms/{room_id}/join", responses=errors(400, 401, 403, 404, 409))
async def join(room_id: str, player: CurrentPlayer, gateway: GatewayDep, request: Request,
               body: JoinIn | None = None) -> JoinedOut:
    """Take a seat (by the room's id, or its invite code for a private room), as the seating
    policy allows (docs/server.md, "Who may sit where"): 403 ``blocked`` beside a player one
    blocked or who blocked one (PROTOCOL.md §9), 403 ``same_address`` from the address of a
    person seated where the room keeps one account per address, 409 ``already_waiting`` at a
    quick-seat room while one waits for players in another."""
    invite = body.invite if body is not None else None
    how = How.JOIN if invite is None else How.INVITE
    return JoinedOut.model_validate(await gateway.run(
        room_id, Join(invite, client_address(request), how), _caller(player)))


@router.post("/rooms/{room_id}/leave", responses=errors(400, 401, 404, 409))
async def leave(room_id: str, player: CurrentPlayer, gateway: GatewayDep) -> LeftOut:
    return LeftOut.model_validate(await gateway.run(room_id, Leave(), _caller(player)))


@router.post("/rooms/{room_id}/bots", responses=errors(400, 401, 403, 404, 409))
async def add_bots(room_id: str, body: BotsIn, player: CurrentPlayer,
                   gateway: GatewayDep) -> BotsOut:
    return BotsOut.model_validate(
        await gateway.run(room_id, AddBots(body.count, body.level), _caller(player)))


@router.post("/rooms/{room_id}/start", responses=errors(400, 401, 403, 404, 409))
async def start(room_id: str, player: CurrentPlayer, gateway: GatewayDep) -> RoomOut:
    return RoomOut.model_validate(await gateway.run(room_id, Start(), _caller(player)))


@router.post("/rooms/{room_id}/rematch", responses=errors(400, 401, 403, 404, 409))
async def rematch(room_id: str, player: CurrentPlayer, registry: RegistryDep,
                  gateway: GatewayDep, request: Request) -> RoomOut:
    """Play again (docs/server.md): the host of a finished match opens a room with the same
    game, options, stake, timers, rating and computer players and the old room's recent chat,
    and its players are invited over their sockets. Asked again, it answers the room already
    offered."""
    caller = _caller(player)
    found = await gateway.run(room_id, Rematch(), caller)
    if found["offered"] is not None:
        return RoomOut.model_validate(await gateway.run(found["offered"]["id"], Info(), caller))
    s = found["settings"]
    deals = s["deals"] if request.app.state.settings.dev_stacked_decks else None
    room = await registry.create(player.id, player.name,
                                 RoomSettings.from_json({**s, "deals": deals}),
                                 address=client_address(request), how=How.REMATCH)
    for level, count in Counter(s["bots"]).items():
        await room.handle(AddBots(count, level), caller)
    await room.chat_log.carry(found["chat"])
    await gateway.announce(room)
    offered = await gateway.run(room_id, Offer(room.id, room.record.invite_code), caller)
    if offered["offered"]["id"] != room.id:  # another call offered first: that one stands
        await room.handle(Leave(), caller)  # and this one closes, deserted
        return RoomOut.model_validate(await gateway.run(offered["offered"]["id"], Info(), caller))
    return RoomOut.model_validate(room_out(room, player.id))
