"""bench.strength's interval: the Wilson score interval, checked against known values."""

from __future__ import annotations

import pytest

from bench.strength import wilson


def test_the_interval_matches_the_wilson_formula() -> None:
    low, high = wilson(60, 100)  # a textbook case: 60 of 100 -> 50.2 % to 69.1 %
    assert low == pytest.approx(0.502, abs=5e-4) and high == pytest.approx(0.691, abs=5e-4)


def test_it_stays_inside_zero_and_one_and_narrows_with_more_games() -> None:
    assert wilson(0, 10)[0] == pytest.approx(0.0, abs=1e-12)
    assert wilson(10, 10)[1] == pytest.approx(1.0, abs=1e-12)
    assert wilson(0, 0) == (0.0, 1.0)
    narrow, wide = wilson(120, 200), wilson(12, 20)
    assert narrow[1] - narrow[0] < wide[1] - wide[0]
