"""Private rooms and spectators over real websockets (docs/security.md): a private room is seen
only with a seat or its invite code, and otherwise looks like no room at all; spectators read
the table without any hand; chat is for seated players unless the host allowed spectators."""

from __future__ import annotations

from typing import Any

import httpx

from tests.api.client import Player, WsClient, call, guest
from tests.api.halls import Hall, hall_fixture

server = hall_fixture("private_rooms")


async def _started_room(http: httpx.AsyncClient, host: Player, **settings: Any
                        ) -> dict[str, Any]:
    """A two-seat room of `host` and a computer player, the first hand dealt."""
    room = await call(http, "POST", "/api/rooms", host,
                      {"game": "standard", "seats": 2, **settings})
    await call(http, "POST", f"/api/rooms/{room['id']}/bots", host, {"count": 1})
    await call(http, "POST", f"/api/rooms/{room['id']}/start", host)
    return dict(room)


async def _auth(server: Hall, room_id: str, player: Player, **extra: Any) -> WsClient:
    client = await WsClient.open(server.base_url, room_id, player.name)
    await client.send({"type": "auth", "token": player.token, **extra})
    await client.wait_for(lambda m: m["type"] in ("state", "error"))
    return client


async def _no_such_room(client: WsClient) -> dict[str, Any]:
    error = client.messages[0]
    assert error["type"] == "error" and error["code"] == "no_such_room", error
    assert (await client.wait_closed())[0] == 4404
    return error


async def test_a_private_room_is_seen_only_with_a_seat_or_its_code(
        server: Hall, http: httpx.AsyncClient) -> None:
    host, stranger = await guest(http, "Host"), await guest(http, "Stranger")
    room = await _started_room(http, host, private=True)
    code = room["invite_code"]

    unknown = await _no_such_room(await _auth(server, "no-such-id", stranger))
    for extra in ({}, {"invite": "guess"}, {"invite": code.upper() + "x"}):
        refused = await _no_such_room(await _auth(server, room["id"], stranger, **extra))
        # Refused and unknown rooms answer alike but for the id they name.
        assert refused["message"].replace(room["id"], "ID") == \
            unknown["message"].replace("no-such-id", "ID")

    watcher = await _auth(server, room["id"], stranger, invite=code)
    state = watcher.messages[0]
    assert state["type"] == "state" and state["view"]["seat"] is None
    assert state["view"]["hand"] == [] and state["view"]["legal"] == []
    assert "invite_code" not in state["room"]
    member = await _auth(server, room["id"], host)  # a seat needs no code
    assert member.messages[0]["view"]["seat"] == 0 and len(member.messages[0]["view"]["hand"])
    refused = await watcher.act({"type": "draw", "source": "stock"})
    assert refused["code"] == "not_seated"
    bad = await WsClient.open(server.base_url, room["id"])
    await bad.send({"type": "auth", "token": stranger.token, "invite": 7})
    assert (await bad.wait_for(lambda m: m["type"] == "error"))["code"] == "bad_message"
    for client in (watcher, member, bad):
        await client.close()


async def test_chat_is_for_seated_players_unless_the_host_allows_spectators(
        server: Hall, http: httpx.AsyncClient) -> None:
    host, onlooker = await guest(http, "Host"), await guest(http, "Onlooker")
    quiet = await _started_room(http, host)
    seated = await _auth(server, quiet["id"], host)
    watcher = await _auth(server, quiet["id"], onlooker)

    start = [len(seated.messages), len(watcher.messages)]
    await watcher.send({"type": "chat", "text": "psst"})
    refused = await watcher.wait_for(lambda m: m["type"] == "error", start[1])
    assert refused["code"] == "spectators_cannot_chat" and "host" in refused["message"]
    await seated.send({"type": "chat", "text": "welcome"})
    line = {"type": "chat", "seat": 0, "name": "Host", "text": "welcome"}
    for client, at in zip((seated, watcher), start, strict=True):
        await client.wait_for(lambda m: m == line, at)
        assert [m for m in client.messages[at:] if m["type"] == "chat"] == [line]
    admin = Player("admin", "admin", server.admin_token)
    match = (await call(http, "GET", f"/api/rooms/{quiet['id']}", host))["match_id"]
    log = await call(http, "GET", f"/api/admin/matches/{match}", admin)
    assert [c["text"] for c in log["chat"]] == ["welcome"]  # the refused line was not stored

    chatty = await _started_room(http, host, spectator_chat=True)
    assert chatty["spectator_chat"] is True
    fan = await _auth(server, chatty["id"], onlooker)
    at = len(fan.messages)
    await fan.send({"type": "chat", "text": "go go go"})
    assert (await fan.wait_for(lambda m: m["type"] in ("chat", "error"), at)) == {
        "type": "chat", "seat": None, "name": "Onlooker", "text": "go go go"}
    for client in (seated, watcher, fan):
        await client.close()
