"""Storage faults that are not an outage of the whole database (docs/operations.md, "Storage
faults"), against a real server process on a PostgreSQL cluster of the test's own with nine
connection slots:

- PostgreSQL out of connection slots (`TooManyConnectionsError`), the server's pooled
  connections dropped (`pg_terminate_backend`): every call that needs the database and fails is
  a 503 ``storage_unavailable`` with ``Retry-After`` (no 500), counted in
  ``rummy_errors_total``; a socket that cannot authenticate is told so and closed with 1013;
  ``/api/ready`` is 503 meanwhile, and everything answers again once the slots are free.
- The process's own pool used up (``RUMMY_DATABASE_POOL_SIZE=1``, no overflow): a call that
  waits longer than ``RUMMY_DATABASE_POOL_TIMEOUT`` for a connection is a 503 too.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import asyncpg
import httpx
import pytest

from tests.api.client import Player, WsClient, call, guest, http_client
from tests.api.procs import ServerProcess
from tests.api.test_operations import moved, scrape
from tests.pg import CONNECT_TIMEOUT
from tests.pgcluster import PrivateCluster, private_cluster
from tests.waits import DEADLINE, eventually

pytestmark = pytest.mark.postgres

SLOTS = "9"  # 6 for ordinary roles, 3 more for superusers (everyone here is one)
CALLS = 40
# The server's share of the slots: a pool of 3 plus 1 of overflow, and the match log's 2.
SMALL_POOL = {"RUMMY_DATABASE_POOL_SIZE": "3", "RUMMY_DATABASE_POOL_OVERFLOW": "1"}
ONE_CONNECTION = {"RUMMY_DATABASE_POOL_SIZE": "1", "RUMMY_DATABASE_POOL_OVERFLOW": "0",
                  "RUMMY_DATABASE_POOL_TIMEOUT": "1"}


@pytest.fixture(scope="module")
def cluster() -> Iterator[PrivateCluster]:
    with private_cluster(max_connections=SLOTS) as cluster:
        yield cluster


@pytest.fixture
def proc(cluster: PrivateCluster, tmp_path: Path) -> Iterator[ServerProcess]:
    server = ServerProcess(tmp_path, cluster.url("postgres"))
    yield server
    server.stop()
    assert "Exception in ASGI application" not in server.log_text()


async def _connect(cluster: PrivateCluster) -> asyncpg.Connection:
    return await asyncpg.connect(host="127.0.0.1", port=cluster.port, user="postgres",
                                 database="postgres", timeout=CONNECT_TIMEOUT)


@contextlib.asynccontextmanager
async def _every_slot_held(cluster: PrivateCluster) -> AsyncIterator[None]:
    """Hold every connection slot of the cluster, the server's own connections cut off (so
    that every call must connect again and cannot); released on leaving."""
    held = [await _connect(cluster)]
    try:
        deadline = time.monotonic() + DEADLINE
        while True:
            with contextlib.suppress(asyncpg.TooManyConnectionsError):
                while True:
                    held.append(await _connect(cluster))
            if not await _others(held):
                break
            assert time.monotonic() < deadline, "the server's connections were not cut off"
        yield
    finally:
        for connection in held:
            await connection.close()


async def _others(held: list[asyncpg.Connection]) -> int:
    """Cut off every client connection that is not one of `held`; how many there were."""
    pids = [connection.get_server_pid() for connection in held]
    return len(await held[0].fetch(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
        "WHERE backend_type = 'client backend' AND pid <> ALL($1::int[])", pids))


def _check_refused(answers: list[httpx.Response]) -> int:
    """Every answer a 200 or a 503 `storage_unavailable` with Retry-After; how many 503s."""
    refused = 0
    for answer in answers:
        assert answer.status_code in (200, 503), (answer.status_code, answer.text)
        if answer.status_code == 503:
            refused += 1
            assert answer.json()["detail"]["code"] == "storage_unavailable", answer.text
            assert int(answer.headers["Retry-After"]) > 0
    return refused


async def _not_ready(http: httpx.AsyncClient) -> dict[str, Any]:
    answer = await http.get("/api/ready")
    assert answer.status_code == 503, answer.text
    detail: dict[str, Any] = answer.json()["detail"]
    assert detail["code"] == "not_ready"
    return detail


async def _recovered(http: httpx.AsyncClient, player: Player) -> None:
    """Ready again within a bounded wait, then every one of a burst of calls answers."""
    async def ready() -> bool:
        return (await http.get("/api/ready")).status_code == 200

    await eventually(ready, "/api/ready says 200 again")
    answers = await asyncio.gather(*(http.get("/api/me", headers=player.headers)
                                     for _ in range(CALLS // 2)))
    assert [a.status_code for a in answers] == [200] * len(answers)


async def test_out_of_connection_slots_answers_503_and_recovers(
        cluster: PrivateCluster, proc: ServerProcess) -> None:
    proc.start(**SMALL_POOL)
    async with http_client(proc.base_url) as http:
        player = await guest(http, "Patient")
        room = await call(http, "POST", "/api/rooms", player, {"game": "standard", "seats": 2})
        before = await scrape(http)
        async with _every_slot_held(cluster):
            answers = await asyncio.gather(*(http.get("/api/me", headers=player.headers)
                                             for _ in range(CALLS)))
            refused = _check_refused(answers)
            assert refused == CALLS  # no connection to be had: each call needs a new one
            detail = await _not_ready(http)
            assert any("TooManyConnectionsError" in reason for reason in detail["reasons"])

            late = await WsClient.open(proc.base_url, room["id"])
            await late.send({"type": "auth", "token": player.token})
            told = await late.wait_for(lambda m: m["type"] == "error")
            assert told["code"] == "storage_unavailable"
            assert (await late.wait_closed())[0] == 1013

            after = await scrape(http)
        assert moved(before, after, "rummy_errors_total", code="storage_unavailable") \
            == refused + 1  # and the socket's
        assert moved(before, after, "rummy_errors_total", code="internal_error") == 0
        await _recovered(http, player)


async def test_a_used_up_pool_answers_503_and_recovers(
        cluster: PrivateCluster, proc: ServerProcess) -> None:
    proc.start(**ONE_CONNECTION)
    async with http_client(proc.base_url) as http:
        player = await guest(http, "Queued")
        locker = await _connect(cluster)
        try:
            # The one pooled connection is held by a call that waits for the lock on accounts.
            lock = locker.transaction()
            await lock.start()
            await locker.execute("LOCK TABLE accounts IN ACCESS EXCLUSIVE MODE")
            stuck = asyncio.create_task(http.get("/api/me", headers=player.headers))
            await eventually(lambda: _waiting_for_lock(locker), "a call waits for the lock")
            answers = await asyncio.gather(*(http.get("/api/me", headers=player.headers)
                                             for _ in range(CALLS // 2)))
            assert _check_refused(answers) == len(answers)
            detail = await _not_ready(http)
            assert any("TimeoutError" in reason for reason in detail["reasons"])
            await lock.rollback()
            assert (await stuck).status_code == 200
        finally:
            await locker.close()
        await _recovered(http, player)


async def _waiting_for_lock(connection: asyncpg.Connection) -> bool:
    waiting = await connection.fetchval(
        "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'")
    return bool(waiting)
