"""``/ws/rooms/{id}``: a thin socket tier (PROTOCOL.md §5) in front of the room.

Before the handshake the `Origin` is checked; the first message authenticates (with a private
room's invite code to watch it without a seat); the player's oldest socket beyond
`RUMMY_MAX_SOCKETS_PER_PLAYER` is closed; then each message is parsed and handed to the room.
Close codes and limits: `app.api.sockets` and docs/security.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable
from typing import Any
from urllib.parse import urlsplit

from fastapi import WebSocket, WebSocketDisconnect
from starlette.datastructures import Headers
from starlette.types import Receive, Scope, Send

from app.refusals import Code, Refusal
from app.rooms.commands import Act
from app.services import outage
from app.services.accounts import token_hash
from app.services.addresses import AddressBook

from . import messages
from .deps import client_address, player_for_token
from .gateway import Gateway
from .sockets import (
    CLOSE_AUTH,
    CLOSE_AUTH_TIMEOUT,
    CLOSE_NO_ROOM,
    CLOSE_ORIGIN,
    CLOSE_TOO_MANY,
    CLOSE_TRY_LATER,
    SocketConnection,
    SocketIndex,
    SocketLimits,
    refuse,
)

log = logging.getLogger(__name__)
PATH = "/ws/rooms/"

AUTH_TIMEOUT = 10.0


def origin_allowed(headers: Headers, allowed: list[str]) -> bool:
    """No `Origin` (not a browser), the server's own host, or one of `RUMMY_ALLOWED_ORIGINS`."""
    origin = headers.get("origin")
    if origin is None:
        return True
    origin = origin.rstrip("/").lower()
    if "*" in allowed or origin in {a.rstrip("/").lower() for a in allowed}:
        return True
    host = headers.get("host")
    return host is not None and urlsplit(origin).netloc == host.lower()


def serve(scope: Scope, receive: Receive, send: Send) -> Awaitable[None]:
    """The ASGI handler of ``/ws/rooms/{id}``, called by ``app.main.RummyHall`` without
    FastAPI's routing (which would cost every idle socket about 11 KiB: docs/benchmarks.md).
    ``scope["app"]`` is the FastAPI app, whose ``state`` holds the rooms and settings. A plain
    function handing over one coroutine: an idle socket waits one frame deep."""
    ws = WebSocket(scope, receive, send)
    room_id = scope["path"][len(PATH):]
    if not room_id or "/" in room_id:
        return ws.close()  # no such route: an HTTP 403, as for any unknown socket path
    return room_socket(ws, room_id, receive)


async def room_socket(ws: WebSocket, room_id: str, receive: Receive) -> None:
    """Origin, authentication, admission, then the socket's loop; one function, so that an
    idle socket waits one frame deep (in uvicorn's own ``receive``)."""
    try:
        if not origin_allowed(ws.headers, ws.app.state.settings.allowed_origins):
            await ws.close(code=CLOSE_ORIGIN, reason="origin not allowed")  # an HTTP 403
            return
        await ws.accept()
        authenticated = await _authenticate(ws)
        if authenticated is None:
            return
        conn, invite = authenticated
        gateway: Gateway = ws.app.state.gateway
        link = await gateway.attach(room_id, conn, invite)
        if link is None:  # unknown and private look alike
            await _no_such_room(ws, conn, room_id)
            return
        sockets = _indexed(ws, conn)
        addresses: AddressBook = ws.app.state.addresses  # once per socket, off its path
        if (address := client_address(ws)) is not None:
            addresses.seen(conn.player_id, room_id, address)
        try:
            while not conn.closed:  # uvicorn's own receive: no wrapper frame while a socket idles
                message = await receive()
                if message["type"] == "websocket.disconnect":
                    break
                raw = message.get("text") or message.get("bytes") or b""
                msg = _admitted(conn, raw)
                if isinstance(msg, messages.Ping):
                    conn.send({"type": "pong"})
                elif msg is not None:
                    await link.handle(raw, msg)
        finally:
            link.close()
            sockets.discard(conn)
            await conn.finish()
    except WebSocketDisconnect:
        pass
    except Exception as exc:  # a last resort: the handler answers what it expects itself
        if outage.is_storage_outage(exc):
            log.warning("websocket: storage unavailable (%s): %r", outage.cause_name(exc), exc)
            ws.app.state.storage_faults.note(exc)
            code = CLOSE_TRY_LATER
        else:
            log.exception("websocket for room %s failed", room_id[:40])
            code = 1011
        with contextlib.suppress(Exception):
            await ws.close(code=code)


async def _no_such_room(ws: WebSocket, conn: SocketConnection, room_id: str) -> None:
    conn.refuse(Code.NO_SUCH_ROOM, f"no room {room_id[:40]!r}", CLOSE_NO_ROOM)
    await _until_closed(ws)
    await conn.finish()


def _indexed(ws: WebSocket, conn: SocketConnection) -> SocketIndex:
    """Count the socket against its account's cap; the account's oldest beyond it close."""
    sockets: SocketIndex = ws.app.state.sockets
    for old in sockets.add(conn):
        old.refuse(Code.TOO_MANY_SOCKETS, f"more than {sockets.max_per_player} open "
                   "sockets for this account: this, the oldest, is closed", CLOSE_TOO_MANY)
    return sockets


async def _until_closed(ws: WebSocket) -> None:
    """Let the queued refusal go out: wait for the client to go (or the close to be sent)."""
    with contextlib.suppress(Exception):
        await asyncio.wait_for(_receive(ws), 5.0)


async def _receive(ws: WebSocket) -> str | bytes:
    message = await ws.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    return message.get("text") or message.get("bytes") or b""


async def _authenticate(ws: WebSocket) -> tuple[SocketConnection, str | None] | None:
    """The first message must be ``auth`` with a valid token, within 10 seconds."""
    try:
        first = await asyncio.wait_for(_receive(ws), AUTH_TIMEOUT)
        parsed = messages.parse(first)
        if not isinstance(parsed, messages.Auth):
            raise Refusal(Code.AUTH_REQUIRED, "authenticate first")
        player = await player_for_token(ws.app, parsed.token)
        if player is None:
            raise Refusal(Code.AUTH_FAILED, "unknown or expired token")
    except TimeoutError:
        await ws.close(code=CLOSE_AUTH_TIMEOUT, reason="authentication timed out")
        return None
    except WebSocketDisconnect:
        return None
    except Refusal as exc:
        await refuse(ws, exc.code, exc.message, CLOSE_AUTH)
        return None
    except Exception as exc:
        if not outage.is_storage_outage(exc):
            raise
        log.warning("websocket authentication: storage unavailable (%s): %r",
                    outage.cause_name(exc), exc)
        ws.app.state.storage_faults.note(exc)
        await refuse(ws, outage.CODE, outage.MESSAGE, CLOSE_TRY_LATER)
        return None
    conn = SocketConnection(ws, player.id, player.name, token_hash(parsed.token),
                            SocketLimits.from_settings(ws.app.state.settings))
    return conn, parsed.invite


def _admitted(conn: SocketConnection, raw: str | bytes) -> messages.Inbound | None:
    """The message parsed and within the socket's rate, or None (the refusal is sent)."""
    try:
        msg = messages.parse(raw)  # bounded by the size limit, so cheap enough to do first
    except Refusal as exc:
        conn.send(exc.reply() if conn.allow() else _rate_limited(exc.client_id))
        return None
    if not conn.allow():  # refused, not applied: the action's id lets the client retry it
        client_id = msg.client_id if isinstance(msg, Act) else None
        conn.send(_rate_limited(client_id))
        return None
    return msg


def _rate_limited(client_id: Any) -> dict[str, Any]:
    return Refusal(Code.RATE_LIMITED, "too many messages; slow down").reply(client_id)
