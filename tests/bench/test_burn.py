"""bench.burn: its spinners run beside the command and are gone after it; its status is the
command's (docs/benchmarks.md, "The test suite")."""

from __future__ import annotations

import contextlib
import subprocess
import sys
from pathlib import Path

from bench.burn import SPINNER
from tests.conftest import REPO_ROOT

# Counts the live spinners from inside the command bench.burn runs.
COUNT = f"""
import pathlib, sys
marker = {SPINNER[:5]!r} + {SPINNER[5:]!r}  # not the marker itself: this command would count
alive = 0
for entry in pathlib.Path("/proc").iterdir():
    try:
        if marker.encode() in (entry / "cmdline").read_bytes():
            alive += 1
    except OSError:
        pass
print("spinners", alive)
sys.exit(7)
"""


def _spinners() -> int:
    found = 0
    for entry in Path("/proc").iterdir():
        with contextlib.suppress(OSError):
            found += SPINNER.encode() in (entry / "cmdline").read_bytes()
    return found


def test_the_command_runs_beside_the_spinners_and_its_status_is_kept() -> None:
    before = _spinners()
    done = subprocess.run([  # noqa: S603 - our own interpreter and script
        sys.executable, "-m", "bench.burn", "3", "--", sys.executable, "-c", COUNT],
        cwd=REPO_ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 7, done.stderr
    assert f"spinners {before + 3}" in done.stdout
    assert "bench.burn: 3 spinners" in done.stdout and "exit 7" in done.stdout
    assert _spinners() == before


def test_a_missing_command_is_refused() -> None:
    done = subprocess.run([  # noqa: S603 - our own interpreter and script
        sys.executable, "-m", "bench.burn", "2"],
        cwd=REPO_ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "a command after --" in done.stderr
