"""The messages between processes: each comes back from its one write and one parse as it was,
a command inside a call keeps its type, and a refusal keeps its code, message and fields."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, cast

import pydantic
import pytest

from app.cluster import wire
from app.cluster.relay import Relay
from app.rooms.commands import AddBots, Caller, Info, NextTable, Offer, Present, SeatTable
from app.rooms.store import Arrival

CALLER = Caller("p1", "Ann")
MESSAGES: list[wire.Message] = [
    wire.Open("l1", "node-a", "r1", "p1", "Ann", invite="ABC123"),
    wire.Open("l1", "node-a", "r1", "p1", "Ann", request_id="trace-7:abc.DEF_1"),
    wire.In("l1", "node-a", '{"type":"action","id":7,"action":{"type":"draw_stock"}}'),
    wire.Bye("l1", "node-a"),
    wire.Out("l1", "node-b", '{"type":"ack","id":7,"seq":3}'),
    wire.Moved("l1"),
    wire.Gone("l1", "no_such_room", "no room 'r1'"),
    wire.Call("q1", "node-a", "r1", CALLER, AddBots(2, "hard")),
    wire.Call("q2", "node-a", "r1", CALLER, Offer("r2", "XYZ789")),
    wire.Call("q3", "node-a", "r1", CALLER, Info()),
    wire.Call("q4", "node-a", "r1", CALLER, SeatTable([("p1", "Ann"), ("p2", "Bob")],
                                                      Arrival("cd" * 16, 1_790_000_000.25))),
    wire.Call("q5", "node-a", "r1", CALLER, NextTable("cd" * 16, "r2", "p1")),
    wire.Call("q6", "node-a", "r1", CALLER, Present()),
    wire.Call("q7", "node-a", "r1", CALLER, Info(), request_id="0123abcd" * 4),
    wire.Ret("q1", value={"seats": [1, 2], "room": {"id": "r1"}}),
    wire.Ret("q1", moved=True),
    wire.Logout("ab" * 32),
    wire.Suspend("ef" * 16),
    wire.Tournament("cd" * 16, "node-a"),
]


@pytest.mark.parametrize("message", MESSAGES, ids=lambda m: type(m).__name__)
def test_a_message_round_trips(message: wire.Message) -> None:
    assert wire.parse(wire.write(message)) == message


def test_a_refusal_travels_whole() -> None:
    refusal = wire.Refusal("options_conflict", "those options do not go together",
                           {"options": ["declare", "knock"]})
    back = wire.parse(wire.write(wire.Ret("q1", refusal=refusal)))
    assert isinstance(back, wire.Ret)
    assert back.refusal == refusal


def test_anything_else_is_refused() -> None:
    for data in (b'{"k":"nope"}', b'{"k":"in","link":"l1"}', b"[]", b"not json"):
        with pytest.raises(pydantic.ValidationError):
            wire.parse(data)


def test_a_tournament_told_by_another_process_reaches_the_director() -> None:
    """`wire.Tournament` goes to every process, the sender too: only the others' advance."""
    node = SimpleNamespace(id="node-a", receive=None, reconnected=None)
    relay = Relay(cast(Any, SimpleNamespace(node=node)), cast(Any, None))
    told: list[str] = []
    relay.tournament_moved = told.append
    node.receive(wire.parse(wire.write(wire.Tournament("t1", "node-b"))))
    node.receive(wire.Tournament("t2", "node-a"))  # its own broadcast, heard back
    assert told == ["t1"]
