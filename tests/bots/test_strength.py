"""The sensible bot beats the random legal bot in at least 90% of 200 seeded two-player games
of Standard Rummy (each game played to the target score of 100; the bots alternate seats, so
they alternate who deals first)."""

from __future__ import annotations

from app.bots import make_bot
from app.bots.selfplay import play_match
from app.engine.games import match_rules

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
