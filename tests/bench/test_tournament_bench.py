"""`python -m bench.tournament` runs from the repository and prints its figures: a smoke test
at a tiny size (8 players, 2 rooms, one-hand matches), with the rooms in a closed loop and in
an open one, not a timed test."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from tests import pg
from tests.bench.test_load import positive, table
from tests.conftest import REPO_ROOT

pytestmark = pytest.mark.postgres


@pytest.mark.parametrize("rate", [[], ["--rate", "20"]], ids=["closed", "open"])
def test_a_small_tournament_beside_rooms_prints_its_table(rate: list[str]) -> None:
    postgres = pg.require_postgres().render_as_string(hide_password=False)
    done = subprocess.run(  # noqa: S603 - our interpreter, fixed argv
        [sys.executable, "-m", "bench.tournament", "--players", "8", "--rooms", "2",
         "--seconds", "2", "--repeat", "1", "--warmup", "0.5", "--target", "1",
         "--postgres", postgres, *rate],
        cwd=REPO_ROOT, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    rows = {row["run"]: row for row in table(done.stdout)}
    assert set(rows) == {"tournament alone", "2 rooms alone", "tournament + 2 rooms"}
    for name in ("tournament alone", "tournament + 2 rooms"):
        positive(rows[name]["tournament s"])
        assert rows[name]["rounds"] == "2"  # 8 players at tables of 4: two tables, then a final
    for name in ("2 rooms alone", "tournament + 2 rooms"):
        for column in ("room actions/s", "p50 ms", "p99 ms"):
            positive(rows[name][column])
        assert rows[name]["refused"] == "none"
    share = re.search(r"p99 beside the tournament: (\d+) %", done.stdout)
    assert share is not None, done.stdout
