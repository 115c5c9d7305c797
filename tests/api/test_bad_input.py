"""Bad input over the websocket is refused with a stable code and changes nothing: after each
refusal the room's state (what a fresh connection receives: view and seq), the match log (the
admin export) and the chip ledger (balances, transfers) are exactly as before.

One real server (SQLite) and one started two-player Standard Rummy room for the module.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest

from tests.api.client import (
    Player,
    WsClient,
    balance,
    call,
    fresh_state,
    http_client,
)
from tests.api.halls import Hall, hall
from tests.api.scenarios import stack
from tests.waits import DEADLINE, eventually

# Dealer 0, so seat 1 plays first. The scripts below only ever draw from the stock and discard the
# card just drawn, so each seat keeps these ten cards (no meld among them is ever laid).
DEAL = stack(hands=[["AC", "2C", "3C", "4D", "5D", "6D", "7H", "8H", "9H", "KS"],
                    ["AS", "2S", "3S", "4H", "5H", "6H", "7C", "8C", "9C", "KD"]],
             upcard=["QD"], stock_top=[])
NOT_A_MELD = [["AC", "4D", "KS"], ["AS", "4H", "KD"]]  # per seat: three cards of its own


@dataclass
class Table:
    hall: Hall
    room_id: str
    match_id: str
    players: list[Player]
    spectator: Player

    @property
    def admin(self) -> Player:
        return Player("admin", "admin", self.hall.admin_token)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hall]:
    with hall(tmp_path_factory.mktemp("bad_input")) as running:
        yield running


@pytest.fixture(scope="module")
def table(server: Hall) -> Table:
    with httpx.Client(base_url=server.base_url, trust_env=False, timeout=DEADLINE) as http:
        def post(path: str, token: str, body: Any = None) -> Any:
            answer = http.post(path, json=body, headers={"Authorization": f"Bearer {token}"})
            assert answer.status_code == 200, answer.text
            return answer.json()

        people = []
        for name in ("Host", "Guest", "Onlooker"):
            body = http.post("/api/auth/guest", json={"name": name}).json()
            people.append(Player(body["player"]["id"], name, body["token"]))
        room = post("/api/rooms", people[0].token, {  # stacked deals: free play only
            "game": "standard", "seats": 2, "deals": [DEAL], "spectator_chat": True})
        post(f"/api/rooms/{room['id']}/join", people[1].token)
        started = post(f"/api/rooms/{room['id']}/start", people[0].token)
    return Table(server, room["id"], started["match_id"], people[:2], people[2])


@pytest.fixture
async def seats(table: Table) -> AsyncIterator[list[WsClient]]:
    """A fresh connection for each seated player."""
    clients = [await WsClient.join(table.hall.base_url, table.room_id, p) for p in table.players]
    yield clients
    for client in clients:
        await client.close()


@pytest.fixture
async def http(table: Table) -> AsyncIterator[httpx.AsyncClient]:
    async with http_client(table.hall.base_url) as client:
        yield client


async def snapshot(table: Table, http: httpx.AsyncClient) -> dict[str, Any]:
    """Everything a refused message must leave as it was."""
    fresh = [await fresh_state(table.hall.base_url, table.room_id, p) for p in table.players]
    log = await call(http, "GET", f"/api/admin/matches/{table.match_id}", table.admin)
    return {
        "states": [(m["seq"], m["view"]) for m in fresh],
        "actions": sum(len(h["actions"]) for h in log["hands"]),
        "hands": log["hands"], "results": log["results"], "transfers": log["transfers"],
        "balances": [await balance(http, p) for p in table.players],
    }


def mover(seats: list[WsClient]) -> tuple[WsClient, WsClient]:
    """(the seat to act, the other one), from the latest state either received."""
    view = max((c.latest_state() for c in seats), key=lambda m: m["seq"])["view"]
    return seats[view["turn"]], seats[1 - view["turn"]]


async def in_play_phase(client: WsClient) -> dict[str, Any]:
    """Draw from the stock if this turn has not drawn yet; the view after."""
    view = client.latest_state()["view"]
    if view["phase"] == "draw":
        ack = await client.ack({"type": "draw", "source": "stock"})
        view = (await client.wait_for(lambda m: m["type"] == "state"
                                      and m["seq"] == ack["seq"]))["view"]
    return dict(view)


async def finish_turn(client: WsClient) -> None:
    """Discard the card just drawn (the hand is again the dealt ten)."""
    view = await in_play_phase(client)
    assert client.seat is not None
    drawn = next(c for c in view["hand"] if c not in DEAL["hands"][client.seat])
    await client.ack({"type": "discard", "card": drawn})


async def test_malformed_frames_are_refused_and_change_nothing(
        table: Table, seats: list[WsClient], http: httpx.AsyncClient) -> None:
    client, _ = mover(seats)
    cases: list[tuple[Any, str]] = [
        ("{not json", "malformed_json"),
        ('{"type": "dance"}', "unknown_type"),
        ("[1, 2]", "bad_message"),
        ('{"type": "action", "action": {"type": "draw", "source": "stock"}}', "bad_message"),
        ('{"type": "action", "id": true, "action": {"type": "draw", "source": "stock"}}',
         "bad_message"),
        ('{"type": "auth", "token": "again"}', "already_authenticated"),
        # (A message over 16 KiB closes the socket with 1009: tests/api/test_web_edge.py.)
    ]
    before = await snapshot(table, http)
    for raw, code in cases:
        error = await client.refused(raw)
        assert error["code"] == code, (raw[:80], error)
        assert error["message"]
        assert await snapshot(table, http) == before, raw[:80]
    assert not client.is_closed  # the connection survives bad input
    await client.send({"type": "ping"})
    await client.wait_for(lambda m: m["type"] == "pong")


async def test_out_of_turn_and_illegal_actions_change_nothing(
        table: Table, seats: list[WsClient], http: httpx.AsyncClient) -> None:
    client, other = mover(seats)
    assert client.seat is not None and other.seat is not None
    before = await snapshot(table, http)
    refused = await other.act({"type": "draw", "source": "stock"})
    assert refused["type"] == "error" and refused["code"] == "not_your_turn"
    assert await snapshot(table, http) == before

    spectator = await WsClient.join(table.hall.base_url, table.room_id, table.spectator)
    assert (await spectator.act({"type": "draw", "source": "stock"}))["code"] == "not_seated"
    await spectator.close()

    await in_play_phase(client)
    before = await snapshot(table, http)
    held_by_other = DEAL["hands"][other.seat][0]
    cases: list[tuple[Any, str]] = [
        ({"type": "discard", "card": held_by_other}, "card_not_in_hand"),
        ({"type": "meld", "melds": [NOT_A_MELD[client.seat]]}, "invalid_meld"),
        ({"type": "draw", "source": "stock"}, "already_drew"),
        ({"type": "fly"}, "unknown_action"),
        ({"type": "discard", "card": "ZZ"}, "bad_card"),
        ({"type": "discard", "card": "1H"}, "bad_card"),
        ({"type": "lay_off", "meld": 7, "cards": [DEAL["hands"][client.seat][0]]},
         "no_such_meld"),
        ("not an object", "malformed_action"),
    ]
    for action, code in cases:
        reply = await client.act(action)
        assert reply["type"] == "error" and reply["code"] == code, (action, reply)
        assert await snapshot(table, http) == before, action
    await finish_turn(client)


async def test_repeated_client_id_is_answered_identically_and_applied_once(
        table: Table, seats: list[WsClient], http: httpx.AsyncClient) -> None:
    client, _ = mover(seats)
    before = await snapshot(table, http)
    draw = {"type": "draw", "source": "stock"}
    first = await client.ack(draw, client_id="same-id")
    after_first = await snapshot(table, http)
    assert after_first["actions"] == before["actions"] + 1
    assert after_first["states"][0][0] == first["seq"] == before["states"][0][0] + 1

    # The same id again, even with another action, and twice at once: the first answer.
    assert await client.act(draw, client_id="same-id") == first
    assert await client.act({"type": "discard", "card": "KS"}, client_id="same-id") == first
    start = len(client.messages)
    await asyncio.gather(*(client.send({"type": "action", "id": "same-id", "action": draw})
                           for _ in range(2)))
    for _ in range(2):
        index, reply = await client.wait_index(lambda m: m.get("id") == "same-id", start)
        assert reply == first
        start = index + 1
    assert await snapshot(table, http) == after_first

    # A refused id is remembered too: the same refusal again, and still nothing changes.
    refused = await client.act({"type": "discard", "card": "ZZ"}, client_id=17)
    assert refused["code"] == "bad_card"
    assert await client.act({"type": "discard", "card": "ZZ"}, client_id=17) == refused
    assert await snapshot(table, http) == after_first
    await finish_turn(client)


async def test_flooding_is_rate_limited_and_changes_nothing(
        table: Table, seats: list[WsClient], http: httpx.AsyncClient) -> None:
    _, other = mover(seats)
    before = await snapshot(table, http)
    ids = [f"flood-{i}" for i in range(60)]
    start = len(other.messages)
    for client_id in ids:  # out of turn, faster than 20 a second beyond the burst of 40
        await other.send({"type": "action", "id": client_id,
                          "action": {"type": "draw", "source": "stock"}})
    codes = {}
    for client_id in ids:
        reply = await other.wait_for(lambda m, i=client_id: m.get("id") == i, start)
        codes[client_id] = reply["code"]
    assert set(codes.values()) == {"not_your_turn", "rate_limited"}
    assert codes["flood-0"] == "not_your_turn" and codes["flood-59"] == "rate_limited"
    assert await snapshot(table, http) == before
    async def judged() -> dict[str, Any] | None:  # once the bucket has refilled
        reply = await other.act({"type": "draw", "source": "stock"})
        return None if reply["code"] == "rate_limited" else reply

    refused = await eventually(judged, "the room judges actions again", interval=0.5)
    assert refused["code"] == "not_your_turn"


async def test_authentication_is_required_first(table: Table) -> None:
    base = table.hall.base_url
    bad = await WsClient.open(base, table.room_id)
    await bad.send({"type": "auth", "token": "not-a-token"})
    error = await bad.wait_for(lambda m: m["type"] == "error")
    assert error["code"] == "auth_failed"
    assert (await bad.wait_closed())[0] == 4401
    assert [m["type"] for m in bad.messages] == ["error"]  # no state before authenticating

    early = await WsClient.open(base, table.room_id)
    await early.send({"type": "action", "id": 1, "action": {"type": "draw", "source": "stock"}})
    assert (await early.wait_for(lambda m: m["type"] == "error"))["code"] == "auth_required"
    assert (await early.wait_closed())[0] == 4401

    silent = await WsClient.open(base, table.room_id)
    code, reason = await silent.wait_closed(timeout=15)  # PROTOCOL §5: within 10 seconds
    assert code == 4408 and reason
    assert silent.messages == []


async def test_unknown_room_is_refused(table: Table) -> None:
    client = await WsClient.open(table.hall.base_url, "no-such-room")
    await client.send({"type": "auth", "token": table.players[0].token})
    assert (await client.wait_for(lambda m: m["type"] == "error"))["code"] == "no_such_room"
    assert (await client.wait_closed())[0] == 4404


async def test_chat_reaches_every_member_and_the_match_log(
        table: Table, seats: list[WsClient], http: httpx.AsyncClient) -> None:
    spectator = await WsClient.join(table.hall.base_url, table.room_id, table.spectator)
    members = [*seats, spectator]
    before = await snapshot(table, http)
    too_long = await seats[0].refused({"type": "chat", "text": "z" * 501})
    assert too_long["code"] == "chat_too_long"
    assert (await seats[0].refused({"type": "chat", "text": "   "}))["code"] == "bad_message"
    assert await snapshot(table, http) == before

    text = "good luck, " + "a" * 480  # 491 characters: allowed
    sent = [len(m.messages) for m in members]
    expected = [{"type": "chat", "seat": 1, "name": "Guest", "text": text},
                {"type": "chat", "seat": None, "name": "Onlooker", "text": "just watching"}]
    for speaker, message in zip((seats[1], spectator), expected):
        await speaker.send({"type": "chat", "text": message["text"]})
        for member, start in zip(members, sent):
            assert await member.wait_for(lambda m, x=message: m == x, start) == message
    for member, start in zip(members, sent):
        chats = [m for m in member.messages[start:] if m["type"] == "chat"]
        assert chats == expected  # each once, nothing else said, exactly these fields
    log = await call(http, "GET", f"/api/admin/matches/{table.match_id}", table.admin)
    assert [(c["seat"], c["name"], c["text"]) for c in log["chat"]][-2:] == [
        (1, "Guest", text), (None, "Onlooker", "just watching")]
    assert (await snapshot(table, http))["states"] == before["states"]  # chat is no action
    await spectator.close()

