"""The messages between processes, a closed set of typed values with one parse and one write.

Each names its kind in ``k``. ``link`` is a relayed socket's id at its process, ``origin`` the
process that sent the message (where the answer goes), ``query`` a room call's id,
``request_id`` the id of the request or socket it serves (`app.api.request_ids`), which the
owner's log lines for it carry. What a socket's process and a room's owner say to each other is
told in `app.cluster.relay`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

import orjson
from pydantic import Field, TypeAdapter

from app.rooms.commands import Caller, Command


@dataclass(frozen=True)
class Open:
    """To the owner: attach this socket to the room."""

    link: str
    origin: str
    room: str
    player: str
    name: str
    invite: str | None = None
    request_id: str | None = None
    k: Literal["open"] = "open"


@dataclass(frozen=True)
class In:
    """To the owner: one message from the socket, as it came."""

    link: str
    origin: str
    text: str
    k: Literal["in"] = "in"


@dataclass(frozen=True)
class Bye:
    """To the owner: the socket is gone (or attaches elsewhere)."""

    link: str
    origin: str
    k: Literal["bye"] = "bye"


@dataclass(frozen=True)
class Out:
    """To the socket's process: text for the socket."""

    link: str
    origin: str
    text: str
    k: Literal["out"] = "out"


@dataclass(frozen=True)
class Moved:
    """To the socket's process: the room is not (or no longer) here; find its owner again."""

    link: str
    k: Literal["moved"] = "moved"


@dataclass(frozen=True)
class Gone:
    """To the socket's process: no such room for this socket; close it with this refusal."""

    link: str
    code: str
    message: str
    k: Literal["gone"] = "gone"


@dataclass(frozen=True)
class Call:
    """To the owner: run this command on the room."""

    query: str
    origin: str
    room: str
    caller: Caller
    command: Command
    request_id: str | None = None
    k: Literal["call"] = "call"


@dataclass(frozen=True)
class Refusal:
    """A room's or a service's refusal, whole: its code, message and fields."""

    code: str
    message: str
    fields: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Ret:
    """To the caller: a call's answer (``value``), its refusal, or that the room moved."""

    query: str
    value: dict[str, Any] | None = None
    refusal: Refusal | None = None
    moved: bool = False
    k: Literal["ret"] = "ret"


@dataclass(frozen=True)
class Logout:
    """To every process: close the sockets of this revoked token."""

    token_hash: str
    k: Literal["logout"] = "logout"


@dataclass(frozen=True)
class Suspend:
    """To every process: close the sockets of this player, just suspended (PROTOCOL.md §9)."""

    player: str
    k: Literal["suspend"] = "suspend"


@dataclass(frozen=True)
class Tournament:
    """To every process: something of this tournament was committed (it filled, a table's
    result): its driver, wherever it is, opens what is due."""

    tournament: str
    origin: str
    k: Literal["tournament"] = "tournament"


Message = Open | In | Bye | Out | Moved | Gone | Call | Ret | Logout | Suspend | Tournament
_MESSAGE: TypeAdapter[Message] = TypeAdapter(Annotated[Message, Field(discriminator="k")])


def parse(data: bytes | str) -> Message:
    """The message in ``data``; raises ``pydantic.ValidationError`` if it is none of them."""
    return _MESSAGE.validate_json(data)


def write(message: Message) -> bytes:
    return orjson.dumps(message)
