"""Dependencies that load, authorize or 404: ``SessionDep``, ``BearerToken``, ``CurrentPlayer``,
``AdminPlayer``, ``RegistryDep``, ``GatewayDep``."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import Depends, FastAPI, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from sqlalchemy.ext.asyncio import AsyncSession
from starlette.requests import HTTPConnection

from app.db.models import Player
from app.refusals import Code, Refusal
from app.rooms.registry import RoomRegistry
from app.services import accounts, moderation

from .gateway import Gateway

bearer = HTTPBearer(auto_error=False)


async def _session(request: Request) -> AsyncIterator[AsyncSession]:
    async with request.app.state.sessions() as session:
        yield session


SessionDep = Annotated[AsyncSession, Depends(_session)]


def _registry(request: Request) -> RoomRegistry:
    registry: RoomRegistry = request.app.state.registry
    return registry


RegistryDep = Annotated[RoomRegistry, Depends(_registry)]


def _gateway(request: Request) -> Gateway:
    gateway: Gateway = request.app.state.gateway
    return gateway


GatewayDep = Annotated[Gateway, Depends(_gateway)]


async def _bearer_token(
        credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]) -> str:
    if credentials is None:
        raise Refusal(Code.NOT_AUTHENTICATED, "send Authorization: Bearer TOKEN")
    return credentials.credentials


BearerToken = Annotated[str, Depends(_bearer_token)]


async def _current_player(request: Request, token: BearerToken) -> Player:
    player = await player_for_token(request.app, token)
    if player is None:
        raise Refusal(Code.AUTH_FAILED, "unknown or expired token")
    return player


CurrentPlayer = Annotated[Player, Depends(_current_player)]


async def _optional_player(
        request: Request,
        credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]
) -> Player | None:
    """The caller if they sent a token (refused if it is bad), else None: for public reads."""
    if credentials is None:
        return None
    return await _current_player(request, credentials.credentials)


OptionalPlayer = Annotated[Player | None, Depends(_optional_player)]


async def _admin_player(player: CurrentPlayer) -> Player:
    if player.role != "admin":
        raise Refusal(Code.FORBIDDEN, "admins only")
    return player


AdminPlayer = Annotated[Player, Depends(_admin_player)]


def client_address(connection: HTTPConnection) -> str | None:
    """The client's address (of a request or a websocket) as uvicorn gives it: the socket's
    peer, or the X-Forwarded-For address when the peer is one of the trusted proxies
    (``RUMMY_TRUSTED_PROXIES``); None if unknown."""
    return connection.client.host if connection.client is not None else None


async def player_for_token(app: FastAPI, token: str) -> Player | None:
    """The player a bearer token names, or None (its own short transaction); a player whose
    suspension is in force is refused (403 ``suspended``, PROTOCOL.md §9)."""
    async with app.state.sessions() as session, session.begin():
        player = await accounts.player_for_token(session, token)
        if player is not None:
            await moderation.check_not_suspended(session, player.id)
        return player
