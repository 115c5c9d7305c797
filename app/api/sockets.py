"""Open websockets: one `SocketConnection` per authenticated socket, and this process's
`SocketIndex` of them by player (the cap on sockets per account) and by token (logout).

Close codes the server uses (docs/security.md): 4401 authentication failed or logged out, 4404
no such room, 4408 authentication timed out, 4429 too many sockets for the account, 1013
storage unavailable; each after an `error` message naming the reason. A foreign origin is
refused before the handshake completes (an HTTP 403), so no code reaches the client.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any

import orjson
from fastapi import WebSocket, WebSocketDisconnect

RATE = 20.0   # messages per second, sustained
BURST = 40.0

CLOSE_AUTH = 4401
CLOSE_ORIGIN = 4403
CLOSE_NO_ROOM = 4404
CLOSE_AUTH_TIMEOUT = 4408
CLOSE_TOO_MANY = 4429
CLOSE_TRY_LATER = 1013


class SocketConnection:
    """One authenticated socket; sends are serialised so messages never interleave."""

    def __init__(self, ws: WebSocket, player_id: str, name: str, token_hash: str) -> None:
        self.ws = ws
        self.player_id = player_id
        self.name = name
        self.token_hash = token_hash
        self.closed = False
        self._lock = asyncio.Lock()
        self._tokens = BURST
        self._at = time.monotonic()

    async def send(self, message: dict[str, Any]) -> None:
        async with self._lock:
            if self.closed:  # the handler's loop ends as if the client had gone
                raise WebSocketDisconnect(1000)
            await self.ws.send_text(orjson.dumps(message).decode())

    async def close(self, code: int = 1011, reason: str = "") -> None:
        async with self._lock:
            if not self.closed:
                self.closed = True
                with contextlib.suppress(Exception):  # already gone: nothing to close
                    await self.ws.close(code=code, reason=reason)

    async def refuse(self, code: str, message: str, close_code: int) -> None:
        """Send the error saying why, then close with `close_code`."""
        async with self._lock:
            if not self.closed:
                self.closed = True
                await refuse(self.ws, code, message, close_code)

    def allow(self) -> bool:
        """A token bucket per connection (lila-ws style rate limit)."""
        now = time.monotonic()
        self._tokens = min(BURST, self._tokens + (now - self._at) * RATE)
        self._at = now
        if self._tokens < 1:
            return False
        self._tokens -= 1
        return True


def error(code: str, message: str, client_id: Any = None) -> dict[str, Any]:
    return {"type": "error", "id": client_id, "code": code, "message": message}


async def refuse(ws: WebSocket, code: str, message: str, close_code: int) -> None:
    """Send the `error` saying why, then close with `close_code` (a socket already gone is
    left alone)."""
    with contextlib.suppress(Exception):
        await ws.send_text(orjson.dumps(error(code, message)).decode())
    with contextlib.suppress(Exception):
        await ws.close(code=close_code, reason=code)


class SocketIndex:
    """This process's open sockets, oldest first, by player and by token hash.

    Only this process's sockets are known: with several processes, a revocation would be
    published to all of them (e.g. through Redis) and each would call `revoke_token`.
    """

    def __init__(self, max_per_player: int) -> None:
        self.max_per_player = max_per_player
        self.by_player: dict[str, list[SocketConnection]] = {}

    def add(self, conn: SocketConnection) -> list[SocketConnection]:
        """Index `conn`; returns (and forgets) the player's oldest sockets beyond the cap."""
        mine = self.by_player.setdefault(conn.player_id, [])
        mine.append(conn)
        excess = len(mine) - self.max_per_player
        if excess <= 0:
            return []
        evicted, self.by_player[conn.player_id] = mine[:excess], mine[excess:]
        return evicted

    def discard(self, conn: SocketConnection) -> None:
        mine = self.by_player.get(conn.player_id, [])
        if conn in mine:
            mine.remove(conn)
        if not mine:
            self.by_player.pop(conn.player_id, None)

    async def revoke_token(self, token_hash: str) -> int:
        """Tell every socket authenticated with this token that it logged out, and close it;
        returns how many there were."""
        revoked = [c for mine in self.by_player.values() for c in mine
                   if c.token_hash == token_hash]
        for conn in revoked:
            self.discard(conn)
            await conn.refuse("logged_out", "this token was logged out", CLOSE_AUTH)
        return len(revoked)
