"""The protocols uvicorn runs for each socket: its own, lighter at rest.

uvicorn keeps, per socket, an `asyncio.Queue` of received events and an `asyncio.Event` that
says whether the transport may be written. Together they hold four `collections.deque` (about
3 KiB a socket even when empty), for a queue that has one reader and a flag that one writer
waits on. `LeanWebSocketProtocol` swaps them for `Inbox` and `Gate`, which keep a list and a
future only while someone waits: ten thousand idle sockets add up (docs/benchmarks.md, idle).
It also takes a frame at once for a socket that can take it (`send_text_now`), so a message
to an idle, keeping-up client costs no task, and writes a turn's frames to a socket together.
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.exceptions import InvalidState


class Inbox:
    """What uvicorn asks of its receive queue (`put_nowait`, `get`, `empty`), for one reader."""

    __slots__ = ("_items", "_waiter")

    def __init__(self) -> None:
        self._items: list[Any] = []
        self._waiter: asyncio.Future[None] | None = None

    def put_nowait(self, item: Any) -> None:
        self._items.append(item)
        if self._waiter is not None and not self._waiter.done():
            self._waiter.set_result(None)

    def empty(self) -> bool:
        return not self._items

    async def get(self) -> Any:
        while not self._items:
            self._waiter = asyncio.get_running_loop().create_future()
            try:
                await self._waiter
            finally:
                self._waiter = None
        return self._items.pop(0)


class Gate:
    """What uvicorn asks of its "writable" event (`set`, `clear`, `is_set`, `wait`)."""

    __slots__ = ("_open", "_waiters")

    def __init__(self) -> None:
        self._open = True
        self._waiters: list[asyncio.Future[None]] | None = None

    def is_set(self) -> bool:
        return self._open

    def set(self) -> None:
        self._open = True
        waiters, self._waiters = self._waiters, None
        for waiter in waiters or ():
            if not waiter.done():
                waiter.set_result(None)

    def clear(self) -> None:
        self._open = False

    async def wait(self) -> None:
        if self._open:
            return
        waiter = asyncio.get_running_loop().create_future()
        if self._waiters is None:
            self._waiters = []
        self._waiters.append(waiter)
        await waiter


class LeanWebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's sans-I/O websocket protocol (what ``ws="auto"`` picks with websockets
    installed) with a lighter inbox and writable flag."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.queue = Inbox()  # type: ignore[assignment]
        self.writable = Gate()  # type: ignore[assignment]
        self.corked: list[bytes] | None = None  # frames taken in this turn of the loop

    def send_text_now(self, data: bytes) -> bool:
        """Take a text frame (``data``: UTF-8) for writing at the end of this turn of the event
        loop, as `send` would write it once the socket is writable: no task, no await for a
        socket that can take it, and the frames a socket is given in one turn (a state and
        the ack after it) leave in one write. False when it cannot take it now (not open
        yet, closing, or its transport paused behind a slow reader): the caller queues it."""
        if (not self.writable.is_set() or self.disconnected or not self.handshake_complete
                or self.close_sent or self.initial_response is not None
                or self.transport.is_closing()):
            return False
        try:
            self.conn.send_text(data)
        except InvalidState:
            return False
        if self.corked is None:
            self.corked = []
            self.loop.call_soon(self._uncork)
        self.corked += self.conn.data_to_send()
        return True

    def _uncork(self) -> None:
        corked, self.corked = self.corked, None
        if corked and not self.transport.is_closing():
            self.transport.write(b"".join(corked))


class UpgradingHttpProtocol(HttpToolsProtocol):
    """uvicorn's HTTP protocol (httptools, what ``http="auto"`` picks), which lets go of its
    parser once it has handed a connection to the websocket protocol: the parser holds the
    protocol's bound callbacks, so each upgraded connection left a cycle of some twenty
    objects for the collector to find, after the young collection had passed it on (a third
    of a KiB per socket waiting in the heap: docs/benchmarks.md, idle)."""

    def handle_websocket_upgrade(self) -> None:
        super().handle_websocket_upgrade()
        self.parser = None  # type: ignore[assignment]  # nothing reads it after the upgrade
