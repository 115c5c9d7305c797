"""``/api/auth``: play as a guest, register, log in, log out (PROTOCOL.md §5).

Throttled per client address (and login per username too), in Redis when it is configured:
see docs/security.md. Refusals over a limit are 429 ``too_many_attempts`` with the wait in
whole seconds twice: the Retry-After header, and ``retry_after`` in the body for the client to
show.
"""

from __future__ import annotations

from fastapi import Request
from pydantic import Field

from app.db.models import Player
from app.services import accounts
from app.services.throttle import Limit, Throttle, Ticket

from .deps import BearerToken, CurrentPlayer, GatewayDep, SessionDep, client_address
from .schemas import (
    NAME_RULE,
    PASSWORD_RULE,
    USERNAME_RULE,
    In,
    LogoutOut,
    PlayerRef,
    TokenOut,
    api_router,
    errors,
)
from .sockets import SocketIndex

router = api_router("/api/auth", "auth", 503)


class GuestIn(In):
    name: str = Field(min_length=1, max_length=40, json_schema_extra=NAME_RULE)


class CredentialsIn(In):
    username: str = Field(max_length=64)
    password: str = Field(max_length=256)


class AccountIn(In):
    username: str = Field(max_length=64, json_schema_extra=USERNAME_RULE)
    password: str = Field(max_length=256, json_schema_extra=PASSWORD_RULE)
    name: str | None = Field(None, max_length=64, json_schema_extra=NAME_RULE)  # default: kept


def _answer(token: str, player: Player) -> TokenOut:
    return TokenOut(token=token, player=PlayerRef(id=player.id, name=player.name,
                                                  role=player.role))


def _address(request: Request) -> str:
    """The client's address, the throttles' key (`client_address`)."""
    return client_address(request) or "unknown"


async def _take(request: Request, *checks: tuple[Limit, str]) -> list[Ticket]:
    """Count one attempt under each limit, or refuse (`TooManyAttempts`: 429 and the wait)."""
    throttle: Throttle = request.app.state.throttle
    return await throttle.take(*checks)


@router.post("/guest", responses=errors(400, 409, 429))
async def guest(body: GuestIn, session: SessionDep, request: Request) -> TokenOut:
    await _take(request, (request.app.state.limits.guest, _address(request)))
    async with session.begin():
        player = await accounts.create_guest(session, body.name)
        token = await accounts.issue_token(session, player.id)
    return _answer(token, player)


@router.post("/register", responses=errors(400, 409, 429))
async def register(body: AccountIn, session: SessionDep, request: Request) -> TokenOut:
    await _take(request, (request.app.state.limits.registration, _address(request)))
    async with session.begin():
        player = await accounts.register(session, body.username, body.password, name=body.name)
        token = await accounts.issue_token(session, player.id)
    return _answer(token, player)


@router.post("/upgrade", responses=errors(400, 401, 409, 429))
async def upgrade(body: AccountIn, guest: CurrentPlayer, token: BearerToken,
                  session: SessionDep, request: Request) -> TokenOut:
    """A guest becomes an account and keeps its id, chips and history (and this token)."""
    await _take(request, (request.app.state.limits.registration, _address(request)))
    async with session.begin():
        player = await accounts.upgrade_guest(session, guest.id, body.username, body.password,
                                              body.name)
    return _answer(token, player)


@router.post("/login", responses=errors(400, 401, 429))
async def login(body: CredentialsIn, session: SessionDep, request: Request) -> TokenOut:
    """Each attempt counts until it succeeds: only failed logins use up the limits."""
    limits = request.app.state.limits
    tickets = await _take(request, (limits.login_username, body.username.lower()),
                          (limits.login_address, _address(request)))
    async with session.begin():
        player = await accounts.login(session, body.username, body.password)
        token = await accounts.issue_token(session, player.id)
    await request.app.state.throttle.give_back(tickets)
    return _answer(token, player)


@router.post("/logout", responses=errors(401))
async def logout(player: CurrentPlayer, token: BearerToken, session: SessionDep,
                 gateway: GatewayDep, request: Request) -> LogoutOut:
    """Revoke the token at once: HTTP refuses it from now on, and its sockets are closed (those
    at other processes too: they are told through Redis; the count is of this process's)."""
    async with session.begin():
        await accounts.revoke_token(session, token)
    sockets: SocketIndex = request.app.state.sockets
    closed = await sockets.revoke_token(accounts.token_hash(token))
    gateway.logged_out(accounts.token_hash(token))
    return LogoutOut(logged_out=True, sockets_closed=closed)
