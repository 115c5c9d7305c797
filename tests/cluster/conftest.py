"""Several real server processes on one PostgreSQL database and one Redis (docs/scaling.md).

- `redis_url`: the test Redis (skipped when unreachable); `redis_prefix`: keys of this test
  alone, deleted afterwards.
- `fleet(n, **env)`: n `python -m app serve` processes on a fresh PostgreSQL database, sharing
  Redis under the test's prefix, with short leases.
- `private_redis`: a Redis server of the test's own (no persistence), which it may restart.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import uuid
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest
import redis

from tests.api.procs import ServerProcess, free_port, fresh_database
from tests.waits import wait_until

REDIS_URL = os.environ.get("RUMMY_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
LEASE_SECONDS = "1.5"

pytestmark = pytest.mark.postgres


@pytest.fixture
def redis_url() -> str:
    client = redis.Redis.from_url(REDIS_URL)
    try:
        client.ping()
    except redis.RedisError as exc:
        pytest.skip(f"Redis not reachable at {REDIS_URL}: {exc}")
    finally:
        client.close()
    return REDIS_URL


@pytest.fixture
def redis_prefix(redis_url: str) -> Iterator[str]:
    prefix = f"test-cluster-{uuid.uuid4().hex[:10]}"
    yield prefix
    client = redis.Redis.from_url(redis_url)
    try:
        keys = list(client.scan_iter(f"{prefix}:*"))
        if keys:
            client.delete(*keys)
    except redis.RedisError:
        pass
    finally:
        client.close()


Fleet = Callable[..., list[ServerProcess]]


@pytest.fixture
def fleet(tmp_path: Path, redis_url: str, redis_prefix: str) -> Iterator[Fleet]:
    """Start n servers sharing a fresh PostgreSQL database and Redis (all stopped at the end)."""
    with ExitStack() as stack:
        url = stack.enter_context(fresh_database("postgresql", tmp_path))
        started: list[ServerProcess] = []
        stack.callback(lambda: [p.stop() for p in started])

        def start(n: int, **env: str) -> list[ServerProcess]:
            env = {"RUMMY_REDIS_URL": redis_url, **env}
            procs = []
            for _ in range(n):
                workdir = tmp_path / f"server{len(started)}"
                workdir.mkdir()
                proc = ServerProcess(workdir, url, env={
                    "RUMMY_REDIS_PREFIX": redis_prefix,
                    "RUMMY_LEASE_SECONDS": LEASE_SECONDS, **env})
                started.append(proc)
                proc.start()
                procs.append(proc)
            return procs

        yield start


class PrivateRedis:
    """`redis-server` on a port of its own, keeping nothing on disk: a restart loses every key,
    as a failover to a replica that had not caught up would."""

    def __init__(self, workdir: Path) -> None:
        self.port = free_port()
        self.workdir = workdir
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            pytest.skip("redis-server is not installed")
        self.process = subprocess.Popen(  # noqa: S603 - fixed argv
            [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.workdir)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        client = redis.Redis.from_url(self.url)

        def answers() -> bool:
            try:
                return bool(client.ping())
            except redis.ConnectionError:
                return False

        try:
            wait_until(answers, f"redis-server answers on port {self.port}", interval=0.02)
        finally:
            client.close()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)


@pytest.fixture
def private_redis(tmp_path: Path) -> Iterator[PrivateRedis]:
    server = PrivateRedis(tmp_path)
    server.start()
    try:
        yield server
    finally:
        server.stop()
