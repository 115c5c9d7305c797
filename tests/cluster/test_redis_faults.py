"""Redis as an operator meets it (issue 36, docs/scaling.md "Redis"): a restarted Redis is
used again at once, an inbox whose connection dropped is told so, and two deployments sharing
one Redis (each its own PostgreSQL database, default settings) keep to their own keys and
channels. All on a private redis-server."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from contextlib import ExitStack, asynccontextmanager
from pathlib import Path

import httpx
import redis
import redis.asyncio as aioredis

from app.settings import deployment_prefix
from tests.api.client import Player, call, guest, http_client
from tests.api.procs import ServerProcess, fresh_database
from tests.api.test_tournaments import FOUR
from tests.cluster.conftest import LEASE_SECONDS, Fleet, PrivateRedis
from tests.waits import eventually, wait_until


async def test_once_a_restarted_redis_is_ready_calls_succeed(
        fleet: Fleet, private_redis: PrivateRedis) -> None:
    # The default lease (5 s), not the cluster tests' 1.5 s: at a load of 14 the event loop
    # of a process making 30 rooms at once stalled past 1.2 s, a new room's lease lapsed here
    # before its first write, and that write was refused as it should be (NotOwner, 503) - a
    # paused process stops on its own; this test is about the connections Redis dropped.
    (proc,) = fleet(1, RUMMY_REDIS_URL=private_redis.url, RUMMY_LEASE_SECONDS="5")
    async with http_client(proc.base_url) as http:
        # Many pooled connections in use at once, so that the pool holds many when Redis goes.
        answers = await asyncio.gather(*(_guest_and_room(http, i) for i in range(30)))
        assert all(pair == (200, 200) for pair in answers), answers
        private_redis.stop()
        await eventually(lambda: _ready_is(http, 503), "/api/ready says 503 without Redis")
        private_redis.start()  # the same port, and no keys: a restart
        await eventually(lambda: _ready_is(http, 200), "/api/ready says 200 again")
        answers = await asyncio.gather(*(_guest_and_room(http, i) for i in range(30)))
    failed = [pair for pair in answers if pair != (200, 200)]
    assert len(failed) <= 1, answers


def test_an_inbox_connected_again_at_once_is_told(fleet: Fleet,
                                                  private_redis: PrivateRedis) -> None:
    """Its connection dropped, the inbox is connected and subscribed again by the retry at once,
    without an error reaching the process: it is told all the same, since messages may have
    been lost (relayed sockets then re-attach, docs/scaling.md "Inboxes")."""
    (proc,) = fleet(1, RUMMY_REDIS_URL=private_redis.url)
    client = redis.Redis.from_url(private_redis.url)
    try:
        assert client.client_kill_filter(_type="pubsub") == 1
    finally:
        client.close()
    wait_until(lambda: "cluster inbox: connected to Redis again" in proc.log_text(),
               "the inbox told that it was connected again")
    assert "subscribing again" not in proc.log_text()  # the retry did it, not the process


async def _ready_is(http: httpx.AsyncClient, status: int) -> bool:
    return (await http.get("/api/ready")).status_code == status


async def _guest_and_room(http: httpx.AsyncClient, i: int) -> tuple[int, int]:
    """A guest (a throttle in Redis) who hosts a room (a lease, the lobby): the statuses."""
    made = await http.post("/api/auth/guest", json={"name": f"Player{i}"})
    if made.status_code != 200:
        return made.status_code, 0
    room = await http.post("/api/rooms", json={"game": "standard", "seats": 2},
                           headers={"Authorization": f"Bearer {made.json()['token']}"})
    return 200, room.status_code


async def test_two_deployments_on_one_redis_keep_apart(
        tmp_path: Path, private_redis: PrivateRedis) -> None:
    """Two deployments, each one process on its own database and its own Redis database number,
    with the default prefix: each sees only its own rooms and tournaments, publishes on its own
    channels, and says nothing about the other's."""
    with ExitStack() as stack:
        procs = []
        for n in (1, 2):
            workdir = tmp_path / f"deployment{n}"
            workdir.mkdir()
            url = stack.enter_context(fresh_database("postgresql", workdir))
            proc = ServerProcess(workdir, url, env={
                "RUMMY_REDIS_URL": f"{private_redis.url.rsplit('/', 1)[0]}/{n}",
                "RUMMY_REDIS_PREFIX": "", "RUMMY_LEASE_SECONDS": LEASE_SECONDS})
            stack.callback(proc.stop)
            proc.start()
            procs.append(proc)
        prefixes = [_prefix_said(proc) for proc in procs]
        assert prefixes == [deployment_prefix(proc.database_url) for proc in procs]
        assert prefixes[0] != prefixes[1]

        async with _channels(private_redis.url) as channels:
            made = [await _tournament_and_room(proc) for proc in procs]
            for prefix in prefixes:  # each one's tournament was told on its own channel
                await eventually(lambda prefix=prefix: f"{prefix}:nodes" in channels,
                                 f"a message on {prefix}:nodes")
        assert all(c.startswith(tuple(f"{p}:" for p in prefixes)) for c in channels), channels

        for proc, (tournament, _), other in zip(procs, made, reversed(made), strict=True):
            async with http_client(proc.base_url) as http:
                someone = await guest(http, "Onlooker")
                listed = await call(http, "GET", "/api/tournaments", someone)
                assert [t["id"] for t in listed["tournaments"]] == [tournament]
                lobby = await call(http, "GET", "/api/rooms")
                assert other[1] not in [r["id"] for r in lobby["rooms"]]
            log = proc.log_text()  # its own tournament is "driven here", a warning
            assert other[0] not in log and other[1] not in log, log
            assert not re.search(r"ERROR|Traceback", log), log
        for n, prefix in enumerate(prefixes, start=1):
            keys = await _keys(private_redis.url, n)
            assert keys and all(k.startswith(f"{prefix}:") for k in keys), keys


def _prefix_said(proc: ServerProcess) -> str:
    found = re.search(r"Redis keys and channels under (\S+):\s*$", proc.log_text(), re.M)
    assert found, proc.log_text()
    return found.group(1)


@asynccontextmanager
async def _channels(url: str) -> AsyncIterator[set[str]]:
    """The channels of every message published on the Redis meanwhile."""
    client = aioredis.Redis.from_url(url)
    pubsub = client.pubsub()
    await pubsub.psubscribe("*")
    seen: set[str] = set()

    async def watch() -> None:
        async for message in pubsub.listen():
            if message["type"] == "pmessage":
                seen.add(message["channel"].decode())

    task = asyncio.create_task(watch())
    try:
        yield seen
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        await pubsub.aclose()
        await client.aclose()


async def _tournament_and_room(proc: ServerProcess) -> tuple[str, str]:
    """A tournament filled (it starts: its tables open, the other processes are told) and a
    room joined and started, at ``proc``; their ids."""
    async with http_client(proc.base_url) as http:
        creator, *entrants = [await guest(http, f"Player {n}") for n in range(5)]
        tournament = await call(http, "POST", "/api/tournaments", creator, FOUR)
        for player in entrants:
            await call(http, "POST", f"/api/tournaments/{tournament['id']}/register", player)

        async def running() -> bool:
            shown = await call(http, "GET", f"/api/tournaments/{tournament['id']}", creator)
            return bool(shown["status"] == "running")

        await eventually(running, "the tournament running")
        host, friend = creator, await guest(http, "Friend")
        room = await _hosted(http, host)
        await call(http, "POST", f"/api/rooms/{room}/join", friend)
        await call(http, "POST", f"/api/rooms/{room}/start", host)
    return str(tournament["id"]), room


async def _hosted(http: httpx.AsyncClient, host: Player) -> str:
    return str((await call(http, "POST", "/api/rooms", host,
                           {"game": "standard", "seats": 2}))["id"])


async def _keys(url: str, db: int) -> list[str]:
    client = aioredis.Redis.from_url(f"{url.rsplit('/', 1)[0]}/{db}")
    try:
        return [k.decode() async for k in client.scan_iter()]
    finally:
        await client.aclose()
