"""bench.analysis runs: a hand of Standard and of Knock analysed, a row each, with the share of
grades that a second sampling seed agrees with (no timing)."""

from __future__ import annotations

import pytest

from bench.analysis import main


def test_the_bench_prints_a_row_per_game(capsys: pytest.CaptureFixture[str]) -> None:
    main(["--hands", "1", "--worlds", "2", "standard", "knock"])
    out = capsys.readouterr().out.splitlines()
    assert out[0].split()[0] == "game" and out[0].endswith("agree %")
    assert [line.split()[0] for line in out[1:]] == ["standard", "knock"]
    assert all(0.0 <= float(line.split()[-1]) <= 100.0 for line in out[1:])
