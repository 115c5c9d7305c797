"""Request ids: each HTTP request and each socket has one, which its log lines carry
(`app.logs.REQUEST_ID`) and an HTTP answer returns as `X-Request-ID`.

The id is the request's own `X-Request-ID` when that is sane (1 to 128 of ``A-Z a-z 0-9 . _ :
-``: a proxy's or a client's id, to follow a request across services), else a new one. It stays
set for the rest of the request's task, so that uvicorn's access line (and its error line for a
request that failed) carries it too.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterable

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.logs import REQUEST_ID

HEADER = "X-Request-ID"
_HEADER_KEY = HEADER.lower().encode()
_SANE = re.compile(rb"[A-Za-z0-9._:-]{1,128}")


def request_id(headers: Iterable[tuple[bytes, bytes]]) -> str:
    """The request's `X-Request-ID` if it is sane, else a new id (32 hex digits)."""
    for name, value in headers:
        if name == _HEADER_KEY:
            if _SANE.fullmatch(value):
                return value.decode("ascii")
            break
    return uuid.uuid4().hex


def start_socket(scope: Scope) -> None:
    """A socket's id, for the lines of its whole life (its handler runs in a task of its own)."""
    REQUEST_ID.set(request_id(scope["headers"]))


class RequestIds:
    """Pure ASGI: an HTTP request's id is set for its lines and returned in its answer's
    `X-Request-ID`; websockets and lifespan pass through untouched."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        rid = request_id(scope["headers"])
        REQUEST_ID.set(rid)

        async def send_with_id(message: Message) -> None:
            if message["type"] == "http.response.start":
                MutableHeaders(scope=message)[HEADER] = rid
            await send(message)

        await self.app(scope, receive, send_with_id)
