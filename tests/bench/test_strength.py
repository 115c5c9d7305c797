"""bench.strength: the Wilson score interval checked against known values, the hard player's
decisions timed, and issue 37's targets judged."""

from __future__ import annotations

import pytest

from bench.strength import Tally, met, play, wilson


def test_the_interval_matches_the_wilson_formula() -> None:
    low, high = wilson(60, 100)  # a textbook case: 60 of 100 -> 50.2 % to 69.1 %
    assert low == pytest.approx(0.502, abs=5e-4) and high == pytest.approx(0.691, abs=5e-4)


def test_it_stays_inside_zero_and_one_and_narrows_with_more_games() -> None:
    assert wilson(0, 10)[0] == pytest.approx(0.0, abs=1e-12)
    assert wilson(10, 10)[1] == pytest.approx(1.0, abs=1e-12)
    assert wilson(0, 0) == (0.0, 1.0)
    narrow, wide = wilson(120, 200), wilson(12, 20)
    assert narrow[1] - narrow[0] < wide[1] - wide[0]


def test_a_run_times_every_hard_decision_and_judges_the_targets() -> None:
    tally = play("nowrang", 2)  # NOWRANG-7: each hand is a game, so two games are quick
    assert tally.games == 2 and tally.hard + tally.normal + tally.ties == 2 and tally.ties >= 0
    assert tally.decisions and all(t >= 0 for t in tally.decisions)
    assert 0 <= tally.p99_ms <= 1000 * max(tally.decisions)
    assert not met(Tally("standard", games=100, hard=64, decisions=[0.01]), "standard")
    assert met(Tally("standard", games=400, hard=260, decisions=[0.01]), "standard")
    assert not met(Tally("knock", games=400, hard=260, decisions=[0.3] * 10), "knock")
    assert not met(Tally("knock", games=100, hard=55, decisions=[0.01]), "knock")
