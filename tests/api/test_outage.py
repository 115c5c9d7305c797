"""A database outage against a real server (docs/security.md): the test's own PostgreSQL
cluster is stopped under a running match. HTTP answers a JSON 503 ``storage_unavailable``
within seconds, a websocket that cannot authenticate is told before it is closed, a chat line or
an action that cannot be stored is refused on a socket that lives on; nothing crashes, and
everything works again once the database is back."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.api.client import Player, WsClient, call, guest, http_client
from tests.api.procs import ServerProcess, admin_token
from tests.cluster.conftest import PrivateRedis
from tests.pgcluster import private_cluster

OUTAGE_ANSWER_SECONDS = 15.0  # each refused request; the connect timeout is 5 s



async def _unavailable(http: httpx.AsyncClient, method: str, path: str,
                       player: Player | None = None, body: Any = None) -> None:
    started = time.monotonic()
    answer = await http.request(method, path, json=body,
                                headers=player.headers if player else {})
    assert time.monotonic() - started < OUTAGE_ANSWER_SECONDS, f"{path} hung"
    assert answer.status_code == 503, (path, answer.status_code, answer.text)
    assert answer.headers["content-type"] == "application/json"
    assert answer.json()["detail"]["code"] == "storage_unavailable"
    assert int(answer.headers["Retry-After"]) > 0


async def _reply(client: WsClient, message: dict[str, Any]) -> dict[str, Any]:
    start = len(client.messages)
    await client.send(message)
    return await client.wait_for(lambda m: m["type"] in ("error", "chat", "pong"), start)


@pytest.mark.postgres
async def test_a_database_outage_answers_and_crashes_nothing(tmp_path: Path) -> None:
    with private_cluster() as cluster:
        proc = ServerProcess(tmp_path, cluster.create_database("rummy"))
        try:
            proc.start()
            async with http_client(proc.base_url) as http:
                await _outage(proc, http, cluster)
        finally:
            proc.stop()
    assert "Exception in ASGI application" not in proc.log_text()


async def _outage(proc: ServerProcess, http: httpx.AsyncClient, cluster: Any) -> None:
    admin = Player("admin", "admin", await admin_token(proc, http))
    host, other = await guest(http, "Host"), await guest(http, "Other")
    room = await call(http, "POST", "/api/rooms", host, {"game": "standard", "seats": 2})
    await call(http, "POST", f"/api/rooms/{room['id']}/join", other)
    seats = [await WsClient.join(proc.base_url, room["id"], p) for p in (host, other)]
    await call(http, "POST", f"/api/rooms/{room['id']}/start", host)
    mover = seats[1]  # dealer 0: seat 1 plays first
    before = await mover.wait_state(lambda view: view["turn"] == 1)

    cluster.stop("immediate")
    await _unavailable(http, "GET", "/api/me", host)
    await _unavailable(http, "POST", "/api/auth/guest", body={"name": "Newcomer"})
    await _unavailable(http, "POST", "/api/auth/login",
                       body={"username": "chief", "password": "correct horse battery"})
    await _unavailable(http, "GET", "/api/admin/matches", admin)
    assert (await call(http, "GET", "/api/rooms"))["rooms"] is not None  # memory: still served

    late = await WsClient.open(proc.base_url, room["id"])
    await late.send({"type": "auth", "token": host.token})
    refused = await late.wait_for(lambda m: m["type"] == "error")
    assert refused["code"] == "storage_unavailable" and refused["message"]
    assert (await late.wait_closed())[0] == 1013

    said = await _reply(seats[0], {"type": "chat", "text": "anyone there?"})
    assert said["type"] == "error" and said["code"] == "storage_unavailable"
    refused = await mover.act({"type": "draw", "source": "stock"})
    assert refused["type"] == "error" and refused["code"] == "storage_unavailable"
    for client in seats:
        assert (await _reply(client, {"type": "ping"}))["type"] == "pong"
        assert not client.is_closed

    cluster.start()
    assert (await call(http, "GET", "/api/me", host))["id"] == host.id
    line = await _reply(seats[0], {"type": "chat", "text": "back again"})
    assert line == {"type": "chat", "seat": 0, "name": "Host", "text": "back again"}
    ack = await mover.ack({"type": "draw", "source": "stock"})
    assert ack["seq"] == before["seq"] + 1  # the refused draw changed nothing
    for client in seats:
        await client.close()


async def test_an_unreachable_redis_answers_503_where_throttles_are_needed(
        tmp_path: Path) -> None:
    """The throttles live in Redis when it is configured: when it goes away after start-up (an
    unreachable one refuses the start, tests/api/test_settings.py), the routes they guard
    refuse with 503 rather than go unguarded; the rest of the server works."""
    redis_server = PrivateRedis(tmp_path)
    redis_server.start()
    proc = ServerProcess(tmp_path, f"sqlite+aiosqlite:///{tmp_path / 'rummy.db'}",
                         env={"RUMMY_REDIS_URL": redis_server.url})
    try:
        proc.start()
        redis_server.stop()
        async with http_client(proc.base_url) as http:
            await _unavailable(http, "POST", "/api/auth/guest", body={"name": "Newcomer"})
            await _unavailable(http, "POST", "/api/auth/register",
                               body={"username": "newcomer", "password": "a long passphrase"})
            assert (await call(http, "GET", "/api/games"))["games"]
    finally:
        proc.stop()
        redis_server.stop()
    assert "Exception in ASGI application" not in proc.log_text()
