"""bench.analysis runs: a hand of Standard and of Knock analysed, a row each (no timing)."""

from __future__ import annotations

import pytest

from bench.analysis import main


def test_the_bench_prints_a_row_per_game(capsys: pytest.CaptureFixture[str]) -> None:
    main(["--hands", "1", "standard", "knock"])
    out = capsys.readouterr().out.splitlines()
    assert out[0].split()[0] == "game"
    assert [line.split()[0] for line in out[1:]] == ["standard", "knock"]
