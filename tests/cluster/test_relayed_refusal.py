"""A refusal of a room call run at another process reaches the caller whole: code, message and
fields, through the JSON the processes' inboxes carry."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import orjson
import pytest

from app.api.relay import Relay
from app.refusals import Code, Refusal


class LoopbackNode:
    """Both processes in one: what is sent to any process is handled here, as JSON."""

    id = "here"

    def __init__(self) -> None:
        self.handlers: dict[str, Callable[[dict[str, Any]], None]] = {}
        self.reconnected: Callable[[], None] | None = None

    def on(self, kind: str, handler: Callable[[dict[str, Any]], None]) -> None:
        self.handlers[kind] = handler

    def send(self, node_id: str, message: dict[str, Any]) -> None:
        decoded = orjson.loads(orjson.dumps(message))
        self.handlers[decoded["k"]](decoded)


class FarCluster:
    """A cluster whose room is always owned by the other process (the same one, here)."""

    def __init__(self) -> None:
        self.node = LoopbackNode()

    async def locate(self, room_id: str) -> str:
        return "there 1"

    async def ready(self, room_id: str) -> object:
        return object()

    async def publish(self, rooms: list[Any]) -> None:
        return None


async def _refuse(room: Any, player_id: str, name: str, args: dict[str, Any]) -> dict[str, Any]:
    raise Refusal(Code.CONFLICTING_OPTIONS, "these clash", {"options": ["a", "b"]})


async def test_a_relayed_refusal_keeps_its_code_message_and_fields() -> None:
    relay = Relay(FarCluster(), {"refuse": _refuse}, None)  # type: ignore[arg-type]
    with pytest.raises(Refusal) as refused:
        await relay.call("r1", "refuse", "p1", "Pat", {})
    assert refused.value.code is Code.CONFLICTING_OPTIONS
    assert (refused.value.message, refused.value.fields) == ("these clash", {"options": ["a", "b"]})
