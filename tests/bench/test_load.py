"""`python -m bench.load` runs from the repository in every mode and prints its figures.

A smoke test at tiny sizes, not a timed test: each mode runs as a subprocess against the test
PostgreSQL server and each printed figure must parse and be positive.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from tests import pg
from tests.conftest import REPO_ROOT
from tests.waits import STARTUP_DEADLINE

pytestmark = pytest.mark.postgres


def bench(*args: str) -> str:
    postgres = pg.require_postgres().render_as_string(hide_password=False)
    done = subprocess.run(  # noqa: S603 - our interpreter, fixed argv
        [sys.executable, "-m", "bench.load", *args, "--postgres", postgres], cwd=REPO_ROOT,
        capture_output=True, text=True, timeout=STARTUP_DEADLINE * 3, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def table(output: str) -> list[dict[str, str]]:
    """The rows of the printed markdown table, by column name."""
    lines = [line for line in output.splitlines() if line.startswith("|")]
    names = [cell.strip() for cell in lines[0].strip("|").split("|")]
    return [dict(zip(names, (cell.strip() for cell in line.strip("|").split("|")), strict=True))
            for line in lines[2:]]


def positive(text: str) -> float:
    value = float(text)
    assert value > 0, text
    return value


def test_closed_loop_measures_the_server_and_the_baseline() -> None:
    output = bench("closed", "--rooms", "2", "--seconds", "2", "--warmup", "0.5")
    rows = {row["target"]: row for row in table(output)}
    assert set(rows) == {"server", "baseline"}
    for row in rows.values():
        for column in ("actions/s", "p50 ms", "p99 ms"):
            positive(row[column])
    ratio = re.search(r"server/baseline: ([\d.]+) %", output)
    assert ratio is not None, output
    positive(ratio[1])


def test_closed_loop_weighs_the_metrics() -> None:
    output = bench("closed", "--rooms", "2", "--seconds", "2", "--warmup", "0.5",
                   "--metrics-cost", "1")
    rows = {row["target"]: row for row in table(output)}
    assert set(rows) == {"server, metrics on (1)", "server, metrics off (1)", "baseline"}
    for row in rows.values():
        positive(row["actions/s"])
    ratio = re.search(r"metrics on/off: ([\d.]+) %", output)
    assert ratio is not None, output
    positive(ratio[1])


def test_open_loop_counts_from_the_intended_time() -> None:
    output = bench("open", "--rooms", "2", "--rate", "2", "--seconds", "2", "--warmup", "0.5")
    [row] = table(output)
    assert positive(row["intended/s"]) == 4
    for column in ("achieved/s", "p50 ms", "p99 ms", "max ms"):
        positive(row[column])
    assert "latency from the intended send time" in output


def test_idle_sockets_cost_memory() -> None:
    [row] = table(bench("idle", "--sockets", "50", "--per-account", "10"))
    assert row["sockets"] == "50"
    assert positive(row["after MiB"]) > positive(row["server RSS before MiB"])
    positive(row["KiB per socket"])


def test_restart_rebuilds_the_rooms() -> None:
    output = bench("restart", "--rooms", "4")
    [row] = table(output)
    live = int(row["rooms"])  # a room whose computer players went out first is left out
    assert 1 <= live <= 4
    for column in ("empty start s", "health answers s", "all rooms playing s"):
        positive(row[column])
    assert f"{live} of {live} rooms checked played on" in output


def test_processes_compares_one_process_with_several() -> None:
    """`--processes 2`: one process without and with Redis, two with sockets at the owner, two
    with every action relayed (the test Redis, or RUMMY_TEST_REDIS_URL)."""
    redis_url = os.environ.get("RUMMY_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
    output = bench("closed", "--processes", "2", "--rooms", "2", "--seconds", "2",
                   "--warmup", "0.5", "--redis", redis_url)
    rows = {row["processes"]: row for row in table(output)}
    assert set(rows) == {"1 process without Redis", "1 process",
                         "2 processes, sockets at the owner", "2 processes, sockets relayed"}
    for row in rows.values():
        for column in ("actions/s", "p50 ms", "p99 ms"):
            positive(row[column])
        assert row["refused"] == "none"
