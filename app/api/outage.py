"""Storage outages over HTTP: a JSON 503 `storage_unavailable`, not a crash, and the process
not ready for a few seconds (docs/security.md, docs/operations.md)."""

from __future__ import annotations

import contextlib
import logging

from fastapi import FastAPI, Request, WebSocket
from fastapi.responses import Response

from app.refusals import Refusal
from app.services import outage

from . import errors
from .sockets import CLOSE_TRY_LATER

log = logging.getLogger(__name__)
RETRY_AFTER_SECONDS = outage.HOLD_SECONDS  # when this process is ready again


async def storage_unavailable(conn: Request | WebSocket, exc: Exception) -> Response | None:
    """503 for an outage, noted in the process's `Faults`; any other error is re-raised (a
    500, logged with its traceback)."""
    if not outage.is_storage_outage(exc):
        raise exc
    conn.app.state.storage_faults.note(exc)
    log.warning("%s %s: storage unavailable (%s): %r", conn.scope["type"], conn.url.path,
                outage.cause_name(exc), exc)
    if isinstance(conn, WebSocket):  # the socket route answers outages itself; a last resort
        with contextlib.suppress(Exception):
            await conn.close(code=CLOSE_TRY_LATER, reason=outage.CODE)
        return None
    return errors.response(Refusal(outage.CODE, outage.MESSAGE),
                           headers={"Retry-After": str(RETRY_AFTER_SECONDS)})


def add_outage_handlers(app: FastAPI) -> None:
    for kind in outage.MAYBE_OUTAGE:
        app.add_exception_handler(kind, storage_unavailable)  # type: ignore[arg-type]
