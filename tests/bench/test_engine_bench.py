"""bench.engine --baseline: the same game played by a git worktree of another commit and by this
checkout, each in its own process, side by side (no timing asserted)."""

from __future__ import annotations

import pytest

from bench.engine import HERE, compare, figures_in


def test_a_checkout_plays_its_own_engine() -> None:
    figures = figures_in(HERE, "knock", 0.2)
    assert figures["hands"] >= 1 and figures["hands_per_cpu_s"] > 0


def test_the_baseline_is_played_from_a_worktree_of_the_ref(
        capsys: pytest.CaptureFixture[str]) -> None:
    rows = compare("HEAD", ["knock"], 0.2)
    assert [game for game, _, _ in rows] == ["knock"]
    assert all(before > 0 and now > 0 for _, before, now in rows)
    out = capsys.readouterr().out.splitlines()
    assert out[0].split()[:2] == ["game", "HEAD"] and out[1].split()[0] == "knock"
