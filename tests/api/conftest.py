"""Fixtures of the server tests: `http`, a client of the module's `server` (a `Hall`)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest

from tests.api.client import http_client
from tests.api.halls import Hall


@pytest.fixture
async def http(server: Hall) -> AsyncIterator[httpx.AsyncClient]:
    async with http_client(server.base_url) as client:
        yield client
