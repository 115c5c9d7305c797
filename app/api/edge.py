"""The web edge: what every HTTP answer passes through (docs/security.md).

- `BodyLimit`: request bodies over 64 KiB are refused with 413 before they are read whole.
- `NoNul`: a NUL character in a request's path or query is refused with 400 (in a JSON body,
  a request model refuses it in the fields it declares: `schemas.In`).
- `SecurityHeaders`: a strict Content-Security-Policy and friends on every answer.
- `ClientFiles`: the browser client, revalidated on every use (ETag, 304), mounted at `/` by
  `ClientMount`, which leaves `/api/` to the router.
- `CountErrors`: every answer of 400 or more counted by its refusal code (the metrics).
- `protect`: wires these, and gzip, into an app in the right order, with the handlers that give
  every error under `/api/` the one error format: Starlette's own 404 and 405 (with an `Allow`
  naming every method of the path) and FastAPI's 422 (`invalid_input`).

All are pure ASGI and pass websockets through untouched; the websocket message limit is
uvicorn's (`ws_max_size`, set by `app.cli serve`).
"""

from __future__ import annotations

import contextlib
import gzip
import os
import re
from collections.abc import Iterator
from typing import Any

import orjson
from fastapi import FastAPI, Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.datastructures import Headers, MutableHeaders
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.gzip import GZipMiddleware
from starlette.routing import BaseRoute, Match, Mount, Route, compile_path
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app import metrics
from app.refusals import MAX_MESSAGE, Code, Refusal

from . import errors
from .schemas import NUL_MESSAGE

MAX_BODY_BYTES = 65_536
API_PREFIX = "/api/"
DOCS_PATHS = ("/docs", "/redoc")

# The client is ES modules and a stylesheet from this origin; it talks to this origin's API and
# websocket (CSP3: 'self' covers ws:/wss: of the same host). No inline script or style at all.
CLIENT_POLICY = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; "
                 "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
                 "frame-ancestors 'none'")
# FastAPI's /docs and /redoc pages (off unless enabled) load their scripts from a CDN and start
# them with an inline script.
DOCS_POLICY = ("default-src 'self'; script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
               "style-src 'self' https://cdn.jsdelivr.net; img-src 'self' data: "
               "https://fastapi.tiangolo.com; worker-src blob:; frame-ancestors 'none'")
SECURITY_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
}
HSTS = "max-age=31536000"


def _body_too_large() -> Refusal:
    return Refusal(Code.BODY_TOO_LARGE, f"request bodies are limited to {MAX_BODY_BYTES} bytes")


class _HttpMiddleware:
    """Pure ASGI: websockets and lifespan pass through untouched, HTTP goes to `handle`."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            await self.handle(scope, receive, send)
        else:
            await self.app(scope, receive, send)

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        raise NotImplementedError


class BodyLimit(_HttpMiddleware):
    """Refuses request bodies over `MAX_BODY_BYTES` with 413: at once, without routing, when
    Content-Length says so; else as soon as the streamed chunks add up to more.

    (FastAPI's own `max_body_size` answers in plain text when the route does not read the
    body, and routes the request first.)
    """

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        length = Headers(scope=scope).get("content-length", "0")
        if not length.isdigit() or int(length) > MAX_BODY_BYTES:
            await errors.response(_body_too_large())(scope, receive, send)
            return
        received = 0

        async def counted() -> Message:
            nonlocal received
            message = await receive()
            received += len(message.get("body", b""))
            if received > MAX_BODY_BYTES:
                raise errors.http_exception(_body_too_large())
            return message

        await self.app(scope, counted, send)


def _nul_refused(fields: dict[str, object] | None = None) -> Refusal:
    return Refusal(Code.NUL_CHARACTER, NUL_MESSAGE, fields)


class NoNul(_HttpMiddleware):
    """Refuses with 400 `nul_character` a request that carries a NUL character in its path or
    its query: no id or filter holds one, and PostgreSQL cannot store or compare one (it would
    answer with an error, a 500). The schema says so of every string
    (`app.api.schemas.document`); a JSON body's declared fields are checked by their model
    (`schemas.In`), so a key the schema leaves free may hold one."""

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        query: bytes = scope["query_string"]
        if "\x00" in scope["path"] or b"\x00" in query or b"%00" in query:
            await errors.response(_nul_refused())(scope, receive, send)
            return
        await self.app(scope, receive, send)


class SecurityHeaders(_HttpMiddleware):
    """Adds the security headers (and HSTS over https) to every HTTP answer."""

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        added = headers_for(scope["path"], scope["scheme"])

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in added.items():
                    headers.setdefault(name, value)
            await send(message)

        await self.app(scope, receive, send_with_headers)


class CountErrors(_HttpMiddleware):
    """Counts every answer of 400 or more in `rummy_errors_total` by its refusal code: the
    body's ``detail.code`` (the error format), else ``http_<status>`` (outside `/api/`: the
    client's files' 404); an exception that escapes every handler is the 500
    ``internal_error``."""

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        status = 0
        body = bytearray()
        gzipped = False

        async def counted(message: Message) -> None:
            nonlocal status, gzipped
            if message["type"] == "http.response.start":
                status = message["status"]
                gzipped = Headers(raw=message["headers"]).get("content-encoding") == "gzip"
            elif status >= 400 and message["type"] == "http.response.body":
                body.extend(message.get("body", b""))
                if not message.get("more_body", False):
                    metrics.refused(_error_code(status, bytes(body), gzipped))
            await send(message)

        try:
            await self.app(scope, receive, counted)
        except Exception:
            if status == 0:
                metrics.refused(Code.INTERNAL_ERROR)
            raise


def _error_code(status: int, body: bytes, gzipped: bool) -> str:
    with contextlib.suppress(ValueError, OSError, TypeError, KeyError):
        detail = orjson.loads(gzip.decompress(body) if gzipped else body)["detail"]
        code = detail.get("code") if isinstance(detail, dict) else None
        if isinstance(code, str):
            return code
    return f"http_{status}"


def headers_for(path: str, scheme: str) -> dict[str, str]:
    """The security headers of an answer to `path` over `scheme`."""
    policy = DOCS_POLICY if path in DOCS_PATHS else CLIENT_POLICY
    headers = {"Content-Security-Policy": policy, **SECURITY_HEADERS}
    if scheme == "https":
        headers["Strict-Transport-Security"] = HSTS
    return headers


class ClientFiles(StaticFiles):
    """The browser client with `Cache-Control: no-cache`: the ES modules import each other by
    unhashed names, so every use revalidates (ETag / Last-Modified, a 304 when unchanged) and a
    deploy is picked up at once."""

    def file_response(self, full_path: str | os.PathLike[str], stat_result: os.stat_result,
                      scope: Scope, status_code: int = 200) -> Response:
        response = super().file_response(full_path, stat_result, scope, status_code)
        response.headers["Cache-Control"] = "no-cache"
        return response


class ClientMount(Mount):
    """The client's files at `/`, but not under `/api/`: there the router answers itself, with
    its 404, and with a 405 whose `Allow` names the methods the route has (the files would
    answer any method on any path, with `Allow: GET, HEAD`)."""

    def matches(self, scope: Scope) -> tuple[Match, Scope]:
        if scope["type"] == "http" and scope["path"].startswith(API_PREFIX):
            return Match.NONE, {}
        return super().matches(scope)


def walk_routes(routes: list[BaseRoute], prefix: str = "") -> Iterator[tuple[str, Route]]:
    """Every route with its full path, through included routers (FastAPI keeps those as route
    objects of their own, holding the original router and the include's prefix)."""
    for route in routes:
        included: Any = getattr(route, "original_router", None)
        if included is not None:
            context: Any = getattr(route, "include_context")  # noqa: B009 - not on BaseRoute
            yield from walk_routes(included.routes, prefix + context.prefix)
        elif isinstance(route, Route):
            yield prefix + route.path, route


def allowed_methods(app: FastAPI, path: str) -> list[str]:
    """The methods of every route of `app` whose path matches `path`, sorted: what a 405's
    `Allow` names (`GET` and `PATCH /api/me` are two routes). The table is made at the first
    405 (routes are all added by then)."""
    table: list[tuple[re.Pattern[str], frozenset[str]]] | None = getattr(
        app.state, "route_methods", None)
    if table is None:
        table = [(compile_path(full)[0], frozenset(route.methods or ()))
                 for full, route in walk_routes(app.routes)]
        app.state.route_methods = table
    return sorted({method for pattern, methods in table if pattern.match(path)
                   for method in methods})


# The errors Starlette and FastAPI give themselves, as a sentence: no route for the path; a body
# that cannot be read (not UTF-8); a method the path does not take (`_not_allowed`).
_OWN_ERRORS = {
    404: Refusal(Code.NOT_FOUND, "no API call at this path"),
    400: Refusal(Code.MALFORMED_JSON, "the request body could not be read as JSON"),
}


async def _http_error(request: Request, exc: Exception) -> Response:
    """Starlette's and FastAPI's own errors in the error format under `/api/`: 404
    `not_found`, 400 `malformed_json`, 405 `method_not_allowed` with `Allow`; an answer already
    in the format, and every answer outside `/api/` (the client's files), as Starlette gives
    it."""
    assert isinstance(exc, StarletteHTTPException)  # noqa: S101 - registered for it only
    path = request.scope["path"]
    if isinstance(exc.detail, dict) or not path.startswith(API_PREFIX):
        return await http_exception_handler(request, exc)
    if exc.status_code == 405:
        return _not_allowed(request, path)
    if exc.status_code in _OWN_ERRORS:
        return errors.response(_OWN_ERRORS[exc.status_code])
    return await http_exception_handler(request, exc)


def _not_allowed(request: Request, path: str) -> Response:
    allowed = allowed_methods(request.app, path)
    method = request.method[:16]
    return errors.response(
        Refusal(Code.METHOD_NOT_ALLOWED,
                f"{method} is not allowed here; this path takes {', '.join(allowed)}",
                {"allowed": allowed}),
        headers={"Allow": ", ".join(allowed)})


MAX_FIELD_ERRORS = 10  # of a 422's `errors`: a body of a thousand bad items is not echoed back
_MAX_LOC = 64  # characters of a key in an error's `loc` (a body's own keys may be long)


def _field_error(error: dict[str, Any]) -> dict[str, Any]:
    loc = [part[:_MAX_LOC] if isinstance(part, str) else part for part in error["loc"]]
    return {"type": str(error["type"]), "loc": loc, "msg": str(error["msg"])[:MAX_MESSAGE]}


async def _invalid_input(request: Request, exc: Exception) -> Response:
    """FastAPI's 422, a request its own schema refuses, in the error format: ``invalid_input``
    with `errors` (each its `type`, `loc` and `msg`, the input itself left out); a NUL
    character in a declared field is 400 `nul_character` (`schemas.In`)."""
    assert isinstance(exc, RequestValidationError)  # noqa: S101 - registered for it only
    found = [_field_error(error) for error in exc.errors()]
    fields: dict[str, object] = {"errors": found[:MAX_FIELD_ERRORS]}
    if any(error["type"] == Code.NUL_CHARACTER for error in found):
        return errors.response(_nul_refused(fields))
    message = "; ".join(".".join(str(part) for part in error["loc"][1:]) + f": {error['msg']}"
                        for error in found)
    return errors.response(Refusal(Code.INVALID_INPUT, message[:MAX_MESSAGE], fields))


def _server_error(request: Request, exc: Exception) -> JSONResponse:
    """A 500 in the error format, with the security headers: Starlette answers it outside every
    middleware."""
    return errors.response(Refusal(Code.INTERNAL_ERROR, "the server failed; try again"),
                           headers=headers_for(request.url.path, request.url.scheme))


def protect(app: FastAPI) -> None:
    """Wire the edge into `app`. The last middleware added runs first: the count of errors
    sees every answer, and the security headers wrap the rest, so the 413s and compressed
    answers carry them too."""
    app.add_middleware(GZipMiddleware, minimum_size=500, compresslevel=6)
    app.add_middleware(NoNul)
    app.add_middleware(BodyLimit)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(CountErrors)
    app.add_exception_handler(Exception, _server_error)
    app.add_exception_handler(StarletteHTTPException, _http_error)
    app.add_exception_handler(RequestValidationError, _invalid_input)
