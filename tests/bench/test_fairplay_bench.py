"""bench.fairplay runs: two clubs of four, one with a dumping pair; the pair is flagged and no
honest pair is (seeded, so repeatable; no timing)."""

from __future__ import annotations

import pytest

from bench.fairplay import main


def test_the_small_population_is_measured(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--clubs", "2", "--colluding", "1", "--meetings", "3", "--strangers", "0",
                 "--workers", "1"]) == (1, 0, 0)
    out = capsys.readouterr().out
    assert "precision 1.00  recall 1.00" in out and "dumper" in out
