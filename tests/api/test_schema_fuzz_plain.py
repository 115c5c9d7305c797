"""The plain fuzz of the OpenAPI document (docs/server.md, "The HTTP schema"): schemathesis as
any outside client would run it, with no hooks of the project's and only an admin's bearer token
in a header (tests/api/schemathesis-plain.toml), must find nothing. The project's own run is in
tests/api/test_schema_fuzz.py; this one has a server of its own so that both run side by side."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.api.halls import Hall, hall
from tests.api.test_schema_fuzz import fuzz

pytestmark = pytest.mark.postgres

PLAIN_CONFIG = Path(__file__).with_name("schemathesis-plain.toml")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hall]:
    with hall(tmp_path_factory.mktemp("schema_fuzz_plain"), "postgresql") as running:
        yield running


def test_a_plain_fuzz_with_a_token_finds_nothing(server: Hall) -> None:
    """No hooks: the document, and a header any client of the API would send."""
    began = time.monotonic()
    failed = fuzz(server, PLAIN_CONFIG, "-H", f"Authorization: Bearer {server.admin_token}")
    print(f"plain schemathesis: {time.monotonic() - began:.0f} s")  # noqa: T201
    assert not failed, failed
