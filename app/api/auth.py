"""``/api/auth``: play as a guest, register, log in, log out (PROTOCOL.md §5).

Throttled per client address (and login per username too), in Redis when it is configured:
see docs/security.md. Refusals over a limit are 429 ``too_many_attempts`` with the wait in
whole seconds twice: the Retry-After header, and ``retry_after`` in the body for the client to
show.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from app.db.models import Player
from app.services import accounts
from app.services.throttle import Limit, Throttle, Ticket

from .deps import BearerToken, CurrentPlayer, GatewayDep, SessionDep
from .sockets import SocketIndex

router = APIRouter(prefix="/api/auth", tags=["auth"])


class GuestIn(BaseModel):
    name: str = Field(min_length=1, max_length=40)


class CredentialsIn(BaseModel):
    username: str = Field(max_length=64)
    password: str = Field(max_length=256)


class AccountIn(CredentialsIn):
    name: str | None = Field(None, max_length=64)  # the display name; default: kept


def _answer(token: str, player: Player) -> dict[str, Any]:
    return {"token": token, "player": {"id": player.id, "name": player.name,
                                       "role": player.role}}


def _address(request: Request) -> str:
    """The client's address (uvicorn takes it from X-Forwarded-For only for trusted proxies)."""
    return request.client.host if request.client is not None else "unknown"


async def _take(request: Request, *checks: tuple[Limit, str]) -> list[Ticket]:
    """Count one attempt under each limit, or refuse (`TooManyAttempts`: 429 and the wait)."""
    throttle: Throttle = request.app.state.throttle
    return await throttle.take(*checks)


@router.post("/guest")
async def guest(body: GuestIn, session: SessionDep, request: Request) -> dict[str, Any]:
    await _take(request, (request.app.state.limits.guest, _address(request)))
    async with session.begin():
        player = await accounts.create_guest(session, body.name)
        token = await accounts.issue_token(session, player.id)
    return _answer(token, player)


@router.post("/register")
async def register(body: AccountIn, session: SessionDep, request: Request) -> dict[str, Any]:
    await _take(request, (request.app.state.limits.registration, _address(request)))
    async with session.begin():
        player = await accounts.register(session, body.username, body.password, name=body.name)
        token = await accounts.issue_token(session, player.id)
    return _answer(token, player)


@router.post("/upgrade")
async def upgrade(body: AccountIn, guest: CurrentPlayer, token: BearerToken,
                  session: SessionDep, request: Request) -> dict[str, Any]:
    """A guest becomes an account and keeps its id, chips and history (and this token)."""
    await _take(request, (request.app.state.limits.registration, _address(request)))
    async with session.begin():
        player = await accounts.upgrade_guest(session, guest.id, body.username, body.password,
                                              body.name)
    return _answer(token, player)


@router.post("/login")
async def login(body: CredentialsIn, session: SessionDep, request: Request) -> dict[str, Any]:
    """Each attempt counts until it succeeds: only failed logins use up the limits."""
    limits = request.app.state.limits
    tickets = await _take(request, (limits.login_username, body.username.lower()),
                          (limits.login_address, _address(request)))
    async with session.begin():
        player = await accounts.login(session, body.username, body.password)
        token = await accounts.issue_token(session, player.id)
    await request.app.state.throttle.give_back(tickets)
    return _answer(token, player)


@router.post("/logout")
async def logout(player: CurrentPlayer, token: BearerToken, session: SessionDep,
                 gateway: GatewayDep, request: Request) -> dict[str, Any]:
    """Revoke the token at once: HTTP refuses it from now on, and its sockets are closed (those
    at other processes too: they are told through Redis; the count is of this process's)."""
    async with session.begin():
        await accounts.revoke_token(session, token)
    sockets: SocketIndex = request.app.state.sockets
    closed = await sockets.revoke_token(accounts.token_hash(token))
    gateway.logged_out(accounts.token_hash(token))
    return {"logged_out": True, "sockets_closed": closed}
