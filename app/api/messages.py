"""The websocket's closed set of inbound messages, parsed in one place (PROTOCOL.md §5): the
socket's own (``auth``, ``ping``) and the room's socket commands (`app.rooms.commands`).

Anything that is not exactly one of these becomes a `Refusal` naming the problem; nothing else
happens for it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import orjson

from app.refusals import Code, Refusal
from app.rooms.commands import Act, Chat, Designations, Seed

MAX_MESSAGE_BYTES = 16_384
MAX_CHAT = 500
MAX_CLIENT_ID = 100
MAX_INVITE = 64
MAX_GROUP = 13  # cards in one designations query: a run's most


@dataclass(frozen=True)
class Auth:
    token: str
    invite: str | None = None  # a private room's invite code, to watch it without a seat


@dataclass(frozen=True)
class Ping:
    pass


Inbound = Auth | Ping | Act | Chat | Seed | Designations


def parse(text: str | bytes) -> Inbound:
    size = len(text.encode()) if isinstance(text, str) else len(text)  # bytes, not characters
    if size > MAX_MESSAGE_BYTES:
        raise Refusal(Code.MESSAGE_TOO_LARGE, f"messages are limited to {MAX_MESSAGE_BYTES} bytes")
    try:
        data = orjson.loads(text)
    except orjson.JSONDecodeError:
        raise Refusal(Code.MALFORMED_JSON, "the message is not valid JSON") from None
    if not isinstance(data, dict):
        raise Refusal(Code.BAD_MESSAGE, "a message is a JSON object with a type")
    kind = data.get("type")
    if kind == "auth":
        return _auth(data)
    if kind == "action":
        return _action(data)
    if kind == "chat":
        text_ = data.get("text")
        if not isinstance(text_, str) or not text_.strip():
            raise Refusal(Code.BAD_MESSAGE, "chat needs a text")
        if len(text_) > MAX_CHAT:
            raise Refusal(Code.CHAT_TOO_LONG, f"chat messages are limited to {MAX_CHAT} characters")
        return Chat(text_)
    if kind == "seed":
        if "value" not in data:
            raise Refusal(Code.BAD_MESSAGE, "a seed message needs a value")
        return Seed(data["value"])
    if kind == "ping":
        return Ping()
    if kind == "designations":
        return _designations(data)
    raise Refusal(Code.UNKNOWN_TYPE, f"unknown message type: {kind!r}")


def _auth(data: dict[str, Any]) -> Auth:
    token = data.get("token")
    if not isinstance(token, str) or not token:
        raise Refusal(Code.BAD_MESSAGE, "auth needs a token")
    invite = data.get("invite")
    if invite is not None and not (isinstance(invite, str) and 0 < len(invite) <= MAX_INVITE):
        raise Refusal(Code.BAD_MESSAGE, f"an invite is a code of 1 to {MAX_INVITE} characters")
    return Auth(token, invite)


def _action(data: dict[str, Any]) -> Act:
    client_id = data.get("id")
    if not (isinstance(client_id, str) and 0 < len(client_id) <= MAX_CLIENT_ID) and not (
            isinstance(client_id, int) and not isinstance(client_id, bool)):
        raise Refusal(Code.BAD_MESSAGE, "an action needs an id (a string or an integer)")
    if "action" not in data:
        raise Refusal(Code.BAD_MESSAGE, "an action message needs an action", client_id=client_id)
    return Act(client_id, data["action"])


def _designations(data: dict[str, Any]) -> Designations:
    client_id = data.get("id")
    if client_id is not None and not (isinstance(client_id, str) and len(client_id) <= MAX_CLIENT_ID
                                      or isinstance(client_id, int)
                                      and not isinstance(client_id, bool)):
        raise Refusal(Code.BAD_MESSAGE, "an id is a string or an integer")
    cards, meld = data.get("cards"), data.get("meld")
    if not isinstance(cards, list) or not 1 <= len(cards) <= MAX_GROUP:
        raise Refusal(Code.BAD_MESSAGE, f"designations needs 1 to {MAX_GROUP} cards",
                      client_id=client_id)
    if meld is not None and (not isinstance(meld, int) or isinstance(meld, bool) or meld < 0):
        raise Refusal(Code.BAD_MESSAGE, "meld is the index of a meld on the table, or null",
                      client_id=client_id)
    return Designations(client_id, cards, meld)
