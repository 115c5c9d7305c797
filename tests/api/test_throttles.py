"""Throttles on accounts (docs/security.md): failed logins per username and per address,
registrations and guests per address; 429 ``too_many_attempts`` with Retry-After, and nothing
created. Both backends directly (memory; Redis for real), one server process on the memory
backend (each test from its own loopback address), and two server processes sharing PostgreSQL
and Redis, the limit hit half on each."""

from __future__ import annotations

import asyncio
import itertools
import os
import secrets
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis

from app.services.throttle import Limit, MemoryThrottle, RedisThrottle, Throttle, TooManyAttempts
from tests.api.client import guest
from tests.api.halls import ADMIN, Hall, hall_fixture
from tests.api.procs import ServerProcess, fresh_database

REDIS_URL = os.environ.get("RUMMY_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
LIMITS = {
    "RUMMY_LOGIN_ATTEMPTS_PER_USERNAME": "3",
    "RUMMY_LOGIN_ATTEMPTS_PER_ADDRESS": "5",
    "RUMMY_LOGIN_WINDOW_SECONDS": "600",
    "RUMMY_REGISTRATIONS_PER_ADDRESS_PER_HOUR": "2",
    "RUMMY_GUESTS_PER_ADDRESS_PER_HOUR": "3",
}
PASSWORD = "a fine long password"  # noqa: S105 - a test account
# Each test calls from a loopback address of its own (127.0.1.N), so its counts start clean.
ADDRESSES = (f"127.0.1.{n}" for n in itertools.count(1))


@pytest.fixture
def redis_prefix() -> Iterator[str]:
    """A Redis key prefix of this test's own; its keys are deleted afterwards."""
    client = redis.Redis.from_url(REDIS_URL)
    try:
        client.ping()
    except redis.RedisError as exc:
        pytest.skip(f"Redis not reachable at {REDIS_URL}: {exc}")
    prefix = f"rummy-test-{secrets.token_hex(6)}"
    yield prefix
    for key in client.scan_iter(f"{prefix}:*"):
        client.delete(key)
    client.close()


# --- the backends ------------------------------------------------------------------------------


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def _check_backend(throttle: Throttle, advance: Any) -> None:
    """Two events per window: the third waits for the first to expire; a given-back event
    frees its place; a refusal under one limit of several records none."""
    two = Limit("test", 2, 2.0, "test events")
    await throttle.take((two, "k"))
    await advance(1.0)
    await throttle.take((two, "k"))
    with pytest.raises(TooManyAttempts) as refused:
        await throttle.take((two, "k"))
    assert refused.value.retry_after == 1  # the first event leaves the window in 1 s
    assert "too many test events: at most 2 in 2 s" in refused.value.message
    await advance(1.1)
    tickets = await throttle.take((two, "k"))  # the first expired
    await throttle.give_back(tickets)
    await throttle.take((two, "k"))  # the given-back place

    one = Limit("other", 1, 60.0, "other events")
    await throttle.take((one, "full"))
    with pytest.raises(TooManyAttempts):
        await throttle.take((two, "fresh"), (one, "full"))
    await throttle.take((two, "fresh"), (two, "fresh"))  # "fresh" kept both places


async def test_memory_backend() -> None:
    clock = Clock()

    async def advance(seconds: float) -> None:
        clock.now += seconds

    await _check_backend(MemoryThrottle(clock=clock), advance)


async def test_redis_backend_on_the_servers_clock(redis_prefix: str) -> None:
    throttle = RedisThrottle(REDIS_URL, redis_prefix)
    try:
        await _check_backend(throttle, asyncio.sleep)
    finally:
        await throttle.close()


def test_memory_backend_sweeps_expired_keys() -> None:
    clock = Clock()
    throttle = MemoryThrottle(clock=clock)
    limit = Limit("sweep", 1, 10.0, "events")

    async def fill() -> None:
        for i in range(MemoryThrottle.SWEEP_EVERY - 1):
            await throttle.take((limit, f"user{i}"))
        clock.now += 11
        await throttle.take((limit, "last"))

    asyncio.run(fill())
    assert list(throttle.events) == ["memory:throttle:sweep:last"]


# --- one server --------------------------------------------------------------------------------


server = hall_fixture("throttles", LIMITS)


@pytest.fixture
async def http(server: Hall) -> AsyncIterator[httpx.AsyncClient]:
    async with _from(server.base_url, next(ADDRESSES)) as client:
        yield client


def _from(base_url: str, address: str) -> httpx.AsyncClient:
    transport = httpx.AsyncHTTPTransport(local_address=address)
    return httpx.AsyncClient(base_url=base_url, transport=transport, trust_env=False, timeout=15)


async def _refused(response: httpx.Response, what: str) -> int:
    """A 429 naming `what`, with Retry-After in whole seconds; returns them."""
    assert response.status_code == 429, response.text
    detail = response.json()["detail"]
    assert detail["code"] == "too_many_attempts" and what in detail["message"], detail
    seconds = int(response.headers["Retry-After"])
    assert 1 <= seconds <= 3600
    assert detail["retry_after"] == seconds  # for the client to show the wait
    return seconds


async def _player_count(http: httpx.AsyncClient, server: Hall) -> int:
    answer = await http.get("/api/admin/players", headers=server.admin_headers)
    return len(answer.json()["players"])


async def test_guests_per_address(http: httpx.AsyncClient, server: Hall) -> None:
    for i in range(3):
        await guest(http, f"Minted {i}")
    before = await _player_count(http, server)
    answer = await http.post("/api/auth/guest", json={"name": "One too many"})
    assert await _refused(answer, "guest accounts from this address") > 3000  # an hour's window
    assert await _player_count(http, server) == before  # nothing minted
    async with _from(server.base_url, "127.0.0.9") as elsewhere:
        await guest(elsewhere, "Another address")


async def test_registrations_per_address(http: httpx.AsyncClient, server: Hall) -> None:
    weak = await http.post("/api/auth/register", json={"username": "weakling", "password": "x"})
    assert weak.status_code == 400 and weak.json()["detail"]["code"] == "weak_password"
    ok = await http.post("/api/auth/register", json={"username": "reg_one", "password": PASSWORD})
    assert ok.status_code == 200, ok.text
    answer = await http.post("/api/auth/register", json={"username": "reg_two",
                                                          "password": PASSWORD})
    await _refused(answer, "registrations from this address")  # the weak attempt counted too
    login = await http.post("/api/auth/login", json={"username": "reg_two", "password": PASSWORD})
    assert login.status_code == 401  # never created


async def test_failed_logins_per_username_from_any_address(http: httpx.AsyncClient,
                                                           server: Hall) -> None:
    async with _from(server.base_url, "127.0.0.10") as other:
        assert (await other.post("/api/auth/register", json={
            "username": "Target", "password": PASSWORD})).status_code == 200
    began = time.monotonic()  # the window opens at the first failure, at most this early
    for wrong in ("guess one", "guess two", "guess three"):
        answer = await http.post("/api/auth/login", json={"username": "target",
                                                          "password": wrong})
        assert answer.json()["detail"]["code"] == "invalid_credentials"
    right = {"username": "TARGET", "password": PASSWORD}  # the same username in another case
    seconds = await _refused(await http.post("/api/auth/login", json=right),
                             "failed logins for this username")
    assert 600 - (time.monotonic() - began) - 1 <= seconds <= 600  # the window's rest
    async with _from(server.base_url, "127.0.0.11") as third:
        await _refused(await third.post("/api/auth/login", json=right), "for this username")


async def test_successful_logins_do_not_count(http: httpx.AsyncClient) -> None:
    assert (await http.post("/api/auth/register", json={
        "username": "regular", "password": PASSWORD})).status_code == 200
    for _ in range(8):  # more than either login limit
        answer = await http.post("/api/auth/login", json={"username": "regular",
                                                          "password": PASSWORD})
        assert answer.status_code == 200, answer.text


async def test_failed_logins_per_address(http: httpx.AsyncClient, server: Hall) -> None:
    for i in range(5):
        answer = await http.post("/api/auth/login", json={"username": f"nobody{i}",
                                                          "password": "wrong password"})
        assert answer.status_code == 401
    answer = await http.post("/api/auth/login", json={"username": ADMIN[0],
                                                      "password": ADMIN[1]})
    await _refused(answer, "failed logins from this address")
    async with _from(server.base_url, "127.0.0.12") as elsewhere:
        answer = await elsewhere.post("/api/auth/login", json={"username": ADMIN[0],
                                                               "password": ADMIN[1]})
        assert answer.status_code == 200  # the username itself was never attacked


# --- two processes, one Redis ------------------------------------------------------------------


@pytest.mark.postgres
async def test_two_processes_share_the_limits_through_redis(redis_prefix: str,
                                                            tmp_path: Path) -> None:
    env = {**LIMITS, "RUMMY_GUESTS_PER_ADDRESS_PER_HOUR": "4", "RUMMY_REDIS_URL": REDIS_URL,
           "RUMMY_REDIS_PREFIX": redis_prefix, "RUMMY_LOGIN_ATTEMPTS_PER_USERNAME": "4"}
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
    with fresh_database("postgresql", tmp_path) as url:
        procs = [ServerProcess(tmp_path / name, url, env=env) for name in ("a", "b")]
        try:
            for proc in procs:
                proc.start()
            async with _from(procs[0].base_url, "127.0.0.1") as a, \
                    _from(procs[1].base_url, "127.0.0.1") as b:
                await _share(a, b)
        finally:
            for proc in procs:
                proc.stop()


async def _share(a: httpx.AsyncClient, b: httpx.AsyncClient) -> None:
    for client in (a, b, a, b):  # four guests, two on each process
        await guest(client, "Shared")
    for client in (a, b):
        await _refused(await client.post("/api/auth/guest", json={"name": "Fifth"}),
                       "guest accounts from this address")

    assert (await a.post("/api/auth/register", json={
        "username": "shared_user", "password": PASSWORD})).status_code == 200
    for client in (a, b, a, b):
        answer = await client.post("/api/auth/login", json={"username": "shared_user",
                                                            "password": "not it at all"})
        assert answer.status_code == 401
    for client in (a, b):
        await _refused(await client.post("/api/auth/login", json={
            "username": "shared_user", "password": PASSWORD}), "for this username")
