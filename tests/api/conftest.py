"""Fixtures of the server tests: `http`, a client of the module's `server` (a `Hall`); `proc`,
a server process of the test's own on a fresh PostgreSQL database, which the test may kill and
start again (a module may make its own instead)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import httpx
import pytest

from tests.api.client import http_client
from tests.api.halls import Hall
from tests.api.procs import ServerProcess, fresh_database


@pytest.fixture
async def http(server: Hall) -> AsyncIterator[httpx.AsyncClient]:
    async with http_client(server.base_url) as client:
        yield client


@pytest.fixture
def proc(tmp_path: Path) -> Iterator[ServerProcess]:
    with fresh_database("postgresql", tmp_path) as url:
        server = ServerProcess(tmp_path, url)
        try:
            server.start()
            yield server
        finally:
            server.stop()
