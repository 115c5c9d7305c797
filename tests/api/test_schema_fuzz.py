"""The OpenAPI schema is what the server does (docs/server.md, "The HTTP schema").

schemathesis, an outside API fuzzer, runs against the real server's own ``/openapi.json`` on
PostgreSQL with every check over every operation and every phase (examples, coverage,
fuzzing, stateful), and must find nothing: no 5xx, no status or header or body the schema does
not declare, no schema-valid request refused by validation and no schema-invalid one accepted,
and a 405 that names the path's methods. Here is the project's run, once as a guest and once
as an admin (settings in tests/api/schemathesis.toml, tokens from the hooks of
tests/api/fuzz_auth.py); tests/api/test_schema_fuzz_plain.py has the plain run, a file of its own
so that the suite's workers run them side by side.

A scan of the app's routes adds what a fuzzer may not happen on: every route declares its answer
model and the refusals every route of its kind can give.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.main import create_app
from tests.api.client import guest, http_client
from tests.api.halls import Hall, hall
from tests.api.routes import walk
from tests.conftest import REPO_ROOT

pytestmark = pytest.mark.postgres

CONFIG = Path(__file__).with_name("schemathesis.toml")
# Cases per operation and phase. 5 keeps a run to about a minute on a loaded two-core machine; a
# deeper search (e.g. 100) is the same command by hand (docs/server.md).
MAX_EXAMPLES = 5
SEED = 1


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hall]:
    with hall(tmp_path_factory.mktemp("schema_fuzz"), "postgresql") as running:
        yield running


async def _token(server: Hall, who: str) -> str:
    if who == "admin":
        return server.admin_token
    async with http_client(server.base_url) as http:
        return (await guest(http, "Fuzzer")).token


def fuzz(server: Hall, config: Path, *extra: str, env: dict[str, str] | None = None) -> str:
    """Run schemathesis over the server's document with `config`; its output, if it failed."""
    done = subprocess.run(  # noqa: S603 - fixed argv, our own interpreter
        [sys.executable, "-m", "schemathesis.cli", "--config-file", str(config), "run",
         f"{server.base_url}/openapi.json", "--checks", "all", "--workers", "1",
         "--max-examples", str(MAX_EXAMPLES), "--seed", str(SEED), "--no-color", *extra],
        cwd=REPO_ROOT, capture_output=True, timeout=600, check=False,
        env={**os.environ, **(env or {})})
    if done.returncode == 0:
        return ""
    return done.stdout.decode(errors="replace")[-20_000:] + done.stderr.decode(errors="replace")


@pytest.mark.parametrize("who", ["guest", "admin"])
async def test_the_fuzzer_finds_nothing(server: Hall, who: str) -> None:
    token = await _token(server, who)
    began = time.monotonic()
    failed = fuzz(server, CONFIG,
                   env={"RUMMY_FUZZ_TOKEN": token, "RUMMY_FUZZ_URL": server.base_url})
    print(f"schemathesis as {who}: {time.monotonic() - began:.0f} s")  # noqa: T201
    assert not failed, failed


def test_every_route_declares_its_answer() -> None:
    routes = list(walk(create_app().routes))
    assert len(routes) >= 30
    missing = [f"{route.methods} {path}" for path, route in routes if route.response_model is None]
    assert not missing, f"routes without a response model: {missing}"


def test_every_route_declares_the_refusals_of_its_kind() -> None:
    """In the schema: 413 (the body limit) everywhere, 400 (a NUL character) where the request
    carries a parameter or a body, 401 where a token is read."""
    gaps = []
    for path, operations in create_app().openapi()["paths"].items():
        for method, operation in operations.items():
            needed = {"413"}
            if operation.get("parameters") or operation.get("requestBody"):
                needed.add("400")
            if operation.get("security"):
                needed.add("401")
            if needed - set(operation["responses"]):
                gaps.append((method.upper(), path, sorted(needed - set(operation["responses"]))))
    assert not gaps, f"refusals given but not declared: {gaps}"
