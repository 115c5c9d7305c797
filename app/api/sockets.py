"""Open websockets: one `SocketConnection` per authenticated socket, and this process's
`SocketIndex` of them by player (the cap on sockets per account) and by token (logout).

Close codes the server uses (docs/security.md): 4401 authentication failed or logged out, 4404
no such room, 4408 authentication timed out, 4429 too many sockets for the account, 1013
storage unavailable; each after an `error` message naming the reason. A foreign origin is
refused before the handshake completes (an HTTP 403), so no code reaches the client. A client
that stops reading is cut off without a close frame (it could not read one): it sees 1006.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import orjson
from fastapi import WebSocket

from app import metrics
from app.refusals import Code, Refusal

from .wsprotocol import LeanWebSocketProtocol

if TYPE_CHECKING:
    from app.settings import Settings

log = logging.getLogger(__name__)

CLOSE_AUTH = 4401
CLOSE_ORIGIN = 4403
CLOSE_NO_ROOM = 4404
CLOSE_AUTH_TIMEOUT = 4408
CLOSE_TOO_MANY = 4429
CLOSE_TRY_LATER = 1013


@dataclass(frozen=True)
class SocketLimits:
    """Per-socket limits (settings ``RUMMY_SOCKET_*``)."""

    rate: float = 20.0  # messages a client may send per second, sustained
    burst: int = 40
    queue: int = 256  # messages queued to a client before it counts as too slow

    @classmethod
    def from_settings(cls, settings: Settings) -> SocketLimits:
        return cls(settings.socket_messages_per_second, settings.socket_burst,
                   settings.socket_queue)


class SocketConnection:
    """One authenticated socket. Everything sent to it is queued in its outbox and written by
    its own task, so no sender ever waits for this client; a client that falls ``queue``
    messages behind is cut off and reconnects to resync. Slotted, and its outbox and writer
    exist only while there is something to write: ten thousand idle sockets add up."""

    __slots__ = ("ws", "player_id", "name", "token_hash", "limits", "closed", "_outbox",
                 "_writer", "_tokens", "_at")

    def __init__(self, ws: WebSocket, player_id: str, name: str, token_hash: str,
                 limits: SocketLimits) -> None:
        self.ws = ws
        self.player_id = player_id
        self.name = name
        self.token_hash = token_hash
        self.limits = limits
        self.closed = False
        # The outbox, and its writer task only while there is something to write: an idle
        # socket costs no task.
        self._outbox: deque[bytes | _Close] | None = None
        self._writer: asyncio.Task[None] | None = None
        self._tokens = float(limits.burst)
        self._at = time.monotonic()

    def push(self, data: bytes) -> None:
        """Send one message (UTF-8 JSON): at once when nothing waits before it and the socket
        can take it, else queued; never waits."""
        if self.closed:
            return
        if self._outbox is None and self._writer is None:
            protocol = _protocol(self.ws)
            if isinstance(protocol, LeanWebSocketProtocol) and protocol.send_text_now(data):
                return
        if self._outbox is not None and len(self._outbox) >= self.limits.queue:
            log.info("dropping a socket of %s: %d messages behind", self.player_id,
                     self.limits.queue)
            self._abort()
            return
        self._queue(data)

    def send(self, message: dict[str, Any]) -> None:
        """Send a reply or notice; an ``error`` is counted in the metrics (state goes by
        `push`, encoded once for every socket)."""
        if message.get("type") == "error":
            metrics.refused(message["code"])
        self.push(orjson.dumps(message))

    def refuse(self, code: Code, message: str, close_code: int) -> None:
        """Queue the error saying why, then the close with ``close_code``."""
        if self.closed:
            return
        self.send(Refusal(code, message).reply())
        self._queue(_Close(close_code, code))
        self.closed = True

    async def finish(self) -> None:
        """The handler is done with this socket: stop its writer."""
        self.closed = True
        if self._writer is not None:
            self._writer.cancel()
            with contextlib.suppress(BaseException):
                await self._writer

    def _queue(self, item: bytes | _Close) -> None:
        if self._outbox is None:
            self._outbox = deque()
        self._outbox.append(item)
        if self._writer is None:
            self._writer = asyncio.get_running_loop().create_task(self._write())

    async def _write(self) -> None:
        try:
            while self._outbox:
                item = self._outbox.popleft()
                if not self._outbox:
                    self._outbox = None
                if isinstance(item, _Close):
                    await self.ws.close(code=item.code, reason=item.reason)
                    return
                await self.ws.send_text(item.decode())
        except asyncio.CancelledError:
            raise
        except Exception:  # the socket is gone; the handler's receive loop ends too
            self.closed = True
        finally:
            self._writer = None

    def _abort(self) -> None:
        """Too slow: stop writing and cut the connection at once, without waiting for a
        client that does not read (a close frame would wait behind its full buffer)."""
        self.closed = True
        metrics.socket_dropped("slow")
        if self._writer is not None:
            self._writer.cancel()
        transport = getattr(_protocol(self.ws), "transport", None)
        if transport is not None:
            transport.abort()
        else:  # not uvicorn: a close that gives up after a while (finish() awaits it)
            self._writer = asyncio.get_running_loop().create_task(
                _close_soon(self.ws, CLOSE_TRY_LATER))

    def allow(self) -> bool:
        """A token bucket per connection (lila-ws style rate limit)."""
        now = time.monotonic()
        self._tokens = min(float(self.limits.burst),
                           self._tokens + (now - self._at) * self.limits.rate)
        self._at = now
        if self._tokens < 1:
            return False
        self._tokens -= 1
        return True


def _protocol(ws: WebSocket) -> Any:
    """uvicorn hands the app its protocol's bound `receive`: the socket's protocol (None under
    another server)."""
    return getattr(getattr(ws, "_receive", None), "__self__", None)


@dataclass(frozen=True)
class _Close:
    code: int
    reason: str


async def _close_soon(ws: WebSocket, code: int) -> None:
    with contextlib.suppress(Exception):
        await asyncio.wait_for(ws.close(code=code, reason="too slow"), 2.0)


async def refuse(ws: WebSocket, code: Code, message: str, close_code: int) -> None:
    """Send the `error` saying why, then close with `close_code` (a socket already gone is
    left alone)."""
    metrics.refused(code)
    with contextlib.suppress(Exception):
        await ws.send_text(orjson.dumps(Refusal(code, message).reply()).decode())
    with contextlib.suppress(Exception):
        await ws.close(code=close_code, reason=code)


class SocketIndex:
    """This process's open sockets, oldest first, by player and by token hash.

    Only this process's sockets are known: with several processes, a logout (a suspension) is
    broadcast to all of them through Redis and each calls `revoke_now` (`suspend_now`)
    (docs/scaling.md).
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

    def count(self) -> int:
        """Open sockets at this process."""
        return sum(len(mine) for mine in self.by_player.values())

    def discard(self, conn: SocketConnection) -> None:
        mine = self.by_player.get(conn.player_id, [])
        if conn in mine:
            mine.remove(conn)
        if not mine:
            self.by_player.pop(conn.player_id, None)

    async def revoke_token(self, token_hash: str) -> int:
        """Tell every socket authenticated with this token that it logged out, and close it;
        returns how many there were."""
        return self.revoke_now(token_hash)

    def suspend_now(self, player_id: str) -> int:
        """Tell every socket of a player just suspended so (``suspended``), and close it;
        returns how many there were (PROTOCOL.md §9)."""
        revoked = list(self.by_player.pop(player_id, []))
        for conn in revoked:
            conn.refuse(Code.SUSPENDED, "this account is suspended", CLOSE_AUTH)
        return len(revoked)

    def revoke_now(self, token_hash: str) -> int:
        """`revoke_token` for a caller outside a coroutine (a message from another process)."""
        revoked = [c for mine in self.by_player.values() for c in mine
                   if c.token_hash == token_hash]
        for conn in revoked:
            self.discard(conn)
            conn.refuse(Code.LOGGED_OUT, "this token was logged out", CLOSE_AUTH)
        return len(revoked)
