"""``/ws/rooms/{id}``: a thin socket tier (PROTOCOL.md §5) in front of the room."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import orjson
from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from app.rooms.room import Room, RoomError

from . import messages
from .deps import player_for_token

router = APIRouter()

AUTH_TIMEOUT = 10.0
RATE = 20.0   # messages per second, sustained
BURST = 40.0


class SocketConnection:
    """One authenticated socket; sends are serialised so messages never interleave."""

    def __init__(self, ws: WebSocket, player_id: str, name: str) -> None:
        self.ws = ws
        self.player_id = player_id
        self.name = name
        self._lock = asyncio.Lock()
        self._tokens = BURST
        self._at = time.monotonic()

    async def send(self, message: dict[str, Any]) -> None:
        async with self._lock:
            await self.ws.send_text(orjson.dumps(message).decode())

    async def close(self) -> None:
        await self.ws.close(code=1011)

    def allow(self) -> bool:
        """A token bucket per connection (lila-ws style rate limit)."""
        now = time.monotonic()
        self._tokens = min(BURST, self._tokens + (now - self._at) * RATE)
        self._at = now
        if self._tokens < 1:
            return False
        self._tokens -= 1
        return True


@router.websocket("/ws/rooms/{room_id}")
async def room_socket(ws: WebSocket, room_id: str) -> None:
    await ws.accept()
    conn = await _authenticate(ws)
    if conn is None:
        return
    try:
        room = ws.app.state.registry.get(room_id)
    except RoomError as exc:
        await conn.send({"type": "error", "id": None, "code": exc.code, "message": exc.message})
        await ws.close(code=4404)
        return
    room.connect(conn)
    try:
        await conn.send(room.message_for(conn))  # the current state at once
        while True:
            await _serve_one(room, conn, await _receive(ws))
    except WebSocketDisconnect:
        pass
    finally:
        room.disconnect(conn)


async def _receive(ws: WebSocket) -> str | bytes:
    message = await ws.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    return message.get("text") or message.get("bytes") or b""


async def _authenticate(ws: WebSocket) -> SocketConnection | None:
    """The first message must be ``auth`` with a valid token, within 10 seconds."""
    try:
        first = await asyncio.wait_for(_receive(ws), AUTH_TIMEOUT)
        parsed = messages.parse(first)
        if not isinstance(parsed, messages.Auth):
            raise messages.BadMessage("auth_required", "authenticate first")
        player = await player_for_token(ws.app, parsed.token)
        if player is None:
            raise messages.BadMessage("auth_failed", "unknown or expired token")
    except TimeoutError:
        await ws.close(code=4408, reason="authentication timed out")
        return None
    except WebSocketDisconnect:
        return None
    except messages.BadMessage as exc:
        await ws.send_text(orjson.dumps(exc.reply()).decode())
        await ws.close(code=4401)
        return None
    return SocketConnection(ws, player.id, player.name)


async def _serve_one(room: Room, conn: SocketConnection, raw: str | bytes) -> None:
    try:
        msg = messages.parse(raw)  # bounded by the size limit, so cheap enough to do first
    except messages.BadMessage as exc:
        await conn.send(exc.reply() if conn.allow() else _rate_limited(exc.client_id))
        return
    if not conn.allow():  # refused, not applied: the action's id lets the client retry it
        client_id = msg.client_id if isinstance(msg, messages.ActionMessage) else None
        await conn.send(_rate_limited(client_id))
        return
    if isinstance(msg, messages.ActionMessage):
        await conn.send(await room.act(conn.player_id, msg.client_id, msg.action))
    elif isinstance(msg, messages.Chat):
        await room.chat(conn.player_id, conn.name, msg.text)
    elif isinstance(msg, messages.Ping):
        await conn.send({"type": "pong"})
    else:
        await conn.send({"type": "error", "id": None, "code": "already_authenticated",
                         "message": "this connection is already authenticated"})


def _rate_limited(client_id: Any) -> dict[str, Any]:
    return {"type": "error", "id": client_id, "code": "rate_limited",
            "message": "too many messages; slow down"}
