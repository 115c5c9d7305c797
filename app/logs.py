"""Logs: one configuration for the whole process, and where each line comes from.

`configuration(settings)` is the `logging.config.dictConfig` dictionary that `app.cli serve`
hands uvicorn, so that uvicorn's loggers (`uvicorn`, `uvicorn.error`, `uvicorn.access`) and the
server's own (`app.*`) write through the same handlers: plain lines in uvicorn's look
(`RUMMY_LOG_FORMAT=text`), or one JSON object a line (`json`: `time`, `level`, `logger`,
`message`, and only where they apply `room`, `match`, `player`, `request_id`, `exception`).
Access lines go to standard output, everything else to standard error, as uvicorn does.

Where a line comes from is kept in two context variables, set where the work starts and read
only when a line is written: `REQUEST_ID` (`app.api.request_ids`: per HTTP request, per socket)
and `ROOM` (the room's record and the player it works for: `Room.handle`, the room's own jobs).
Setting them is all that is done per request or per action.

No secret is written. The server's own lines name no token, password or key; `Redacted` hides
invite codes (a private room's key) in the request lines uvicorn writes; and uvicorn and
websockets stay at info even with `RUMMY_LOG_LEVEL=debug`, since at debug websockets writes every
frame, the token of a socket's `auth` message included. docs/operations.md, "Logs".
"""

from __future__ import annotations

import logging
import re
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from pythonjsonlogger.core import RESERVED_ATTRS
from pythonjsonlogger.json import JsonFormatter

if TYPE_CHECKING:
    from app.services.records import RoomRecord
    from app.settings import Settings

# The request (or socket) a line is written for: set by `app.api.request_ids`.
REQUEST_ID: ContextVar[str | None] = ContextVar("request_id", default=None)
# The room a line is written for and the player it works for (None: the room's own move).
# The record, not its ids: a line reads the match the room is playing when it is written.
ROOM: ContextVar[tuple[RoomRecord, str | None] | None] = ContextVar("room", default=None)

TEXT_FORMAT = "%(levelprefix)s %(message)s"  # uvicorn's own
ACCESS_FORMAT = '%(levelprefix)s %(client_addr)s - "%(request_line)s" %(status_code)s'
# Read by uvicorn's text formatters only; `taskName` is a record attribute from Python 3.12.
NOT_FIELDS = (*RESERVED_ATTRS, "color_message", "taskName")
# uvicorn.access's arguments: client address, method, path and query, HTTP version, status.
ACCESS_FIELDS = ("client", "method", "path", "http_version", "status")

REDACTED = "[redacted]"
_INVITE_PATH = re.compile(r"(/api/invites/)[^/?#\s\"]+")
_SECRET_QUERY = re.compile(r"([?&](?:invite|token|access_token|password|secret|key)=)[^&#\s\"]*",
                           re.IGNORECASE)


def redact(text: str) -> str:
    """``text`` with an invite code in a path, and the values of query parameters that carry
    invites, tokens, passwords or keys, replaced by ``[redacted]``."""
    if "/api/invites/" in text:
        text = _INVITE_PATH.sub(rf"\g<1>{REDACTED}", text)
    if "=" in text:
        text = _SECRET_QUERY.sub(rf"\g<1>{REDACTED}", text)
    return text


class Redacted(logging.Filter):
    """Redacts (`redact`) the text arguments of a line: the paths uvicorn's request lines
    print. The server's own messages never hold a secret to begin with."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple) and record.args:
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
        return True


class Where(logging.Filter):
    """Adds `request_id`, `room`, `match` and `player` to a line, each only when it is set."""

    def filter(self, record: logging.LogRecord) -> bool:
        request_id = REQUEST_ID.get()
        if request_id is not None:
            record.request_id = request_id
        where = ROOM.get()
        if where is not None:
            room, player = where
            record.room = room.id
            if room.match_id is not None:
                record.match = room.match_id
            if player is not None:
                record.player = player
        return True


class JsonLines(JsonFormatter):
    """One JSON object a line: `time` (ISO 8601, UTC, milliseconds), `level` (as
    RUMMY_LOG_LEVEL names it), `logger`, `message`, then what `Where` added, an access line's
    `client`, `method`, `path`, `http_version` and `status`, and a traceback as `exception`
    (escaped: still one line)."""

    def __init__(self) -> None:
        super().__init__(reserved_attrs=NOT_FIELDS,
                         rename_fields={"exc_info": "exception", "stack_info": "stack"})

    def add_fields(self, log_data: dict[str, Any], record: logging.LogRecord,
                   message_dict: dict[str, Any]) -> None:
        log_data["time"] = _iso_time(record.created)
        log_data["level"] = record.levelname.lower()
        log_data["logger"] = record.name
        log_data["message"] = record.message
        super().add_fields(log_data, record, message_dict)
        if (record.name == "uvicorn.access" and isinstance(record.args, tuple)
                and len(record.args) == len(ACCESS_FIELDS)):
            log_data.update(zip(ACCESS_FIELDS, record.args, strict=True))


def _iso_time(created: float) -> str:
    stamp = datetime.fromtimestamp(created, UTC).isoformat(timespec="milliseconds")
    return stamp.replace("+00:00", "Z")


def configuration(settings: Settings) -> dict[str, Any]:
    """The `dictConfig` of the whole process for `settings.log_format` and `log_level`. The
    level is the server's own loggers'; the others (uvicorn, websockets, the database
    drivers) stay at info or above, never at debug (see the module's docstring)."""
    level = settings.log_level.upper()
    others = level if logging.getLevelName(level) >= logging.INFO else "INFO"
    if settings.log_format == "json":
        formatters: dict[str, Any] = {"default": {"()": JsonLines}, "access": {"()": JsonLines}}
    else:
        formatters = {
            "default": {"()": "uvicorn.logging.DefaultFormatter", "fmt": TEXT_FORMAT},
            "access": {"()": "uvicorn.logging.AccessFormatter", "fmt": ACCESS_FORMAT},
        }
    handler = {"class": "logging.StreamHandler", "filters": ["where", "redacted"]}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": formatters,
        "filters": {"where": {"()": Where}, "redacted": {"()": Redacted}},
        "handlers": {
            "default": {**handler, "formatter": "default", "stream": "ext://sys.stderr"},
            "access": {**handler, "formatter": "access", "stream": "ext://sys.stdout"},
        },
        "root": {"handlers": ["default"], "level": others},
        "loggers": {
            "app": {"level": level},
            "uvicorn": {"handlers": ["default"], "level": others, "propagate": False},
            "uvicorn.error": {"level": others},
            "uvicorn.access": {"handlers": ["access"], "level": others, "propagate": False},
            # Each start's migrations say which plugins and dialect they use: only problems.
            "alembic": {"level": "WARNING" if others == "INFO" else others},
        },
    }
