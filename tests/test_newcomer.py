"""NEWCOMER: what a new user does on a fresh clone, with nothing but Python 3.11 and make.

Copies the repository's files (tracked, and new ones not ignored) into an empty folder and runs
`make run` there on a free port with no `RUMMY_*` setting at all: make builds its own .venv
from the runtime lock alone, applies the migrations to a new SQLite file and serves. The test
then opens the address make printed: `GET /api/games` lists the ten games, `GET /` is the
client. It takes half a minute or so (pip's cache helps).
"""

from __future__ import annotations

import os
import queue
import re
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.conftest import REPO_ROOT, free_port

pytestmark = pytest.mark.newcomer

INSTALL_AND_START = 600.0  # seconds: a venv and the runtime lock, from pip's cache or PyPI
ADDRESS = re.compile(r"open (http://\S+?)/? ")
DEV_ONLY = ("pytest", "playwright", "mypy", "ruff", "hypothesis")


def _project_files() -> list[str]:
    if shutil.which("git") is None or shutil.which("make") is None:
        pytest.skip("needs git (to list the project's files) and make")
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],  # noqa: S607
        cwd=REPO_ROOT, capture_output=True, check=False)
    if listed.returncode != 0:
        pytest.skip(f"not a git checkout: {listed.stderr.decode().strip()}")
    return [name for name in listed.stdout.decode().split("\0")
            if name and (REPO_ROOT / name).is_file()]


@pytest.fixture(scope="module")
def fresh_clone(tmp_path_factory: pytest.TempPathFactory) -> Path:
    clone = tmp_path_factory.mktemp("newcomer") / "rummy-hall"
    for name in _project_files():
        (clone / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO_ROOT / name, clone / name)
    return clone


def _newcomer_env() -> dict[str, str]:
    """This environment without any setting, make's own variables or this test's venv."""
    ours = str(Path(REPO_ROOT, ".venv", "bin"))
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("RUMMY_") and k not in (
               "VIRTUAL_ENV", "PYTHONPATH", "MAKEFLAGS", "MFLAGS", "MAKELEVEL", "PORT", "HOST")}
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep) if p != ours)
    return env


@pytest.fixture(scope="module")
def make_run(fresh_clone: Path) -> Iterator[tuple[str, list[str]]]:
    """`make run` in the fresh clone; yields the address it printed and its output so far."""
    port = free_port()
    process = subprocess.Popen(  # noqa: S603
        ["make", "run", "HOST=127.0.0.1", f"PORT={port}"],  # noqa: S607 - make from PATH
        cwd=fresh_clone, env=_newcomer_env(), stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True, start_new_session=True)
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=_read_lines, args=(process, lines), daemon=True).start()
    output: list[str] = []
    try:
        yield _wait_for_address(process, lines, output), output
    finally:
        os.killpg(process.pid, signal.SIGTERM)  # make and the server it started
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def _read_lines(process: subprocess.Popen[str], lines: queue.Queue[str]) -> None:
    assert process.stdout is not None
    for line in process.stdout:
        lines.put(line)


def _wait_for_address(process: subprocess.Popen[str], lines: queue.Queue[str],
                      output: list[str]) -> str:
    deadline = time.monotonic() + INSTALL_AND_START
    while time.monotonic() < deadline:
        try:
            line = lines.get(timeout=1)
        except queue.Empty:
            if process.poll() is not None:
                pytest.fail(f"make run exited with {process.returncode}:\n{''.join(output)}")
            continue
        output.append(line)
        if found := ADDRESS.search(line):
            return found.group(1)
    pytest.fail(f"make run printed no address in {INSTALL_AND_START} s:\n{''.join(output)}")


def test_make_run_on_a_fresh_clone_serves_the_games_and_the_client(
        fresh_clone: Path, make_run: tuple[str, list[str]]) -> None:
    address, output = make_run
    assert address.startswith("http://127.0.0.1:"), output

    with httpx.Client(base_url=address, trust_env=False, timeout=10) as client:
        games = client.get("/api/games")
        page = client.get("/")

    assert games.status_code == 200, games.text
    assert len(games.json()["games"]) == 10
    assert page.status_code == 200
    assert "<title>Rummy Hall</title>" in page.text
    assert '<script type="module" src="/app.js">' in page.text
    assert (fresh_clone / "rummy.db").is_file()  # the default database, migrated


def test_the_fresh_venv_has_the_runtime_lock_only(
        fresh_clone: Path, make_run: tuple[str, list[str]]) -> None:
    python = fresh_clone / ".venv" / "bin" / "python"
    probe = ("import importlib.util as u, sys; "
             "print(' '.join(n for n in sys.argv[1:] if u.find_spec(n)))")
    found = subprocess.run(  # noqa: S603 - the clone's own interpreter
        [str(python), "-c", probe, *DEV_ONLY, "greenlet", "uvicorn"],
        capture_output=True, text=True, check=True).stdout.split()

    assert found == ["greenlet", "uvicorn"]  # sqlalchemy[asyncio] needs greenlet at run time
