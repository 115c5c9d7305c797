"""The one writer of an HTTP error answer (docs/server.md): ``{"detail": {"code", "message",
…fields}}`` with the code's status from the registry, and ``Retry-After`` when the refusal says
how long to wait."""

from __future__ import annotations

from typing import Any

from fastapi import HTTPException, Request
from fastapi.responses import JSONResponse

from app.refusals import Refusal


def _detail(refusal: Refusal) -> dict[str, Any]:
    return {"code": refusal.code.value, "message": refusal.message, **refusal.fields}


def _headers(refusal: Refusal, headers: dict[str, str] | None) -> dict[str, str]:
    """``headers``, and Retry-After for a refusal with a ``retry_after`` field."""
    headers = dict(headers or {})
    if "retry_after" in refusal.fields:
        headers["Retry-After"] = str(refusal.fields["retry_after"])
    return headers


def response(refusal: Refusal, headers: dict[str, str] | None = None) -> JSONResponse:
    """The answer for ``refusal``, with ``headers`` besides."""
    return JSONResponse({"detail": _detail(refusal)}, status_code=refusal.code.status,
                        headers=_headers(refusal, headers))


def http_exception(refusal: Refusal) -> HTTPException:
    """The same answer, for a refusal made while FastAPI reads a request body (it turns any
    other exception there into a 400)."""
    return HTTPException(refusal.code.status, detail=_detail(refusal),
                         headers=_headers(refusal, None))


async def refused(request: Request, exc: Exception) -> JSONResponse:
    """The app's exception handler for every `Refusal` a route raises."""
    assert isinstance(exc, Refusal)  # noqa: S101 - registered for Refusal only
    return response(exc)
