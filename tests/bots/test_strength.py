"""The sensible bot beats the random legal bot in at least 90% of 200 seeded two-player games
of Standard Rummy (each game played to the target score of 100; the bots alternate seats, so
they alternate who deals first); the hard bot beats the sensible one."""

from __future__ import annotations

import pytest

from app.bots import make_bot
from app.bots.selfplay import play_match
from app.engine.games import match_rules
from bench.strength import play

GAMES_PLAYED = 200
REQUIRED = 0.9


def test_sensible_beats_random() -> None:
    rules = match_rules("standard", {}, 2)
    wins = 0
    for game in range(GAMES_PLAYED):
        sensible = game % 2  # seat 0 deals the first hand (GEN-6)
        kinds = ["random", "random"]
        kinds[sensible] = "sensible"
        bots = [make_bot(kind, 7_000 + game * 10 + s) for s, kind in enumerate(kinds)]
        st, _ = play_match(rules, bots, 70_000 + game, max_hands=200)
        assert st.game_over, f"game {game} did not reach the target"
        wins += st.game_winner == sensible
    assert wins >= REQUIRED * GAMES_PLAYED, f"sensible won {wins} of {GAMES_PLAYED}"


HARD_GAMES = 30  # Standard games, in pairs of the same deals with the hard player in either seat
HARD_REQUIRED = 0.5  # bench.strength measures about two thirds over 1,000 games


def test_hard_beats_normal(capsys: pytest.CaptureFixture[str]) -> None:
    """The hard computer player wins a majority of two-player Standard games against the
    normal one (a small sample of ``python -m bench.strength``, with a safe margin)."""
    tally = play("standard", HARD_GAMES, seed=1)
    with capsys.disabled():
        print(f"\n  hard won {tally.hard} of {tally.games} Standard games against normal "
              f"({tally.hands} hands)", end="")
    assert tally.hard > HARD_REQUIRED * HARD_GAMES, f"hard won {tally.hard} of {HARD_GAMES}"
