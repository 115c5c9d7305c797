"""Shared fixtures: a real server process for tests that talk HTTP."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from tests.waits import STARTUP_DEADLINE, wait_until

REPO_ROOT = Path(__file__).resolve().parent.parent
# Test servers make many accounts from 127.0.0.1; the throttle tests set their own limits.
ROOMY_LIMITS = {
    "RUMMY_GUESTS_PER_ADDRESS_PER_HOUR": "100000",
    "RUMMY_REGISTRATIONS_PER_ADDRESS_PER_HOUR": "100000",
}


def free_port() -> int:
    """A TCP port on 127.0.0.1 that was free a moment ago."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _wait_until_healthy(process: subprocess.Popen[bytes], base_url: str, log: Path) -> None:
    def healthy() -> bool:
        if process.poll() is not None:
            pytest.fail(f"server exited with {process.returncode}:\n{log.read_text()}")
        try:
            return httpx.get(f"{base_url}/api/health", timeout=5, trust_env=False).is_success
        except httpx.TransportError:
            return False

    wait_until(healthy, f"server healthy at {base_url} (log: {log})", timeout=STARTUP_DEADLINE)


@contextmanager
def running_server(workdir: Path, env: dict[str, str] | None = None) -> Iterator[str]:
    """Run `python -m app serve` on a free port until the block ends; yields its base URL.

    The database defaults to a fresh SQLite file in `workdir`, the account limits to roomy
    ones; `env` adds or overrides variables.
    """
    port = free_port()
    base_url = f"http://127.0.0.1:{port}"
    full_env = {
        **os.environ,
        **ROOMY_LIMITS,
        "RUMMY_DATABASE_URL": f"sqlite+aiosqlite:///{workdir / 'x.db'}",
        **(env or {}),
    }
    log = workdir / "server.log"
    with log.open("wb") as out:
        process = subprocess.Popen(  # noqa: S603 - fixed argv, our own interpreter
            [sys.executable, "-m", "app", "serve", "--port", str(port)],
            cwd=REPO_ROOT,
            env=full_env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        _wait_until_healthy(process, base_url, log)
        yield base_url
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base URL of a real server shared by the whole test session."""
    with running_server(tmp_path_factory.mktemp("live_server")) as base_url:
        yield base_url


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Say plainly whether the PostgreSQL tests ran (they skip when it is unreachable)."""
    from tests.pg import server_url, unreachable_reason

    reason = unreachable_reason()
    if reason is None:
        shown = server_url().render_as_string(hide_password=True)
        terminalreporter.write_line(f"PostgreSQL tests ran against {shown}.")
    else:
        terminalreporter.write_line(
            f"PostgreSQL tests were SKIPPED: {reason}. Set RUMMY_TEST_DATABASE_URL or start "
            "PostgreSQL on 127.0.0.1:5432; RUMMY_REQUIRE_POSTGRES=1 turns the skips into failures.",
            yellow=True, bold=True)


# The files that take longest (docs/benchmarks.md, "The test suite"), handed to the workers
# first: `--dist loadfile` deals whole files in collection order, and a long file dealt last
# would leave one worker busy while the others have finished.
LONGEST_FIRST = (
    "tests/bots/test_bot_playouts.py", "tests/cluster/test_cluster.py",
    "tests/cluster/test_tournaments_cluster.py", "tests/api/test_crash_recovery.py",
    "tests/api/test_room_faults.py", "tests/api/test_tournaments.py", "tests/bench/test_load.py",
    "tests/bench/test_fairplay_bench.py", "tests/e2e/test_moderation_browser.py",
    "tests/api/test_schema_fuzz.py", "tests/e2e/test_tournaments_page.py",
    "tests/api/test_room_runtime.py", "tests/e2e/test_explain.py",
    "tests/e2e/test_leave_resign.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The longest files first, the rest in their usual order (a stable sort)."""
    rank = {path: i for i, path in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::", 1)[0], len(rank)))
