"""Real servers for the end-to-end tests: a fresh database (SQLite file or a PostgreSQL
database of its own), an admin made with `python -m app create-admin`, `python -m app serve`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests import pg
from tests.conftest import REPO_ROOT, running_server
from tests.waits import DEADLINE

ADMIN = ("hall_admin", "admin-password-1")

FAST = {
    "RUMMY_DEV_STACKED_DECKS": "1",
    "RUMMY_BOT_DELAY_SECONDS": "0.01",
    "RUMMY_NEXT_HAND_SECONDS": "0.05",
    "RUMMY_CALL_GRACE_SECONDS": "0.05",
}


@dataclass(frozen=True)
class Hall:
    base_url: str
    database_url: str
    workdir: Path
    admin_token: str

    @property
    def admin_headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.admin_token}"}


def _cli(database_url: str, *args: str, stdin: bytes | None = None
         ) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "RUMMY_DATABASE_URL": database_url}
    return subprocess.run(  # noqa: S603 - fixed argv, our own interpreter
        [sys.executable, "-m", "app", *args], cwd=REPO_ROOT, env=env, input=stdin,
        capture_output=True, timeout=60, check=False)


@contextmanager
def database(backend: str, workdir: Path) -> Iterator[str]:
    """A fresh, empty database URL (PostgreSQL: created now, dropped afterwards)."""
    if backend == "sqlite":
        yield f"sqlite+aiosqlite:///{workdir / 'hall.db'}"
        return
    url = pg.create_database("rummy_api")
    try:
        yield url
    finally:
        pg.drop_database(url)


@contextmanager
def hall(workdir: Path, backend: str = "sqlite", env: dict[str, str] | None = None
         ) -> Iterator[Hall]:
    """A running server on a fresh database, with an admin account logged in."""
    with database(backend, workdir) as url:
        made = _cli(url, "create-admin", ADMIN[0], "--password", ADMIN[1])
        assert made.returncode == 0, made.stderr.decode()
        with running_server(workdir, {**FAST, **(env or {}), "RUMMY_DATABASE_URL": url}) as base:
            yield Hall(base, url, workdir, _login(base, *ADMIN))


def _login(base_url: str, username: str, password: str) -> str:
    answer = httpx.post(f"{base_url}/api/auth/login", trust_env=False, timeout=DEADLINE,
                        json={"username": username, "password": password})
    assert answer.status_code == 200, answer.text
    return str(answer.json()["token"])


def add_admin(running: Hall, username: str, password: str) -> str:
    """Make `username` an admin with `python -m app create-admin`; its bearer token."""
    made = _cli(running.database_url, "create-admin", username, "--password", password)
    assert made.returncode == 0, made.stderr.decode()
    return _login(running.base_url, username, password)


def hall_fixture(name: str, env: dict[str, str] | None = None) -> Any:
    """A module-scoped `server` fixture: one hall (SQLite) for the module's tests."""

    @pytest.fixture(scope="module")
    def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hall]:
        with hall(tmp_path_factory.mktemp(name), env=env) as running:
            yield running

    return server


def replay(workdir: Path, log: dict[str, Any], name: str = "match.json") -> dict[str, Any]:
    """Write `log` to a file and run `python -m app replay FILE`: exit 0, its JSON output."""
    path = workdir / name
    path.write_text(json.dumps(log))
    done = subprocess.run(  # noqa: S603 - fixed argv, our own interpreter
        [sys.executable, "-m", "app", "replay", str(path)], cwd=REPO_ROOT,
        capture_output=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr.decode()
    result: dict[str, Any] = json.loads(done.stdout)
    return result
