"""The socket tier against a hostile player (docs/security.md): a foreign `Origin` is refused
before the handshake completes, an account holds at most `RUMMY_MAX_SOCKETS_PER_PLAYER`
sockets (the oldest is told and closed, 4429), and `POST /api/auth/logout` closes the sockets
of that token at once (4401) while the account's other tokens keep theirs."""

from __future__ import annotations

import asyncio

import httpx
import orjson
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from tests.api.client import TIMEOUT, Player, WsClient, call, guest, login, ws_url
from tests.api.halls import Hall, hall_fixture

ALLOWED = "https://cards.example"


server = hall_fixture("sockets", {"RUMMY_MAX_SOCKETS_PER_PLAYER": "2",
                                   "RUMMY_ALLOWED_ORIGINS": f'["{ALLOWED}"]'})


async def _room(http: httpx.AsyncClient, host: Player) -> str:
    room = await call(http, "POST", "/api/rooms", host, {"game": "standard", "seats": 2})
    return str(room["id"])


async def _alive(client: WsClient) -> None:
    start = len(client.messages)
    await client.send({"type": "ping"})
    await client.wait_for(lambda m: m["type"] == "pong", start)


async def _refused_close(client: WsClient, code: str, close_code: int) -> None:
    error = await client.wait_for(lambda m: m["type"] == "error")
    assert error["code"] == code and error["message"], error
    assert (await client.wait_closed())[0] == close_code


@pytest.mark.parametrize("origin", ["https://evil.example", "null", "http://127.0.0.1:1"])
async def test_a_foreign_origin_is_refused(server: Hall, http: httpx.AsyncClient,
                                          origin: str) -> None:
    room_id = await _room(http, await guest(http, "Victim"))
    with pytest.raises(InvalidStatus) as refused:
        async with connect(ws_url(server.base_url, room_id), origin=origin,
                           proxy=None, open_timeout=10):
            pass
    assert refused.value.response.status_code == 403


async def test_own_allowed_and_absent_origins_are_accepted(server: Hall,
                                                           http: httpx.AsyncClient) -> None:
    host = await guest(http, "Host")
    room_id = await _room(http, host)
    for origin in (server.base_url, ALLOWED, ALLOWED.upper(), None):
        async with connect(ws_url(server.base_url, room_id), origin=origin,
                           proxy=None, open_timeout=10) as ws:
            await ws.send(orjson.dumps({"type": "auth", "token": host.token}).decode())
            assert orjson.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))["type"] == "state"


async def test_the_oldest_socket_beyond_the_cap_is_closed(server: Hall,
                                                          http: httpx.AsyncClient) -> None:
    player = await guest(http, "Many Tabs")
    rooms = [await _room(http, player) for _ in range(2)]
    first = await WsClient.join(server.base_url, rooms[0], player)
    second = await WsClient.join(server.base_url, rooms[1], player)
    third = await WsClient.join(server.base_url, rooms[0], player)  # over the cap of 2
    await _refused_close(first, "too_many_sockets", 4429)
    for client in (second, third):
        await _alive(client)
        assert not client.is_closed
    other = await WsClient.join(server.base_url, rooms[0], await guest(http, "Other"))
    await _alive(other)  # the cap is per account
    for client in (second, third, other):
        await client.close()


async def test_logout_revokes_the_token_at_once(server: Hall, http: httpx.AsyncClient) -> None:
    registered = await call(http, "POST", "/api/auth/register",
                            body={"username": "leaver", "password": "a long passphrase"})
    phone = Player(registered["player"]["id"], "Leaver", registered["token"])
    laptop = await login(http, "leaver", "a long passphrase")
    room_id = await _room(http, phone)
    on_phone = await WsClient.join(server.base_url, room_id, phone)
    on_laptop = await WsClient.join(server.base_url, room_id, laptop)

    answer = await call(http, "POST", "/api/auth/logout", phone)
    assert answer == {"logged_out": True, "sockets_closed": 1}
    await _refused_close(on_phone, "logged_out", 4401)
    assert (await http.get("/api/me", headers=phone.headers)).status_code == 401
    again = await WsClient.open(server.base_url, room_id)
    await again.send({"type": "auth", "token": phone.token})
    await _refused_close(again, "auth_failed", 4401)
    assert (await http.post("/api/auth/logout", headers=phone.headers)).status_code == 401

    await _alive(on_laptop)  # the account's other token is untouched
    assert (await call(http, "GET", "/api/me", laptop))["id"] == phone.id
    await on_laptop.close()
